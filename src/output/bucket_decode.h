// Reading bucket documents back: the histogram a bucket document's source holds, in any
// form fiohist has written.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "histogram/bucket_layout.h"
#include "histogram/histogram.h"
#include "log/direction_names.h"
#include "log/placed_record.h"

namespace fiohist {

/// Turns bucket documents' sources back into histograms of one layout. Decode reads these
/// forms, tried in this order: `bucket_index` + `bucket_count` (exact doubles, fiohist
/// before integer counts); `bucket_runs` (runs of consecutive buckets) + `bucket_ios` (scaled
/// counts); `latency` {values, counts} (the histogram form: midpoints in us mapped back to
/// their buckets; counts divided by `latency_scale` when present, which old documents carry
/// beside their exact arrays). DecodeRecords reads the record form (`records`).
class BucketDecoder {
 public:
  explicit BucketDecoder(const BucketLayout& layout);
  /// Adds the counts of `source` to `*out`. Errors name what was expected.
  Status Decode(const rapidjson::Value& source, Histogram* out) const;
  /// Whether `source` is of the record form (`records`: a job's fio records, exact), which
  /// DecodeRecords reads instead of Decode.
  static bool HasRecords(const rapidjson::Value& source);
  /// Appends the records of a record-form document of quantum `start_ms` and direction `d`
  /// to `*out`, their spans on the time line.
  Status DecodeRecords(const rapidjson::Value& source, int64_t start_ms, Direction d,
                       std::vector<PlacedRecord>* out) const;
  /// Whether `source` is a job document of every direction (kMergedBucketVersion:
  /// `records` an object of each direction's records, by direction name).
  static bool HasRecordsByDirection(const rapidjson::Value& source);
  /// Appends the records of such a document of quantum `start_ms`, direction by direction
  /// in slot order (`names`: the run's, a smallfile run's ops), so they come as the
  /// per-direction documents of earlier versions gave them. A name that is no slot of
  /// `names` is an error.
  Status DecodeRecordsByDirection(const rapidjson::Value& source, int64_t start_ms,
                                  const DirectionNames& names,
                                  std::vector<PlacedRecord>* out) const;
  /// Whether `source` is a job document of a window of quanta (kWindowBucketVersion:
  /// `quanta`, each quantum what a kMergedBucketVersion document held).
  static bool HasQuanta(const rapidjson::Value& source);
  /// Appends the quanta of such a document whose window starts at `window_ms` (its
  /// @timestamp): each quantum's start (window_ms + its `offset_ms`) and its element of
  /// `quanta`, which DecodeRecordsByDirection reads with that start. Errors name what was
  /// expected.
  static Status WindowQuanta(const rapidjson::Value& source, int64_t window_ms,
                             std::vector<std::pair<int64_t, const rapidjson::Value*>>* out);
  /// The column whose midpoint (in us) is `mid_us`, or -1.
  int ColumnOfMidpoint(double mid_us) const;

 private:
  // Appends the records of the array `recs` (a `records`), of direction `d`.
  Status DecodeRecordArray(const rapidjson::Value& recs, const std::string& what, int64_t start_ms,
                           Direction d, std::vector<PlacedRecord>* out) const;

  BucketLayout layout_;
  std::vector<double> mids_us_;  // ascending
};

}  // namespace fiohist
