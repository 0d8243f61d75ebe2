// Which of the latency logs fio writes for one job to read: write_lat_log writes lat, clat
// and slat logs side by side, and write_hist_log's clat histograms are often beside them.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "log/log_name.h"

namespace fiohist {

/// --latency: the latency to read (clat, what histogram logs hold, unless told).
struct LatencyChoice {
  Latency latency = Latency::kClat;
  /// True when --latency was given: jobs without that latency are left out, not read
  /// with another one.
  bool given = false;
};

/// The logs to read of those given, and what was left out.
struct LatencySelection {
  std::vector<std::string> paths;
  /// One line per kind of log used and left out, for the run's summary.
  std::vector<std::string> notes;
};

/// Picks per job (LogName::job_key) one kind of latency log, so no job is counted twice:
/// its per-I/O log of the chosen latency (exact), else for clat its histogram log, else
/// (no --latency given) its per-I/O lat, then slat log. Bandwidth and IOPS logs are left
/// out (no latencies). Files whose names are not fio's pass through. Fails for fio's
/// stored-compressed logs (`.fz`), which are text only after `fio --inflate-log`.
Status SelectLatencyLogs(const std::vector<std::string>& paths, const LatencyChoice& choice,
                         LatencySelection* out);

}  // namespace fiohist
