#include "log/fio_json.h"

#include <dirent.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "base/path.h"
#include "log/client_stats.h"

namespace fiohist {
namespace {

using Json = rapidjson::Value;

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The file's text from its first '{' (fio may print notes before the JSON object).
Status ParseFile(const std::string& path, rapidjson::Document* doc) {
  std::ifstream in(path);
  if (!in) return Status::InputError(path, 0, "cannot open fio JSON output");
  std::stringstream text;
  text << in.rdbuf();
  const std::string body = text.str();
  const size_t brace = body.find('{');
  if (brace == std::string::npos) return Status::InputError(path, 0, "no JSON object found");
  doc->Parse(body.c_str() + brace);
  if (doc->HasParseError()) {
    return Status::InputError(
        path, 0,
        std::string("not valid JSON: ") + rapidjson::GetParseError_En(doc->GetParseError()));
  }
  if (!doc->IsObject()) return Status::InputError(path, 0, "expected a JSON object");
  return Status();
}

int64_t IntOf(const Json& o, const char* key) {
  if (!o.IsObject() || !o.HasMember(key)) return -1;
  const Json& v = o[key];
  return v.IsInt64() ? v.GetInt64() : v.IsUint64() ? INT64_MAX : -1;
}

bool HasGroupReporting(const Json& options) {
  return options.IsObject() && options.HasMember("group_reporting");
}

// The options that make a job pause on purpose: fio's thinktime and rate limits.
constexpr const char* kPacingOptions[] = {"thinktime", "rate", "rate_iops", "rate_min",
                                          "rate_iops_min"};

// Whether `options` (a job's or the global ones) set any pacing option to a non-zero value.
bool HasPacing(const Json& options) {
  if (!options.IsObject()) return false;
  for (const char* name : kPacingOptions) {
    if (!options.HasMember(name) || !options[name].IsString()) continue;
    const std::string v = options[name].GetString();
    if (v.find_first_not_of("0,. ") != std::string::npos) return true;
  }
  return false;
}

// log_hist_msec set in `options`, or 0.
int64_t LogHistMsecOf(const Json& options) {
  if (!options.IsObject() || !options.HasMember("log_hist_msec")) return 0;
  const Json& v = options["log_hist_msec"];
  return v.IsString() ? std::atoll(v.GetString()) : 0;
}

// I/Os a job completed: total_ios of each direction (clat_ns.N where total_ios is absent).
double JobIos(const Json& job) {
  double ios = 0;
  for (const char* dir : {"read", "write", "trim"}) {
    if (!job.HasMember(dir) || !job[dir].IsObject()) continue;
    const Json& d = job[dir];
    int64_t n = IntOf(d, "total_ios");
    if (n < 0 && d.HasMember("clat_ns")) n = IntOf(d["clat_ns"], "N");
    if (n > 0) ios += static_cast<double>(n);
  }
  return ios;
}

// When the jobs started: the earliest job_start (fio >= 3.36), else the time the output
// was written minus the longest job_runtime and ramp_time.
Status AnchorOf(const std::string& path, const std::vector<const Json*>& jobs, int64_t timestamp_ms,
                FioJsonAnchor* anchor) {
  int64_t min_start = INT64_MAX, max_runtime = 0, ramp = 0;
  for (const Json* job : jobs) {
    const int64_t start = IntOf(*job, "job_start");
    if (start > 0) min_start = std::min(min_start, start);
    max_runtime = std::max(max_runtime, IntOf(*job, "job_runtime"));
    if (job->HasMember("job options") && (*job)["job options"].IsObject()) {
      const Json& o = (*job)["job options"];
      if (o.HasMember("ramp_time") && o["ramp_time"].IsString()) {
        ramp = std::max<int64_t>(ramp, std::atoll(o["ramp_time"].GetString()) * 1000);
      }
    }
  }
  if (min_start != INT64_MAX) {
    anchor->start_ms = min_start;
    anchor->method = "job_start";
    return Status();
  }
  if (timestamp_ms < 0)
    return Status::InputError(path, 0, "has neither job_start nor timestamp_ms");
  anchor->start_ms = timestamp_ms - max_runtime - ramp;
  anchor->method = "timestamp_ms-runtime";
  return Status();
}

// Hosts of `logs` in order of first appearance.
std::vector<std::string> HostsOf(const std::vector<LogSource>& logs) {
  std::vector<std::string> hosts;
  for (const LogSource& l : logs) {
    if (std::find(hosts.begin(), hosts.end(), l.host) == hosts.end()) hosts.push_back(l.host);
  }
  return hosts;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// True when the JSON file name names `host`: fio-HOST.json, fio_HOST.json, x.HOST.json,
// HOST.json, or CBT's output.json.HOST.
bool NameFitsHost(const std::string& path, const std::string& host) {
  const std::string name = BaseName(path);
  if (EndsWith(name, ".json." + host)) return true;
  if (!EndsWith(name, ".json")) return false;
  const std::string stem = name.substr(0, name.size() - 5);
  if (stem == host) return true;
  if (!EndsWith(stem, host) || stem.size() == host.size()) return false;
  const char sep = stem[stem.size() - host.size() - 1];
  return sep == '-' || sep == '_' || sep == '.';
}

// A JSON's claim on one host's logs.
struct Cover {
  int file;
  int host;
  std::string how;
};

// A json+ client/server output: one host per server, its jobs from the server's last report
// (the entries before it are earlier status intervals of the same jobs).
bool ReadClientHosts(const std::string& path, FioJsonOutput* out) {
  ClientStatsRun run;
  if (!ReadClientStats(path, BucketLayout(), &run).ok()) return false;
  out->fio_version = run.fio_version;
  for (const ClientServer& server : run.servers) {
    FioJsonHost h;
    h.hostname = server.host;
    h.anchor.fio_version = run.fio_version;
    int64_t start = INT64_MAX;
    for (const FioJobSnapshot& j : server.reports.back().jobs) {
      if (j.start_ms > 0) start = std::min(start, j.start_ms);
      double ios = 0;
      for (uint64_t n : j.total_ios) ios += static_cast<double>(n);
      h.job_ios.push_back(ios);
    }
    h.anchor.start_ms = start != INT64_MAX ? start : run.client_start_ms;
    h.anchor.method = start != INT64_MAX ? "job_start" : "client timestamp";
    out->hosts.push_back(std::move(h));
  }
  return true;
}

}  // namespace

Status ReadFioJson(const std::string& path, FioJsonOutput* out) {
  *out = FioJsonOutput();
  out->path = path;
  rapidjson::Document doc;
  Status s = ParseFile(path, &doc);
  if (!s.ok()) return s;
  if (doc.HasMember("client_stats") && ReadClientHosts(path, out)) return Status();
  if (doc.HasMember("fio version") && doc["fio version"].IsString()) {
    out->fio_version = doc["fio version"].GetString();
  }
  const int64_t timestamp_ms = IntOf(doc, "timestamp_ms");
  bool grouped = doc.HasMember("global options") && HasGroupReporting(doc["global options"]);
  // Client/server outputs hold every host's jobs in client_stats, each naming its host.
  const bool client = doc.HasMember("client_stats") && doc["client_stats"].IsArray();
  const char* list = client ? "client_stats" : "jobs";
  if (!doc.HasMember(list) || !doc[list].IsArray() || doc[list].Empty()) {
    return Status::InputError(path, 0,
                              "expected a \"jobs\" or \"client_stats\" array (fio "
                              "--output-format=json)");
  }
  std::map<std::string, std::vector<const Json*>> jobs_of;
  std::vector<std::string> order;
  for (const Json& job : doc[list].GetArray()) {
    if (!job.IsObject()) continue;
    if (job.HasMember("jobname") && job["jobname"].IsString() &&
        std::string(job["jobname"].GetString()) == "All clients") {
      continue;  // client/server's sum over every host
    }
    std::string host;
    if (client && job.HasMember("hostname") && job["hostname"].IsString()) {
      host = job["hostname"].GetString();
    }
    if (!jobs_of.count(host)) order.push_back(host);
    jobs_of[host].push_back(&job);
    if (job.HasMember("job options")) grouped = grouped || HasGroupReporting(job["job options"]);
  }
  if (order.empty()) return Status::InputError(path, 0, "has no job");
  for (const std::string& host : order) {
    FioJsonHost h;
    h.hostname = host;
    h.grouped = grouped;
    s = AnchorOf(path, jobs_of[host], timestamp_ms, &h.anchor);
    if (!s.ok()) return s;
    h.anchor.fio_version = out->fio_version;
    const bool global_pacing = doc.HasMember("global options") && HasPacing(doc["global options"]);
    const int64_t global_msec =
        doc.HasMember("global options") ? LogHistMsecOf(doc["global options"]) : 0;
    bool agree = true;
    for (const Json* job : jobs_of[host]) {
      int64_t msec = job->HasMember("job options") ? LogHistMsecOf((*job)["job options"]) : 0;
      if (msec <= 0) msec = global_msec;
      if (h.log_hist_msec == 0) h.log_hist_msec = msec;
      agree = agree && msec == h.log_hist_msec;
    }
    if (!agree) h.log_hist_msec = 0;
    for (const Json* job : jobs_of[host]) {
      h.job_ios.push_back(JobIos(*job));
      h.job_paced.push_back(global_pacing ||
                            (job->HasMember("job options") && HasPacing((*job)["job options"])));
    }
    out->hosts.push_back(std::move(h));
  }
  return Status();
}

bool IsFioJsonOutput(const std::string& path) {
  rapidjson::Document doc;
  if (!ParseFile(path, &doc).ok()) return false;
  return doc.HasMember("fio version") &&
         ((doc.HasMember("jobs") && doc["jobs"].IsArray()) ||
          (doc.HasMember("client_stats") && doc["client_stats"].IsArray()));
}

std::vector<std::string> FindFioJsonOutputs(const std::string& dir) {
  std::vector<std::string> found;
  std::unique_ptr<DIR, int (*)(DIR*)> d(opendir(dir.c_str()), &closedir);
  if (!d) return found;
  while (const dirent* e = readdir(d.get())) {
    const std::string name = e->d_name;
    if (!EndsWith(name, ".json")) continue;
    const std::string path = dir == "." ? name : dir + "/" + name;
    if (IsFioJsonOutput(path)) found.push_back(path);
  }
  std::sort(found.begin(), found.end());
  return found;
}

FioJsonSpec ParseFioJsonSpec(const std::string& text) {
  FioJsonSpec spec;
  const size_t eq = text.find('=');
  if (eq != std::string::npos && eq > 0 && eq + 1 < text.size() && text.find('/') > eq) {
    spec.host = text.substr(0, eq);
    spec.path = text.substr(eq + 1);
  } else {
    spec.path = text;
  }
  return spec;
}

int FioJobNumber(const LogSource& log) {
  const size_t dot = log.job.find_last_of('.');
  if (dot == std::string::npos || dot + 1 == log.job.size()) return 0;
  int n = 0;
  for (size_t i = dot + 1; i < log.job.size(); ++i) {
    const char c = log.job[i];
    if (c < '0' || c > '9' || n > 1000000) return 0;
    n = n * 10 + (c - '0');
  }
  return n;
}

Status MatchFioJsons(const std::vector<LogSource>& logs, const std::vector<FioJsonSpec>& specs,
                     const std::vector<FioJsonOutput>& outputs,
                     std::vector<FioJsonMatch>* matches) {
  const std::vector<std::string> hosts = HostsOf(logs);
  const std::set<std::string> host_set(hosts.begin(), hosts.end());
  const std::string say_which = ": say which host each file is for with --fio-json HOST=FILE";
  std::map<std::string, std::vector<Cover>> by_host;
  std::vector<int> free_files;  // cover the logs of their directory
  for (size_t i = 0; i < specs.size(); ++i) {
    const FioJsonSpec& spec = specs[i];
    const FioJsonOutput& out = outputs[i];
    const int file = static_cast<int>(i);
    if (!spec.host.empty()) {
      if (!host_set.count(spec.host)) {
        return Status::Error("--fio-json " + spec.host + "=" + spec.path + ": no log of host '" +
                             spec.host + "' (the logs' hosts: " + JoinNames(hosts) + ")");
      }
      int entry = 0;
      if (out.hosts.size() > 1) {
        entry = -1;
        for (size_t e = 0; e < out.hosts.size(); ++e) {
          if (out.hosts[e].hostname == spec.host) entry = static_cast<int>(e);
        }
        if (entry < 0) {
          return Status::InputError(spec.path, 0,
                                    "is a client/server output without host '" + spec.host + "'");
        }
      }
      by_host[spec.host].push_back({file, entry, "HOST=FILE"});
      continue;
    }
    bool named = false;
    for (size_t e = 0; e < out.hosts.size(); ++e) {
      if (!out.hosts[e].hostname.empty() && host_set.count(out.hosts[e].hostname)) {
        by_host[out.hosts[e].hostname].push_back({file, static_cast<int>(e), "hostname"});
        named = true;
      }
    }
    if (named) continue;
    if (out.hosts.size() > 1 || !out.hosts.front().hostname.empty()) {
      if (spec.found) continue;  // another run's client/server output: not about these logs
      std::vector<std::string> names;
      for (const FioJsonHost& h : out.hosts) names.push_back(h.hostname);
      return Status::InputError(
          spec.path, 0,
          "is a client/server output of host(s) " + JoinNames(names) +
              ", none of which has logs (the logs' hosts: " + JoinNames(hosts) + ")" + say_which);
    }
    std::vector<std::string> fits;
    for (const std::string& h : hosts) {
      if (NameFitsHost(spec.path, h)) fits.push_back(h);
    }
    if (fits.size() > 1) {
      return Status::InputError(
          spec.path, 0, "its name fits more than one host (" + JoinNames(fits) + ")" + say_which);
    }
    if (fits.size() == 1) {
      by_host[fits.front()].push_back({file, 0, "file name"});
      continue;
    }
    free_files.push_back(file);
  }
  for (const auto& [host, covers] : by_host) {
    if (covers.size() < 2) continue;
    std::vector<std::string> names;
    for (const Cover& c : covers) names.push_back(specs[c.file].path + " (" + c.how + ")");
    return Status::Error("host '" + host + "' has more than one fio JSON output: " +
                         JoinNames(names) + ": give exactly one per host (--fio-json HOST=FILE)");
  }
  std::map<std::string, std::vector<int>> free_by_dir;
  for (int f : free_files) free_by_dir[NormalDirOf(specs[f].path)].push_back(f);
  // A single JSON given by hand anchors every log it is not ruled out for (the logs may
  // have been copied elsewhere); one found next to some logs only covers those.
  const bool only_file = specs.size() == 1 && free_files.size() == 1 && !specs.front().found;
  matches->assign(logs.size(), FioJsonMatch());
  std::map<int, std::vector<std::string>> free_hosts;  // free file -> hosts it covers
  for (size_t k = 0; k < logs.size(); ++k) {
    FioJsonMatch& m = (*matches)[k];
    auto host_it = by_host.find(logs[k].host);
    if (host_it != by_host.end()) {
      m.file = host_it->second.front().file;
      m.host = host_it->second.front().host;
      m.how = host_it->second.front().how;
      continue;
    }
    const std::string dir = NormalDirOf(logs[k].path);
    auto dir_it = free_by_dir.find(dir);
    if (dir_it != free_by_dir.end() && dir_it->second.size() > 1) {
      std::vector<std::string> names;
      for (int f : dir_it->second) names.push_back(specs[f].path);
      return Status::InputError(logs[k].path, 0,
                                "more than one fio JSON output could belong to this log (" +
                                    JoinNames(names) + "), none named for its host '" +
                                    logs[k].host + "'" + say_which);
    }
    if (dir_it != free_by_dir.end()) {
      m.file = dir_it->second.front();
      m.how = "directory";
    } else if (only_file) {
      m.file = free_files.front();
      m.how = "only file";
    } else {
      continue;
    }
    std::vector<std::string>& hs = free_hosts[m.file];
    if (std::find(hs.begin(), hs.end(), logs[k].host) == hs.end()) hs.push_back(logs[k].host);
  }
  for (const auto& [file, hs] : free_hosts) {
    if (hs.size() < 2) continue;
    return Status::InputError(
        specs[file].path, 0,
        "would place the logs of hosts " + JoinNames(hs) +
            " at one start time, but each host's relative stamps count from its own start: "
            "name each host's file for it (fio-HOST.json) or give --fio-json HOST=FILE for "
            "each host");
  }
  return Status();
}

}  // namespace fiohist
