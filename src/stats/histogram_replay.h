// Results from stored per-quantum histograms (bucket documents read back) instead of logs.
#pragma once

#include <climits>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "histogram/histogram.h"
#include "stats/pipeline.h"
#include "stats/result_sink.h"

namespace fiohist {

/// One stored histogram: a series (a job, a host or the cluster, as stored) over one stored
/// quantum, in one direction.
struct StoredQuantum {
  int64_t start_ms = 0;
  int64_t end_ms = 0;
  /// Empty above the series' scope.
  std::string host, job;
  /// A real direction, or kAll where only the sum was stored.
  Direction direction = Direction::kAll;
  /// Logs summed in the series, and the share of the quantum they cover (below 1 only
  /// where the logs begin or end inside it).
  int logs = 1;
  double coverage = 1;
  Histogram histogram;
};

/// Sums stored histograms into the scopes, directions and quanta that `options` asks for
/// (options.quantum_ms: a multiple of the stored quantum, windows aligned to multiples of
/// it from info.grid_origin_ms as the pipeline's) and hands the results to a sink in the pipeline's
/// order, with statistics from the same code: Begin, Quantum* by time then scope, host,
/// job, direction, WholeRun*, End. Stored quanta must come in time order, the directions of
/// a series' quantum one after another. Holds the current window's sums, and the whole
/// run's only where the sink reads them (ResultSink::reads_whole_run).
class HistogramReplay {
 public:
  /// `info` gives the layout, percentiles and whether times are absolute.
  HistogramReplay(const PipelineOptions& options, RunInfo info, ResultSink* sink);
  /// The run's series (host, job) and their logs, which coverage is measured against; a
  /// series not named here counts with the logs of its documents.
  void SetSeriesLogs(const std::map<std::pair<std::string, std::string>, int>& logs);
  /// Adds one stored histogram (Begin() is called before the first one's results).
  Status Add(const StoredQuantum& q);
  /// Emits what is left, the whole-run results and End().
  Status Finish();
  /// Stored histograms added so far.
  uint64_t added() const { return added_; }

 private:
  // One series' directions over the current window or the whole run.
  struct Sums {
    Histogram direction[kLogDirections];
    Histogram all;  // where only the sum was stored
    bool touched[kLogDirections + 1] = {};
    // Series (host/job) that added to it: the result's `logs`.
    std::map<std::pair<std::string, std::string>, bool> series;
    // Log time its series cover, summed (a series' stored quantum counts once).
    int64_t covered_ms = 0;
  };
  using Key = std::pair<std::string, std::string>;  // (host, job); ("","") is the cluster
  Status Flush(bool whole_run);
  Status EmitSums(const Sums& s, ScopeKind kind, const Key& key, bool whole_run);
  void AddTo(Sums* s, const StoredQuantum& q, int64_t covered_ms);
  void AddSeries(const Key& series, int logs);
  // The logs a scope's coverage is measured against.
  int LogsOf(ScopeKind kind, const Key& key) const;

  PipelineOptions o_;
  RunInfo info_;
  ResultSink* sink_;
  bool whole_run_ = true;  // the sink reads whole-run results: keep run_sums_
  bool begun_ = false;
  bool open_ = false;     // a window holds data
  int64_t window_ = 0;    // start of the current window
  int64_t last_end_ = 0;  // end of the last window with data
  std::map<Key, Sums> window_sums_[3], run_sums_[3];  // by ScopeKind
  uint64_t added_ = 0;
  Histogram scratch_;
  std::map<Key, int> series_logs_;           // logs per series
  std::map<std::string, int> host_logs_;    // logs per host
  int run_logs_ = 0;
  int64_t last_start_ = INT64_MIN;          // the previous document's series and quantum
  std::string last_host_, last_job_;
};

}  // namespace fiohist
