// Integer bucket counts for bucket documents: fractional counts rounded with carried
// remainders, so that sums over any window stay within one I/O of the exact sums.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "stats/scope_result.h"

namespace fiohist {

/// The non-zero integer counts of one result's histogram, columns ascending, in units of
/// 1/scale I/O.
struct IntegerBuckets {
  std::vector<int> columns;
  std::vector<int64_t> counts;
  /// Sum of counts (total / scale is the bucket document's `samples`).
  int64_t total = 0;
  /// Counts are I/Os times this (the documents' `latency_scale`).
  int64_t scale = 1;
};

/// Rounds each result's weighted counts to integers, per (scope, host, job, direction,
/// bucket) carrying the rounding remainder to that series' next quantum: nearly every
/// fio record straddles a quantum edge, so almost every count is fractional, and rounding
/// each on its own would drift. Emitted counts summed over any run of consecutive quanta
/// differ from the exact sum by less than one unit (1/scale I/O) per bucket, and the whole
/// run's sums are exact (the last quantum with a count in a bucket takes the residue).
/// Results of a series must come in time order (the pipeline's order; a live follower's
/// too).
class BucketCarry {
 public:
  /// Counts in units of 1/scale I/O (scale >= 1).
  explicit BucketCarry(int64_t scale = 1) : scale_(scale < 1 ? 1 : scale) {}
  /// Fills `out` with `r`'s rounded counts (zero-count buckets are left out; their carry
  /// waits for the series' next count in that bucket).
  void Round(const ScopeResult& r, IntegerBuckets* out);
  /// Drops the carries of every direction of the job (host, job): it has no more
  /// results (ResultSink::JobDone).
  void ForgetJob(const std::string& host, const std::string& job);

 private:
  // Sets key_ to the series of (kind, host, job, direction).
  void SetKey(ScopeKind kind, const std::string& host, const std::string& job, Direction direction);

  // Carry per column of each series, keyed by "scope\x1fhost\x1fjob\x1fdirection".
  std::unordered_map<std::string, std::vector<double>> carry_;
  std::string key_;  // reused
  int64_t scale_;
};

}  // namespace fiohist
