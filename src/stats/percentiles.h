// Reading latency statistics off a histogram: percentiles, min, mean, max.
#pragma once

#include <string>
#include <vector>

#include "histogram/bucket_layout.h"
#include "histogram/histogram.h"
#include "base/status.h"
#include "stats/percentile_interval.h"

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

/// A statistic's name as a document field: "p99.9" -> "p99_9" (Elasticsearch reads a dot as
/// an object path); names without a dot ("iops") are their own field.
std::string FieldNameOf(const std::string& name);

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
  /// Each percentile's confidence interval (percentile_interval.h), parallel to
  /// percentile_ns: the lower edge of the bucket holding the I/O of rank l (0 when l = 0:
  /// no I/O is a lower bound at that level) ...
  std::vector<double> percentile_low_ns;
  /// ... and the upper edge of the bucket holding the I/O of rank u. Where few_ios, it is
  /// the upper edge of the last non-empty bucket (max_ns): the largest value seen, not a
  /// bound. In fio's clamped bucket it is that bucket's upper edge (also no true bound).
  std::vector<double> percentile_high_ns;
  /// True where u > n: the percentile rests on too few I/Os to have an upper bound.
  std::vector<bool> few_ios;
  /// The whole I/Os the intervals rest on: WholeIos(samples).
  int64_t interval_ios = 0;
  /// The confidence level of the intervals.
  double confidence = kDefaultConfidence;
};

/// Computes statistics of `h`. With no samples, every value is 0 and samples is 0.
/// Percentile p < 100 is read at the first bucket whose running count exceeds p% of the
/// total, interpolated by how far p% lies between the counts before and after the bucket;
/// p = 0 is the lower edge of the first non-empty bucket, p = 100 the upper edge of the last.
/// Each percentile also gets its `confidence` interval: ranks from QuantileRanks for
/// n = WholeIos(total), rank r placed at running count r * total / n (so fractional
/// counts spread the ranks evenly over the weighted histogram).
LatencyStats ComputeStats(const Histogram& h, const BucketLayout& layout,
                          const std::vector<double>& percentiles,
                          double confidence = kDefaultConfidence);
/// The same into `*stats`, reusing its storage (no allocation once it has the size).
void ComputeStats(const Histogram& h, const BucketLayout& layout,
                  const std::vector<double>& percentiles, LatencyStats* stats,
                  double confidence = kDefaultConfidence);
/// Only `samples` of the statistics of `h` into `*stats`, as ComputeStats() sets it; the
/// rest are those of an empty histogram, with no percentiles: for results whose
/// statistics beyond the samples nobody reads (ResultSink::reads_job_quantum_stats).
void ComputeSamplesOnly(const Histogram& h, LatencyStats* stats,
                        double confidence = kDefaultConfidence);

}  // namespace fiohist
