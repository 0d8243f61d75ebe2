// Reading latency statistics off a histogram: percentiles, min, mean, max.
#pragma once

#include <string>
#include <vector>

#include "histogram/bucket_layout.h"
#include "histogram/histogram.h"
#include "base/status.h"

namespace fiohist {

/// The percentiles a user asked for, with their display names.
struct PercentileList {
  /// Values in [0, 100], in the order given.
  std::vector<double> values;
  /// "p50", "p99.9", ... for CSV headers.
  std::vector<std::string> names;
  /// "p50", "p99_9", ... for Elasticsearch fields (no dots: dots would be object paths).
  std::vector<std::string> field_names;
};

/// The default list: 50, 90, 95, 99, 99.9, 99.99.
PercentileList DefaultPercentiles();
/// Parses "50,90,99.9" (commas or spaces). Fails on values outside [0, 100] or repeats.
Status ParsePercentiles(const std::string& text, PercentileList* list);
/// Builds the list from numbers, naming them.
Status MakePercentiles(const std::vector<double>& values, PercentileList* list);

/// Statistics of one histogram. Latencies are in nanoseconds.
struct LatencyStats {
  /// Weighted number of I/Os.
  double samples = 0;
  /// Lower edge of the first non-empty bucket.
  double min_ns = 0;
  /// Count-weighted mean of bucket middles.
  double mean_ns = 0;
  /// Upper edge of the last non-empty bucket.
  double max_ns = 0;
  /// One value per requested percentile, linearly interpolated inside its bucket.
  std::vector<double> percentile_ns;
  /// True where that percentile fell into fio's last (clamped) bucket: only a lower bound.
  std::vector<bool> lower_bound;
  /// Weighted count in the last (clamped) bucket.
  double top_bucket = 0;
  /// True when max lies in the clamped bucket.
  bool max_lower_bound = false;
};

/// Computes statistics of `h`. With no samples, every value is 0 and samples is 0.
/// Percentile p < 100 is read at the first bucket whose running count exceeds p% of the
/// total, interpolated by how far p% lies between the counts before and after the bucket;
/// p = 0 is the lower edge of the first non-empty bucket, p = 100 the upper edge of the last.
LatencyStats ComputeStats(const Histogram& h, const BucketLayout& layout,
                          const std::vector<double>& percentiles);
/// The same into `*stats`, reusing its storage (no allocation once it has the size).
void ComputeStats(const Histogram& h, const BucketLayout& layout,
                  const std::vector<double>& percentiles, LatencyStats* stats);

}  // namespace fiohist
