#include "cli/es_flags.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "es/index_templates.h"

namespace po = boost::program_options;

namespace fiohist {

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

std::unique_ptr<HttpClient> ConnectOrComplain(const char* command, EsConnectionOptions* conn) {
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

void PrintServerDecisions(HttpClient* client, const TemplateReport& report) {
  ServerInfo info;
  EsAdmin(client, "").ProbeServer(&info);
  std::cerr << "fiohist: " << DescribeServerDecisions(info, report) << "\n";
}

}  // namespace fiohist
