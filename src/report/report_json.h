// The data of a run report as the JSON its page reads.
#pragma once

#include <string>

#include "report/report_sink.h"
#include "stats/run_comparison.h"

namespace fiohist {

/// Where a report's data came from, for the page's "source" section.
struct ReportSource {
  /// The run's name (the --run given, or one made from the logs).
  std::string run;
  /// "logs" or "elasticsearch".
  std::string kind = "logs";
  /// Elasticsearch: the server and the bucket documents read.
  std::string es_url;
  unsigned long long documents = 0;
};

/// The placement of a run's I/Os that its report does not open on (the page toggles between
/// both: where I/Os completed, `--place completion`, and where they were issued, `--place
/// issue`; docs/stalls.md), or why the input cannot give it.
struct ReportOtherPlacement {
  /// "issue" or "completion".
  std::string placement;
  /// The run placed so; null where the input cannot be (then `refused` says why).
  const ReportData* data = nullptr;
  std::string refused;
};

/// Writes `data` as the JSON object the page's script reads (`window.FIOHIST_REPORT`):
/// series as parallel arrays (times in ms, latencies in whole ns), heatmap columns as
/// dense runs of counts. `baseline`, when given, is written as the `baseline` member in
/// the same form; `other`, when given, as `other_placement` (the series, heatmaps, whole
/// run, hosts and breaches of the other placement, or `refused`); `verdicts`, when given, as the
/// verdict table (`verdicts`: head, rows, overall, notes), or `verdicts_error` when the runs could
/// not be compared. The text is safe inside a <script> element ("</" is written "<\/").
std::string ReportJson(const ReportData& data, const ReportSource& source,
                       const ReportData* baseline = nullptr,
                       const ReportSource* baseline_source = nullptr,
                       const ComparisonResult* verdicts = nullptr,
                       const std::string& verdicts_error = "",
                       const ReportOtherPlacement* other = nullptr);

}  // namespace fiohist
