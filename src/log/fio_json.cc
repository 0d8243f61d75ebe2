#include "log/fio_json.h"

#include <dirent.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "base/path.h"
#include "log/client_stats.h"
#include "log/job_pacing.h"

namespace fiohist {
namespace {

using Json = rapidjson::Value;

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The file's text from its first '{' (fio may print notes before the JSON object). A
// status stream (several objects one after the other) gives its last object: fio's final
// report once the run is over.
Status ParseFile(const std::string& path, rapidjson::Document* doc, int* reports = nullptr) {
  std::ifstream in(path);
  if (!in) return Status::InputError(path, 0, "cannot open fio JSON output");
  std::stringstream text;
  text << in.rdbuf();
  const std::string body = text.str();
  const size_t brace = body.find('{');
  if (brace == std::string::npos) return Status::InputError(path, 0, "no JSON object found");
  size_t at = brace;
  int objects = 0;
  for (;;) {
    rapidjson::StringStream stream(body.c_str() + at);
    rapidjson::Document next;
    next.ParseStream<rapidjson::kParseStopWhenDoneFlag>(stream);
    if (next.HasParseError()) {
      // A report cut short at the end of a stream fio is still writing: the ones before it
      // stand.
      if (objects > 0 && at + next.GetErrorOffset() >= body.size()) break;
      return Status::InputError(
          path, 0,
          std::string("not valid JSON") +
              (objects ? " after " + std::to_string(objects) + " report(s)" : std::string()) +
              ": " + rapidjson::GetParseError_En(next.GetParseError()));
    }
    doc->Swap(next);
    ++objects;
    at += stream.Tell();
    while (at < body.size() && std::isspace(static_cast<unsigned char>(body[at]))) ++at;
    if (at >= body.size() || body[at] != '{') break;
  }
  if (!doc->IsObject()) return Status::InputError(path, 0, "expected a JSON object");
  if (reports) *reports = objects;
  return Status();
}

// True when `doc` is a fio JSON output: "fio version" and "jobs" or "client_stats".
bool IsFioOutput(const rapidjson::Document& doc) {
  return doc.HasMember("fio version") &&
         ((doc.HasMember("jobs") && doc["jobs"].IsArray()) ||
          (doc.HasMember("client_stats") && doc["client_stats"].IsArray()));
}

int64_t IntOf(const Json& o, const char* key) {
  if (!o.IsObject() || !o.HasMember(key)) return -1;
  const Json& v = o[key];
  return v.IsInt64() ? v.GetInt64() : v.IsUint64() ? INT64_MAX : -1;
}

bool JobsUseGroupReporting(const Json& options) {
  return options.IsObject() && options.HasMember("group_reporting");
}

// log_hist_msec set in `options`, or 0.
int64_t LogHistMsecOf(const Json& options) {
  if (!options.IsObject()) return 0;
  // fio lists an option given twice twice, in order; the last one is what it ran with.
  int64_t msec = 0;
  for (const auto& m : options.GetObject()) {
    if (std::string(m.name.GetString()) == "log_hist_msec" && m.value.IsString()) {
      msec = std::atoll(m.value.GetString());
    }
  }
  return msec;
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

// A job's option as fio ran it: the job's own, else the global one; empty when neither
// sets it.
std::string OptionOf(const Json& job, const Json* global, const char* key) {
  for (const Json* o : {job.HasMember("job options") ? &job["job options"] : nullptr, global}) {
    if (o && o->IsObject() && o->HasMember(key) && (*o)[key].IsString()) {
      return (*o)[key].GetString();
    }
  }
  return std::string();
}

// Lines a job writes at its end into per-I/O logs: one per I/O and log where log_avg_msec
// is 0 (write_lat_log makes three logs: slat, clat and lat).
double PerIoLogLines(const Json& job, const Json* global) {
  const std::string avg = OptionOf(job, global, "log_avg_msec");
  if (!avg.empty() && std::atoll(avg.c_str()) != 0) return 0;
  int logs = 0;
  if (!OptionOf(job, global, "write_lat_log").empty()) logs += 3;
  if (!OptionOf(job, global, "write_bw_log").empty()) logs += 1;
  if (!OptionOf(job, global, "write_iops_log").empty()) logs += 1;
  return logs * JobIos(job);
}

// True when an entry stands for several clones (numjobs N, fewer than N entries of its
// name and group): group_reporting given on the command line, which the JSON's options do
// not name.
bool MergesClones(const std::vector<const Json*>& jobs, const Json* global) {
  std::map<std::pair<std::string, int64_t>, int64_t> entries, clones;
  for (const Json* job : jobs) {
    const std::string name = job->HasMember("jobname") && (*job)["jobname"].IsString()
                                 ? (*job)["jobname"].GetString()
                                 : "";
    const auto key = std::make_pair(name, IntOf(*job, "groupid"));
    entries[key] += 1;
    clones[key] =
        std::max<int64_t>(clones[key], std::atoll(OptionOf(*job, global, "numjobs").c_str()));
  }
  for (const auto& [key, n] : entries) {
    if (clones[key] > n) return true;
  }
  return false;
}

// The clock the jobs' stamps count on when it is not Unix time (`log_alternate_epoch=1`
// with a `log_alternate_epoch_clock_id` other than CLOCK_REALTIME), or -1.
int AlternateClockOf(const std::vector<const Json*>& jobs, const Json* global) {
  for (const Json* job : jobs) {
    const std::string clock = OptionOf(*job, global, "log_alternate_epoch_clock_id");
    if (OptionOf(*job, global, "log_alternate_epoch") == "1" && !clock.empty() &&
        std::atoi(clock.c_str()) != 0) {
      return std::atoi(clock.c_str());
    }
  }
  return -1;
}

// The host's anchor from a group_reporting output (fio < 3.36), for the summary.
constexpr char kGroupedMethod[] =
    "group_reporting: the first group's start on the process timeline, job_runtime / numjobs";

// Each job's logging epoch on the process timeline (fio < 3.36, one entry per job), and the
// clock its stamps count on.
Status TimelineOf(const std::string& path, const std::vector<const Json*>& jobs, const Json* global,
                  int64_t timestamp_ms, FioJsonHost* h) {
  std::vector<FioTimelineJob> timeline;
  std::vector<size_t> clones_of;  // the jobs each entry stands for
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Json& job = *jobs[i];
    const std::string where =
        "jobs[" + std::to_string(i) + "] (" +
        (job.HasMember("jobname") && job["jobname"].IsString() ? job["jobname"].GetString() : "?") +
        ")";
    FioTimelineJob t;
    t.group = static_cast<int>(std::max<int64_t>(0, IntOf(job, "groupid")));
    t.runtime_ms = IntOf(job, "job_runtime");
    if (t.runtime_ms < 0) {
      return Status::InputError(path, 0, where + ": expected job_runtime (ms) in every job");
    }
    // group_reporting sums job_runtime (and I/Os) over the entry's jobs (stat.c
    // sum_thread_stats): numjobs clones of one job run alike.
    const int64_t numjobs = std::atoll(OptionOf(job, global, "numjobs").c_str());
    const int64_t clones = h->grouped ? std::max<int64_t>(1, numjobs) : 1;
    t.runtime_ms /= clones;
    for (const char* key : {"startdelay", "ramp_time"}) {
      const std::string text = OptionOf(job, global, key);
      if (text.empty()) continue;
      int64_t lo = 0, hi = 0;
      Status s = ParseFioTimeOption(text, &lo, &hi);
      if (!s.ok()) return Status::InputError(path, 0, where + ": " + key + ": " + s.message());
      if (key[0] == 's') {
        t.delay_lo_ms = lo;
        t.delay_hi_ms = hi;
      } else {
        t.ramp_ms = hi;
      }
    }
    t.log_lines = PerIoLogLines(job, global) / static_cast<double>(clones);
    timeline.push_back(t);
    clones_of.push_back(static_cast<size_t>(clones));
  }
  std::vector<FioJobAnchor> anchors = PlaceFioJobs(timeline, timestamp_ms);
  if (h->grouped) {
    // An entry per group, not per log: the host's anchor is the first group's start.
    h->anchor.start_ms = anchors.front().start_ms;
    for (const FioJobAnchor& a : anchors) {
      h->anchor.start_ms = std::min(h->anchor.start_ms, a.start_ms);
    }
    h->anchor.method = kGroupedMethod;
    // fio numbers jobs in the order of the job file, clones after their job, and groups
    // follow that order: entry k's clones hold the next numjobs job numbers. Assumes one job
    // section per group (a group of several sections has the first one's numjobs).
    const bool groups = std::any_of(timeline.begin(), timeline.end(), [&](const FioTimelineJob& t) {
      return t.group != timeline.front().group;
    });
    if (groups) {
      for (size_t k = 0; k < clones_of.size(); ++k)
        h->entry_of_job.insert(h->entry_of_job.end(), clones_of[k], k);
      h->group_anchors = std::move(anchors);
    }
    return Status();
  }
  h->job_anchors = std::move(anchors);
  h->timeline = std::move(timeline);
  h->timestamp_ms = timestamp_ms;
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
  int reports = 0;
  Status s = ParseFile(path, &doc, &reports);
  if (!s.ok()) return s;
  if (doc.HasMember("client_stats") && ReadClientHosts(path, out)) return Status();
  if (reports > 1 && doc.HasMember("jobs") && doc["jobs"].IsArray()) {
    // A stream fio is still writing: its last report is not the run's result.
    int64_t eta = 0;
    for (const Json& job : doc["jobs"].GetArray()) eta = std::max(eta, IntOf(job, "eta"));
    if (eta > 0) {
      return Status::InputError(path, 0,
                                "is a status stream whose last report (of " +
                                    std::to_string(reports) +
                                    ") is not fio's final one: jobs "
                                    "still run (eta " +
                                    std::to_string(eta) + " s); read it once fio has finished");
    }
  }
  if (doc.HasMember("fio version") && doc["fio version"].IsString()) {
    out->fio_version = doc["fio version"].GetString();
  }
  const int64_t timestamp_ms = IntOf(doc, "timestamp_ms");
  const Json* global = doc.HasMember("global options") ? &doc["global options"] : nullptr;
  bool grouped = global && JobsUseGroupReporting(*global);
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
    if (job.HasMember("job options")) {
      grouped = grouped || JobsUseGroupReporting(job["job options"]);
    }
  }
  if (order.empty()) return Status::InputError(path, 0, "has no job");
  for (const std::string& host : order) {
    FioJsonHost h;
    h.hostname = host;
    h.grouped = grouped || MergesClones(jobs_of[host], global);
    s = AnchorOf(path, jobs_of[host], timestamp_ms, &h.anchor);
    if (!s.ok()) return s;
    h.alternate_clock = AlternateClockOf(jobs_of[host], global);
    // Each job placed on its own (fio >= 3.36 has job_start: the host's anchor stays as it
    // was); with group_reporting each group, the host's logs at the first one's start.
    // Client/server outputs have their own clocks.
    if (h.anchor.method != "job_start" && !client) {
      s = TimelineOf(path, jobs_of[host], global, timestamp_ms, &h);
      if (!s.ok()) return s;
    }
    h.anchor.fio_version = out->fio_version;
    const int64_t global_msec = global ? LogHistMsecOf(*global) : 0;
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
      h.job_starts.push_back(std::max<int64_t>(0, IntOf(*job, "job_start")));
      h.job_names.push_back((*job).HasMember("jobname") && (*job)["jobname"].IsString()
                                ? (*job)["jobname"].GetString()
                                : "");
      h.job_idle_ms.push_back(
          JobPacingOf(global, job->HasMember("job options") ? &(*job)["job options"] : nullptr)
              .LongestIdleMs());
    }
    out->hosts.push_back(std::move(h));
  }
  return Status();
}

bool IsFioJsonOutput(const std::string& path) {
  rapidjson::Document doc;
  return ParseFile(path, &doc).ok() && IsFioOutput(doc);
}

std::vector<std::string> FindFioJsonOutputs(const std::string& dir) {
  std::vector<std::string> found, streams;
  std::unique_ptr<DIR, int (*)(DIR*)> d(opendir(dir.c_str()), &closedir);
  if (!d) return found;
  while (const dirent* e = readdir(d.get())) {
    const std::string name = e->d_name;
    if (!EndsWith(name, ".json")) continue;
    const std::string path = dir == "." ? name : dir + "/" + name;
    rapidjson::Document doc;
    int reports = 0;
    if (!ParseFile(path, &doc, &reports).ok() || !IsFioOutput(doc)) continue;
    (reports > 1 ? streams : found).push_back(path);
  }
  // A status stream beside a run's result is that run's live view: the result is taken.
  if (found.empty()) found.swap(streams);
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
  // `..._hist.J.log` gives job id `..._hist.J`; segment K of a per_job_logs=0 file is job K.
  const size_t dot = log.job.find_last_of(".@");
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
