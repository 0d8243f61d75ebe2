// Reading bucket documents back: the histogram a bucket document's source holds, in any
// form fiohist has written.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "base/status.h"
#include "histogram/bucket_layout.h"
#include "histogram/histogram.h"

namespace fiohist {

/// Turns bucket documents' sources back into histograms of one layout. Forms, tried in this
/// order: `bucket_index` + `bucket_count` (exact doubles, fiohist before integer counts);
/// `bucket_runs` (runs of consecutive buckets) + `bucket_ios` (the compact form); `latency` {values, counts} (the
/// histogram form: midpoints in us mapped back to their buckets; counts divided by
/// `latency_scale` when present, which old documents carry beside their exact arrays).
class BucketDecoder {
 public:
  explicit BucketDecoder(const BucketLayout& layout);
  /// Adds the counts of `source` to `*out`. Errors name what was expected.
  Status Decode(const rapidjson::Value& source, Histogram* out) const;
  /// The column whose midpoint (in us) is `mid_us`, or -1.
  int ColumnOfMidpoint(double mid_us) const;

 private:
  BucketLayout layout_;
  std::vector<double> mids_us_;  // ascending
};

}  // namespace fiohist
