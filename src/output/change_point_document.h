// A change point of a tag's history as an Elasticsearch document: the annotation a dashboard
// draws where a series of runs changed level (fiohist history --annotate).
#pragma once

#include <cstdint>
#include <string>

namespace fiohist {

/// One change point of one series (a tag's runs, one metric and direction).
struct ChangePointRecord {
  std::string tag;
  std::string metric;     ///< "p50", "p99.9", "iops"
  std::string direction;  ///< "read", "write", "trim"
  std::string run;         ///< the first run at the new level
  std::string run_before;  ///< the last run before it
  int64_t start_ms = 0;    ///< the start of `run` (Unix ms)
  std::string unit;        ///< "us" or "iops": the unit of before and after
  double before = 0, after = 0;  ///< the levels (precision-weighted means) either side
  double p_value = 1;            ///< the permutation test's
  int runs = 0;                  ///< points in the series
  int64_t analysed_at_ms = 0;    ///< when history found it (Unix ms)
};

/// The document id: tag, metric, direction and run, so writing the same change point again
/// replaces its document. Readable ("nightly/read/p99/bs16k"); the parts are kept apart by
/// '/', which is escaped ('%2F') inside a part, as is '%', so distinct records never share
/// an id. (Elasticsearch ids are at most 512 bytes: longer ones are cut and given a hash.)
std::string ChangePointId(const ChangePointRecord& c);

/// The document (one JSON object, fields of ChangePointFields() in its order).
std::string ChangePointDocument(const ChangePointRecord& c);

}  // namespace fiohist
