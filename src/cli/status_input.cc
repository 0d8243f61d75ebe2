#include "cli/status_input.h"

#include <fstream>
#include <memory>
#include <sstream>

#include "base/path.h"
#include "log/client_stats.h"
#include "log/input_kind.h"

namespace fiohist {

std::string StreamHost(const std::string& path, const HostMapping& mapping) {
  if (path == "-") {
    auto it = mapping.find("-");
    return it != mapping.end() ? it->second : "stdin";
  }
  const size_t slash = path.find_last_of('/');
  const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
  for (const std::string& key : {path, file}) {
    auto it = mapping.find(key);
    if (it != mapping.end()) return it->second;
  }
  const size_t dot = file.find('.');
  return dot == std::string::npos || dot == 0 ? file : file.substr(0, dot);
}

Status ParseRunLabels(const std::vector<std::string>& labels, RunMeta* meta) {
  for (const std::string& l : labels) {
    const size_t eq = l.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::Error("--label: expected KEY=VALUE, got '" + l + "'");
    }
    meta->labels.emplace_back(l.substr(0, eq), l.substr(eq + 1));
  }
  return Status();
}

LiveOptions LiveOptionsFrom(const PipelineOptions& options) {
  LiveOptions o;
  o.quantum_ms = options.quantum_ms;
  // kLogs: the aggregator decides the phase from every stream's first report, the same
  // for a follow and a later push of the same files (same document ids).
  o.grid = options.grid;
  o.percentiles = options.percentiles;
  o.scopes = options.scopes;
  o.directions = options.directions;
  o.sla = options.sla;
  o.confidence = options.confidence;
  AddSlaPercentiles(o.sla, &o.percentiles);  // every threshold's percentile is computed
  return o;
}

bool LooksLikeFioJson(const std::string& path) {
  return DetectInputKind(path) != InputKind::kHistLog;
}

size_t MoveFioJsonBesideLogs(std::vector<std::string>* paths, std::vector<std::string>* fio_json) {
  std::vector<std::string> logs;
  std::vector<std::string> jsons;
  for (std::string& p : *paths) (LooksLikeFioJson(p) ? jsons : logs).push_back(std::move(p));
  if (logs.empty() || jsons.empty()) {
    // Nothing to move: put the paths back in their order.
    *paths = logs.empty() ? std::move(jsons) : std::move(logs);
    return 0;
  }
  *paths = std::move(logs);
  fio_json->insert(fio_json->end(), jsons.begin(), jsons.end());
  return jsons.size();
}

