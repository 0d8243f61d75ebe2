// A change point of a tag's history as an Elasticsearch document: the annotation a dashboard
// draws where a series of runs changed level (fiohist history --annotate).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

/// The document (one JSON object, fields of ChangePointFields() in its order, but
/// `baseline`; `kind` "change").
std::string ChangePointDocument(const ChangePointRecord& c);

/// One run and direction of a tag's history as `history --annotate` saw it: the run's
/// whole-run values with their bootstrap intervals (what the history dashboard draws), and
/// its baseline, the finished run of the tag before it (what each point links to).
struct HistoryPointRecord {
  /// A metric's whole-run value and the 95% interval of `history` (latencies in us).
  struct Value {
    std::string field;  ///< its field: FieldNameOf() the metric's name ("p99_9", "iops")
    double value = 0, low = 0, high = 0;
  };
  std::string tag;
  std::string run;
  std::string direction;       ///< "read", "write", "trim"
  std::string baseline;        ///< "" for the tag's first finished run
  int64_t start_ms = 0;        ///< the start of `run` (Unix ms)
  int64_t end_ms = 0;          ///< its end (Unix ms; 0 unknown): the overview link's range
  int runs = 0;                ///< runs analysed
  int64_t analysed_at_ms = 0;  ///< when history ran (Unix ms)
  /// Only values whose field is one of ChangePointFields() are written (the others are in
  /// `history --json` alone: the index maps no field it does not know).
  std::vector<Value> values;
};

/// The id: tag, run and direction ("nightly/bs16k/read", escaped as ChangePointId's parts;
/// three parts, so never a change point's id).
std::string HistoryPointId(const HistoryPointRecord& p);

/// The document: `kind` "point", `@timestamp` and `start_ms` the run's start, `end_ms`, tag,
/// run, direction, baseline (absent for the first run), runs, analysed_at, then each value
/// as FIELD, FIELD_low and FIELD_high (fields of ChangePointFields()).
std::string HistoryPointDocument(const HistoryPointRecord& p);

}  // namespace fiohist
