// Which host and job each log file belongs to.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "log/log_line.h"
#include "log/log_reader.h"

namespace fiohist {

/// One input log with the scope keys derived from its name.
struct LogSource {
  std::string path;
  /// Host: from a client/server or CBT suffix (`..._clat_hist.2.log.HOST`), an explicit
  /// mapping, or the parent directory when logs come from several directories.
  std::string host;
  /// Job: the file name without `.gz`, the host suffix and `.log`
  /// (`randrw4_clat_hist.2`); unique within its host.
  std::string job;
  /// Index of `host` in the run's sorted host list.
  int host_index = 0;
  /// A per-I/O latency log (write_lat_log, log_avg_msec=0), told by its name
  /// (log/log_name.h): read by PerIoStream, not as a histogram log.
  bool per_io = false;
  /// smallfile's response-time file (rsptimes_NN_HOST_OP_EPOCH.csv, log/smallfile_line.h):
  /// read by PerIoStream too, host and job from its name.
  bool smallfile = false;
  /// smallfile: the op of its name (`create`), and the direction slot it is counted in
  /// (DirectionNames: its own slot, or the direction the op maps to; kAll: not assigned,
  /// the op's direction).
  std::string op{};
  Direction slot = Direction::kAll;
  /// One job's segment of a per_job_logs=0 file (every job of a fio process in one file,
  /// one after the other): its first byte and line (0-based count of lines before it) and
  /// its end byte; end -1 is the whole file.
  long long segment_begin = 0;
  long long segment_lines = 0;
  long long segment_end = -1;
};

/// Opens the log of `source` positioned at its segment's start, ending at its end.
Status OpenLogSource(const LogSource& source, std::unique_ptr<LogReader>* reader);

/// Explicit host names: path or file name -> host (`--host FILE=HOST`, `--host-map`).
using HostMapping = std::map<std::string, std::string>;

/// Reads a host map file: lines `HOST PATH-OR-GLOB-FREE-NAME` or `PATH=HOST`; `#` comments.
Status ReadHostMapFile(const std::string& path, HostMapping* mapping);

/// Derives host and job for every path. Fails when the same file is given twice.
Status IdentifyLogs(const std::vector<std::string>& paths, const HostMapping& mapping,
                    std::vector<LogSource>* sources, std::vector<std::string>* hosts);

}  // namespace fiohist
