// `fiohist runs`.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "es/index_templates.h"
#include "es/run_catalog.h"

namespace po = boost::program_options;

namespace fiohist {
namespace {

/// A run's grid as `runs` prints it: "logs+23ms" (quanta start 23 ms after whole multiples of
/// the quantum), "epoch+0ms", "origin+300ms"; "-" for runs pushed before runs recorded it.
std::string GridText(const StoredRun& r) {
  if (r.grid.empty() && !std::isfinite(r.grid_origin_ms)) return "-";
  std::string text = r.grid.empty() ? "?" : r.grid;
  if (std::isfinite(r.grid_origin_ms)) {
    char b[40];
    std::snprintf(b, sizeof b, "+%.0fms", r.grid_origin_ms);
    text += b;
  }
  return text;
}

}  // namespace

int RunRunsCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  bool json = false;
  std::string tag;
  po::options_description desc("runs options");
  AddEsConnectionOptions(&desc, &conn);
  desc.add_options()("json", po::bool_switch(&json), "one JSON object per run and line")(
      "tag", po::value(&tag), "only the runs carrying TAG");
  po::variables_map vm;
  int rc = ParseCommandLine(argc, argv, "usage: fiohist runs [--es-url URL] [--tag TAG] [--json]",
                            desc, nullptr, &vm);
  if (rc >= 0) return rc;
  std::unique_ptr<HttpClient> client = ConnectOrComplain("runs", &conn);
  if (!client) return kExitError;
  RunCatalog catalog(client.get(), conn.index_prefix);
  std::vector<StoredRun> runs;
  Status st = catalog.ListRuns(&runs);
  if (!st.ok()) {
    std::cerr << "fiohist runs: " << st.message() << "\n";
    return kExitError;
  }
  if (!tag.empty()) {
    std::vector<StoredRun> tagged;
    for (StoredRun& r : runs) {
      if (std::find(r.tags.begin(), r.tags.end(), tag) != r.tags.end()) tagged.push_back(r);
    }
    runs.swap(tagged);
  }
  if (json) {
    for (const StoredRun& r : runs) {
      rapidjson::StringBuffer buffer;
      rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
      w.StartObject();
      w.Key("run");
      w.String(r.run);
      w.Key("start");
      w.String(r.start);
      w.Key("end");
      w.String(r.end);
      w.Key("duration_s");
      w.Double(r.duration_s);
      w.Key("state");
      w.String(r.state);
      w.Key("tags");
      w.StartArray();
      for (const std::string& t : r.tags) w.String(t);
      w.EndArray();
      // Whole-run cluster percentiles of all directions (us); null without run document.
      w.Key("p50_us");
      std::isfinite(r.p50_us) ? w.Double(r.p50_us) : w.Null();
      w.Key("p99_us");
      std::isfinite(r.p99_us) ? w.Double(r.p99_us) : w.Null();
      // Where its quanta start (docs/documents.md); null for runs pushed before runs had it.
      w.Key("grid");
      r.grid.empty() ? w.Null() : w.String(r.grid);
      w.Key("grid_origin_ms");
      std::isfinite(r.grid_origin_ms) ? w.Double(r.grid_origin_ms) : w.Null();
      w.Key("hosts");
      w.StartArray();
      for (const std::string& h : r.hosts) w.String(h);
      w.EndArray();
      w.Key("documents");
      w.Uint64(r.documents);
      w.Key("has_run_document");
      w.Bool(r.has_run_document);
      w.EndObject();
      std::cout << buffer.GetString() << "\n";
    }
    return kExitOk;
  }
  std::printf("%-32s %-24s %-24s %10s %6s %9s %-9s %9s %9s %-14s %-16s %s\n", "RUN", "START",
              "END", "DURATION_S", "HOSTS", "DOCUMENTS", "STATE", "P50_US", "P99_US", "GRID",
              "TAGS", "HOST NAMES");
  for (const StoredRun& r : runs) {
    std::string hosts;
    for (const std::string& h : r.hosts) hosts += (hosts.empty() ? "" : ",") + h;
    if (!r.has_run_document) hosts = "(no run document: partial push?)";
    std::string tags;
    for (const std::string& t : r.tags) tags += (tags.empty() ? "" : ",") + t;
    auto number = [](double v) {
      char b[32];
      std::snprintf(b, sizeof b, "%.4g", v);
      return std::isfinite(v) ? std::string(b) : std::string("-");
    };
    std::printf("%-32s %-24s %-24s %10.1f %6zu %9llu %-9s %9s %9s %-14s %-16s %s\n",
                r.run.c_str(), r.start.c_str(), r.end.c_str(), r.duration_s, r.hosts.size(),
                static_cast<unsigned long long>(r.documents),
                r.state.empty() ? "-" : r.state.c_str(), number(r.p50_us).c_str(),
                number(r.p99_us).c_str(), GridText(r).c_str(), tags.empty() ? "-" : tags.c_str(),
                hosts.c_str());
  }
  if (runs.empty())
    std::fprintf(stderr, "fiohist runs: no runs in %s\n", AllIndexPatterns(conn.index_prefix).c_str());
  return kExitOk;
}

}  // namespace fiohist
