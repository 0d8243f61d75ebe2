#include "report/report_series_json.h"

#include <cmath>
#include <cstdint>

namespace fiohist {

// Latencies in whole nanoseconds: fio's resolution, and a third of the digits.
void WriteNs(ReportJsonWriter& w, double ns) { w.Int64(static_cast<int64_t>(std::llround(ns))); }

void WriteReportSeries(ReportJsonWriter& w, const ReportSeries& s) {
  w.StartObject();
  if (s.resolution == 0) {
    // --accuracy windows: each has its own length.
    w.Key("e");
    w.StartArray();
    for (const ReportPoint& p : s.points) w.Int64(p.end_ms);
    w.EndArray();
  }
  w.Key("host");
  w.String(s.host);
  w.Key("dir");
  w.String(DirectionName(s.direction));
  w.Key("res");
  w.Int(s.resolution);
  w.Key("t");
  w.StartArray();
  for (const ReportPoint& p : s.points) w.Int64(p.start_ms);
  w.EndArray();
  w.Key("n");
  w.StartArray();
  for (const ReportPoint& p : s.points) w.Double(p.samples);
  w.EndArray();
  w.Key("cov");
  w.StartArray();
  for (const ReportPoint& p : s.points) w.Double(p.coverage);
  w.EndArray();
  // Indices of partial points and of points whose values lie in the clamped bucket.
  w.Key("partial");
  w.StartArray();
  for (size_t i = 0; i < s.points.size(); ++i) {
    if (s.points[i].partial) w.Uint64(i);
  }
  w.EndArray();
  const size_t np = s.points.empty() ? 0 : s.points[0].percentile_ns.size();
  w.Key("p");
  w.StartArray();
  for (size_t k = 0; k < np; ++k) {
    w.StartArray();
    for (const ReportPoint& p : s.points)
      WriteNs(w, k < p.percentile_ns.size() ? p.percentile_ns[k] : 0);
    w.EndArray();
  }
  w.EndArray();
  // The confidence intervals (cluster series): low and high per percentile, and the
  // [point, percentile] pairs resting on too few I/Os for an upper bound.
  const bool band = np > 0 && s.points[0].low_ns.size() == np;
  if (band) {
    for (const char* key : {"lo", "hi"}) {
      const bool low = key[0] == 'l';
      w.Key(key);
      w.StartArray();
      for (size_t k = 0; k < np; ++k) {
        w.StartArray();
        for (const ReportPoint& p : s.points) {
          const std::vector<double>& v = low ? p.low_ns : p.high_ns;
          WriteNs(w, k < v.size() ? v[k] : 0);
        }
        w.EndArray();
      }
      w.EndArray();
    }
    w.Key("few");
    w.StartArray();
    for (size_t i = 0; i < s.points.size(); ++i) {
      for (size_t k = 0; k < s.points[i].few_ios.size(); ++k) {
        if (!s.points[i].few_ios[k] || s.points[i].samples <= 0) continue;
        w.StartArray();
        w.Uint64(i);
        w.Uint64(k);
        w.EndArray();
      }
    }
    w.EndArray();
  }
  // --place issue: [point, ms] of the partial points that lack I/Os slower than ms (the
  // run's last quanta, ReportPoint::complete_to_ms); absent where none lacks any, so the
  // pages of completion placement are as they were.
  bool any_cto = false;
  for (const ReportPoint& p : s.points) any_cto = any_cto || p.complete_to_ms != INT64_MAX;
  if (any_cto) {
    w.Key("cto");
    w.StartArray();
    for (size_t i = 0; i < s.points.size(); ++i) {
      if (s.points[i].complete_to_ms == INT64_MAX) continue;
      w.StartArray();
      w.Uint64(i);
      w.Int64(s.points[i].complete_to_ms);
      w.EndArray();
    }
    w.EndArray();
  }
  w.Key("clamped");
  w.StartArray();
  for (size_t i = 0; i < s.points.size(); ++i) {
    for (size_t k = 0; k < s.points[i].lower_bound.size(); ++k) {
      if (!s.points[i].lower_bound[k]) continue;
      w.StartArray();
      w.Uint64(i);
      w.Uint64(k);
      w.EndArray();
    }
  }
  w.EndArray();
  w.EndObject();
}

void WriteReportHeat(ReportJsonWriter& w, const HeatSeries& h) {
  w.StartObject();
  w.Key("dir");
  w.String(DirectionName(h.direction));
  w.Key("res");
  w.Int(h.resolution);
  w.Key("t");
  w.StartArray();
  for (const HeatColumn& c : h.columns) w.Int64(c.start_ms);
  w.EndArray();
  w.Key("first");
  w.StartArray();
  for (const HeatColumn& c : h.columns) w.Int(c.first_row);
  w.EndArray();
  w.Key("c");
  w.StartArray();
  for (const HeatColumn& c : h.columns) {
    w.StartArray();
    for (double v : c.counts) w.Double(v);
    w.EndArray();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace fiohist
