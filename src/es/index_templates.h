// fiohist's three Elasticsearch indices: their names under a prefix, and their index templates,
// read at run time from a mappings folder (mappings/*.json in the source tree).
//
// Where the templates come from, first match wins:
//   1. `--mappings DIR` (commands pass it as `dir` to LoadIndexTemplate);
//   2. the environment variable FIOHIST_MAPPINGS_DIR;
//   3. a fiohist run from its build directory: the source tree's mappings/ folder, compiled
//      in (so edits show without installing);
//   4. anywhere else (installed): <directory of the executable>/../share/fiohist/mappings
//      (the install layout's relative path), never the source tree.
// Files: fiohist-pctiles.json, fiohist-buckets.json, fiohist-runs.json and
// fiohist-buckets-nohistogram.json (the buckets template without the `histogram` field type).
// Each is a composable index template body (`PUT _index_template/NAME`); its index_patterns are
// replaced by the exact index name under the chosen prefix, so prefixes never overlap.
#pragma once

#include <string>

#include "base/status.h"
#include "output/doc_kind.h"

namespace fiohist {

/// The default index prefix.
inline constexpr char kDefaultIndexPrefix[] = "fiohist";

/// Checks that `prefix` makes valid index names: 1..100 chars of [a-z0-9._-], starting with a
/// letter or digit.
Status ValidateIndexPrefix(const std::string& prefix);

/// "<prefix>-<kind>", e.g. "fiohist-pctiles".
std::string IndexName(const std::string& prefix, DocKind kind);

/// The three index names joined by commas (for multi-index requests).
std::string AllIndexNames(const std::string& prefix);

/// Maps an index name of a bulk file ("<any prefix>-pctiles") to `prefix`'s index of the same
/// kind; other names are returned unchanged.
std::string RewriteIndexPrefix(const std::string& index, const std::string& prefix);

/// The mappings folder to use when none is given (see the file comment); may not exist.
std::string DefaultMappingsDir();

/// Reads `<dir>/<file>` (`dir` empty: DefaultMappingsDir()), checks it is a JSON object, and
/// rewrites its index_patterns to [IndexName(prefix, kind)] into `body`.
Status LoadIndexTemplate(const std::string& dir, const std::string& file, const std::string& prefix,
                         DocKind kind, std::string* body);

/// The template file of `kind` ("fiohist-<kind>.json"); with `without_histogram`, the buckets
/// fallback "fiohist-buckets-nohistogram.json".
std::string TemplateFileName(DocKind kind, bool without_histogram = false);

}  // namespace fiohist
