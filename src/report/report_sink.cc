#include "report/report_sink.h"

#include <algorithm>
#include <cmath>

namespace fiohist {

size_t NearestPercentileIndex(const PercentileList& list, double percentile) {
  size_t best = 0;
  bool found = false;
  for (size_t i = 0; i < list.values.size(); ++i) {
    const double v = list.values[i];
    if (v <= percentile && (!found || v > list.values[best])) {
      best = i;
      found = true;
    }
  }
  return best;
}

Status ReportSink::Begin(const RunInfo& info) {
  data_ = ReportData();
  series_index_.clear();
  heat_index_.clear();
  data_.info = info;
  data_.host_percentile_index = NearestPercentileIndex(info.percentiles, 99);
  if (!info.percentiles.values.empty()) {
    data_.host_percentile = info.percentiles.values[data_.host_percentile_index];
  }
  // Rows of whole fio buckets: a coarsened log has fewer, wider columns.
  data_.heat_row_columns = std::max(1, kHeatRowColumns >> info.layout.coarseness);
  const std::vector<double>& edges = EdgesNs(info.layout);
  for (size_t c = 0; c + 1 < edges.size(); c += static_cast<size_t>(data_.heat_row_columns)) {
    data_.heat_row_edges_ns.push_back(edges[c]);
  }
  data_.heat_row_edges_ns.push_back(edges.back());
  return Status();
}

ReportSeries& ReportSink::SeriesOf(const ScopeResult& r) {
  const auto key = std::make_tuple(r.host, static_cast<int>(r.direction), r.resolution);
  auto it = series_index_.find(key);
  if (it == series_index_.end()) {
    it = series_index_.emplace(key, data_.series.size()).first;
    ReportSeries s;
    s.host = r.host;
    s.direction = r.direction;
    s.resolution = r.resolution;
    data_.series.push_back(std::move(s));
  }
  return data_.series[it->second];
}

void ReportSink::AddHeat(const ScopeResult& r) {
  const auto key = std::make_pair(static_cast<int>(r.direction), r.resolution);
  auto it = heat_index_.find(key);
  if (it == heat_index_.end()) {
    it = heat_index_.emplace(key, data_.heat.size()).first;
    HeatSeries h;
    h.direction = r.direction;
    h.resolution = r.resolution;
    data_.heat.push_back(std::move(h));
  }
  HeatColumn column;
  column.start_ms = r.start_ms;
  column.partial = r.partial;
  const int per_row = data_.heat_row_columns;
  int first = -1;
  r.histogram->ForEachNonZero([&](int c, double count) {
    const int row = c / per_row;
    if (first < 0) first = row;
    const size_t at = static_cast<size_t>(row - first);
    if (column.counts.size() <= at) column.counts.resize(at + 1, 0.0);
    column.counts[at] += count;
  });
  column.first_row = std::max(first, 0);
  data_.heat[it->second].columns.push_back(std::move(column));
}

namespace {

// A result's span, I/Os and coverage, as every series of the page draws them.
ReportPoint SpanPoint(const ScopeResult& r) {
  ReportPoint p;
  p.start_ms = r.start_ms;
  p.end_ms = r.end_ms;
  p.samples = r.stats.samples;
  p.coverage = r.coverage;
  p.partial = r.partial;
  p.logs = r.logs;
  p.complete_to_ms = r.complete_to_ms;
  return p;
}

// A cluster result as the page draws it: its span, I/Os and every percentile with its
// interval.
ReportPoint ClusterPoint(const ScopeResult& r) {
  ReportPoint p = SpanPoint(r);
  p.percentile_ns = r.stats.percentile_ns;
  p.lower_bound = r.stats.lower_bound;
  p.low_ns = r.stats.percentile_low_ns;
  p.high_ns = r.stats.percentile_high_ns;
  p.few_ios = r.stats.few_ios;
  return p;
}

}  // namespace

Status ReportSink::Quantum(const ScopeResult& r) {
  if (r.kind == ScopeKind::kJob) return Status();
  ReportPoint p = r.kind == ScopeKind::kCluster ? ClusterPoint(r) : SpanPoint(r);
  if (r.kind == ScopeKind::kCluster) {
    if (r.histogram != nullptr && r.direction != Direction::kAll) AddHeat(r);
    if (r.resolution == 1 && r.histogram != nullptr && data_.info.sla.size() > 0) {
      if (!checker_) {
        checker_ = std::make_unique<SlaChecker>(data_.info.sla, data_.info.percentiles);
      }
      std::vector<size_t> breached;
      if (checker_->Applies(r) && checker_->Breaches(r, &breached)) {
        for (size_t i : breached) {
          data_.breaches.push_back({r.start_ms, i, checker_->Value(r, i)});
        }
      }
    }
  } else {
    const size_t i = data_.host_percentile_index;
    if (i < r.stats.percentile_ns.size()) {
      p.percentile_ns = {r.stats.percentile_ns[i]};
      p.lower_bound = {static_cast<bool>(r.stats.lower_bound[i])};
    }
  }
  SeriesOf(r).points.push_back(std::move(p));
  return Status();
}

void ReportSink::AddWindow(const ScopeResult& r) {
  ReportSeries* series = nullptr;
  for (ReportSeries& s : data_.windows) {
    if (s.direction == r.direction) series = &s;
  }
  if (series == nullptr) {
    data_.windows.emplace_back();
    series = &data_.windows.back();
    series->direction = r.direction;
    series->resolution = 0;
  }
  series->points.push_back(ClusterPoint(r));
}

Status ReportSink::WholeRun(const ScopeResult& r) {
  if (r.kind != ScopeKind::kCluster) return Status();
  data_.whole.push_back(r);
  data_.whole.back().histogram = nullptr;
  data_.whole.back().records = nullptr;
  return Status();
}

namespace {

// The direction-`all` points of resolution 1 by start, of the cluster or one host.
std::map<int64_t, const ReportPoint*> PointsByStart(const std::vector<ReportSeries>& series,
                                                    const std::string& host) {
  std::map<int64_t, const ReportPoint*> out;
  for (const ReportSeries& s : series) {
    if (s.host != host || s.direction != Direction::kAll || s.resolution != 1) continue;
    for (const ReportPoint& p : s.points) out[p.start_ms] = &p;
  }
  return out;
}

}  // namespace

Status ReportSink::End(const RunSummary& summary) {
  data_.summary = summary;
  // Coarser windows arrive as they close: put every series in time order.
  for (ReportSeries& s : data_.series) {
    std::stable_sort(s.points.begin(), s.points.end(),
                     [](const ReportPoint& a, const ReportPoint& b) {
                       return a.start_ms < b.start_ms;
                     });
  }
  for (HeatSeries& h : data_.heat) {
    std::stable_sort(h.columns.begin(), h.columns.end(),
                     [](const HeatColumn& a, const HeatColumn& b) {
                       return a.start_ms < b.start_ms;
                     });
  }
  // Quanta missing from the cluster's span (no log covered them).
  const auto cluster = PointsByStart(data_.series, "");
  if (!cluster.empty()) {
    const int64_t q = data_.info.quantum_ms;
    const int64_t span = (cluster.rbegin()->first - cluster.begin()->first) / q + 1;
    data_.missing_quanta = span - static_cast<long long>(cluster.size());
  }
  // Cronburg and England (2016): a flaky client host shows as a host all of whose I/Os
  // suffer, so its percentile sits above the other hosts' in most quanta. The cluster's own
  // tail is made of that host's I/Os, so the reference is the median of the hosts'
  // percentiles in the quantum (of two middle values, their geometric mean); the mean log
  // ratio against it ranks hosts by how far they stray, whatever the latency level.
  if (data_.info.hosts.empty()) {  // read-back names no hosts up front
    for (const ReportSeries& s : data_.series) {
      if (!s.host.empty() && std::find(data_.info.hosts.begin(), data_.info.hosts.end(),
                                       s.host) == data_.info.hosts.end()) {
        data_.info.hosts.push_back(s.host);
      }
    }
    std::sort(data_.info.hosts.begin(), data_.info.hosts.end());
  }
  std::vector<std::map<int64_t, const ReportPoint*>> per_host;
  std::map<int64_t, std::vector<double>> values;  // start -> the hosts' percentiles
  for (const std::string& host : data_.info.hosts) {
    per_host.push_back(PointsByStart(data_.series, host));
    for (const auto& [start, p] : per_host.back()) {
      if (p->samples > 0 && !p->percentile_ns.empty() && p->percentile_ns[0] > 0) {
        values[start].push_back(p->percentile_ns[0]);
      }
    }
  }
  std::map<int64_t, double> median;
  for (auto& [start, v] : values) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    median[start] = n % 2 == 1 ? v[n / 2] : std::sqrt(v[n / 2 - 1] * v[n / 2]);
  }
  for (size_t i = 0; i < data_.info.hosts.size(); ++i) {
    HostStray stray;
    stray.host = data_.info.hosts[i];
    const auto& mine = per_host[i];
    double sum = 0, sum_abs = 0;
    long long n = 0;
    for (const auto& [start, cp] : cluster) {
      auto it = mine.find(start);
      if (it == mine.end() || it->second->samples <= 0) {
        if (cp->samples > 0) ++stray.missing_quanta;
        continue;
      }
      auto m = median.find(start);
      if (m == median.end() || it->second->percentile_ns.empty()) continue;
      const double h = it->second->percentile_ns[0];
      if (h <= 0) continue;
      const double d = std::log2(h / m->second);
      sum += d;
      sum_abs += std::fabs(d);
      ++n;
    }
    if (n > 0) {
      stray.mean_log2 = sum / static_cast<double>(n);
      stray.mean_abs_log2 = sum_abs / static_cast<double>(n);
    }
    data_.hosts.push_back(stray);
  }
  std::stable_sort(data_.hosts.begin(), data_.hosts.end(),
                   [](const HostStray& a, const HostStray& b) {
                     return a.mean_abs_log2 > b.mean_abs_log2;
                   });
  return Status();
}

}  // namespace fiohist
