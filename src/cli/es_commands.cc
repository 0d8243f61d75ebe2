#include "cli/es_commands.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli/command_line.h"
#include "cli/pctiles_command.h"  // the project-wide ExitCode
#include "es/es_admin.h"
#include "es/index_templates.h"
#include "es/ndjson_dir.h"
#include "es/queued_indexer.h"

namespace fiohist {

namespace po = boost::program_options;

namespace {

// Builds the client, printing the error; nullptr on failure.
std::unique_ptr<HttpClient> ClientOrComplain(const char* command, EsConnectionOptions* conn) {
  if (!ResolveEsUrl(conn)) {
    std::cerr << "fiohist " << command
              << ": no Elasticsearch URL: give --es-url URL or set FIOHIST_ES_URL\n";
    return nullptr;
  }
  std::unique_ptr<HttpClient> client;
  Status st = MakeEsClient(*conn, &client);
  if (!st.ok()) {
    std::cerr << "fiohist " << command << ": " << st.message() << "\n";
    return nullptr;
  }
  return client;
}

}  // namespace

void PrintServerDecisions(HttpClient* client, const TemplateReport& report) {
  ServerInfo info;
  EsAdmin(client, "").ProbeServer(&info);
  std::cerr << "fiohist: " << DescribeServerDecisions(info, report) << "\n";
}

void AddEsConnectionOptions(po::options_description* desc, EsConnectionOptions* opts) {
  // clang-format off
  desc->add_options()
      ("es-url", po::value(&opts->url), "Elasticsearch URL (default: env FIOHIST_ES_URL)")
      ("user", po::value(&opts->user),
       "basic-auth user; the password comes from env FIOHIST_ES_PASSWORD or --password-file")
      ("password-file", po::value(&opts->password_file), "file whose first line is the password")
      ("api-key-file", po::value(&opts->api_key_file),
       "file holding an API key (base64 id:key); default env FIOHIST_ES_API_KEY")
      ("ca-file", po::value(&opts->ca_file), "PEM CA bundle to verify the server's TLS certificate")
      ("insecure", po::bool_switch(&opts->insecure), "do not verify TLS certificates")
      ("index-prefix", po::value(&opts->index_prefix)->default_value(kDefaultIndexPrefix),
       "indices are PREFIX-pctiles, PREFIX-buckets, PREFIX-runs")
      ("gzip", po::bool_switch(&opts->gzip), "gzip request bodies")
      ("timeout", po::value(&opts->timeout_s)->default_value(120.0, "120"),
       "seconds allowed for one HTTP request");
  // clang-format on
}

void AddBulkOptions(po::options_description* desc, BulkOptions* opts) {
  // clang-format off
  desc->add_options()
      ("batch-bytes", po::value(&opts->max_batch_bytes)->default_value(opts->max_batch_bytes),
       "maximum bytes of one _bulk request")
      ("batch-docs", po::value(&opts->max_batch_docs)->default_value(opts->max_batch_docs),
       "maximum documents of one _bulk request")
      ("concurrency",
       po::value(&opts->concurrent_requests)->default_value(opts->concurrent_requests),
       "_bulk requests in flight at once (a connection each)")
      ("max-attempts", po::value(&opts->max_attempts)->default_value(opts->max_attempts),
       "sends of one document before it counts as failed (429/5xx/connection errors)")
      ("max-retry-time",
       po::value(&opts->max_retry_time_s)->default_value(opts->max_retry_time_s, "300"),
       "seconds of retrying one batch before giving up");
  // clang-format on
}

Status CheckBulkOptions(const BulkOptions& options) {
  if (options.concurrent_requests < 1 || options.concurrent_requests > 64) {
    return Status::Error("--concurrency must be between 1 and 64");
  }
  return Status();
}

Status EsSender::Create(HttpClient* client, const BulkOptions& options,
                        std::unique_ptr<EsSender>* out) {
  Status checked = CheckBulkOptions(options);
  if (!checked.ok()) return checked;
  std::unique_ptr<EsSender> sender(new EsSender());
  std::vector<BulkIndexer*> lanes;
  for (int i = 0; i < options.concurrent_requests; ++i) {
    HttpClient* lane_client = client;
    if (i > 0) {
      sender->extra_clients_.emplace_back();
      Status st = client->Clone(&sender->extra_clients_.back());
      if (!st.ok()) return st;
      lane_client = sender->extra_clients_.back().get();
    }
    sender->indexers_.push_back(std::make_unique<BulkIndexer>(lane_client, options));
    lanes.push_back(sender->indexers_.back().get());
  }
  sender->queue_ = std::make_unique<QueuedIndexer>(lanes, options, MakeBulkProgress());
  *out = std::move(sender);
  return Status();
}

bool ResolveEsUrl(EsConnectionOptions* opts) {
  if (opts->url.empty()) {
    const char* env = std::getenv("FIOHIST_ES_URL");
    if (env != nullptr) opts->url = env;
  }
  return !opts->url.empty();
}

Status MakeEsClient(const EsConnectionOptions& opts, std::unique_ptr<HttpClient>* client) {
  Status st = ValidateIndexPrefix(opts.index_prefix);
  if (!st.ok()) return st;
  if (!(opts.timeout_s > 0)) return Status::Error("--timeout must be positive");
  HttpOptions http;
  http.base_url = opts.url;
  http.ca_file = opts.ca_file;
  http.insecure = opts.insecure;
  http.gzip = opts.gzip;
  http.timeout_ms = static_cast<long>(opts.timeout_s * 1000);
  http.connect_timeout_ms = std::min(http.timeout_ms, 10000L);
  bool found = false;
  if (!opts.user.empty()) {
    http.auth.user = opts.user;
    st = ReadSecret(opts.password_file, "FIOHIST_ES_PASSWORD", &http.auth.password, &found);
    if (!st.ok()) return st;
    if (!found) {
      return Status::Error("no password for user " + opts.user +
                           ": set FIOHIST_ES_PASSWORD or give --password-file");
    }
  } else if (!opts.password_file.empty()) {
    return Status::Error("--password-file needs --user");
  }
  st = ReadSecret(opts.api_key_file, "FIOHIST_ES_API_KEY", &http.auth.api_key, &found);
  if (!st.ok()) return st;
  if (found && !opts.user.empty() && !opts.api_key_file.empty()) {
    return Status::Error("give either --user or --api-key-file, not both");
  }
  if (found && !opts.user.empty()) http.auth.api_key.clear();  // explicit --user wins over env
  return HttpClient::Create(std::move(http), client);
}

std::string FormatBulkSummary(const BulkStats& stats) {
  return "indexed " + std::to_string(stats.indexed) + ", retried " + std::to_string(stats.retried) +
         ", failed " + std::to_string(stats.failed);
}

void PrintBulkErrors(const BulkStats& stats) {
  for (const BulkItemError& e : stats.errors) {
    std::cerr << "  " << e.index << "/" << e.id << ": ";
    if (e.status != 0) std::cerr << "HTTP " << e.status << ": ";
    std::cerr << e.reason << "\n";
  }
  if (stats.failed > stats.errors.size()) {
    std::cerr << "  ... and " << (stats.failed - stats.errors.size()) << " more failures\n";
  }
}

std::function<void(const BulkStats&)> MakeBulkProgress() {
  if (!isatty(STDERR_FILENO)) return {};
  return [](const BulkStats& s) {
    std::fprintf(
        stderr, "\r  indexed %llu, deleted %llu, retried %llu, failed %llu ",
        static_cast<unsigned long long>(s.indexed), static_cast<unsigned long long>(s.deleted),
        static_cast<unsigned long long>(s.retried), static_cast<unsigned long long>(s.failed));
    std::fflush(stderr);
  };
}

std::string RewriteIndexPrefix(const std::string& index, const std::string& prefix) {
  for (IndexKind kind : {IndexKind::kPctiles, IndexKind::kBuckets, IndexKind::kRuns}) {
    std::string suffix = std::string("-") + IndexKindName(kind);
    if (index.size() > suffix.size() &&
        index.compare(index.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return IndexName(prefix, kind);
    }
  }
  return index;
}

int RunSetupCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  std::string mappings;
  po::options_description desc("setup options");
  AddEsConnectionOptions(&desc, &conn);
  desc.add_options()("mappings", po::value(&mappings),
                     "folder of the index templates (default: the installed/source mappings/)");
  po::variables_map vm;
  int rc = ParseCommandLine(argc, argv, "usage: fiohist setup [--es-url URL] [--mappings DIR]",
                            desc, nullptr, &vm);
  if (rc >= 0) return rc;
  std::unique_ptr<HttpClient> client = ClientOrComplain("setup", &conn);
  if (!client) return kExitError;
  EsAdmin admin(client.get(), conn.index_prefix);
  TemplateReport report;
  Status st = admin.InstallTemplates(mappings, &report);
  if (!st.ok()) {
    std::cerr << "fiohist setup: " << st.message() << "\n";
    return kExitError;
  }
  PrintServerDecisions(client.get(), report);
  std::cout << "installed templates:";
  for (const std::string& name : report.installed) std::cout << " " << name;
  std::cout << "\ncreated indices:";
  if (report.created.empty()) std::cout << " none (all existed)";
  for (const std::string& name : report.created) std::cout << " " << name;
  std::cout << "\nhistogram field type: " << (report.histogram_supported ? "yes" : "no") << "\n";
  return kExitOk;
}

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
  std::unique_ptr<HttpClient> client = ClientOrComplain("runs", &conn);
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
    std::fprintf(stderr, "fiohist runs: no runs in %s\n", AllIndexNames(conn.index_prefix).c_str());
  return kExitOk;
}

int RunDeleteCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  BulkOptions bulk;
  std::string run;
  po::options_description desc("delete options");
  AddEsConnectionOptions(&desc, &conn);
  desc.add_options()("run", po::value(&run)->required(), "name of the run to delete");
  po::variables_map vm;
  int rc = ParseCommandLine(argc, argv, "usage: fiohist delete --run NAME [--es-url URL]", desc,
                            nullptr, &vm);
  if (rc >= 0) return rc;
  std::unique_ptr<HttpClient> client = ClientOrComplain("delete", &conn);
  if (!client) return kExitError;
  EsAdmin admin(client.get(), conn.index_prefix);
  uint64_t before = 0;
  Status st = admin.CountRunDocuments(run, &before);
  if (!st.ok()) {
    std::cerr << "fiohist delete: " << st.message() << "\n";
    return kExitError;
  }
  if (before == 0) {
    std::cerr << "fiohist delete: no documents of run '" << run << "' in "
              << AllIndexNames(conn.index_prefix) << "\n";
    return kExitError;
  }
  DeleteReport report;
  st = admin.DeleteRun(run, bulk, &report);
  BulkStats shown;
  shown.errors = report.errors;
  shown.failed = report.failed;
  PrintBulkErrors(shown);
  std::cout << "deleted " << report.deleted << ", retried " << report.retried << ", failed "
            << report.failed << " ("
            << (report.used_delete_by_query ? "_delete_by_query" : "search + bulk delete") << ")\n";
  if (!st.ok()) {
    std::cerr << "fiohist delete: " << st.message() << "\n";
    return kExitError;
  }
  if (report.remaining > 0) {
    std::cerr << "fiohist delete: " << report.remaining << " documents of run '" << run
              << "' remain\n";
    return kExitIncomplete;
  }
  return report.failed == 0 ? kExitOk : kExitIncomplete;
}

int RunLoadCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  BulkOptions bulk;
  std::string dir, mappings;
  bool no_setup = false;
  po::options_description desc("load options");
  AddEsConnectionOptions(&desc, &conn);
  AddBulkOptions(&desc, &bulk);
  desc.add_options()("dir", po::value(&dir)->required(), "directory of bulk-*.ndjson files")(
      "mappings", po::value(&mappings), "folder of the index templates")(
      "no-setup", po::bool_switch(&no_setup), "do not install the index templates first");
  po::positional_options_description positional;
  positional.add("dir", 1);
  po::variables_map vm;
  int rc = ParseCommandLine(argc, argv,
                     "usage: fiohist load DIR [--es-url URL]\n"
                     "Documents go to PREFIX-pctiles/-buckets/-runs whatever prefix the files "
                     "name.",
                     desc, &positional, &vm);
  if (rc >= 0) return rc;
  if (Status checked = CheckBulkOptions(bulk); !checked.ok()) {
    std::cerr << "fiohist load: " << checked.message() << "\n";
    return kExitUsage;
  }
  std::unique_ptr<HttpClient> client = ClientOrComplain("load", &conn);
  if (!client) return kExitError;
  if (!no_setup) {
    EsAdmin admin(client.get(), conn.index_prefix);
    TemplateReport report;
    Status st = admin.InstallTemplates(mappings, &report);
    if (!st.ok()) {
      std::cerr << "fiohist load: " << st.message() << "\n";
      return kExitError;
    }
    PrintServerDecisions(client.get(), report);
  }
  std::unique_ptr<EsSender> sender;
  Status st = EsSender::Create(client.get(), bulk, &sender);
  if (!st.ok()) {
    std::cerr << "fiohist load: " << st.message() << "\n";
    return kExitError;
  }
  // The next files are read while earlier batches are on the wire.
  st = ReadNdjsonDir(dir, [&](BulkAction action) {
    action.index = RewriteIndexPrefix(action.index, conn.index_prefix);
    return sender->queue().Add(std::move(action));
  });
  Status finished = sender->queue().Finish();
  if (isatty(STDERR_FILENO)) std::fputc('\n', stderr);  // ends the progress line
  const BulkStats stats = sender->queue().stats();
  PrintBulkErrors(stats);
  std::cout << FormatBulkSummary(stats) << "\n";
  if (!st.ok()) {
    std::cerr << "fiohist load: " << st.message() << "\n";
    return kExitError;
  }
  if (!finished.ok()) {
    std::cerr << "fiohist load: " << finished.message() << "\n";
    return kExitError;
  }
  return stats.failed == 0 ? kExitOk : kExitIncomplete;
}

}  // namespace fiohist
