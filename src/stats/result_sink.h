// Where computed statistics go: the interface between the pipeline and its outputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "histogram/bucket_layout.h"
#include "histogram/histogram.h"
#include "log/direction_names.h"
#include "log/fio_timeline.h"
#include "log/log_line.h"
#include "log/log_report.h"
#include "log/log_source.h"
#include "stats/percentiles.h"
#include "stats/scope_result.h"
#include "stats/sla.h"
#include "stats/stalls.h"

namespace fiohist {

/// What is known about a run before its first quantum.
struct RunInfo {
  BucketLayout layout;
  PercentileList percentiles;
  /// Stamps were Unix-epoch milliseconds in the logs themselves.
  bool epoch_logs = false;
  /// How relative stamps were placed on absolute time: "epoch" (the logs are epoch-stamped),
  /// "start-time" (--start-time), "fio-json" (fio's JSON output) or "none" (times are
  /// milliseconds since the jobs started).
  std::string anchor = "none";
  /// True when times are absolute (Unix-epoch milliseconds).
  bool absolute = false;
  /// Where I/Os were counted: "completion" (default) or "issue" (--place issue).
  std::string placement = "completion";
  /// Start of the first span of any log (absolute ms when `absolute`).
  int64_t start_ms = 0;
  /// Start of the first reported quantum; elapsed_s counts from here.
  int64_t first_quantum_ms = 0;
  int64_t quantum_ms = 1000;
  /// Quanta (and the windows of coarser resolutions) start at grid_origin_ms plus
  /// multiples of their length: chosen from the records' ends ("logs", grid_phase.h),
  /// whole multiples from time 0 ("epoch") or given ("origin").
  int64_t grid_origin_ms = 0;
  std::string grid = "epoch";
  /// The resolutions results come at, as multiples of the quantum, ascending: {1}, or
  /// more where a ResolutionSink adds coarser ones.
  std::vector<int> resolutions = {1};
  /// The finest resolution of job-scope percentile documents (1 or one of `resolutions`):
  /// job results of finer ones still come (bucket documents are made of the job quanta)
  /// but are not written as percentiles (ResolutionSink's job_resolution).
  int job_resolution = 1;
  /// log_hist_msec as given or inferred.
  int64_t log_hist_msec = 0;
  bool log_hist_msec_inferred = false;
  std::vector<LogSource> logs;
  std::vector<std::string> hosts;
  /// fio versions named by the fio JSON files given or found, if any.
  std::vector<std::string> fio_versions;
  /// Which fio JSON output placed or describes each host and how it was matched, e.g.
  /// "host hostA: run/fio-hostA.json (file name; timestamp_ms-runtime)"; for the summary.
  std::vector<std::string> fio_json_notes;
  /// Which kinds of latency log were read and which left out (log/latency_choice.h, per-I/O
  /// logs' units), for the summary.
  std::vector<std::string> input_notes;
  /// Where each log's relative stamps were placed when fio's JSON (fio < 3.36) placed jobs
  /// one by one on its process timeline, with the bound; the summary names them
  /// (FormatPlacedJob), the run document carries them (`job_anchors`).
  std::vector<PlacedFioJob> job_anchors;
  /// The run's SLA thresholds (--sla); `percentiles` holds each one's percentile. Cluster
  /// percentile documents then carry sla_breach / sla_breached, the run document `sla`.
  std::vector<SlaThreshold> sla;
  /// The confidence level of every percentile's interval (--confidence).
  double confidence = kDefaultConfidence;
  /// What the direction slots are called: fio's directions, or a smallfile run's ops.
  DirectionNames directions;
};

/// How many of the I/Os fio's JSON output counts for a job its log holds: fio does not log
/// its last partial interval, so a log holds fewer, and its percentiles can differ from
/// fio's own summary.
struct IoShare {
  std::string host;
  /// The log's job; empty when fio's JSON only has the host's sum (group_reporting), so
  /// the share is that of all the host's logs.
  std::string job;
  /// I/Os in the log(s).
  double logged = 0;
  /// I/Os fio's JSON output counts (read + write + trim total_ios).
  double fio = 0;
  /// logged / fio.
  double share() const { return fio > 0 ? logged / fio : 0; }
};

/// Below this share of fio's I/Os a job's log is reported as incomplete.
constexpr double kLowIoShare = 0.95;

/// End-of-run facts: per-file counters and warnings.
struct RunSummary {
  int64_t end_ms = 0;
  long long quanta = 0;
  std::vector<LogReport> reports;  // parallel to RunInfo::logs
  std::vector<std::string> warnings;
  /// Per job (or host) share of fio's I/Os the logs hold, where a fio JSON output covers
  /// it; in log order.
  std::vector<IoShare> io_shares;
  /// True when some input was skipped (--skip-bad-lines) so not everything went in.
  bool incomplete = false;
  /// Cluster results of resolution 1 (one per quantum and direction) that breach some
  /// SLA threshold of RunInfo::sla (the run document's `sla_breaches`).
  long long sla_breaches = 0;
  /// The resolutions results came at (RunInfo::resolutions without those a ResolutionSink
  /// left out as repeating a finer one); empty: all of RunInfo::resolutions.
  std::vector<int> resolutions;
  /// Those of them that breach some threshold beyond sampling noise: the percentile's
  /// confidence interval lies above the limit (`sla_breaches_beyond_noise`).
  long long sla_breaches_beyond_noise = 0;
  /// The run document's `state`: "finished" once all logs are read (push); a live run
  /// (follow) writes "running" while it goes on and "aborted" when it stops short.
  std::string state = "finished";
  /// What fio JSON inputs held (zero for histogram logs, whose records are in `reports`):
  /// status streams and plain json+ results hold status reports, client/server outputs
  /// entries per server, job and interval (`client_stats`).
  struct JsonInputs {
    size_t status_files = 0;
    long long status_reports = 0;
    size_t client_files = 0;
    size_t servers = 0;
    long long client_entries = 0;
  } json_inputs;
  /// Spans longer than twice log_hist_msec with no completion, per host then cluster
  /// (stalls.h): the run document's `stalls`.
  std::vector<Stall> stalls;
};

/// Receives results in order: Begin, Quantum* (by time, then scope kind, host, job,
/// direction; a sink that takes_jobs_by_log() may get the job scope's after the others),
/// WholeRun* (same order without time), End. Any error stops the run.
class ResultSink {
 public:
  virtual ~ResultSink() = default;
  virtual Status Begin(const RunInfo& info) = 0;
  virtual Status Quantum(const ScopeResult& result) = 0;
  virtual Status WholeRun(const ScopeResult& result) = 0;
  virtual Status End(const RunSummary& summary) = 0;

