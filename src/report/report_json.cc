#include "report/report_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstdio>

#include "report/report_charts.h"
#include "report/report_series_json.h"
#include "stats/sla.h"

namespace fiohist {
namespace {

using JsonWriter = ReportJsonWriter;

// The hosts by how far they stray (`hosts`).
void WriteHosts(JsonWriter& w, const ReportData& d) {
  w.Key("hosts");
  w.StartArray();
  for (const HostStray& h : d.hosts) {
    w.StartObject();
    w.Key("name");
    w.String(h.host);
    w.Key("mean_log2");
    w.Double(h.mean_log2);
    w.Key("mean_abs_log2");
    w.Double(h.mean_abs_log2);
    w.Key("missing_quanta");
    w.Int64(h.missing_quanta);
    w.EndObject();
  }
  w.EndArray();
}

// The whole-run cluster results per direction (`whole`).
void WriteWhole(JsonWriter& w, const ReportData& d) {
  w.Key("whole");
  w.StartArray();
  for (const ScopeResult& r : d.whole) {
    w.StartObject();
    w.Key("dir");
    w.String(DirectionName(r.direction));
    w.Key("n");
    w.Double(r.stats.samples);
    w.Key("seconds");
    w.Double(static_cast<double>(r.end_ms - r.start_ms) / 1000.0);
    w.Key("min");
    WriteNs(w, r.stats.min_ns);
    w.Key("mean");
    WriteNs(w, r.stats.mean_ns);
    w.Key("max");
    WriteNs(w, r.stats.max_ns);
    w.Key("max_clamped");
    w.Bool(r.stats.max_lower_bound);
    w.Key("p");
    w.StartArray();
    for (double v : r.stats.percentile_ns) WriteNs(w, v);
    w.EndArray();
    w.Key("clamped");
    w.StartArray();
    for (size_t k = 0; k < r.stats.lower_bound.size(); ++k) {
      if (r.stats.lower_bound[k]) w.Uint64(k);
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

// The cluster quanta above an SLA threshold (`breaches`).
void WriteBreaches(JsonWriter& w, const ReportData& d) {
  w.Key("breaches");
  w.StartArray();
  for (const ReportBreach& b : d.breaches) {
    w.StartArray();
    w.Int64(b.start_ms);
    w.Uint64(b.threshold);
    WriteNs(w, b.value_ns);
    w.EndArray();
  }
  w.EndArray();
}

// The placement a report does not open on (`other_placement`): what differs from the run
// drawn first (series, heatmaps, whole run, hosts, SLA breaches, missing quanta), or why
// the input has none.
void WriteOtherPlacement(JsonWriter& w, const ReportOtherPlacement& other) {
  w.StartObject();
  w.Key("placement");
  w.String(other.placement);
  if (other.data == nullptr) {
    w.Key("refused");
    w.String(other.refused);
    w.EndObject();
    return;
  }
  const ReportData& d = *other.data;
  WriteHosts(w, d);
  w.Key("series");
  w.StartArray();
  for (const ReportSeries& s : d.series) WriteReportSeries(w, s);
  w.EndArray();
  w.Key("heat");
  w.StartArray();
  for (const HeatSeries& h : d.heat) WriteReportHeat(w, h);
  w.EndArray();
  WriteWhole(w, d);
  WriteBreaches(w, d);
  w.Key("missing_quanta");
  w.Int64(d.missing_quanta);
  w.EndObject();
}

void WriteRun(JsonWriter& w, const ReportData& d, const ReportSource& src) {
  const RunInfo& info = d.info;
  w.StartObject();
  w.Key("run");
  w.String(src.run);
  w.Key("source");
  w.StartObject();
  w.Key("kind");
  w.String(src.kind);
  if (!src.es_url.empty()) {
    w.Key("es_url");
    w.String(src.es_url);
    w.Key("documents");
    w.Uint64(src.documents);
  }
  w.Key("logs");
  w.StartArray();
  for (size_t i = 0; i < info.logs.size(); ++i) {
    w.StartObject();
    w.Key("path");
    w.String(info.logs[i].path);
    w.Key("host");
    w.String(info.logs[i].host);
    w.Key("job");
    w.String(info.logs[i].job);
    if (i < d.summary.reports.size()) {
      const LogReport& r = d.summary.reports[i];
      w.Key("records");
      w.Int64(r.records);
      w.Key("skipped_lines");
      w.Int64(r.skipped_lines);
      w.Key("ios");
      w.Double(r.total_ios);
    }
    w.EndObject();
  }
  w.EndArray();
  w.Key("anchor");
  w.String(info.anchor);
  w.Key("fio_json");
  w.StartArray();
  for (const std::string& n : info.fio_json_notes) w.String(n);
  w.EndArray();
  w.Key("fio_versions");
  w.StartArray();
  for (const std::string& n : info.fio_versions) w.String(n);
  w.EndArray();
  w.EndObject();
  w.Key("layout");
  w.String(info.layout.Name());
  w.Key("absolute");
  w.Bool(info.absolute);
  w.Key("quantum_ms");
  w.Int64(info.quantum_ms);
  w.Key("first_quantum_ms");
  w.Int64(info.first_quantum_ms);
  w.Key("end_ms");
  w.Int64(d.summary.end_ms);
  w.Key("quanta");
  w.Int64(d.summary.quanta);
  w.Key("log_hist_msec");
  w.Int64(info.log_hist_msec);
  if (info.placement != "completion") {  // --place issue (absent: at completion)
    w.Key("placement");
    w.String(info.placement);
  }
  w.Key("log_hist_msec_inferred");
  w.Bool(info.log_hist_msec_inferred);
  w.Key("resolutions");
  w.StartArray();
  for (int r : info.resolutions) w.Int(r);
  w.EndArray();
  w.Key("percentiles");
  w.StartArray();
  for (const std::string& n : info.percentiles.names) w.String(n);
  w.EndArray();
  w.Key("host_percentile");
  w.Uint64(d.host_percentile_index);
  w.Key("confidence");
  w.Double(info.confidence);
  WriteHosts(w, d);
  w.Key("series");
  w.StartArray();
  for (const ReportSeries& s : d.series) WriteReportSeries(w, s);
  w.EndArray();
  if (!d.windows.empty()) {
    w.Key("windows");
    w.StartArray();
    for (const ReportSeries& s : d.windows) WriteReportSeries(w, s);
    w.EndArray();
    w.Key("accuracy");
    w.StartArray();
    for (const std::string& t : d.accuracy) w.String(t);
    w.EndArray();
  }
  w.Key("heat_rows_ns");
  w.StartArray();
  for (double e : d.heat_row_edges_ns) WriteNs(w, e);
  w.EndArray();
  w.Key("heat");
  w.StartArray();
  for (const HeatSeries& h : d.heat) WriteReportHeat(w, h);
  w.EndArray();
  WriteWhole(w, d);
  w.Key("sla");
  w.StartArray();
  for (const SlaThreshold& t : info.sla) {
    w.StartObject();
    w.Key("text");
    w.String(t.text);
    w.Key("dir");
    w.String(DirectionName(t.direction));
    w.Key("limit_ns");
    WriteNs(w, t.limit_ns);
    w.Key("p");
    w.Uint64(NearestPercentileIndex(info.percentiles, t.percentile));
    w.EndObject();
  }
  w.EndArray();
  WriteBreaches(w, d);
  if (!d.summary.stalls.empty()) {
    // Stalls and idle gaps (docs/stalls.md), shaded on the time charts with their numbers;
    // absent without one, so pages of runs without stalls stay as they were.
    w.Key("stalls");
    w.StartArray();
    for (const Stall& st : d.summary.stalls) {
      w.StartObject();
      w.Key("host");
      w.String(st.host);
      w.Key("idle");
      w.Bool(st.idle);
      w.Key("start_ms");
      w.Int64(st.start_ms);
      w.Key("end_ms");
      w.Int64(st.end_ms);
      w.Key("stuck_ios");
      w.Double(st.stuck_ios);
      w.Key("stuck_max_ns");
      WriteNs(w, st.slowest_ns);
      w.EndObject();
    }
    w.EndArray();
  }
  w.Key("missing_quanta");
  w.Int64(d.missing_quanta);
  w.Key("incomplete");
  w.Bool(d.summary.incomplete);
  w.Key("warnings");
  w.StartArray();
  for (const std::string& s : d.summary.warnings) w.String(s);
  w.EndArray();
  w.Key("io_shares");
  w.StartArray();
  for (const IoShare& s : d.summary.io_shares) {
    w.StartObject();
    w.Key("host");
    w.String(s.host);
    w.Key("job");
    w.String(s.job);
    w.Key("share");
    w.Double(s.share());
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

// A metric's value as the verdict table shows it: latency with its unit, or IOPS.
std::string MetricValue(const MetricComparison& m, double v) {
  if (m.metric.spec.iops) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f IOPS", v);
    return buf;
  }
  return FormatSlaLatency(v, 3, true) + (m.lower_bound ? " (lower bound)" : "");
}

std::string PercentText(double v) {
  char buf[400];  // wide enough for any double in %f (an interval with no real upper end is huge)
  std::snprintf(buf, sizeof buf, "%+.1f %%", 100 * v);
  return buf;
}

void WriteVerdicts(JsonWriter& w, const ComparisonResult* r, const std::string& error) {
  w.Key("verdicts");
  w.StartObject();
  if (r == nullptr) {
    w.Key("error");
    w.String(error);
    w.EndObject();
    return;
  }
  w.Key("overall");
  w.String(VerdictName(r->overall));
  w.Key("head");
  w.StartArray();
  for (const char* h : {"direction", "metric", "run", "baseline", "change", "interval",
                        "confidence", "verdict", "why"}) {
    w.String(h);
  }
  w.EndArray();
  w.Key("rows");
  w.StartArray();
  for (const MetricComparison& m : r->metrics) {
    w.StartArray();
    w.String(DirectionName(m.direction));
    w.String(m.metric.spec.name);
    w.String(MetricValue(m, m.run_value));
    w.String(MetricValue(m, m.baseline_value));
    w.String(PercentText(m.change));
    w.String(PercentText(m.change_low) + " .. " + PercentText(m.change_high));
    w.String(PercentText(m.level).substr(1));
    w.String(VerdictName(m.verdict));
    w.String(m.reason);
    w.EndArray();
  }
  w.EndArray();
  w.Key("notes");
  w.StartArray();
  for (const std::string& n : r->notes) w.String(n);
  w.EndArray();
  w.EndObject();
}

}  // namespace

std::string ReportJson(const ReportData& data, const ReportSource& source,
                       const ReportData* baseline, const ReportSource* baseline_source,
                       const ComparisonResult* verdicts, const std::string& verdicts_error,
                       const ReportOtherPlacement* other) {
  rapidjson::StringBuffer buf;
  JsonWriter w(buf);
  w.SetMaxDecimalPlaces(3);
  w.StartObject();
  w.Key("version");
  w.String(FIOHIST_VERSION);
  w.Key("main");
  WriteRun(w, data, source);
  if (other != nullptr) {
    w.Key("other_placement");
    WriteOtherPlacement(w, *other);
  }
  if (baseline != nullptr && baseline_source != nullptr) {
    w.Key("baseline");
    WriteRun(w, *baseline, *baseline_source);
  }
  if (verdicts != nullptr || !verdicts_error.empty()) WriteVerdicts(w, verdicts, verdicts_error);
  w.Key("charts");
  w.StartArray();
  for (const ReportChart& c : ReportCharts(data, baseline_source ? baseline : nullptr)) {
    w.StartObject();
    w.Key("id");
    w.String(c.id);
    w.Key("kind");
    w.String(c.kind);
    w.Key("dir");
    w.String(c.dir);
    w.Key("dirs");
    w.StartArray();
    for (const std::string& d : c.dirs) w.String(d);
    w.EndArray();
    w.Key("clamped");
    w.Bool(c.clamped);
    w.Key("percentiles");
    w.StartArray();
    for (const auto& [a, b] : c.percentiles) {
      w.StartArray();
      w.Uint64(a);
      w.Uint64(b);
      w.EndArray();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  // Inside <script>, "</" could close the element: JSON allows "\/" for "/".
  std::string out;
  const char* s = buf.GetString();
  out.reserve(buf.GetSize() + 16);
  for (size_t i = 0; i < buf.GetSize(); ++i) {
    if (s[i] == '/' && i > 0 && s[i - 1] == '<') out += '\\';
    out += s[i];
  }
  return out;
}

}  // namespace fiohist
