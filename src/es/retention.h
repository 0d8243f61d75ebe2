// Retention (`fiohist delete --older-than`): what ended before a cutoff goes, as whole monthly
// indices where every document did, else run by run.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "es/bulk_indexer.h"
#include "es/http_client.h"
#include "es/run_catalog.h"

namespace fiohist {

/// What `delete --older-than` drops: whole monthly indices whose every document ended before
/// the cutoff, and single runs (in the month holding the cutoff, or in a single index of before
/// partitioning) that ended before it.
struct RetentionPlan {
  int64_t cutoff_ms = 0;
  std::vector<std::string> drop_indices;  ///< exact names, the four kinds of each month
  std::vector<std::string> drop_months;   ///< "YYYY.MM" of each month dropped
  std::vector<StoredRun> delete_runs;     ///< runs outside those months, ended before the cutoff
};

/// Retention of one index prefix over one HttpClient (which must outlive it).
class Retention {
 public:
  Retention(HttpClient* client, std::string prefix) : client_(client), prefix_(std::move(prefix)) {}

  /// Works out what retention with `cutoff_ms` (Unix ms) removes: nothing is changed.
  Status Plan(int64_t cutoff_ms, RetentionPlan* plan);

  /// Drops `plan`'s indices (after checking again that nothing newer arrived) and deletes its
  /// runs. `deleted` counts run documents deleted one by one.
  Status Apply(const RetentionPlan& plan, const BulkOptions& bulk_options, uint64_t* deleted);

 private:
  Status ListIndices(std::vector<std::string>* indices);
  // The latest `end` or @timestamp of the push quantum's documents in `indices` (a comma
  // list), and how many documents match.
  Status LatestEnd(const std::string& indices, double* end_ms, uint64_t* docs);

  HttpClient* client_;
  std::string prefix_;
};

}  // namespace fiohist
