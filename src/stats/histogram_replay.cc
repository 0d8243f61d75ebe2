#include "stats/histogram_replay.h"

#include <algorithm>
#include <cmath>

#include "log/quantum_grid.h"
#include "stats/scope_result.h"

namespace fiohist {
namespace {

// The window of length q holding t (aligned to multiples of q from `origin`).
int64_t WindowOf(int64_t t, int64_t q, int64_t origin) {
  return QuantumGrid(origin, q).Start(QuantumGrid(origin, q).IndexOf(t));
}

}  // namespace

HistogramReplay::HistogramReplay(const PipelineOptions& options, RunInfo info, ResultSink* sink)
    : o_(options), info_(std::move(info)), sink_(sink), whole_run_(sink->reads_any_whole_run()) {
  info_.quantum_ms = o_.quantum_ms;
  info_.percentiles = o_.percentiles;
  info_.confidence = o_.confidence;
  info_.resolutions = {1};
}

void HistogramReplay::SetSeriesLogs(const std::map<Key, int>& logs) {
  for (const auto& [series, n] : logs) AddSeries(series, n);
}

void HistogramReplay::AddSeries(const Key& series, int logs) {
  if (!series_logs_.emplace(series, logs).second) return;
  host_logs_[series.first] += logs;
  run_logs_ += logs;
}

int HistogramReplay::LogsOf(ScopeKind kind, const Key& key) const {
  if (kind == ScopeKind::kCluster) return run_logs_;
  if (kind == ScopeKind::kHost) {
    auto it = host_logs_.find(key.first);
    return it == host_logs_.end() ? 0 : it->second;
  }
  auto it = series_logs_.find(key);
  return it == series_logs_.end() ? 0 : it->second;
}

void HistogramReplay::AddTo(Sums* s, const StoredQuantum& q, int64_t covered_ms) {
  const size_t d = static_cast<size_t>(q.direction);
  if (q.direction == Direction::kAll) {
    s->all.Merge(q.histogram);
  } else {
    s->direction[d].Merge(q.histogram);
  }
  s->touched[d] = true;
  s->series[{q.host, q.job}] = true;
  s->covered_ms += covered_ms;
}

Status HistogramReplay::Add(const StoredQuantum& q) {
  const int64_t w = WindowOf(q.start_ms, o_.quantum_ms, info_.grid_origin_ms);
  if (!begun_) {
    begun_ = true;
    info_.first_quantum_ms = w;
    if (info_.start_ms == 0) info_.start_ms = q.start_ms;
    Status s = sink_->Begin(info_);
    if (!s.ok()) return s;
  }
  if (open_ && w != window_) {
    if (w < window_) return Status::Error("read-back: bucket documents out of time order");
    Status s = Flush(false);
    if (!s.ok()) return s;
  }
  window_ = w;
  open_ = true;
  last_end_ = std::max(last_end_, w + o_.quantum_ms);
  ++added_;
  AddSeries({q.host, q.job}, q.logs);
  // The documents of a series' directions in one quantum come one after another and say
  // the same coverage: it counts once.
  int64_t covered = 0;
  if (q.start_ms != last_start_ || q.host != last_host_ || q.job != last_job_) {
    covered = std::llround(q.coverage * q.logs * static_cast<double>(q.end_ms - q.start_ms));
    last_start_ = q.start_ms;
    last_host_ = q.host;
    last_job_ = q.job;
  }
  const Key keys[3] = {{"", ""}, {q.host, ""}, {q.host, q.job}};
  for (int k = 0; k < 3; ++k) {
    if (!o_.scopes[static_cast<size_t>(k)]) continue;
    if (k == 2 && q.job.empty()) return Status::Error("read-back: job scope needs job documents");
    if (k == 1 && q.host.empty()) return Status::Error("read-back: host scope needs host documents");
    AddTo(&window_sums_[k][keys[k]], q, covered);
    if (whole_run_) AddTo(&run_sums_[k][keys[k]], q, covered);
  }
  return Status();
}

Status HistogramReplay::EmitSums(const Sums& s, ScopeKind kind, const Key& key, bool whole_run) {
  ScopeResult base;
  base.start_ms = whole_run ? info_.first_quantum_ms : window_;
  base.end_ms = whole_run ? last_end_ : window_ + o_.quantum_ms;
  base.elapsed_s = static_cast<double>(base.start_ms - info_.first_quantum_ms) / 1000.0;
  base.kind = kind;
  base.host = key.first;
  base.job = key.second;
  base.logs = static_cast<int>(s.series.size());
  // Coverage against every log of the scope, as from the logs: bucket documents carry
  // theirs where it is below 1.
  SetCoverage(s.covered_ms, LogsOf(kind, key), base.end_ms - base.start_ms, &base);
  auto emit = [&](Direction d, const Histogram& h) {
    ScopeResult r = base;
    r.direction = d;
    r.histogram = &h;
    ComputeStats(h, info_.layout, o_.percentiles.values, &r.stats, o_.confidence);
    return whole_run ? sink_->WholeRun(r) : sink_->Quantum(r);
  };
  for (int d = 0; d < kLogDirections; ++d) {
    if (!s.touched[d] || !o_.directions[static_cast<size_t>(d)]) continue;
    Status st = emit(static_cast<Direction>(d), s.direction[d]);
    if (!st.ok()) return st;
  }
  if (!o_.directions[3]) return Status();
  scratch_.Clear();
  for (int d = 0; d < kLogDirections; ++d) scratch_.Merge(s.direction[d]);
  scratch_.Merge(s.all);
  return emit(Direction::kAll, scratch_);
}

Status HistogramReplay::Flush(bool whole_run) {
  auto& sums = whole_run ? run_sums_ : window_sums_;
  for (int k = 0; k < 3; ++k) {
    for (const auto& [key, s] : sums[k]) {
      Status st = EmitSums(s, static_cast<ScopeKind>(k), key, whole_run);
      if (!st.ok()) return st;
    }
    if (!whole_run) sums[k].clear();
  }
  open_ = false;
  return Status();
}

Status HistogramReplay::Finish() {
  if (!begun_) return Status::Error("read-back: no bucket documents matched");
  Status s = open_ ? Flush(false) : Status();
  if (s.ok() && whole_run_) s = Flush(true);
  if (!s.ok()) return s;
  RunSummary summary;
  summary.end_ms = last_end_;
  return sink_->End(summary);
}

}  // namespace fiohist
