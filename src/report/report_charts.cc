#include "report/report_charts.h"

namespace fiohist {
namespace {

const ReportSeries* Find(const ReportData& d, Direction dir) {
  for (const ReportSeries& s : d.series) {
    if (s.host.empty() && s.direction == dir && s.resolution == 1) return &s;
  }
  return nullptr;
}

bool HasIos(const ReportSeries* s) {
  if (s == nullptr) return false;
  for (const ReportPoint& p : s->points) {
    if (p.samples > 0) return true;
  }
  return false;
}

const Direction kOrder[] = {Direction::kRead, Direction::kWrite, Direction::kTrim,
                            Direction::kAll};

}  // namespace

std::vector<ReportChart> ReportCharts(const ReportData& run, const ReportData* baseline) {
  std::vector<ReportChart> out;
  std::vector<std::string> dirs;
  for (Direction d : kOrder) {
    const ReportSeries* s = Find(run, d);
    if (!HasIos(s)) continue;
    ReportChart c;
    c.kind = "latency";
    c.dir = DirectionName(d);
    c.id = "latency-" + c.dir;
    for (const ReportPoint& p : s->points) {
      for (bool b : p.lower_bound) c.clamped = c.clamped || b;
    }
    dirs.push_back(c.dir);
    out.push_back(std::move(c));
  }
  // --accuracy: a chart of the windowed percentiles per direction, after the quanta's.
  for (Direction d : kOrder) {
    for (const ReportSeries& w : run.windows) {
      if (w.direction != d || !HasIos(&w)) continue;
      ReportChart c;
      c.kind = "accuracy";
      c.dir = DirectionName(d);
      c.id = "accuracy-" + c.dir;
      out.push_back(std::move(c));
    }
  }
  if (!dirs.empty()) {
    ReportChart c;
    c.kind = "iops";
    c.id = "iops";
    c.dirs = dirs;
    out.push_back(std::move(c));
  }
  for (Direction d : kOrder) {
    for (const HeatSeries& h : run.heat) {
      if (h.direction != d || h.resolution != 1) continue;
      ReportChart c;
      c.kind = "heat";
      c.dir = DirectionName(d);
      c.id = "heat-" + c.dir;
      out.push_back(std::move(c));
    }
  }
  bool host_series = false;
  for (const ReportSeries& s : run.series) host_series = host_series || !s.host.empty();
  if (host_series && !run.hosts.empty()) {
    ReportChart c;
    c.kind = "hosts";
    c.id = "hosts";
    out.push_back(std::move(c));
  }
  if (baseline != nullptr) {
    for (Direction d : kOrder) {
      if (!HasIos(Find(run, d)) || !HasIos(Find(*baseline, d))) continue;
      ReportChart c;
      c.kind = "overlay";
      c.dir = DirectionName(d);
      c.id = "overlay-" + c.dir;
      for (const char* name : {"p50", "p99", "p99.9"}) {
        const auto& a = run.info.percentiles.names;
        const auto& b = baseline->info.percentiles.names;
        for (size_t i = 0; i < a.size(); ++i) {
          for (size_t j = 0; j < b.size(); ++j) {
            if (a[i] == name && b[j] == name) c.percentiles.emplace_back(i, j);
          }
        }
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace fiohist
