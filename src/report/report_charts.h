// Which charts a report holds: decided once here, drawn by the page, exported by --png.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "report/report_sink.h"

namespace fiohist {

/// One chart of the report page.
struct ReportChart {
  /// Unique in the page, usable in a file name: "latency-read", "heat-write", "iops",
  /// "hosts", "overlay-all".
  std::string id;
  /// "latency", "accuracy" (--accuracy windows), "iops", "heat", "hosts" or "overlay".
  std::string kind;
  /// The direction of latency, heat and overlay charts.
  std::string dir;
  /// IOPS: the directions drawn.
  std::vector<std::string> dirs;
  /// Latency: some value lies in the clamped bucket (the chart adds a series marking them).
  bool clamped = false;
  /// Overlay: pairs of percentile indices (run, baseline) of the percentiles both have
  /// among p50, p99, p99.9.
  std::vector<std::pair<size_t, size_t>> percentiles;
};

/// The charts of a report of `run` (and `baseline`, when given), in page order: per
/// direction with I/Os (read, write, trim, all) a latency chart, then with --accuracy a
/// chart of its windows per direction, then IOPS, a heatmap per
/// direction, the hosts' small multiples, and with a baseline an overlay per direction
/// both runs have.
std::vector<ReportChart> ReportCharts(const ReportData& run, const ReportData* baseline);

}  // namespace fiohist
