// Administration of fiohist's indices in one cluster: retention.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "es/bulk_indexer.h"
#include "es/http_client.h"
#include "es/run_catalog.h"
#include "base/status.h"

namespace fiohist {

/// What `delete --older-than` drops: whole monthly indices whose every document ended before
/// the cutoff, and single runs (in the month holding the cutoff, or in a single index of before
/// partitioning) that ended before it.
struct RetentionPlan {
  int64_t cutoff_ms = 0;
  std::vector<std::string> drop_indices;  ///< exact names, the three kinds of each month
  std::vector<std::string> drop_months;   ///< "YYYY.MM" of each month dropped
  std::vector<StoredRun> delete_runs;     ///< runs outside those months, ended before the cutoff
};

/// Index administration over one HttpClient (which must outlive it) for one index prefix.
class EsAdmin {
 public:
  EsAdmin(HttpClient* client, std::string prefix) : client_(client), prefix_(std::move(prefix)) {}

  /// Works out what retention with `cutoff_ms` (Unix ms) removes: nothing is changed.
  Status PlanRetention(int64_t cutoff_ms, RetentionPlan* plan);

  /// Drops `plan`'s indices (after checking again that nothing newer arrived) and deletes its
  /// runs. `deleted` counts run documents deleted one by one.
  Status ApplyRetention(const RetentionPlan& plan, const BulkOptions& bulk_options,
                        uint64_t* deleted);

 private:
  Status ListIndices(std::vector<std::string>* indices);
  Status LatestEnd(const std::string& indices, double* end_ms, uint64_t* docs);
  HttpClient* client_;
  std::string prefix_;
};

}  // namespace fiohist
