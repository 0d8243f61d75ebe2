#include "log/log_name.h"

#include "base/path.h"

namespace fiohist {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

const char* LatencyName(Latency latency) {
  switch (latency) {
    case Latency::kLat:
      return "lat";
    case Latency::kClat:
      return "clat";
    case Latency::kSlat:
      return "slat";
  }
  return "?";
}

bool ParseLatency(const std::string& text, Latency* latency) {
  for (Latency l : {Latency::kLat, Latency::kClat, Latency::kSlat}) {
    if (text == LatencyName(l)) {
      *latency = l;
      return true;
    }
  }
  return false;
}

LogName ParseLogName(const std::string& path) {
  LogName out;
  std::string name = BaseName(path);
  if (EndsWith(name, ".fz")) {
    out.type = LogFileType::kStoredCompressed;
    name.resize(name.size() - 3);
  }
  if (EndsWith(name, ".gz")) name.resize(name.size() - 3);
  // NAME_TYPE[.N].log[.HOST]: the host is what follows the last ".log." (as LogSource).
  std::string host;
  const size_t dot_log = name.rfind(".log.");
  if (dot_log != std::string::npos && dot_log + 5 < name.size()) {
    host = name.substr(dot_log + 5);
    out.host_suffix = true;
    name.resize(dot_log);
  } else if (EndsWith(name, ".log")) {
    name.resize(name.size() - 4);
  } else {
    return out;
  }
  // The job number: digits after the last '.'.
  const size_t dot = name.rfind('.');
  if (dot != std::string::npos && dot + 1 < name.size() &&
      name.find_first_not_of("0123456789", dot + 1) == std::string::npos &&
      dot + 1 + 9 > name.size()) {
    out.job_number = std::stoi(name.substr(dot + 1));
    name.resize(dot);
  }
  struct Suffix {
    const char* text;
    LogFileType type;
    Latency latency;
  };
  // Longest first: "_clat_hist" ends like no other, "_clat" and "_slat" before "_lat".
  static const Suffix kSuffixes[] = {
      {"_clat_hist", LogFileType::kHist, Latency::kClat},
      {"_lat_hist", LogFileType::kHist, Latency::kLat},
      {"_clat", LogFileType::kPerIo, Latency::kClat},
      {"_slat", LogFileType::kPerIo, Latency::kSlat},
      {"_lat", LogFileType::kPerIo, Latency::kLat},
      {"_bw", LogFileType::kBandwidth, Latency::kClat},
      {"_iops", LogFileType::kBandwidth, Latency::kClat},
  };
  for (const Suffix& s : kSuffixes) {
    if (!EndsWith(name, s.text)) continue;
    if (out.type != LogFileType::kStoredCompressed) out.type = s.type;
    out.latency = s.latency;
    const std::string stem = name.substr(0, name.size() - std::string(s.text).size());
    out.job_key = ParentPath(path) + "|" + stem + "|" + std::to_string(out.job_number) + "|" + host;
    return out;
  }
  if (out.type == LogFileType::kStoredCompressed) out.job_key = path;
  return out;
}

}  // namespace fiohist
