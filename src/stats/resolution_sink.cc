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

int DefaultJobResolution(const std::vector<int>& multiples) {
  return multiples.empty() ? 1 : multiples.front();
}

Status ParseJobResolution(const std::string& text, const std::vector<int>& multiples,
                          int* job_resolution) {
  if (text.empty()) {
    *job_resolution = DefaultJobResolution(multiples);
    return Status();
  }
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (*end == '\0' &&
      (v == 1 || std::find(multiples.begin(), multiples.end(), v) != multiples.end())) {
    *job_resolution = static_cast<int>(v);
    return Status();
  }
  std::string allowed = "1";
  for (int m : multiples) allowed += ", " + std::to_string(m);
  return Status::Error("--job-resolution: expected one of " + allowed +
                       " (1 or one of --resolutions), got '" + text + "'");
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
  // Per level: a closed window not handed on yet (ResolutionSink::Emit), with its own copy
  // of the histogram.
  struct Held {
    bool any = false;
    ScopeResult result;
    Histogram histogram;
  };
  std::vector<Held> held;
  size_t order = 0;  // index in order_
};

// Whether the windows of `level` are handed on as they close (their level is written and
// so is one above, or this is the coarsest asked for): else they are held (Emit).
bool ResolutionSink::Decided(size_t level) const {
  bool above = level + 1 >= multiples_.size();
  for (size_t l = level + 1; !above && l < multiples_.size(); ++l) above = Kept(l);
  return Kept(level) && above;
}

Status ResolutionSink::CloseBefore(Entity& e, int64_t start_ms) {
  for (size_t level = 0; level < multiples_.size(); ++level) {
    const QuantumGrid grid(info_.grid_origin_ms, info_.quantum_ms * multiples_[level]);
    const int64_t window_start = grid.Start(grid.IndexOf(start_ms));
    for (Series* s : e.series) {
      if (s == nullptr || !s->windows[level].open || s->windows[level].start_ms == window_start) {
        continue;
      }
      Status st = Close(*s, level);
      if (!st.ok()) return st;
    }
    // A direction without a window at this level since its held one: handed on with the
    // others' (Emit releases a held window when the next one of its own series closes).
    if (!Decided(level)) continue;
    for (Series* s : e.series) {
      if (s == nullptr) continue;
      Status st = Release(*s, level, false);
      if (!st.ok()) return st;
    }
  }
  return Status();
}

ResolutionSink::ResolutionSink(ResultSink* inner, std::vector<int> multiples, int job_resolution)
    : inner_(inner), multiples_(std::move(multiples)), job_resolution_(job_resolution) {
  if (std::find(multiples_.begin(), multiples_.end(), job_resolution_) == multiples_.end()) {
    job_resolution_ = 1;  // not one of the levels: every job result is for documents
  }
}

ResolutionSink::~ResolutionSink() = default;

Status ResolutionSink::Begin(const RunInfo& info) {
  info_ = info;
  info_.resolutions = {1};
  info_.resolutions.insert(info_.resolutions.end(), multiples_.begin(), multiples_.end());
  info_.job_resolution = job_resolution_;
  spans_.assign(multiples_.size(), Span());
  return inner_->Begin(info_);
}

