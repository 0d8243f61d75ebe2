// Windows sized to an accuracy (--accuracy p99=10%): consecutive quanta merged, greedily
// from the start, into the shortest windows whose named percentiles' confidence intervals
// lie within +-X% of the value.
//
// Method: after each quantum the window's summed histogram gets its percentiles and their
// distribution-free order-statistic intervals (percentile_interval.h, at the run's
// --confidence); the window closes at the first quantum where, for every target, both
// bounds are within the relative distance of the value (low >= v (1 - X), high <= v (1 + X))
// and the percentile has an upper bound at all (enough I/Os). Assumes what the intervals
// assume: the window's I/Os are independent draws from one distribution (a steady load);
// the bounds are bucket edges, so they are a little wider than the order statistics.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "histogram/histogram.h"
#include "stats/percentiles.h"
#include "stats/result_sink.h"

namespace fiohist {

/// One --accuracy target: percentile `percentile` within +-`relative` (0.1 for 10%).
struct AccuracyTarget {
  double percentile = 99;
  double relative = 0.1;
};

/// Parses "p99=10%" (also "99=10%", "p99.9=2.5%"). The percentile is in [0, 100], the
/// accuracy a percentage above 0 and below 100; anything else fails, naming what was
/// expected.
Status ParseAccuracyTarget(const std::string& text, AccuracyTarget* target);

/// "99", "99.9": a percentile as the user wrote it in p99 / p99.9.
std::string FormatPercentile(double percentile);

/// The longest a window may grow unless told otherwise, in quanta.
constexpr int kDefaultAccuracyMaxQuanta = 60;

/// Whether `stats` (with intervals) meets every target; `indices[i]` is the position of
/// targets[i]'s percentile in stats.percentile_ns.
bool MeetsAccuracy(const LatencyStats& stats, const std::vector<AccuracyTarget>& targets,
                   const std::vector<size_t>& indices);

/// Greedy windows over a series of quantum histograms of one scope and direction: Add()
/// each quantum in time order; it returns true when the window it completes meets the
/// targets (or has reached `max_quanta`, then `accurate()` is false). The window's
/// statistics and histogram are then valid until the next Add().
class WindowBuilder {
 public:
  WindowBuilder(const BucketLayout& layout, std::vector<double> percentiles, double confidence,
                std::vector<AccuracyTarget> targets, std::vector<size_t> indices, int max_quanta);
  /// Adds one quantum's histogram. True when a window is complete.
  bool Add(const Histogram& quantum);
  /// Closes the window being built (the run ended); false if it holds no quantum.
  bool Finish();
  /// The completed window's quanta, statistics, histogram and whether it met the targets.
  int quanta() const { return done_quanta_; }
  const LatencyStats& stats() const { return stats_; }
  const Histogram& histogram() const { return sum_; }
  bool accurate() const { return accurate_; }

 private:
  void Close(bool accurate);
  BucketLayout layout_;
  std::vector<double> percentiles_;
  double confidence_;
  std::vector<AccuracyTarget> targets_;
  std::vector<size_t> indices_;
  int max_quanta_;
  Histogram sum_;
  LatencyStats stats_;
  int quanta_ = 0;
  int done_quanta_ = 0;
  bool accurate_ = false;
  bool closed_ = false;
};

/// Passes the cluster's quanta on to `next` as accuracy windows: one result per window and
/// direction (start of its first quantum to end of its last, resolution = its quanta,
/// samples = its I/Os, the percentiles and intervals of its summed histogram). Host and
/// job quanta are not passed on; whole-run results are. Windows that end without meeting
/// the targets (the run's last, or one cut at the maximum length) are passed on too and
/// counted in `inaccurate()`.
class AccuracyWindowSink : public ResultSink {
 public:
  AccuracyWindowSink(ResultSink* next, std::vector<AccuracyTarget> targets, int max_quanta);
  Status Begin(const RunInfo& info) override;
  Status Quantum(const ScopeResult& result) override;
  Status WholeRun(const ScopeResult& result) override;
  Status End(const RunSummary& summary) override;
  bool reads_job_histograms() const override { return false; }
  bool reads_job_quantum_stats() const override { return false; }
  bool reads_whole_run(ScopeKind kind) const override { return next_->reads_whole_run(kind); }
  /// Windows passed on that did not meet the targets: (start_ms, end_ms, direction).
  const std::vector<ScopeResult>& inaccurate() const { return inaccurate_; }

 private:
  struct Open {
    std::unique_ptr<WindowBuilder> builder;
    ScopeResult first;  // the window's first quantum (start, labels)
    int quanta = 0;
    int64_t last_end_ms = 0;
    int max_logs = 0;
    double coverage_sum = 0;
    bool partial = false;
  };
  Status Emit(Open* open, const ScopeResult& last);

  ResultSink* next_;
  std::vector<AccuracyTarget> targets_;
  int max_quanta_;
  RunInfo info_;
  std::vector<size_t> indices_;
  std::map<Direction, Open> open_;
  std::vector<ScopeResult> inaccurate_;
};

}  // namespace fiohist