  /// True when Prepare() does part of Quantum()'s work: the pipeline then calls it for
  /// every per-quantum result on its worker threads, so formatting rows or building
  /// documents uses every core, and Quantum() only writes out what was prepared.
  virtual bool prepares() const { return false; }
  /// Turns `result` into bytes for Quantum() to find in result.prepared. Called after
  /// Begin(), on any thread, several at once: it may only read the sink's state.
  virtual void Prepare(const ScopeResult& /*result*/, std::string* /*prepared*/) const {}
  /// True when Quantum() reads result.histogram of job results. When false, the pipeline
  /// keeps each log's share of a quantum only until its statistics (and Prepare()) are
  /// done, not until it is written out: a buffer less per log, and Quantum() sees
  /// `histogram == nullptr` in job results.
  virtual bool reads_job_histograms() const { return true; }
  /// False when Quantum() reads no statistic of per-quantum job results (resolution 1) but
  /// `stats.samples` (job percentiles start at a coarser resolution; the job quanta are
  /// summed into its windows and written as bucket documents). Asked after Begin(): the
  /// pipeline then computes only the samples of those results (ComputeSamplesOnly), not
  /// their percentiles and confidence bounds, most of a push's statistics.
  virtual bool reads_job_quantum_stats() const { return true; }
  /// False when WholeRun() ignores every result of scope `kind`: a producer may then skip
  /// those (the pipeline: the job scope's whole run read again from thousands of spilled
  /// logs, the hosts' whole-run sums; read-back: a histogram per series for the whole run).
  virtual bool reads_whole_run(ScopeKind /*kind*/) const { return true; }
  /// True when WholeRun() reads results of some scope.
  bool reads_any_whole_run() const {
    return reads_whole_run(ScopeKind::kCluster) || reads_whole_run(ScopeKind::kHost) ||
           reads_whole_run(ScopeKind::kJob);
  }
  /// True when job results may come after every cluster and host result of the run's
  /// quanta rather than among them: the pipeline then reads many spilled logs again a few
  /// at a time (each log's quanta in time order, logs' results interleaved in a fixed
  /// order) and calls JobDone() after a log's last one, so that state kept per job series
  /// (coarser windows, bucket carries) lives for a few logs at a time, not for all of them.
  /// The job scope's whole-run results are then made as those logs are read and come with
  /// `histogram == nullptr` to WholeRun().
  virtual bool takes_jobs_by_log() const { return false; }
  /// With takes_jobs_by_log(): the job (host, job) has no more per-quantum results.
  virtual Status JobDone(const std::string& /*host*/, const std::string& /*job*/) {
    return Status();
  }
};

}  // namespace fiohist
