// What fio's name for a log file says: which log of which job (write_*_log naming).
#pragma once

#include <string>

namespace fiohist {

/// What a log file holds, as its name tells (fio names every log NAME_TYPE[.N].log[.HOST]).
enum class LogFileType {
  /// A name fio does not give: read as a histogram log (the format decides).
  kUnknown,
  /// write_hist_log: NAME_clat_hist.N.log.
  kHist,
  /// write_lat_log with log_avg_msec=0: one line per I/O (NAME_lat|clat|slat.N.log).
  kPerIo,
  /// write_bw_log / write_iops_log: no latencies at all.
  kBandwidth,
  /// log_store_compressed=1: NAME_*.log.fz, text only after `fio --inflate-log`.
  kStoredCompressed,
};

/// The three latencies write_lat_log writes side by side.
enum class Latency { kLat, kClat, kSlat };

/// "lat", "clat" or "slat".
const char* LatencyName(Latency latency);
/// Parses "lat", "clat" or "slat"; false for anything else.
bool ParseLatency(const std::string& text, Latency* latency);

/// A log file name taken apart.
struct LogName {
  LogFileType type = LogFileType::kUnknown;
  /// The latency of a per-I/O log (hist logs hold clat).
  Latency latency = Latency::kClat;
  /// The job the file belongs to, the same for all logs fio writes for one job: directory,
  /// NAME, job number and host suffix (`dir/t|1|host`).
  std::string job_key;
  /// The job number N of NAME_TYPE.N.log; 0 when the name has none (per_job_logs=0: one
  /// file holds every job, one after the other).
  int job_number = 0;
  /// The name ends in `.log.HOST`: fio's client/server mode (or a copy renamed so).
  bool host_suffix = false;
};

/// Takes the name of `path` apart (a `.gz` suffix is ignored).
LogName ParseLogName(const std::string& path);

}  // namespace fiohist
