#include "cli/es_flags.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "es/index_templates.h"
#include "es/server_probe.h"

namespace po = boost::program_options;

namespace fiohist {

void AddEsConnectionOptions(po::options_description* desc, EsConnectionOptions* opts) {
  // clang-format off
  desc->add_options()
      ("es-url", po::value(&opts->urls)->composing(),
       "Elasticsearch URL; repeat it or give a comma list to name several nodes of the cluster, "
       "tried in turn when one stops answering (default: env FIOHIST_ES_URL, a comma list)")
      ("user", po::value(&opts->user),
       "basic-auth user; the password comes from env FIOHIST_ES_PASSWORD or --password-file")
      ("password-file", po::value(&opts->password_file), "file whose first line is the password")
      ("api-key-file", po::value(&opts->api_key_file),
       "file holding an API key (base64 id:key); default env FIOHIST_ES_API_KEY")
      ("ca-file", po::value(&opts->ca_file), "PEM CA bundle to verify the server's TLS certificate")
      ("insecure", po::bool_switch(&opts->insecure), "do not verify TLS certificates")
      ("index-prefix", po::value(&opts->index_prefix)->default_value(kDefaultIndexPrefix),
       "indices are PREFIX-pctiles-YYYY.MM, PREFIX-buckets-YYYY.MM, PREFIX-runs-YYYY.MM, "
       "PREFIX-stalls-YYYY.MM (the month of each run's start)")
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

namespace {

// Appends the non-empty comma-separated parts of `text` to `out`.
void SplitCommas(const std::string& text, std::vector<std::string>* out) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string part = text.substr(start, comma - start);
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    while (!part.empty() && part.back() == ' ') part.pop_back();
    if (!part.empty()) out->push_back(part);
    start = comma + 1;
  }
}

}  // namespace

bool ResolveEsUrl(EsConnectionOptions* opts) {
  std::vector<std::string> urls;
  for (const std::string& u : opts->urls) SplitCommas(u, &urls);
  if (urls.empty()) {
    const char* env = std::getenv("FIOHIST_ES_URL");
    if (env != nullptr) SplitCommas(env, &urls);
  }
  opts->urls = urls;
  return !opts->urls.empty();
}

void AddPartitionOptions(po::options_description* desc, PartitionOptions* opts) {
  // clang-format off
  desc->add_options()
      ("shards", po::value(&opts->shards),
       "primary shards of each monthly pctiles and buckets index (default 1, or what the "
       "installed templates say); aim at 10-50 GB per shard")
      ("replicas", po::value(&opts->replicas),
       "replicas of every new index: 'auto' (index.auto_expand_replicas 0-1: none on one node, "
       "one on a cluster; the default) or a number");
  // clang-format on
}

Status CheckPartitionOptions(const po::variables_map& vm, const PartitionOptions& opts,
                             IndexSettings* settings) {
  return ParseIndexSettings(vm.count("shards") > 0, opts.shards, opts.replicas, settings);
}

Status ParseAge(const std::string& option, const std::string& text, int64_t* seconds) {
  const std::string expected = option +
                               ": expected a positive age: a whole number and a unit, s, m "
                               "(minutes), h, d or w, e.g. 90d; got '" +
                               text + "'";
  if (text.size() < 2 || text.size() > 12) return Status::Error(expected);
  int64_t value = 0;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return Status::Error(expected);
    value = value * 10 + (text[i] - '0');
  }
  int64_t unit = 0;
  switch (text.back()) {
    case 's': unit = 1; break;
    case 'm': unit = 60; break;
    case 'h': unit = 3600; break;
    case 'd': unit = 86400; break;
    case 'w': unit = 7 * 86400; break;
    default: return Status::Error(expected);
  }
  if (value <= 0 || value > 100000LL * 365) return Status::Error(expected);
  *seconds = value * unit;
  return Status();
}

Status MakeEsClient(const EsConnectionOptions& opts, std::unique_ptr<HttpClient>* client) {
  Status st = ValidateIndexPrefix(opts.index_prefix);
  if (!st.ok()) return st;
  if (!(opts.timeout_s > 0)) return Status::Error("--timeout must be positive");
  HttpOptions http;
  http.urls = opts.urls;
  http.ca_file = opts.ca_file;
  http.insecure = opts.insecure;
  http.gzip = opts.gzip;
  http.timeout_ms = static_cast<long>(opts.timeout_s * 1000);
  http.connect_timeout_ms = std::min(http.timeout_ms, 10000L);
  http.on_failover = [](const std::string& message) {
    std::cerr << "fiohist: " << message << "\n";
  };
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
  ProbeServer(client, &info);
  std::cerr << "fiohist: " << DescribeServerDecisions(info, report) << "\n";
}

}  // namespace fiohist
