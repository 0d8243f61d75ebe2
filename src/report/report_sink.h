// What a run report draws, collected from the pipeline's results.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "stats/result_sink.h"
#include "stats/sla.h"

namespace fiohist {

/// One result as a report draws it: a time span and its statistics.
struct ReportPoint {
  int64_t start_ms = 0;
  int64_t end_ms = 0;
  double samples = 0;
  double coverage = 1;
  bool partial = false;
  int logs = 0;
  /// Cluster series: every percentile of the run's list; host series: only the host
  /// percentile (ReportData::host_percentile).
  std::vector<double> percentile_ns;
  /// Parallel to percentile_ns: the value lies in fio's clamped last bucket (a lower bound).
  std::vector<bool> lower_bound;
  /// Parallel to percentile_ns (cluster only): the confidence interval of each percentile
  /// (LatencyStats::percentile_low_ns / percentile_high_ns), and whether it rests on too few
  /// I/Os to have an upper bound.
  std::vector<double> low_ns, high_ns;
  std::vector<bool> few_ios;
  /// --place issue: the latency (ms) up to which every I/O issued in the span is in the
  /// logs (ScopeResult::complete_to_ms); INT64_MAX: none missing.
  int64_t complete_to_ms = INT64_MAX;
};

/// A series of points of one scope (the cluster, or one host) and direction at one
/// resolution (a multiple of the quantum), in time order.
struct ReportSeries {
  std::string host;  // empty: the cluster
  Direction direction = Direction::kAll;
  int resolution = 1;
  std::vector<ReportPoint> points;
};

/// One column of the latency heatmap: the cluster's I/Os of one window, counted per row
/// (a row joins `ReportData::heat_row_columns` neighbouring fio bucket columns).
struct HeatColumn {
  int64_t start_ms = 0;
  bool partial = false;
  /// Row of counts[0]; counts cover the rows from the first to the last non-empty one.
  int first_row = 0;
  std::vector<double> counts;
};

/// The heatmap of one direction at one resolution.
struct HeatSeries {
  Direction direction = Direction::kAll;
  int resolution = 1;
  std::vector<HeatColumn> columns;
};

/// A cluster quantum above an SLA threshold.
struct ReportBreach {
  int64_t start_ms = 0;
  size_t threshold = 0;  // index into RunInfo::sla
  double value_ns = 0;
};

/// How far a host's percentile strays from the other hosts'.
struct HostStray {
  std::string host;
  /// Mean over the quanta the host has I/Os in of log2(host / median of the hosts) of the
  /// host percentile, direction `all` (positive: slower than most hosts).
  double mean_log2 = 0;
  /// Mean of |log2(host / median of the hosts)| per quantum: the order of the small
  /// multiples (largest first).
  double mean_abs_log2 = 0;
  /// Quanta of the cluster in which the host had no I/O.
  long long missing_quanta = 0;
};

/// Everything a report shows about one run.
struct ReportData {
  RunInfo info;
  RunSummary summary;
  /// Cluster series (every direction) and host series (direction `all`, read, write, trim).
  std::vector<ReportSeries> series;
  /// With --accuracy: the cluster's windows sized to it, one series per direction
  /// (resolution 0: each point spans start_ms to end_ms, a whole number of quanta).
  std::vector<ReportSeries> windows;
  /// The --accuracy targets as given ("p99=10%"); empty without windows.
  std::vector<std::string> accuracy;
  /// Whole-run cluster results per direction (histograms dropped).
  std::vector<ScopeResult> whole;
  std::vector<HeatSeries> heat;
  /// fio bucket columns per heatmap row, and the lower edge of every row in ns (the last
  /// entry is the upper edge of the last row).
  int heat_row_columns = 16;
  std::vector<double> heat_row_edges_ns;
  /// The percentile of the per-host charts (99 unless the run's list lacks it) and its
  /// index in info.percentiles.
  double host_percentile = 99;
  size_t host_percentile_index = 0;
  std::vector<ReportBreach> breaches;
  /// Hosts by how far they stray, largest first.
  std::vector<HostStray> hosts;
  /// Quanta of the run's span (first to last cluster quantum) with no cluster result.
  long long missing_quanta = 0;
};

/// Collects a ReportData from cluster and host results of every resolution (give it
/// behind a ResolutionSink for the coarser ones). Job results are ignored.
class ReportSink : public ResultSink {
 public:
  /// fio bucket columns merged into one heatmap row, before coarseness: 16 columns of a
  /// group of 64 make 4 rows per doubling of latency.
  static constexpr int kHeatRowColumns = 16;

  Status Begin(const RunInfo& info) override;
  Status Quantum(const ScopeResult& r) override;
  Status WholeRun(const ScopeResult& r) override;
  /// The page shows the cluster's whole run only.
  bool reads_whole_run(ScopeKind kind) const override { return kind == ScopeKind::kCluster; }
  Status End(const RunSummary& summary) override;

  /// The collected report (complete after End()).
  const ReportData& data() const { return data_; }
  /// Adds one --accuracy window (a cluster result spanning several quanta).
  void AddWindow(const ScopeResult& r);
  /// Names the placement the run's I/Os were drawn at where the results do not say it (a
  /// stored run's, from its run document).
  void set_placement(std::string placement) { data_.info.placement = std::move(placement); }
  /// Names the --accuracy targets the windows were sized to.
  void set_accuracy(std::vector<std::string> targets) { data_.accuracy = std::move(targets); }

 private:
  ReportSeries& SeriesOf(const ScopeResult& r);
  void AddHeat(const ScopeResult& r);

  ReportData data_;
  std::map<std::tuple<std::string, int, int>, size_t> series_index_;
  std::map<std::pair<int, int>, size_t> heat_index_;
  std::unique_ptr<SlaChecker> checker_;  // made at the first cluster quantum with an SLA
};

/// Hands the windows an AccuracyWindowSink makes to a ReportSink (AddWindow).
class ReportWindowSink : public ResultSink {
 public:
  explicit ReportWindowSink(ReportSink* report) : report_(report) {}
  Status Begin(const RunInfo&) override { return Status(); }
  Status Quantum(const ScopeResult& r) override {
    report_->AddWindow(r);
    return Status();
  }
  Status WholeRun(const ScopeResult&) override { return Status(); }
  bool reads_whole_run(ScopeKind) const override { return false; }
  bool reads_job_histograms() const override { return false; }
  Status End(const RunSummary&) override { return Status(); }

 private:
  ReportSink* report_;
};

/// The index of `percentile` in `list`, or of the largest one below it, or 0.
size_t NearestPercentileIndex(const PercentileList& list, double percentile);

}  // namespace fiohist
