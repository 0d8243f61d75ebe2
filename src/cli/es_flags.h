// The command-line options of every command that talks to Elasticsearch: connection,
// credentials, bulk tuning.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "es/bulk_indexer.h"
#include "es/http_client.h"
#include "es/index_setup.h"
#include "es/index_templates.h"

namespace fiohist {

/// Connection settings common to every command that talks to Elasticsearch.
struct EsConnectionOptions {
  /// --es-url (repeatable, each may be a comma list), default env FIOHIST_ES_URL (a comma
  /// list): the nodes of one cluster, tried in turn when one stops answering.
  std::vector<std::string> urls;
  std::string user;  ///< --user; password from FIOHIST_ES_PASSWORD or --password-file
  std::string password_file;
  std::string api_key_file;  ///< --api-key-file, else env FIOHIST_ES_API_KEY
  std::string ca_file;
  bool insecure = false;
  std::string index_prefix = "fiohist";
  bool gzip = false;
  double timeout_s = 120;
};

/// Adds --es-url, --user, --password-file, --api-key-file, --ca-file, --insecure,
/// --index-prefix, --gzip, --timeout to `desc`, stored into `*opts` (which must outlive the
/// parse). There is deliberately no option carrying a secret itself.
void AddEsConnectionOptions(boost::program_options::options_description* desc,
                            EsConnectionOptions* opts);

/// Splits the --es-url values at commas, or takes FIOHIST_ES_URL's when there are none; false
/// when there is still no URL.
bool ResolveEsUrl(EsConnectionOptions* opts);

/// Builds a client from `opts`: checks the prefix, reads the password / API key from the file
/// or the environment. Errors never contain a secret.
Status MakeEsClient(const EsConnectionOptions& opts, std::unique_ptr<HttpClient>* client);

/// Index partition options of the commands that install templates: --shards, --replicas.
struct PartitionOptions {
  int64_t shards = 0;    ///< --shards as given (checked by CheckPartitionOptions)
  bool shards_given = false;
  std::string replicas;  ///< --replicas as given
};

/// Adds --shards and --replicas to `desc`, stored into `*opts`.
void AddPartitionOptions(boost::program_options::options_description* desc,
                         PartitionOptions* opts);

/// Checks the partition options after parsing (`vm` tells whether --shards was given) into
/// `*settings`; the message names the option and what it expects.
Status CheckPartitionOptions(const boost::program_options::variables_map& vm,
                             const PartitionOptions& opts, IndexSettings* settings);

/// Reads an age such as "90d", "12h", "2w", "3600s" (a positive whole number and one unit
/// s/m/h/d/w; m is minutes) into seconds; the message names `option` and what it expects.
Status ParseAge(const std::string& option, const std::string& text, int64_t* seconds);

/// Bulk tuning options (--batch-bytes, --batch-docs, --concurrency, --max-attempts,
/// --max-retry-time) for commands that index; stored into `*opts`.
void AddBulkOptions(boost::program_options::options_description* desc, BulkOptions* opts);

/// Resolves the URL and builds the client of `command`, printing what is wrong on stderr;
/// nullptr on failure.
std::unique_ptr<HttpClient> ConnectOrComplain(const char* command, EsConnectionOptions* conn);

/// Asks the server what it is (ProbeServer) and prints on stderr, once per command,
/// that and what was decided from it: "fiohist: server: OpenSearch 2.19.1 (GET /), no
/// `histogram` field type: ..." (setup, load and push, after installing the templates).
void PrintServerDecisions(HttpClient* client, const TemplateReport& report);

}  // namespace fiohist
