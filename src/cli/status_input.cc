#include "cli/status_input.h"

#include <fstream>
#include <memory>
#include <sstream>

#include "base/path.h"

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
  o.grid = options.grid;
  o.percentiles = options.percentiles;
  o.scopes = options.scopes;
  o.directions = options.directions;
  o.sla = options.sla;
  AddSlaPercentiles(o.sla, &o.percentiles);  // every threshold's percentile is computed
  return o;
}

bool LooksLikeFioJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char c = 0;
  while (in.get(c)) {
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c == '{';
  }
  return false;
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

Status RunStatusFiles(const PipelineOptions& options, const std::vector<std::string>& paths,
                      ResultSink* sink, RunSummary* summary) {
  std::vector<LiveStream> live;
  std::vector<std::unique_ptr<FioStatusStream>> streams;
  std::vector<std::vector<StatusUpdate>> updates(paths.size());
  bool every_file_has_quanta = true;
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    if (!LooksLikeFioJson(path)) {
      return Status::InputError(path, 0,
                                "is not fio JSON output, and fio JSON outputs and histogram "
                                "logs cannot be pushed together (push them as two runs)");
    }
    const std::string host = StreamHost(path, options.host_mapping);
    for (const LiveStream& other : live) {
      if (other.host == host) {
        return Status::Error(path + ": byte 0: claims host '" + host + "', which " + other.name +
                             " already claims (name hosts with --host FILE=HOST)");
      }
    }
    live.push_back({path, host});
    std::ifstream in(path, std::ios::binary);
    if (!in) return Status::InputError(path, 0, "cannot open");
    std::stringstream text;
    text << in.rdbuf();
    streams.push_back(std::make_unique<FioStatusStream>(path, BucketLayout()));
    FioStatusStream& st = *streams.back();
    Status s = st.Feed(text.str(), &updates[i]);
    if (!s.ok()) return s;
    if (st.has_partial()) {
      return Status::Error(st.Where(st.bytes_used()) + "the last JSON object is cut at byte " +
                           std::to_string(st.bytes_read()) +
                           " (fio stopped while writing, or a copy taken while it ran)");
    }
    if (st.differ().reports() == 0) return Status::InputError(path, 0, "holds no fio report");
    every_file_has_quanta = every_file_has_quanta && st.differ().reports() > 1;
  }
  LiveOptions o = LiveOptionsFrom(options);
  o.quanta = every_file_has_quanta;
  o.keep_quanta = INT64_MAX / 4;  // everything is known up front: no late data to keep for
  if (!o.quanta) {
    summary->warnings.push_back(
        "a file holds a single fio report (a plain json+ result, not a status stream): whole-run "
        "documents only, no quanta (fio --status-interval=1 gives them)");
  }
  LiveAggregator agg(o, live, sink);
  for (size_t i = 0; i < paths.size(); ++i) {
    for (const StatusUpdate& u : updates[i]) {
      agg.Add(static_cast<int>(i), u, streams[i]->differ().last());
    }
  }
  return agg.Finish(summary);
}

}  // namespace fiohist
