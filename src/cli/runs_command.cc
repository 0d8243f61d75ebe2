// `fiohist runs`.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "es/es_admin.h"
#include "es/index_templates.h"

namespace po = boost::program_options;

namespace fiohist {

int RunRunsCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  bool json = false;
  po::options_description desc("runs options");
  AddEsConnectionOptions(&desc, &conn);
  desc.add_options()("json", po::bool_switch(&json), "one JSON object per run and line");
  po::variables_map vm;
  int rc = ParseCommandLine(argc, argv, "usage: fiohist runs [--es-url URL] [--json]", desc,
                            nullptr, &vm);
  if (rc >= 0) return rc;
  std::unique_ptr<HttpClient> client = ConnectOrComplain("runs", &conn);
  if (!client) return kExitError;
  EsAdmin admin(client.get(), conn.index_prefix);
  std::vector<StoredRun> runs;
  Status st = admin.ListRuns(&runs);
  if (!st.ok()) {
    std::cerr << "fiohist runs: " << st.message() << "\n";
    return kExitError;
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
  std::printf("%-32s %-24s %-24s %10s %6s %9s  %s\n", "RUN", "START", "END", "DURATION_S", "HOSTS",
              "DOCUMENTS", "HOST NAMES");
  for (const StoredRun& r : runs) {
    std::string hosts;
    for (const std::string& h : r.hosts) hosts += (hosts.empty() ? "" : ",") + h;
    if (!r.has_run_document) hosts = "(no run document: partial push?)";
    std::printf("%-32s %-24s %-24s %10.1f %6zu %9llu  %s\n", r.run.c_str(), r.start.c_str(),
                r.end.c_str(), r.duration_s, r.hosts.size(),
                static_cast<unsigned long long>(r.documents), hosts.c_str());
  }
  if (runs.empty())
    std::fprintf(stderr, "fiohist runs: no runs in %s\n", AllIndexPatterns(conn.index_prefix).c_str());
  return kExitOk;
}

}  // namespace fiohist