Status ResolutionSink::Quantum(const ScopeResult& r) {
  Status s = inner_->Quantum(r);
  if (!s.ok() || multiples_.empty()) return s;
  std::unique_ptr<Series>& slot = series_[Key(r.kind, r.direction, r.host, r.job)];
  Entity& entity = entities_[Key(r.kind, Direction::kAll, r.host, r.job)];
  if (!slot) {
    slot = std::make_unique<Series>();
    slot->key.kind = r.kind;
    slot->key.host = r.host;
    slot->key.job = r.job;
    slot->key.direction = r.direction;
    slot->windows.resize(multiples_.size());
    slot->held.resize(multiples_.size());
    slot->order = order_.size();
    order_.push_back(slot.get());
    entity.series[static_cast<size_t>(r.direction)] = slot.get();
  }
  // The windows each level has within the run, from the quanta themselves: complete once
  // the last quantum is in (End, or JobDone after every cluster quantum), before any
  // window's fate is decided.
  for (size_t level = 0; level < multiples_.size(); ++level) {
    const QuantumGrid grid(info_.grid_origin_ms, info_.quantum_ms * multiples_[level]);
    spans_[level].See(grid.Start(grid.IndexOf(r.start_ms)));
  }
  Status st = CloseBefore(entity, r.start_ms);
  if (!st.ok()) return st;
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

Status ResolutionSink::Close(Series& s, size_t level, bool widest, bool emit) {
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
  const Part up{w.covered_ms, w.quanta, r.partial};
  Status st = emit ? Emit(s, level, std::move(r)) : Status();
  if (!st.ok()) return st;
  if (level + 1 < multiples_.size() && !widest) {
    return Add(s, level + 1, w.start_ms, &w.histogram, w.logs, up);
  }
  return Status();
}

int64_t ResolutionSink::Count(size_t level) const {
  const Span& span = spans_[level];
  if (!span.any) return 0;
  return (span.last_ms - span.first_ms) / (info_.quantum_ms * multiples_[level]) + 1;
}

bool ResolutionSink::Widest(size_t level) const {
  if (!Kept(level) || level + 1 >= multiples_.size()) return false;
  for (size_t above = level + 1; above < multiples_.size(); ++above) {
    if (Kept(above)) return false;
  }
  return true;
}

int ResolutionSink::FinerKept(size_t level) const {
  while (level-- > 0) {
    if (Kept(level)) return multiples_[level];
  }
  return 1;
}

int ResolutionSink::ZoomFrom(const Series& s, size_t level) const {
  // The job scope's finest percentiles are drawn from interval 0.
  return s.key.kind == ScopeKind::kJob && multiples_[level] == job_resolution_ ? 0
                                                                               : FinerKept(level);
}

Status ResolutionSink::Emit(Series& s, size_t level, ScopeResult r) {
  // Written for sure, and not the widest (a level above is written): hand it on now. A
  // level above is written once it has fewer windows, which a level of three or more
  // windows always has: so only a first window waits. Job windows finer than the job
  // resolution are only summed.
  if (s.key.kind == ScopeKind::kJob && multiples_[level] < job_resolution_) return Status();
  Series::Held& h = s.held[level];
  if (!r.widest && !Decided(level)) {
    if (h.any) {  // never two (see above); hand the older on rather than lose it
      Status st = Release(s, level, false);
      if (!st.ok()) return st;
    }
    h.any = true;
    h.histogram = *r.histogram;
    h.result = std::move(r);
    h.result.histogram = &h.histogram;
    return Status();
  }
  Status st = Release(s, level, false);
  if (!st.ok()) return st;
  r.zoom_from = ZoomFrom(s, level);
  st = inner_->Quantum(r);
  if (st.ok()) ++coarse_results_;
  return st;
}

Status ResolutionSink::Release(Series& s, size_t level, bool widest) {
  Series::Held& h = s.held[level];
  if (!h.any) return Status();
  h.any = false;
  if (s.key.kind == ScopeKind::kJob && multiples_[level] < job_resolution_) return Status();
  h.result.widest = widest;
  h.result.zoom_from = ZoomFrom(s, level);
  Status st = inner_->Quantum(h.result);
  if (st.ok()) ++coarse_results_;
  return st;
}

Status ResolutionSink::Finish(Series& s, size_t level) {
  if (!Kept(level)) {           // windows with the boundaries of a finer level's: left out, but
    s.held[level].any = false;  // summed into the next level all the same
    return s.windows[level].open ? Close(s, level, false, false) : Status();
  }
  const bool widest = Widest(level);
  Status st = Release(s, level, widest);
  if (!st.ok() || !s.windows[level].open) return st;
  return Close(s, level, widest);
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
  entities_.erase(Key(ScopeKind::kJob, Direction::kAll, host, job));
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
