// Setting up fiohist's indices in one cluster: installing the index templates (with the
// shards and replicas chosen, or those already installed), giving indices of an earlier
// fiohist the fields they lack, and creating a run's monthly indices.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "es/http_client.h"
#include "es/index_templates.h"

namespace fiohist {

/// What InstallTemplates did.
struct TemplateReport {
  bool histogram_supported = true;     ///< false: the buckets fallback template was installed
  std::vector<std::string> installed;  ///< template names
  std::vector<std::string> created;    ///< indices created now (the others existed)
  std::vector<std::string> updated;    ///< existing indices given the fields they lacked
  std::vector<std::string> spread;     ///< created with more primaries than their template's
};

/// Template installation and index creation over one HttpClient (which must outlive it) for
/// one index prefix.
class IndexSetup {
 public:
  IndexSetup(HttpClient* client, std::string prefix)
      : client_(client), prefix_(std::move(prefix)) {}

  /// Installs the four templates from `mappings_dir` ("" = DefaultMappingsDir()), and the
  /// change points' one (change_point_index.h), with `settings`; with none given, the shards
  /// and replicas of fiohist templates already there (version 2 on) are kept, so push does not
  /// undo what setup chose. When the cluster lacks the `histogram` field type, installs
  /// fiohist-buckets-nohistogram.json instead and says so in the report. A refused template
  /// gets one message saying what to do. Indices an earlier fiohist made get the fields it did
  /// not map (an index keeps its mapping from creation).
  Status InstallTemplates(const std::string& mappings_dir, const IndexSettings& settings,
                          TemplateReport* report);

  /// Whether the installed buckets template maps `latency` as a `histogram` (false: the
  /// fallback of a server without the type, as InstallTemplates chose; also false when
  /// there is no template: the compact form fits any mapping). For `load --no-setup`, which
  /// installs nothing and must send the form the template expects.
  Status BucketsTemplateHasHistogram(bool* histogram);

  /// Creates the four indices of the month of `run_start_ms` that do not exist yet; a new
  /// pctiles or buckets index gets at least `min_shards` primaries (push: one per data node,
  /// push_tuning.h), more when its template says so.
  Status CreateRunIndices(int64_t run_start_ms, TemplateReport* report, int min_shards = 0);

 private:
  Status KeptSettings(DocKind kind, IndexSettings* settings);
  // Maps, in every existing index of `kind`, the top-level fields of the installed template
  // `template_body` that the index lacks (it was made by an earlier fiohist).
  Status AddMissingFields(DocKind kind, const std::string& template_body, TemplateReport* report);

  HttpClient* client_;
  std::string prefix_;
};

/// Reads the answer of GET /_index_template/NAME: the shards and replicas of a fiohist template
/// of version 2 or later (older ones had fixed replicas 0: they get today's defaults).
bool ParseTemplateSettings(const std::string& body, IndexSettings* settings);

/// The message for a template the cluster refused (old version, missing privilege).
std::string TemplateRefusedMessage(const std::string& name, const HttpResult& result);

/// True when a mapping was refused because the `histogram` field type does not exist
/// (mapper_parsing_exception, possibly nested in caused_by).
bool LacksHistogramType(const HttpResult& result);

}  // namespace fiohist
