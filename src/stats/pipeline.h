// The default-mode run: logs -> streams -> quanta -> scope sums -> statistics -> sink.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "histogram/bucket_layout.h"
#include "log/grid_phase.h"
#include "log/latency_choice.h"
#include "log/log_source.h"
#include "stats/percentiles.h"
#include "stats/result_sink.h"
#include "stats/sla.h"

namespace fiohist {

/// Everything a default-mode run needs besides the log paths.
struct PipelineOptions {
  /// Quantum length in milliseconds.
  int64_t quantum_ms = 1000;
  /// --grid: where quanta start (default: aligned with the records' ends).
  GridChoice grid;
  /// Percentiles to compute for every result.
  PercentileList percentiles = DefaultPercentiles();
  /// The confidence level of each percentile's interval (--confidence).
  double confidence = kDefaultConfidence;
  /// Scopes to report, indexed by ScopeKind.
  std::array<bool, 3> scopes = {true, false, false};
  /// Directions to report, indexed by Direction (read, write, trim, all).
  std::array<bool, 4> directions = {true, true, true, true};
  /// log_hist_msec; 0 infers it from the gaps between records.
  int64_t log_hist_msec = 0;
  /// --layout: settles column counts that fit more than one bucket layout.
  LayoutHint layout_hint;
  /// --start-time: absolute start of relative logs (Unix-epoch ms), when set.
  bool has_start_time = false;
  /// The --start-time instant (valid when has_start_time).
  int64_t start_time_ms = 0;
  /// fio JSON outputs, `FILE` or `HOST=FILE` (MatchFioJsons says which logs each one
  /// covers). They place relative logs on absolute time and tell how many of fio's I/Os
  /// the logs hold.
  std::vector<std::string> fio_json;
  /// Without fio_json, look for fio JSON outputs in the logs' directories.
  bool find_fio_json = true;
  /// Explicit host names (--host, --host-map) before those taken from file names.
  HostMapping host_mapping;
  /// --latency: which of a job's latency logs to read (per-I/O lat, clat, slat; clat also
  /// from histogram logs).
  LatencyChoice latency;
  /// --repair-client-logs: histogram logs showing fio's client/server bug (line k carries
  /// line k-2) are read as line k - line k-2 instead of refused.
  bool repair_client_logs = false;
  /// --skip-bad-lines: count and skip malformed lines and empty logs instead of failing.
  bool skip_bad_lines = false;
  /// Worker threads (0: one per hardware thread).
  int threads = 0;
  /// SLA thresholds (--sla): their percentiles are computed even when `percentiles` lacks
  /// them (added after the others), cluster results of each quantum are checked against
  /// them (RunSummary::sla_breaches) and RunInfo::sla hands them to the sinks.
  std::vector<SlaThreshold> sla;
  /// Job results of each quantum carry the records whose spans start in it
  /// (ScopeResult::records): bucket documents store them exactly.
  bool keep_records = false;
  /// From this many logs on, each log is first read on its own (one per worker) into
  /// temporary files in $TMPDIR, then the quanta are read back in step (stats/spilled_logs.h):
  /// memory per log is then a cursor instead of a reader with its inflate state and
  /// buffers. 0: never.
  size_t spill_min_logs = 256;
  /// --place issue: each I/O in the quantum where it was issued (log/issue_stream.h), the
  /// last quanta flagged where the logs end before their slowest I/Os would have completed.
  /// Logs are never spilled then (spill_min_logs is ignored).
  bool place_issue = false;
};

/// Runs the pipeline over `paths`, feeding `sink`. Returns the first error; `summary`
/// (counters, warnings) is filled either way as far as the run got.
Status RunPipeline(const PipelineOptions& options, const std::vector<std::string>& paths,
                   ResultSink* sink, RunSummary* summary);

}  // namespace fiohist
