#include "cli/pipeline_flags.h"

#include <cmath>

#include "log/log_line.h"
#include "log/log_name.h"
#include "log/time_anchor.h"
#include "stats/sla.h"

namespace po = boost::program_options;

namespace fiohist {
namespace {

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    if (end > pos) out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

}  // namespace

void AddPipelineOptions(po::options_description* desc,
                        po::positional_options_description* positional) {
  // clang-format off
  desc->add_options()
      ("quantum,q", po::value<double>()->default_value(1.0, "1"),
       "quantum length in seconds (e.g. 0.25, 1, 10); epoch-stamped logs are aligned to "
       "multiples of it in absolute time")
      ("grid", po::value<std::string>()->default_value("logs"),
       "where quanta start: logs (aligned with the records' ends, so that as few I/Os as "
       "possible are split between quanta), epoch (whole multiples of the quantum in "
       "absolute time, to join other time series) or an origin time (ISO 8601 or Unix "
       "epoch; quanta at origin + k x quantum)")
      ("percentiles,p", po::value<std::string>()->default_value("50,90,95,99,99.9,99.99"),
       "percentiles to report, comma separated")
      ("confidence", po::value<std::string>()->default_value("0.95"),
       "confidence level of every percentile's interval, strictly between 0 and 1 (0.9, "
       "0.99, or 99%): distribution-free, from the quantum's I/O count (README, What the "
       "numbers mean)")
      ("scope", po::value<std::string>(),
       "scopes to report: cluster,host,job (any combination)")
      ("direction", po::value<std::string>()->default_value("all,read,write,trim"),
       "directions to report: all,read,write,trim (a direction with no records is skipped)")
      ("start-time", po::value<std::string>(),
       "absolute start of relative-time logs: ISO 8601 (2026-11-22T10:00:00Z) or Unix epoch")
      ("fio-json", po::value<std::vector<std::string>>()->composing(),
       "[HOST=]FILE: fio's JSON output (--output-format=json) of a host: places its relative "
       "logs on absolute time and tells how many of fio's I/Os they hold; repeat per host. "
       "Matched by HOST=, a client/server output's hostname, the host in the file name "
       "(fio-HOST.json) or the directory; default: fio JSON outputs found next to the logs")
      ("log-hist-msec", po::value<long long>(),
       "fio's log_hist_msec (default: inferred from the gaps between records)")
      ("layout", po::value<std::string>(),
       "bucket layout when the column count is ambiguous: fio3, fio2, groups=N")
      ("latency", po::value<std::string>(),
       "lat, clat or slat: which of write_lat_log's per-I/O logs to read (default clat, "
       "what histogram logs hold; a job's per-I/O log is read before its histogram log, "
       "and each job counted once)")
      ("repair-client-logs", po::bool_switch(),
       "read histogram logs that show fio's client/server bug (line k of a direction "
       "carries line k-2: fio 3.33, 3.42) as line k - line k-2 instead of refusing them")
      ("host", po::value<std::vector<std::string>>()->composing(),
       "FILE=HOST: the host of a log (overrides names)")
      ("host-map", po::value<std::string>(), "file of FILE=HOST lines")
      ("skip-bad-lines", po::bool_switch(),
       "skip malformed lines (counted and reported) instead of stopping; exit code 3")
      ("sla", po::value<std::vector<std::string>>()->composing(),
       "[DIR.]pNN[.N]=VALUE[UNIT]: a latency SLA threshold on the cluster, e.g. p99=2ms or "
       "read.p99.9=5ms (repeatable; DIR read, write, trim or all, default all: the sum of the "
       "directions; UNIT ns, us, ms, s, default us). Every quantum whose cluster percentile is "
       "above it is named on stderr, and the exit status is 4 when everything else went in")
      ("place", po::value<std::string>()->default_value("completion"),
       "where each I/O is counted: completion (the quantum it completed in) or issue (the "
       "quantum it was issued in, so a stall shows from its first second: per-I/O logs "
       "exactly, histogram logs spread over the issue times each bucket's latency allows; "
       "the last quanta are partial where the logs end before their slowest I/Os would have "
       "completed). Histogram and per-I/O logs only (docs/stalls.md)")
      ("threads", po::value<int>()->default_value(0), "worker threads (0: one per core)")
      ("logs", po::value<std::vector<std::string>>()->composing(), "histogram logs");
  // clang-format on
  positional->add("logs", -1);
}

Status PipelineOptionsFromVariables(const po::variables_map& vm, const std::string& default_scopes,
                                    PipelineOptions* o, std::vector<std::string>* logs,
                                    bool logs_required) {
  const double q = vm["quantum"].as<double>();
  // Up to 10^9 s (31 years): larger ones overflow the time grid's millisecond arithmetic.
  if (!(q > 0) || !(q <= 1e9) || std::fabs(q * 1000 - std::round(q * 1000)) > 1e-6) {
    return Status::Error(
        "--quantum: expected a positive number of seconds in whole "
        "milliseconds, at most 1e9 (e.g. 0.25, 1, 10)");
  }
  o->quantum_ms = static_cast<int64_t>(std::llround(q * 1000));
  Status s = ParseGridChoice(vm["grid"].as<std::string>(), &o->grid);
  if (!s.ok()) return s;
  s = ParsePercentiles(vm["percentiles"].as<std::string>(), &o->percentiles);
  if (!s.ok()) return s;
  s = ParseConfidence(vm["confidence"].as<std::string>(), &o->confidence);
  if (!s.ok()) return s;
  o->scopes = {false, false, false};
  for (const std::string& sc :
       SplitList(vm.count("scope") ? vm["scope"].as<std::string>() : default_scopes)) {
    if (sc == "cluster") {
      o->scopes[0] = true;
    } else if (sc == "host") {
      o->scopes[1] = true;
    } else if (sc == "job") {
      o->scopes[2] = true;
    } else {
      return Status::Error("--scope: expected cluster, host or job, got '" + sc + "'");
    }
  }
  o->directions = {false, false, false, false};
  for (const std::string& d : SplitList(vm["direction"].as<std::string>())) {
    if (d == "read") {
      o->directions[0] = true;
    } else if (d == "write") {
      o->directions[1] = true;
    } else if (d == "trim") {
      o->directions[2] = true;
    } else if (d == "all") {
      o->directions[3] = true;
    } else {
      return Status::Error("--direction: expected all, read, write or trim, got '" + d + "'");
    }
  }
  if (vm.count("start-time")) {
    s = ParseStartTime(vm["start-time"].as<std::string>(), &o->start_time_ms);
    if (!s.ok()) return s;
    o->has_start_time = true;
  }
  if (vm.count("fio-json")) o->fio_json = vm["fio-json"].as<std::vector<std::string>>();
  if (vm.count("log-hist-msec")) {
    const long long v = vm["log-hist-msec"].as<long long>();
    // fio's intervals are milliseconds to minutes; 30 days bounds the first record's span.
    if (v <= 0 || v > 30LL * 24 * 3600 * 1000) {
      return Status::Error("--log-hist-msec: expected a positive number of ms (at most 30 days)");
    }
    o->log_hist_msec = v;
  }
  if (vm.count("layout")) {
    s = ParseLayoutHint(vm["layout"].as<std::string>(), &o->layout_hint);
    if (!s.ok()) return s;
  }
  if (vm.count("host-map")) {
    s = ReadHostMapFile(vm["host-map"].as<std::string>(), &o->host_mapping);
    if (!s.ok()) return s;
  }
  if (vm.count("host")) {
    for (const std::string& h : vm["host"].as<std::vector<std::string>>()) {
      const size_t eq = h.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == h.size()) {
        return Status::Error("--host: expected FILE=HOST, got '" + h + "'");
      }
      o->host_mapping[h.substr(0, eq)] = h.substr(eq + 1);
    }
  }
  if (vm.count("sla")) {
    s = ParseSlaThresholds(vm["sla"].as<std::vector<std::string>>(), "--sla", &o->sla);
    if (!s.ok()) return s;
    // A threshold is checked on the cluster's results of its direction: both must be made.
    for (const SlaThreshold& t : o->sla) {
      if (!o->scopes[0]) {
        return Status::Error("--sla " + t.text +
                             ": SLAs are checked on the cluster scope, which --scope leaves out");
      }
      if (!o->directions[static_cast<size_t>(t.direction)]) {
        return Status::Error("--sla " + t.text + ": direction " + DirectionName(t.direction) +
                             " is left out by --direction");
      }
    }
  }
  if (vm.count("latency")) {
    if (!ParseLatency(vm["latency"].as<std::string>(), &o->latency.latency)) {
      return Status::Error("--latency: expected lat, clat or slat, found '" +
                           vm["latency"].as<std::string>() + "'");
    }
    o->latency.given = true;
  }
  const std::string& place = vm["place"].as<std::string>();
  if (place == "issue") {
    o->place_issue = true;
  } else if (place != "completion") {
    return Status::Error("--place: expected completion or issue, got '" + place + "'");
  }
  o->repair_client_logs = vm["repair-client-logs"].as<bool>();
  o->skip_bad_lines = vm["skip-bad-lines"].as<bool>();
  o->threads = vm["threads"].as<int>();
  if (vm.count("logs")) *logs = vm["logs"].as<std::vector<std::string>>();
  if (logs->empty() && logs_required) return Status::Error("no logs given (see --help)");
  return Status();
}

}  // namespace fiohist
