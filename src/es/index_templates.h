// fiohist's Elasticsearch indices: their names under a prefix (one index per kind and month of
// the run's start), their shard/replica settings, and their index templates, read at run time
// from a mappings folder (mappings/*.json in the source tree).
//
// Where the templates come from, first match wins:
//   1. `--mappings DIR` (commands pass it as `dir` to LoadIndexTemplate);
//   2. the environment variable FIOHIST_MAPPINGS_DIR;
//   3. a fiohist run from its build directory: the source tree's mappings/ folder, compiled
//      in (so edits show without installing);
//   4. anywhere else (installed): <directory of the executable>/../share/fiohist/mappings
//      (the install layout's relative path), never the source tree.
// Files: fiohist-pctiles.json, fiohist-buckets.json, fiohist-runs.json, fiohist-stalls.json and
// fiohist-buckets-nohistogram.json (the buckets template without the `histogram` field type).
// Each is a composable index template body (`PUT _index_template/NAME`); its index_patterns are
// replaced by the indices of the chosen prefix (its single index of before partitioning and
// its monthly ones, never another prefix's), its settings amended by IndexSettings.
//
// Names: every name derives from IndexBaseName(). All documents of a run go to the indices of
// the month (UTC) of its start, so a run is never split and retention drops whole months.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "output/doc_kind.h"

namespace fiohist {

/// The default index prefix.
inline constexpr char kDefaultIndexPrefix[] = "fiohist";

/// Checks that `prefix` makes valid index names: 1..100 chars of [a-z0-9._-], starting with a
/// letter or digit.
Status ValidateIndexPrefix(const std::string& prefix);

/// "<prefix>-<kind>", e.g. "fiohist-pctiles": the one function every index name derives from
/// (also the kind's template name, and its single index as written before partitioning).
std::string IndexBaseName(const std::string& prefix, DocKind kind);

/// The index of the documents of a run starting at `run_start_ms` (Unix ms, UTC):
/// "<prefix>-<kind>-YYYY.MM", e.g. "fiohist-pctiles-2026.11".
std::string IndexName(const std::string& prefix, DocKind kind, int64_t run_start_ms);

/// Every index of `kind`, for searches: "<prefix>-<kind>,<prefix>-<kind>-*" (the single index
/// written before partitioning, and the monthly ones).
std::string IndexPattern(const std::string& prefix, DocKind kind);

/// IndexPattern() of the four kinds joined by commas (for multi-index requests).
std::string AllIndexPatterns(const std::string& prefix);

/// What an index name says: its kind and, for a monthly index, its month.
struct IndexNameParts {
  DocKind kind = DocKind::kPercentiles;
  bool monthly = false;  ///< false: the single index of before partitioning
  int year = 0;
  int month = 0;  ///< 1..12
};

/// Reads a name made by IndexName() or IndexBaseName() under `prefix`; false for others.
bool ParseIndexName(const std::string& prefix, const std::string& index, IndexNameParts* parts);

/// Unix ms of the first instant after the month `year`-`month` (UTC).
int64_t MonthEndMs(int year, int month);

/// Maps an index name of a bulk file ("<any prefix>-pctiles[-YYYY.MM]") to `prefix`'s index of
/// the same kind (and month); other names are returned unchanged.
std::string RewriteIndexPrefix(const std::string& index, const std::string& prefix);

/// Shards and replicas of the indices a template creates, as the command line asks.
struct IndexSettings {
  int shards = 0;        ///< primaries of a pctiles / buckets index; 0: not given
  std::string replicas;  ///< "auto" (index.auto_expand_replicas 0-1), "0".."16"; "": not given
  /// True when neither was given: an installed template's settings are then kept.
  bool empty() const { return shards == 0 && replicas.empty(); }
};

/// Checks --shards and --replicas (`shards_given` false: no --shards): shards 1..1024,
/// replicas "auto" or 0..16. The message names the option and what it expects.
Status ParseIndexSettings(bool shards_given, int64_t shards, const std::string& replicas,
                          IndexSettings* out);

/// The mappings folder to use when none is given (see the file comment); may not exist.
std::string DefaultMappingsDir();

/// Reads `<dir>/<file>` (`dir` empty: DefaultMappingsDir()), checks it is a JSON object,
/// points its index_patterns at `prefix`'s indices of `kind` and applies `settings` (shards
/// only to pctiles and buckets: a runs index holds one small document per run) into `body`.
Status LoadIndexTemplate(const std::string& dir, const std::string& file, const std::string& prefix,
                         DocKind kind, const IndexSettings& settings, std::string* body);

/// LoadIndexTemplate for the index `base` (and, where `monthly`, `base`-*), also other than the
/// four kinds'; --shards applies only where `takes_shards`.
Status LoadTemplateFor(const std::string& dir, const std::string& file, const std::string& base,
                       bool monthly, bool takes_shards, const IndexSettings& settings,
                       std::string* body);

/// The template file of `kind` ("fiohist-<kind>.json"); with `without_histogram`, the buckets
/// fallback "fiohist-buckets-nohistogram.json".
std::string TemplateFileName(DocKind kind, bool without_histogram = false);

}  // namespace fiohist
