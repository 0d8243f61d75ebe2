#include "stats/accuracy_windows.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace fiohist {

Status ParseAccuracyTarget(const std::string& text, AccuracyTarget* target) {
  const std::string expected =
      "--accuracy: expected PERCENTILE=PERCENT% such as p99=10%, got '" + text + "'";
  const size_t eq = text.find('=');
  if (eq == std::string::npos) return Status::Error(expected);
  std::string p = text.substr(0, eq);
  std::string a = text.substr(eq + 1);
  if (!p.empty() && (p[0] == 'p' || p[0] == 'P')) p.erase(0, 1);
  if (p.empty() || a.size() < 2 || a.back() != '%') {
    return Status::Error(expected + (a.empty() || a.back() != '%'
                                         ? " (the accuracy is a percentage: end it with %)"
                                         : ""));
  }
  a.pop_back();
  char* end = nullptr;
  const double pv = std::strtod(p.c_str(), &end);
  if (*end != '\0' || !(pv >= 0 && pv <= 100)) {
    return Status::Error(expected + " (the percentile must be 0 to 100)");
  }
  const double av = std::strtod(a.c_str(), &end);
  if (*end != '\0' || !(av > 0 && av < 100)) {
    return Status::Error(expected + " (the accuracy must be above 0% and below 100%)");
  }
  target->percentile = pv;
  target->relative = av / 100.0;
  return Status();
}

std::string FormatPercentile(double percentile) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%g", percentile);
  return buf;
}

bool MeetsAccuracy(const LatencyStats& s, const std::vector<AccuracyTarget>& targets,
                   const std::vector<size_t>& indices) {
  if (s.samples <= 0) return false;
  for (size_t t = 0; t < targets.size(); ++t) {
    const size_t i = indices[t];
    if (i >= s.percentile_ns.size() || i >= s.few_ios.size() || s.few_ios[i]) return false;
    const double v = s.percentile_ns[i];
    const double a = targets[t].relative;
    if (!(s.percentile_low_ns[i] >= v * (1 - a) && s.percentile_high_ns[i] <= v * (1 + a))) {
      return false;
    }
  }
  return true;
}

WindowBuilder::WindowBuilder(const BucketLayout& layout, std::vector<double> percentiles,
                             double confidence, std::vector<AccuracyTarget> targets,
                             std::vector<size_t> indices, int max_quanta)
    : layout_(layout),
      percentiles_(std::move(percentiles)),
      confidence_(confidence),
      targets_(std::move(targets)),
      indices_(std::move(indices)),
      max_quanta_(max_quanta) {}

bool WindowBuilder::Add(const Histogram& quantum) {
  if (closed_) {
    sum_.Clear();
    quanta_ = 0;
    closed_ = false;
  }
  sum_.Merge(quantum);
  ++quanta_;
  ComputeStats(sum_, layout_, percentiles_, &stats_, confidence_);
  const bool met = MeetsAccuracy(stats_, targets_, indices_);
  if (met || quanta_ >= max_quanta_) {
    Close(met);
    return true;
  }
  return false;
}

bool WindowBuilder::Finish() {
  if (closed_ || quanta_ == 0) return false;
  Close(MeetsAccuracy(stats_, targets_, indices_));
  return true;
}

void WindowBuilder::Close(bool accurate) {
  done_quanta_ = quanta_;
  accurate_ = accurate;
  closed_ = true;
}

AccuracyWindowSink::AccuracyWindowSink(ResultSink* next, std::vector<AccuracyTarget> targets,
                                       int max_quanta)
    : next_(next), targets_(std::move(targets)), max_quanta_(max_quanta) {}

Status AccuracyWindowSink::Begin(const RunInfo& info) {
  info_ = info;
  indices_.clear();
  for (const AccuracyTarget& t : targets_) {
    const auto& v = info.percentiles.values;
    const auto it = std::find(v.begin(), v.end(), t.percentile);
    if (it == v.end()) {
      return Status::Error("--accuracy: p" + FormatPercentile(t.percentile) +
                           " is not among the percentiles computed (add it to --percentiles)");
    }
    indices_.push_back(static_cast<size_t>(it - v.begin()));
  }
  return next_->Begin(info);
}

Status AccuracyWindowSink::Emit(Open* open, const ScopeResult& last) {
  const WindowBuilder& b = *open->builder;
  ScopeResult w = open->first;
  w.end_ms = last.end_ms;
  w.resolution = b.quanta();
  w.stats = b.stats();
  w.histogram = &b.histogram();
  w.logs = open->max_logs;
  w.coverage = open->coverage_sum / b.quanta();
  w.partial = open->partial;
  w.straddled = -1;
  w.records = nullptr;
  w.prepared.clear();
  if (!b.accurate()) inaccurate_.push_back(w);
  return next_->Quantum(w);
}

Status AccuracyWindowSink::Quantum(const ScopeResult& r) {
  if (r.kind != ScopeKind::kCluster || r.resolution != 1 || r.histogram == nullptr) {
    return Status();
  }
  Open& open = open_[r.direction];
  if (!open.builder) {
    open.builder = std::make_unique<WindowBuilder>(info_.layout, info_.percentiles.values,
                                                   info_.confidence, targets_, indices_,
                                                   max_quanta_);
  }
  if (open.quanta++ == 0) open.first = r;
  open.last_end_ms = r.end_ms;
  open.max_logs = std::max(open.max_logs, r.logs);
  open.coverage_sum += r.coverage;
  open.partial = open.partial || r.partial;
  if (!open.builder->Add(*r.histogram)) return Status();
  Status s = Emit(&open, r);
  open.quanta = 0;
  open.max_logs = 0;
  open.coverage_sum = 0;
  open.partial = false;
  return s;
}

Status AccuracyWindowSink::WholeRun(const ScopeResult& result) { return next_->WholeRun(result); }

Status AccuracyWindowSink::End(const RunSummary& summary) {
  for (auto& [direction, open] : open_) {
    if (!open.builder->Finish()) continue;
    ScopeResult last = open.first;
    last.end_ms = open.last_end_ms;
    Status s = Emit(&open, last);
    if (!s.ok()) return s;
  }
  return next_->End(summary);
}

}  // namespace fiohist
