#include "log/log_source.h"

#include <algorithm>
#include <fstream>
#include <set>

#include "base/path.h"
#include "log/log_name.h"
#include "log/smallfile_line.h"

namespace fiohist {
namespace {

// The name of the directory holding `path` ("" when it has none, or it is "." or ".."):
// the host of logs that come from several directories.
std::string ParentName(const std::string& path) {
  const std::string name = BaseName(ParentPath(path));
  return (name == "." || name == "..") ? "" : name;
}

std::string StripSuffix(std::string s, const std::string& suffix) {
  if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0) {
    s.resize(s.size() - suffix.size());
  }
  return s;
}

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

Status OpenLogSource(const LogSource& source, std::unique_ptr<LogReader>* reader) {
  Status s = LogReader::Open(source.path, reader);
  if (!s.ok() || source.segment_end < 0) return s;
  LogReader& r = **reader;
  if (!r.SkipTo(source.segment_begin, source.segment_lines)) {
    // gzip cannot seek: read up to the segment.
    std::string_view line;
    while (r.line_number() < source.segment_lines && r.NextLine(&line)) {
    }
    if (!r.status().ok()) return r.status();
  }
  r.set_end(source.segment_end);
  return Status();
}

Status ReadHostMapFile(const std::string& path, HostMapping* mapping) {
  std::ifstream in(path);
  if (!in) return Status::InputError(path, 0, "cannot open host map");
  std::string line;
  long long number = 0;
  while (std::getline(in, line)) {
    ++number;
    line = Trim(line);
    if (line.empty() || line[0] == '#') continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == line.size()) {
      return Status::InputError(path, number, "expected FILE=HOST, found '" + line + "'");
    }
    (*mapping)[Trim(line.substr(0, eq))] = Trim(line.substr(eq + 1));
  }
  return Status();
}

Status IdentifyLogs(const std::vector<std::string>& paths, const HostMapping& mapping,
                    std::vector<LogSource>* sources, std::vector<std::string>* hosts) {
  std::set<std::string> seen_paths, parents;
  for (const std::string& p : paths) {
    if (!seen_paths.insert(p).second) {
      return Status::InputError(p, 0, "given twice; each log may be counted only once");
    }
    parents.insert(ParentPath(p));
  }
  const bool several_dirs = parents.size() > 1;
  sources->clear();
  std::map<std::pair<std::string, std::string>, int> uses;
  for (const std::string& p : paths) {
    LogSource s;
    s.path = p;
    std::string name = StripSuffix(BaseName(p), ".gz");
    // `..._clat_hist.N.log.HOST`: the host is what follows the last ".log.".
    std::string suffix_host;
    const size_t dot_log = name.rfind(".log.");
    if (dot_log != std::string::npos && dot_log + 5 < name.size()) {
      suffix_host = name.substr(dot_log + 5);
      name.resize(dot_log + 4);
    }
    s.job = StripSuffix(name, ".log");
    s.per_io = ParseLogName(p).type == LogFileType::kPerIo;
    SmallfileName smallfile;
    if (ParseSmallfileName(p, &smallfile)) {
      s.per_io = s.smallfile = true;
      suffix_host = smallfile.host;
      s.job = "rsptimes_" + smallfile.thread + "_" + smallfile.op;
      s.op = smallfile.op;
      s.slot = SmallfileOpDirection(smallfile.op);
    }
    auto it = mapping.find(p);
    if (it == mapping.end()) it = mapping.find(BaseName(p));
    if (it != mapping.end()) {
      s.host = it->second;
    } else if (!suffix_host.empty()) {
      s.host = suffix_host;
    } else if (several_dirs && !ParentName(p).empty()) {
      s.host = ParentName(p);
    } else {
      s.host = "localhost";
    }
    const int n = ++uses[{s.host, s.job}];
    if (n > 1) s.job += "#" + std::to_string(n);
    sources->push_back(std::move(s));
  }
  std::set<std::string> host_set;
  for (const auto& s : *sources) host_set.insert(s.host);
  hosts->assign(host_set.begin(), host_set.end());
  for (auto& s : *sources) {
    s.host_index =
        static_cast<int>(std::lower_bound(hosts->begin(), hosts->end(), s.host) - hosts->begin());
  }
  return Status();
}

}  // namespace fiohist
