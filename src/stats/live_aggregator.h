// Live mode: quanta made from fio status reports as they arrive, written out as soon as
// every stream has passed their end (or has gone silent), and rewritten when late data comes.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "histogram/bucket_layout.h"
#include "log/grid_phase.h"
#include "log/log_report.h"
#include "log/quantum_grid.h"
#include "log/status_stream.h"
#include "stats/merge.h"
#include "stats/percentiles.h"
#include "stats/result_sink.h"
#include "stats/sla.h"

namespace fiohist {

/// What a live run reports, and how long written quanta are kept for late data.
struct LiveOptions {
  int64_t quantum_ms = 1000;
  /// Where quanta start. kLogs: decided once, when every stream has its first report with
  /// a job running (or has reported past a quantum after the earliest one without any),
  /// from all those first reports ending within a quantum of the earliest: the I/O-weighted
  /// circular median of their end phases (CircularMedianPhase), then kept for the whole run
  /// (fio reports at a steady phase). It depends only on the streams, not on their order or
  /// on which is read first, so a follow and a later push of the same files write the same
  /// quanta (same ids). Reports wait until it is decided (or until quanta must go out).
  GridChoice grid;
  PercentileList percentiles = DefaultPercentiles();
  /// The confidence level of each percentile's interval (--confidence).
  double confidence = kDefaultConfidence;
  /// Scopes (cluster, host, job) and directions (read, write, trim, all) to report.
  std::array<bool, 3> scopes = {true, true, true};
  std::array<bool, 4> directions = {true, true, true, true};
  /// The buckets of fio's bins.
  BucketLayout layout;
  /// Written quanta kept in memory, counted back from the newest, so that late data can
  /// rewrite them; data older than that only reaches the whole-run results (and is counted
  /// in late_ios()).
  int64_t keep_quanta = 300;
  /// SLA thresholds (--sla): cluster results of each quantum are checked against them
  /// (`percentiles` must hold their percentiles: AddSlaPercentiles), and RunInfo::sla hands
  /// them to the sinks.
  std::vector<SlaThreshold> sla;
  /// False: whole-run results only (a plain json+ result, which says nothing about when
  /// within the run its I/Os completed).
  bool quanta = true;
};

/// One input stream: its name (for messages) and the host it stands for.
struct LiveStream {
  std::string name;
  std::string host;
};

/// Places every job's increments on the quantum grid (weighted by overlap, as the log path
/// places log records), keeps the quanta not yet written, and writes results to a
/// ResultSink: cluster, hosts, jobs per quantum (only quanta with data), then the whole run
/// from fio's cumulative counts (exact: equal to fio's own totals). Jobs are named
/// `<jobname>.<N>` (N: fio's job number) under their stream's host. Sums are formed in a
/// fixed order (jobs by stream and number into hosts, hosts by name into the cluster), so a
/// second run on the same reports writes identical documents.
class LiveAggregator {
 public:
  /// `streams` must name distinct hosts; `sink` must outlive the aggregator.
  LiveAggregator(const LiveOptions& options, std::vector<LiveStream> streams, ResultSink* sink);

  /// Where quanta go that are written out of time order (rewrites after late data, or a
  /// quantum before the newest written one): the sink behind a ResolutionSink, whose windows
  /// only move forward. Default: the main sink.
  void set_late_sink(ResultSink* sink) { late_sink_ = sink; }
  /// Adds a report of stream `stream`; `cumulative` is that report as decoded.
  void Add(int stream, const StatusUpdate& update, const FioSnapshot& cumulative);
  /// Writes out every quantum ending at or before `until_ms` not written yet, and rewrites
  /// (same ids) written ones that got data since. `*written` counts the quanta written.
  Status EmitUntil(int64_t until_ms, int* written);
  /// The whole-run results so far (cluster, hosts, jobs; histograms not kept).
  std::vector<ScopeResult> WholeRunSoFar();
  /// Writes what is left, the whole run and End(summary). Fails when no stream had a report.
  Status Finish(RunSummary* summary);

