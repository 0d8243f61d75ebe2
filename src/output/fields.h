// Every field of fiohist's documents and every column of its CSV, defined once.
//
// The CSV header, the documents' field names and byte budgets, and the checks against the
// index templates (fields_test.cc: a field without a mapping, or a mapping without a
// field, fails) all come from the tables here. Adding a field: a row here, its value in
// the writer that the row names (csv_sink.cc, documents.cc), its mapping in mappings/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "output/doc_kind.h"
#include "stats/scope_result.h"

namespace fiohist {

/// How a field is mapped in Elasticsearch (the `type` of its mapping).
enum class FieldType { kDate, kDouble, kInteger, kLong, kKeyword, kBoolean, kObject, kHistogram };

/// "date", "double", "integer", "long", "keyword", "boolean", "object" or "histogram".
const char* FieldTypeName(FieldType type);

/// Where a field appears: a bit per document kind, one for the CSV.
enum FieldPlace : unsigned {
  kInPctiles = 1u << static_cast<unsigned>(DocKind::kPercentiles),
  kInBuckets = 1u << static_cast<unsigned>(DocKind::kBuckets),
  kInRuns = 1u << static_cast<unsigned>(DocKind::kRun),
  kInCsv = 1u << 3,
  kInChanges = 1u << 4,  ///< change point documents (output/change_point_document.h)
  kIssueOnly = 1u << 5,  ///< written only when I/Os are placed at issue (--place issue)
  kInStalls = 1u << 6,   ///< stall documents (output/stall_document.h)
  /// Percentile documents of pctiles_version 2: in the object of each direction (`read.p99`),
  /// not at the top (where pctiles_version 1 and accuracy windows have them).
  kPerDirection = 1u << 7,
};

/// The bit of `kind` in FieldPlace.
constexpr unsigned PlaceOf(DocKind kind) {
  return kind == DocKind::kStalls ? kInStalls : 1u << static_cast<unsigned>(kind);
}

/// The statistics of a result that CSV rows, percentile and run documents all carry; their
/// values come from StatValue(), so the three agree by construction.
enum class Stat { kSamples, kIops, kMin, kMean, kMax, kTopBucket };

/// One field (or CSV column). `name` is the JSON key or the CSV header text.
struct Field {
  const char* name;
  FieldType type;
  unsigned places;  ///< FieldPlace bits
  /// The percentile fields (p50 ... as the run asks for) stand at this row: one row of
  /// the table expands to one field per percentile.
  bool percentiles = false;
  /// The percentiles' confidence bounds stand at this row: one field `<p>_low` and one
  /// `<p>_high` per percentile (percentile_interval.h).
  bool bounds = false;
};

/// The fields of percentile and bucket documents and of the CSV, in the order they are
/// written.
const std::vector<Field>& ResultFields();

/// The fixed fields of run documents, in the order they are written. The whole-run
/// statistics follow, as `<direction>_<stat>` for read, write and trim (matched by a
/// dynamic template) and as plain names for all directions.
const std::vector<Field>& RunFields();

/// The fields of change point documents, in the order they are written; history point
/// documents (HistoryPointDocument) carry a subset of them.
const std::vector<Field>& ChangePointFields();

/// The fields of stall documents (one per stall or idle gap of a run: StallDocument()), in
/// the order they are written.
const std::vector<Field>& StallFields();

/// `name` if `fields` has a row of that name. A document carries only what its table
/// defines, so a name missing there stops the program (naming `what` documents) at the first
/// such document, in every test.
const char* CheckedFieldName(const std::vector<Field>& fields, const char* name, const char* what);

/// The field name of `stat` ("samples", "iops", ...).
const char* StatName(Stat stat);

/// The value of `stat` for `r` in latency unit `ns_per_unit` (counts are not scaled).
double StatValue(Stat stat, const ScopeResult& r, double ns_per_unit);

/// The suffixes of a percentile's confidence bounds: `p99_low`, `p99_high`.
constexpr const char* kLowSuffix = "_low";
constexpr const char* kHighSuffix = "_high";

/// True for a percentile bound's name ("p99_9_low", "p50_high", "read_p99_low").
bool IsBoundName(const std::string& name);

/// The CSV header line (with its newline) for the percentile column names `percentiles`;
/// with `issue`, the kIssueOnly columns too (--place issue).
std::string CsvHeader(const std::vector<std::string>& percentiles, bool issue = false);

/// Most bytes a value of `type` takes in a document (dates: quoted ISO text or epoch ms;
/// numbers: the shortest exact double text). Strings, arrays and objects have no fixed
/// bound: 0.
constexpr size_t MaxValueBytes(FieldType type) {
  switch (type) {
    case FieldType::kDate:
      return 26;  // "2026-11-22T10:00:00.000Z" quoted, or up to 20 digits of epoch ms
    case FieldType::kDouble:
      return 32;  // the shortest exact text of any double, ".0" and sign included
    case FieldType::kInteger:
    case FieldType::kLong:
      return 20;
    case FieldType::kBoolean:
      return 5;
    case FieldType::kKeyword:
    case FieldType::kObject:
    case FieldType::kHistogram:
      return 0;
  }
  return 0;
}

}  // namespace fiohist
