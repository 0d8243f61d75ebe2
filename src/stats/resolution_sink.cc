#include "stats/resolution_sink.h"

#include <algorithm>
#include <cstdlib>

#include "log/quantum_grid.h"

namespace fiohist {

const std::vector<int>& DefaultCoarseResolutions() {
  static const std::vector<int> multiples = {10, 60, 600, 3600, 36000};
  return multiples;
}

Status CheckResolutions(const std::vector<int>& multiples) {
  int before = 1;
  for (int m : multiples) {
    if (m <= before || m % before != 0) {
      return Status::Error(
          "--resolutions: each must be a multiple of the one before it (and of "
          "1, the quantum), ascending; got " +
          std::to_string(m) + " after " + std::to_string(before));
    }
    before = m;
  }
  return Status();
}

Status ParseResolutions(const std::string& text, std::vector<int>* multiples) {
  multiples->clear();
  if (text == "none") return Status();
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string part = text.substr(at, comma - at);
    char* end = nullptr;
    const long v = std::strtol(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || v < 2 || v > 100000000) {
      return Status::Error(
          "--resolutions: expected whole multiples of the quantum like "
          "10,60,600 (or 'none'), got '" +
          text + "'");
    }
    multiples->push_back(static_cast<int>(v));
    at = comma + 1;
  }
  return CheckResolutions(*multiples);
}

// One scope and direction: its key fields and an open window per level.
struct ResolutionSink::Series {
  struct Window {
    bool open = false;
    int64_t start_ms = 0;
    Histogram histogram;
    int logs = 0;  // the most of any part: a lower bound of the logs in the window
    // Coverage of the parts times their length (ms), the quanta they hold, and whether any
    // is partial: a window missing a quantum, or holding a partial one, is partial.
    double covered_ms = 0;
    int64_t quanta = 0;
    bool partial = false;
  };
  ScopeResult key;  // kind, host, job, direction
  std::vector<Window> windows;
  size_t order = 0;  // index in order_
};

ResolutionSink::ResolutionSink(ResultSink* inner, std::vector<int> multiples)
    : inner_(inner), multiples_(std::move(multiples)) {}

ResolutionSink::~ResolutionSink() = default;

Status ResolutionSink::Begin(const RunInfo& info) {
  info_ = info;
  info_.resolutions = {1};
  info_.resolutions.insert(info_.resolutions.end(), multiples_.begin(), multiples_.end());
  spans_.assign(multiples_.size(), Span());
  return inner_->Begin(info_);
}

Status ResolutionSink::Quantum(const ScopeResult& r) {
  Status s = inner_->Quantum(r);
  if (!s.ok() || multiples_.empty()) return s;
  std::unique_ptr<Series>& slot = series_[Key(r.kind, r.direction, r.host, r.job)];
  if (!slot) {
    slot = std::make_unique<Series>();
    slot->key.kind = r.kind;
    slot->key.host = r.host;
    slot->key.job = r.job;
    slot->key.direction = r.direction;
    slot->windows.resize(multiples_.size());
    slot->order = order_.size();
    order_.push_back(slot.get());
  }
  const Part part{r.coverage * static_cast<double>(info_.quantum_ms), 1, r.partial};
  return Add(*slot, 0, r.start_ms, r.histogram, r.logs, part);
}

std::string ResolutionSink::Key(ScopeKind kind, Direction direction, const std::string& host,
                                const std::string& job) {
  std::string key;
  key.reserve(host.size() + job.size() + 3);
  key += static_cast<char>(kind);
  key += static_cast<char>(direction);
  key += host;
  key += '\x1f';
  key += job;
  return key;
}

Status ResolutionSink::Add(Series& s, size_t level, int64_t start_ms, const Histogram* h, int logs,
                           const Part& part) {
  Series::Window& w = s.windows[level];
  const QuantumGrid grid(info_.grid_origin_ms, info_.quantum_ms * multiples_[level]);
  const int64_t window_start = grid.Start(grid.IndexOf(start_ms));
  spans_[level].See(window_start);
  if (w.open && w.start_ms != window_start) {
    Status st = Close(s, level);
    if (!st.ok()) return st;
  }
  if (!w.open) {
    w.open = true;
    w.start_ms = window_start;
    w.histogram.Clear();
    w.logs = 0;
    w.covered_ms = 0;
    w.quanta = 0;
    w.partial = false;
  }
  if (h != nullptr) w.histogram.Merge(*h);
  w.logs = std::max(w.logs, logs);
  w.covered_ms += part.covered_ms;
  w.quanta += part.quanta;
  w.partial = w.partial || part.partial;
  return Status();
}

Status ResolutionSink::Close(Series& s, size_t level, bool widest) {
  Series::Window& w = s.windows[level];
  w.open = false;
  const int64_t length = info_.quantum_ms * multiples_[level];
  ScopeResult r = s.key;
  r.start_ms = w.start_ms;
  r.end_ms = w.start_ms + length;
  r.elapsed_s = static_cast<double>(w.start_ms - info_.first_quantum_ms) / 1000.0;
  r.logs = w.logs;
  r.resolution = multiples_[level];
  r.coverage = std::min(1.0, w.covered_ms / static_cast<double>(length));
  r.partial = w.partial || w.quanta < multiples_[level];
  r.straddled = -1;  // its quanta's shares count inner edges too: not the window's
  r.complete_to_ms = INT64_MAX;  // --place issue: `partial` says a quantum of it lacks I/Os
  r.histogram = &w.histogram;
  r.widest = widest;
  ComputeStats(w.histogram, info_.layout, info_.percentiles.values, &r.stats, info_.confidence);
  Status st = inner_->Quantum(r);
  if (!st.ok()) return st;
  ++coarse_results_;
  if (level + 1 < multiples_.size() && !widest) {
    return Add(s, level + 1, w.start_ms, &w.histogram, w.logs,
               Part{w.covered_ms, w.quanta, r.partial});
  }
  return Status();
}

Status ResolutionSink::Finish(Series& s, size_t level) {
  if (!s.windows[level].open) return Status();
  if (!Kept(level)) {  // one window holding what the widest written one holds
    s.windows[level].open = false;
    return Status();
  }
  return Close(s, level, Widest(level));
}

Status ResolutionSink::JobDone(const std::string& host, const std::string& job) {
  for (Direction d : kAllDirections) {
    auto it = series_.find(Key(ScopeKind::kJob, d, host, job));
    if (it == series_.end()) continue;
    // Finest level first, as at the end of the run.
    for (size_t level = 0; level < multiples_.size(); ++level) {
      Status st = Finish(*it->second, level);
      if (!st.ok()) return st;
    }
    order_[it->second->order] = nullptr;
    series_.erase(it);
  }
  return inner_->JobDone(host, job);
}

Status ResolutionSink::End(const RunSummary& summary) {
  RunSummary out = summary;
  out.resolutions = {1};
  // Finest level first, so that each window reaches the next level before that one closes,
  // and the level below is complete when a level's fate is decided.
  for (size_t level = 0; level < multiples_.size(); ++level) {
    if (Kept(level)) out.resolutions.push_back(multiples_[level]);
    for (Series* s : order_) {
      if (s == nullptr) continue;
      Status st = Finish(*s, level);
      if (!st.ok()) return st;
    }
  }
  return inner_->End(out);
}

}  // namespace fiohist
