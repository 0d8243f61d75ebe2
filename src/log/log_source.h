// Which host and job each log file belongs to.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"

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
};

/// Explicit host names: path or file name -> host (`--host FILE=HOST`, `--host-map`).
using HostMapping = std::map<std::string, std::string>;

/// Reads a host map file: lines `HOST PATH-OR-GLOB-FREE-NAME` or `PATH=HOST`; `#` comments.
Status ReadHostMapFile(const std::string& path, HostMapping* mapping);

/// Derives host and job for every path. Fails when the same file is given twice.
Status IdentifyLogs(const std::vector<std::string>& paths, const HostMapping& mapping,
                    std::vector<LogSource>* sources, std::vector<std::string>* hosts);

}  // namespace fiohist
