// Where each log's stamps go on a run's time line when they are not Unix time: --start-time,
// the host's anchor in fio's JSON, or the job's place on its fio's timeline (fio < 3.36),
// and stamps of another clock (log_alternate_epoch_clock_id) brought to Unix time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "log/fio_json.h"
#include "log/fio_timeline.h"
#include "log/log_probe.h"
#include "log/log_source.h"

namespace fiohist {

/// What placing the logs reads (one entry per log in `logs`, `probes`, `first_interval_ms`
/// and `matches`).
struct PlacementInput {
  const std::vector<LogSource>* logs = nullptr;
  const std::vector<LogProbe>* probes = nullptr;
  /// The interval each log's first record closes.
  std::vector<int64_t> first_interval_ms;
  int64_t log_hist_msec = 0;
  /// --start-time: every log starts there (no JSON consulted).
  bool has_start_time = false;
  int64_t start_time_ms = 0;
  int threads = 1;
  /// The fio JSON outputs read and the one (if any) matched with each log.
  const std::vector<FioJsonSpec>* specs = nullptr;
  const std::vector<FioJsonMatch>* matches = nullptr;
};

/// Each log's place, its note and the warnings.
struct LogPlacement {
  /// Per log: added to its stamps, and the time its spans never start before (the job's
  /// start).
  std::vector<int64_t> offset_ms, floor_ms;
  /// Per log whose job was placed on its fio's timeline: the job and its anchor.
  std::vector<PlacedFioJob> jobs;
  std::vector<std::string> warnings;
};

/// Places relative logs (or logs of another clock): each at --start-time, else at its job's
/// anchor in the JSON matched with it (the host's where the JSON has no per-job anchors).
/// Logs (plain or gzip) whose last stamp runs past their job's job_runtime are trusted: the job is
/// placed again with the log's length (`jsons` updated) and warned about. Fails, naming the
/// log, for a job number beyond the JSON's jobs, a log named for another job of the JSON,
/// and stamps of another clock no JSON names.
Status PlaceLogs(const PlacementInput& in, std::vector<FioJsonOutput>* jsons, LogPlacement* out);

/// How a JSON placed its jobs when it placed each one (fio < 3.36), for the summary.
constexpr char kTimelineMethod[] = "each job on the process timeline";

}  // namespace fiohist
