// The runs stored under one index prefix: listing them (with what their run documents say),
// counting one run's documents, and deleting exactly one run's documents.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "es/bulk_indexer.h"
#include "es/http_client.h"

namespace fiohist {

/// One run as stored in the cluster.
struct StoredRun {
  std::string run;
  std::string start;  ///< ISO 8601 (UTC) of the earliest @timestamp, "" if unknown
  std::string end;    ///< ISO 8601 (UTC) of the latest `end`, "" if unknown
  double duration_s = 0;
  std::vector<std::string> hosts;  ///< from the run document
  uint64_t documents = 0;          ///< in all four indices, the run document included
  bool has_run_document = false;   ///< false: a partial push (no document in <prefix>-runs)
  std::vector<std::string> tags;   ///< from the run document
  std::string state;               ///< finished, running, aborted ("" without run document)
  double start_ms = 0;             ///< the earliest @timestamp as Unix-epoch ms (0 if unknown)
  /// Whole-run cluster p50 and p99 of all directions (us) from the run document; NaN if absent.
  double p50_us = std::numeric_limits<double>::quiet_NaN();
  double p99_us = std::numeric_limits<double>::quiet_NaN();
  /// The run's quantum grid (run document): logs, epoch or origin; "" for runs pushed before
  /// runs recorded it. Quanta start at grid_origin_ms + k x quantum (NaN if absent).
  std::string grid;
  double grid_origin_ms = std::numeric_limits<double>::quiet_NaN();
  /// Where the run's I/Os were placed when pushed (run document `placement`): "issue", or
  /// "" (completion, the default the run document leaves out).
  std::string placement;
};

/// How a run deletion went.
struct DeleteReport {
  bool used_delete_by_query = false;  ///< false: searched the ids and bulk-deleted them
  uint64_t deleted = 0;
  uint64_t failed = 0;
  uint64_t retried = 0;
  uint64_t remaining = 0;  ///< documents of the run still found afterwards
  std::vector<BulkItemError> errors;
};

/// The runs of one index prefix over one HttpClient (which must outlive it).
class RunCatalog {
 public:
  RunCatalog(HttpClient* client, std::string prefix)
      : client_(client), prefix_(std::move(prefix)) {}

  /// Lists the runs found in every index of the prefix (all months, and the single indices of
  /// before partitioning), oldest first.
  Status ListRuns(std::vector<StoredRun>* runs);

  /// The placement `run` was pushed at: "issue" or "completion" (also for a run without a
  /// run document).
  Status RunPlacement(const std::string& run, std::string* placement);

  /// Counts the documents of `run` in the four indices (after a refresh by the caller).
  Status CountRunDocuments(const std::string& run, uint64_t* count);

  /// The `bucket_version` of `run`'s run document: 0 when there is none, 1 when it has no
  /// such field (pushed before it).
  Status RunBucketVersion(const std::string& run, int* version);
  /// The `pctiles_version` of `run`'s run document, as RunBucketVersion (1: one percentile
  /// document per direction, pushed before the field).
  Status RunPctilesVersion(const std::string& run, int* version);

  /// Deletes exactly the documents whose `run` is `run`, in the four indices: with
  /// `_delete_by_query` where the cluster has it, else by scrolling the ids and bulk-deleting.
  Status DeleteRun(const std::string& run, const BulkOptions& bulk_options, DeleteReport* report);

 private:
  // The integer `field` of `run`'s run document: 0 without the document, 1 without the field.
  Status RunVersionField(const std::string& run, const char* field, int* version);

  Status DeleteRunByScroll(const std::string& run, const BulkOptions& bulk_options,
                           DeleteReport* report);

  HttpClient* client_;
  std::string prefix_;
};

/// The JSON body of a term query on `run` (escaped by RapidJSON).
std::string RunTermQuery(const std::string& run);

/// True for the answer of a cluster without the endpoint asked for (the integ-test build's
/// 400 "no handler found for uri" or 405 "Incorrect HTTP method" for _delete_by_query).
bool LacksEndpoint(const HttpResult& result);

/// Reads a `_delete_by_query` response into `report` (deleted, failures with reasons).
Status ParseDeleteByQuery(const std::string& body, size_t max_errors, DeleteReport* report);

}  // namespace fiohist
