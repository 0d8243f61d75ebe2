// A report's series and heatmaps as the JSON arrays its page reads.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "report/report_sink.h"

namespace fiohist {

/// The writer every part of a report's JSON is written with.
using ReportJsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

/// Writes a latency in whole nanoseconds (fio's resolution, and a third of the digits).
void WriteNs(ReportJsonWriter& w, double ns);

/// Writes one series as parallel arrays: `t` (start ms), `n` (I/Os), `cov`, `partial`
/// (indices), `p` (per percentile, ns), the bands `lo`/`hi` and `few` of cluster series,
/// `cto` ([index, ms] of points complete only up to a latency: --place issue) and
/// `clamped` ([index, percentile] in fio's last bucket); `e` (end ms) for --accuracy windows.
void WriteReportSeries(ReportJsonWriter& w, const ReportSeries& s);

/// Writes one heatmap: `t` (column starts), `first` (row of each column's first count) and
/// `c` (each column's counts, dense from its first to its last non-empty row).
void WriteReportHeat(ReportJsonWriter& w, const HeatSeries& h);

}  // namespace fiohist