namespace {

// One host's reports, read whole, for the live aggregator.
struct HostReports {
  LiveStream stream;
  std::vector<StatusUpdate> updates;
  FioSnapshot last;
  int reports = 0;
};

// A json+ file of one host (a status stream or a plain result).
Status ReadJsonFile(const PipelineOptions& options, const std::string& path, HostReports* out) {
  out->stream = {path, StreamHost(path, options.host_mapping)};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::InputError(path, 0, "cannot open");
  std::stringstream text;
  text << in.rdbuf();
  FioStatusStream st(path, BucketLayout());
  Status s = st.Feed(text.str(), &out->updates);
  if (!s.ok()) return s;
  if (st.has_partial()) {
    return Status::Error(st.Where(st.bytes_used()) + "the last JSON object is cut at byte " +
                         std::to_string(st.bytes_read()) +
                         " (fio stopped while writing, or a copy taken while it ran)");
  }
  if (st.differ().reports() == 0) return Status::InputError(path, 0, "holds no fio report");
  out->last = st.differ().last();
  out->reports = st.differ().reports();
  return Status();
}

// A client/server output: one host per server (--host HOST=NAME renames one).
Status ReadClientFile(const PipelineOptions& options, const std::string& path,
                      std::vector<HostReports>* out, RunSummary* summary) {
  ClientStatsRun run;
  Status s = ReadClientStats(path, BucketLayout(), &run);
  if (!s.ok()) return s;
  for (const std::string& w : run.warnings) summary->warnings.push_back(w);
  if (run.text_lines > 0) {
    summary->warnings.push_back(path + ": " + std::to_string(run.text_lines) +
                                " text lines before fio's JSON document skipped (the servers' "
                                "notes)");
  }
  if (run.all_clients > 0) {
    summary->warnings.push_back(path + ": " + std::to_string(run.all_clients) +
                                " 'All clients' entries (fio's sums of the entries before "
                                "them) checked against those entries and left out");
  }
  if (run.anchor != "job_start") {
    summary->warnings.push_back(
        path + ": fio " + run.fio_version + " gives no job_start: placed in time by the "
        "client's start (`timestamp`, whole seconds, taken before the servers set their jobs "
        "up), so the jobs' real start is up to a few seconds later (fio >= 3.36 gives job_start; "
        "--start-time does not apply to fio JSON)");
  }
  for (const ClientServer& server : run.servers) {
    HostReports h;
    auto it = options.host_mapping.find(server.host);
    h.stream = {path + " (server " + server.host + ")",
                it != options.host_mapping.end() ? it->second : server.host};
    s = ClientServerUpdates(run, server, BucketLayout(), &h.updates);
    if (!s.ok()) return s;
    h.last = server.reports.back();
    h.reports = static_cast<int>(server.reports.size());
    summary->json_inputs.servers += 1;
    summary->json_inputs.client_entries +=
        static_cast<long long>(server.reports.size()) * server.jobs;
    out->push_back(std::move(h));
  }
  return Status();
}

}  // namespace

Status RunStatusFiles(const PipelineOptions& options, const std::vector<std::string>& paths,
                      ResultSink* sink, RunSummary* summary) {
  std::vector<HostReports> hosts;
  for (const std::string& path : paths) {
    const InputKind kind = DetectInputKind(path);
    Status s;
    if (kind == InputKind::kHistLog) {
      return Status::InputError(path, 0,
                                "is not fio JSON output, and fio JSON outputs and histogram "
                                "logs cannot be pushed together (push them as two runs)");
    } else if (kind == InputKind::kClientServer) {
      s = ReadClientFile(options, path, &hosts, summary);
      summary->json_inputs.client_files += 1;
    } else {
      hosts.emplace_back();
      s = ReadJsonFile(options, path, &hosts.back());
      summary->json_inputs.status_files += 1;
      summary->json_inputs.status_reports += hosts.back().reports;
    }
    if (!s.ok()) return s;
  }
  std::vector<LiveStream> live;
  bool every_host_has_quanta = true;
  for (size_t i = 0; i < hosts.size(); ++i) {
    for (size_t o = 0; o < i; ++o) {
      if (hosts[o].stream.host == hosts[i].stream.host) {
        return Status::Error(hosts[i].stream.name + ": byte 0: claims host '" +
                             hosts[i].stream.host + "', which " + hosts[o].stream.name +
                             " already claims (name hosts with --host FILE=HOST)");
      }
    }
    live.push_back(hosts[i].stream);
    every_host_has_quanta = every_host_has_quanta && hosts[i].reports > 1;
  }
  LiveOptions o = LiveOptionsFrom(options);
  o.quanta = every_host_has_quanta;
  o.keep_quanta = INT64_MAX / 4;  // everything is known up front: no late data to keep for
  if (!o.quanta) {
    summary->warnings.push_back(
        "a host has a single fio report (a plain json+ result, not a status stream): whole-run "
        "documents only, no quanta (fio --status-interval=1 gives them)");
  }
  LiveAggregator agg(o, live, sink);
  for (size_t i = 0; i < hosts.size(); ++i) {
    for (const StatusUpdate& u : hosts[i].updates) agg.Add(static_cast<int>(i), u, hosts[i].last);
  }
  return agg.Finish(summary);
}

}  // namespace fiohist
