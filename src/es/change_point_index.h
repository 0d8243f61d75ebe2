// The index of change point annotations (`fiohist history --annotate`): one small index per
// prefix, "<prefix>-changes", whose documents replace themselves by id.
//
// Not monthly like the three kinds of run data: a tag has a handful of change points a year.
// Retention removes those whose run started before the cutoff, `delete --run` those starting
// at the deleted run (each by search and bulk delete, so clusters without _delete_by_query
// do it too).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "es/http_client.h"
#include "es/index_templates.h"
#include "output/change_point_document.h"

namespace fiohist {

/// "fiohist-changes.json", the template file in the mappings folder.
inline constexpr char kChangeTemplateFile[] = "fiohist-changes.json";

/// "<prefix>-changes": the index, and the name of its template.
std::string ChangeIndexName(const std::string& prefix);

/// Installs the template from `mappings_dir` ("" = DefaultMappingsDir()) for `prefix`
/// (replicas as `settings` say; always one shard), and adds its fields to the index where
/// an older template made it.
Status InstallChangeTemplate(HttpClient* client, const std::string& mappings_dir,
                             const std::string& prefix, const IndexSettings& settings);

/// What WriteChangePoints did.
struct ChangeWriteReport {
  uint64_t written = 0;  ///< documents indexed (new or replaced)
  uint64_t removed = 0;  ///< earlier change points of the same runs and metrics not found now
};

/// Indexes `changes` by ChangePointId() and refreshes; then removes the tag's earlier change
/// points of the runs in `analysed_runs` and the metrics in `metrics` that this analysis no
/// longer finds (more runs can move or dissolve a change point), so the index holds what the
/// latest analysis says, and running it again changes nothing.
Status WriteChangePoints(HttpClient* client, const std::string& prefix, const std::string& tag,
                         const std::vector<std::string>& analysed_runs,
                         const std::vector<std::string>& metrics,
                         const std::vector<ChangePointRecord>& changes, ChangeWriteReport* report);

/// Indexes the tag's runs with their baselines by HistoryPointId() and refreshes (written
/// again, a point replaces itself: its baseline is the latest analysis's).
Status WriteHistoryPoints(HttpClient* client, const std::string& prefix,
                          const std::vector<HistoryPointRecord>& points);

/// Deletes the change points (and history points) of run `run`; `deleted` counts them.
Status DeleteChangePointsOfRun(HttpClient* client, const std::string& prefix,
                               const std::string& run, uint64_t* deleted);

/// Deletes the change points (and history points) whose run started before `cutoff_ms`
/// (Unix ms); `deleted` counts them. With `dry_run`, only counts.
Status DeleteChangePointsBefore(HttpClient* client, const std::string& prefix, int64_t cutoff_ms,
                                bool dry_run, uint64_t* deleted);

}  // namespace fiohist
