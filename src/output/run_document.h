// The run document: one per run in <prefix>-runs, what it is and how it went (its span,
// hosts, jobs, grid, state and whole-run statistics), written once per run with rapidjson's
// Writer (clarity over speed, unlike the per-quantum documents).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "output/hist_code.h"
#include "stats/result_sink.h"

namespace fiohist {

/// The `pctiles_version` of percentile documents (in each and in the run document): 2 since
/// one document per scope, host, job, resolution and window holds every direction, each
/// direction's statistics in an object named after it (`read.p99`); runs without it (1)
/// have one document per direction (`direction`, `p99`).
constexpr int kPctilesVersion = 2;

/// Who a push belongs to: the run name and the user's tags and labels.
struct RunMeta {
  std::string run;
  std::vector<std::string> tags;
  std::vector<std::pair<std::string, std::string>> labels;
};

/// The meta fields every document carries, as `,"run":...,"tags":[...],"labels":{...}`
/// ("" when there are none).
std::string RunMetaJson(const RunMeta& meta);

/// Host and job entries of the run document's `summary` at most: a scope whose entries do
/// not fit is left out whole and counted in `summary_omitted` (`fiohist pctiles --run NAME
/// --whole-run --scope host,job` reads them back from the bucket documents).
inline constexpr size_t kRunSummaryMaxEntries = 512;

/// The run document (docs/documents.md, fields of RunFields()) from the whole-run results
/// (cluster ones per direction give its statistics; all of them its `summary`). Latencies
/// in units of `ns_per_unit` ns. `bucket_version` says how the run's bucket documents are
/// coded (hist_code.h: kBucketVersion, kMergedBucketVersion or kWindowBucketVersion).
std::string RunDocument(const RunInfo& info, const RunMeta& meta, double ns_per_unit,
                        const RunSummary& summary, const std::vector<ScopeResult>& whole_run,
                        int bucket_version = kBucketVersion);

}  // namespace fiohist
