// Coarser resolutions of the same exact histograms, so that a dashboard zoomed out to
// minutes or hours still draws exact percentiles.
//
// Percentiles of parts do not combine: the p99 of a minute is not the max (nor the mean) of
// its seconds' p99s. So next to every quantum's result this sink adds, for each coarser
// resolution (a multiple of the quantum, windows aligned like the quanta: to multiples of
// their length from the grid origin), the statistics of the summed histograms of the window, as
// `fiohist pctiles --quantum <window>` would compute them from the logs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "stats/result_sink.h"

namespace fiohist {

/// The coarser resolutions `push` adds by default, as multiples of the quantum: with 1 s
/// quanta 10 s, 1 min, 10 min, 1 h and 10 h, so a year fits in about 900 points.
const std::vector<int>& DefaultCoarseResolutions();

/// Checks that `multiples` ascend, start above 1, and each divides the next (so windows
/// of one resolution nest in those of the next).
Status CheckResolutions(const std::vector<int>& multiples);

/// Parses "10,60,600" (or "none": no coarser resolution) and checks it.
Status ParseResolutions(const std::string& text, std::vector<int>* multiples);

/// A ResultSink that forwards everything to `inner` and adds, for every scope and
/// direction, one result per window of each coarser resolution (ScopeResult::resolution
/// says which), when the window closes or at the end of the run. Levels are summed from
/// the level below, so each quantum's histogram is added once. A resolution whose level
/// below holds the whole run in one window (all series alike) would repeat that window's
/// numbers: it is left out, and that window is the run's widest (ScopeResult::widest;
/// RunSummary::resolutions lists the rest). The first coarser resolution is always written
/// (the quanta went out before the run's length was known). Only windows still open at
/// End() can be of a level left out, so a live run decides it at its end, like a push.
class ResolutionSink : public ResultSink {
 public:
  /// `inner` must outlive this sink; `multiples` passed CheckResolutions().
  ResolutionSink(ResultSink* inner, std::vector<int> multiples);
  ~ResolutionSink() override;

  Status Begin(const RunInfo& info) override;
  Status Quantum(const ScopeResult& r) override;
  Status WholeRun(const ScopeResult& r) override { return inner_->WholeRun(r); }
  bool reads_whole_run(ScopeKind kind) const override { return inner_->reads_whole_run(kind); }
  Status End(const RunSummary& summary) override;
  bool prepares() const override { return inner_->prepares(); }
  void Prepare(const ScopeResult& r, std::string* prepared) const override {
    inner_->Prepare(r, prepared);
  }

  /// Job series can be finished one job at a time once the run's windows are all known:
  /// when job results come after every cluster and host one, as then.
  bool takes_jobs_by_log() const override { return inner_->takes_jobs_by_log(); }
  /// Closes the open windows of the job's series as End() would and forgets them.
  Status JobDone(const std::string& host, const std::string& job) override;

  /// Coarse results handed on so far.
  uint64_t coarse_results() const { return coarse_results_; }

 private:
  struct Series;
  // What a quantum or a closed window adds to the coverage of the window holding it.
  struct Part {
    double covered_ms;  // coverage x length
    int64_t quanta;     // quanta present
    bool partial;
  };
  // Adds `h` (of one window of level `level - 1`, or a quantum for level 0) to the series'
  // open window of `level` that contains `start_ms`, closing the one before if it differs.
  Status Add(Series& s, size_t level, int64_t start_ms, const Histogram* h, int logs,
             const Part& part);
  // Emits the open window of `level` and adds it to the next level, unless it is the
  // widest written (`widest`: the next level is left out).
  Status Close(Series& s, size_t level, bool widest = false);
  // Which levels are written, and which is the widest, once every window of the run was
  // seen (End(), or a job done after every cluster and host result).
  bool Kept(size_t level) const { return level == 0 || spans_[level - 1].several; }
  bool Widest(size_t level) const {
    return Kept(level) && level + 1 < multiples_.size() && !spans_[level].several;
  }
  // Closes the series' open window of `level` as the end of the run does.
  Status Finish(Series& s, size_t level);
  // The key of a series in series_.
  static std::string Key(ScopeKind kind, Direction direction, const std::string& host,
                         const std::string& job);

  // Which windows the run has at a level (all series): one, or several.
  struct Span {
    bool any = false;
    int64_t start_ms = 0;
    bool several = false;
    void See(int64_t window_start_ms) {
      several = several || (any && window_start_ms != start_ms);
      start_ms = window_start_ms;
      any = true;
    }
  };

  ResultSink* inner_;
  std::vector<int> multiples_;
  RunInfo info_;
  std::unordered_map<std::string, std::unique_ptr<Series>> series_;
  // In order of first appearance, for a stable end; null where JobDone() finished one.
  std::vector<Series*> order_;
  std::vector<Span> spans_;     // by level
  uint64_t coarse_results_ = 0;
};

}  // namespace fiohist