  /// The run as known so far (hosts and jobs grow as streams start); Begin() got a copy.
  const RunInfo& info() const { return info_; }
  /// End of the last quantum written (the run's end so far), 0 before any.
  int64_t end_ms() const { return last_end_; }
  /// True once Begin() was called on the sink.
  bool begun() const { return begun_; }
  /// Quanta written, rewrites included.
  long long quanta_written() const { return quanta_written_; }
  /// Quanta written out of time order (to the late sink).
  long long quanta_out_of_order() const { return quanta_out_of_order_; }
  /// Quanta rewritten because late data reached them.
  long long quanta_rewritten() const { return quanta_rewritten_; }
  /// Cluster results (quantum x direction) that breach an SLA threshold as last written: a
  /// quantum rewritten after late data counts as its new version says.
  long long sla_breaches() const;
  /// Of them, those beyond sampling noise (SlaChecker::Breaches).
  long long sla_breaches_beyond_noise() const;
  /// I/Os that arrived for quanta no longer kept (only in the whole-run results).
  double late_ios() const { return late_ios_; }
  /// Empty, or (kLogs) why the grid's phase may differ from the one a push of the same
  /// files chooses: quanta had to go out before some stream's first report came.
  const std::string& grid_note() const { return grid_note_; }

 private:
  // One fio job of one stream.
  struct JobSlot {
    int stream = 0;
    int number = 0;
    std::string host, job;
    int host_index = 0;
    int64_t covered_ms = 0;
    std::array<Histogram, kLogDirections> whole;  // fio's cumulative counts
    LogReport pauses;  // its directions and the pauses its reports ended (FindStalls)
  };
  // One quantum's share of every job (by slot), until it is written and out of reach.
  struct Cell {
    std::vector<ScopeHistograms> jobs;
    bool written = false;
    bool dirty = false;
  };

  int SlotOf(int stream, const FioJobSnapshot& job);
  // Fixes the grid at `origin_ms` and places the increments held so far.
  void SetGrid(int64_t origin_ms);
  // Decides a kLogs grid once every stream's first report is known (see LiveOptions::grid);
  // `force`: now, from the first reports there are (quanta must go out).
  void DecideGrid(bool force);
  // Adds an increment's I/Os (over inc.ios, its end and start counts at its end and start)
  // to its quanta, and the coverage of its span to those it touched.
  void Place(int slot, const JobIncrement& inc);
  Status Begin();
  Status WriteQuantum(int64_t q, const Cell& cell, ResultSink* to);
  // The results of every wanted scope from the jobs' sums (by slot) over `base`'s span of
  // `length_ms`: hosts and cluster are added up here. One path for quanta and whole runs.
  Status ScopeResults(const std::vector<const ScopeHistograms*>& jobs, ScopeResult base,
                      int64_t length_ms, bool whole_run, ResultSink* to);
  // The results of `h` (every wanted direction and `all`), each passed to `to` (or
  // collected, see collect_).
  Status Results(const ScopeHistograms& h, const ScopeResult& base, bool whole_run,
                 ResultSink* to);
  void SortSlots();

  LiveOptions o_;
  std::vector<LiveStream> streams_;
  ResultSink* sink_;
  ResultSink* late_sink_ = nullptr;
  QuantumGrid grid_;
  bool grid_set_ = false;  // false until DecideGrid() sets a kLogs grid
  std::string grid_note_;
  // Per stream: the end of its first report with a job running (kNoReport: none yet), the
  // I/Os of that report, and fio's timestamp_ms of its latest report.
  static constexpr int64_t kNoReport = INT64_MIN;
  std::vector<int64_t> first_end_, passed_;
  std::vector<double> first_ios_;
  // Increments (with their slots) that came before the grid was set.
  std::vector<std::pair<int, JobIncrement>> unplaced_;
  RunInfo info_;
  bool begun_ = false;
  std::vector<int> stream_host_;            // host index per stream
  std::vector<std::vector<int>> stream_jobs_;  // stream -> job number - 1 -> slot
  std::vector<JobSlot> slots_;
  std::vector<int> order_;  // slots by host, stream, number
  std::map<int64_t, Cell> cells_;
  int64_t first_start_ms_ = INT64_MAX;
  int64_t last_end_ = 0;
  int64_t newest_written_ = INT64_MIN;
  int64_t kept_from_ = INT64_MIN;  // quanta before this were dropped after being written
  long long quanta_written_ = 0, quanta_rewritten_ = 0, quanta_out_of_order_ = 0;
  double late_ios_ = 0;
  int64_t report_interval_ms_ = 0;  // the smallest gap between a stream's reports
  Histogram all_scratch_;
  SlaChecker sla_;
  // (quantum start, direction) -> kBreach | kBeyondNoise
  static constexpr uint8_t kBreach = 1, kBeyondNoise = 2;
  std::map<std::pair<int64_t, int>, uint8_t> breached_;
  long long settled_breaches_ = 0;  // breaches of quanta dropped from breached_ (final)
  long long settled_beyond_noise_ = 0;  // of them, beyond sampling noise
  std::vector<ScopeResult>* collect_ = nullptr;  // WholeRunSoFar: results go here
};

}  // namespace fiohist
