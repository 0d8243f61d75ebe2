// The Elasticsearch subcommands of fiohist (setup, runs, delete, load) and the connection
// options they share with `push`.
//
// Each Run*Command takes the arguments after `fiohist`: argv[0] is the subcommand's name
// ("setup"), options follow. It prints results on stdout, messages on stderr, and returns the
// process exit code (ExitCode in cmd_pctiles.h): 0 success, 1 error (unreachable server,
// authentication, nothing to delete), 2 bad usage, 3 finished but some documents failed.
#pragma once

#include <boost/program_options.hpp>
#include <functional>
#include <memory>
#include <string>

#include "es/bulk_indexer.h"
#include "es/es_admin.h"
#include "es/http_client.h"
#include "es/queued_indexer.h"
#include "base/status.h"

namespace fiohist {

/// Connection settings common to every command that talks to Elasticsearch.
struct EsConnectionOptions {
  std::string url;   ///< --es-url, default env FIOHIST_ES_URL
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

/// Fills the URL from FIOHIST_ES_URL if empty; false when there is still none.
bool ResolveEsUrl(EsConnectionOptions* opts);

/// Builds a client from `opts`: checks the prefix, reads the password / API key from the file
/// or the environment. Errors never contain a secret.
Status MakeEsClient(const EsConnectionOptions& opts, std::unique_ptr<HttpClient>* client);

/// Asks the server what it is (EsAdmin::ProbeServer) and prints on stderr, once per command,
/// that and what was decided from it: "fiohist: server: OpenSearch 2.19.1 (GET /), no
/// `histogram` field type: ..." (setup, load and push, after installing the templates).
void PrintServerDecisions(HttpClient* client, const TemplateReport& report);

/// Bulk tuning options (--batch-bytes, --batch-docs, --concurrency, --max-attempts,
/// --max-retry-time) for commands that index; stored into `*opts`.
void AddBulkOptions(boost::program_options::options_description* desc, BulkOptions* opts);

/// Checks what AddBulkOptions() read that the option parser cannot (--concurrency 1..64).
Status CheckBulkOptions(const BulkOptions& options);

/// The senders of `load` and `push`: one BulkIndexer per concurrent request
/// (BulkOptions::concurrent_requests), each with a connection of its own, behind one
/// QueuedIndexer.
class EsSender {
 public:
  /// Connects the lanes (the first through `client`, which must outlive this object).
  static Status Create(HttpClient* client, const BulkOptions& options,
                       std::unique_ptr<EsSender>* out);
  /// The queue to Add() actions to and Finish().
  QueuedIndexer& queue() { return *queue_; }

 private:
  EsSender() = default;
  std::vector<std::unique_ptr<HttpClient>> extra_clients_;
  std::vector<std::unique_ptr<BulkIndexer>> indexers_;
  std::unique_ptr<QueuedIndexer> queue_;  // last: stops its threads before the indexers go
};

/// "indexed N, retried R, failed F" (the summary line of load and push).
std::string FormatBulkSummary(const BulkStats& stats);

/// Prints the kept item errors ("  INDEX/ID: HTTP S: reason") and, if more failed, how many
/// more, to stderr.
void PrintBulkErrors(const BulkStats& stats);

/// A progress callback (QueuedIndexer, BulkIndexer::set_progress) that redraws one stderr
/// line, or an empty function when stderr is not a terminal.
std::function<void(const BulkStats&)> MakeBulkProgress();

/// Maps an index name of a bulk file ("<any prefix>-pctiles") to `prefix`'s index of the same
/// kind; other names are returned unchanged.
std::string RewriteIndexPrefix(const std::string& index, const std::string& prefix);

/// `fiohist setup`: installs the index templates and creates the indices.
int RunSetupCommand(int argc, char** argv);
/// `fiohist runs`: lists the runs stored (table, or NDJSON with --json).
int RunRunsCommand(int argc, char** argv);
/// `fiohist delete --run NAME`: removes one run's documents from the three indices.
int RunDeleteCommand(int argc, char** argv);
/// `fiohist load DIR`: sends a directory of bulk NDJSON files (see ndjson_dir.h).
int RunLoadCommand(int argc, char** argv);

}  // namespace fiohist
