#include "stats/run_cells.h"

#include <algorithm>
#include <set>

namespace fiohist {

Histogram RunCells::Whole() const {
  Histogram h;
  for (const std::vector<Histogram>& q : cells) {
    for (const Histogram& c : q) h.Merge(c);
  }
  return h;
}

Status RunCellsSink::Begin(const RunInfo& info) {
  layout_ = info.layout;
  quantum_ms_ = info.quantum_ms;
  return Status();
}

Status RunCellsSink::Quantum(const ScopeResult& r) {
  if (r.resolution != 1) return Status();
  if (quanta_.empty() || quanta_.back().start_ms != r.start_ms) {
    quanta_.emplace_back();
    quanta_.back().start_ms = r.start_ms;
    quanta_.back().end_ms = r.end_ms;
    ++seen_;
  }
  Slot& q = quanta_.back();
  if (r.kind == ScopeKind::kCluster) {
    if (r.partial && !q.partial) ++partial_;
    q.partial = q.partial || r.partial;
  } else if (r.kind == ScopeKind::kHost && r.histogram != nullptr) {
    // `all` is the sum of the real directions, which come before it: kept only where
    // nothing else was stored.
    if (r.direction == Direction::kAll &&
        (q.hosts.count({Direction::kRead, r.host}) || q.hosts.count({Direction::kWrite, r.host}) ||
         q.hosts.count({Direction::kTrim, r.host}))) {
      return Status();
    }
    hosts_[r.host] = true;
    q.hosts[{r.direction, r.host}].Merge(*r.histogram);
  }
  return Status();
}

std::vector<Direction> RunCellsSink::directions() const {
  std::set<Direction> seen;
  for (const Slot& q : quanta_) {
    if (q.partial) continue;
    for (const auto& [key, h] : q.hosts) {
      if (h.total() > 0) seen.insert(key.first);
    }
  }
  // `all` is the sum of the real directions: compared only where nothing else was stored.
  if (seen.size() > 1) seen.erase(Direction::kAll);
  return std::vector<Direction>(seen.begin(), seen.end());
}

Status RunCellsSink::Take(Direction direction, RunCells* cells) const {
  *cells = RunCells();
  cells->run = run_;
  cells->layout = layout_;
  cells->quantum_ms = quantum_ms_;
  cells->direction = direction;
  for (const auto& [host, unused] : hosts_) cells->hosts.push_back(host);
  if (quanta_.empty()) return Status::Error("run '" + run_ + "': no quanta");
  const int64_t first = quanta_.front().start_ms, last = quanta_.back().end_ms;
  cells->first_quantum_ms = first;
  for (const Slot& q : quanta_) {
    const int64_t t = window_.relative ? q.start_ms - first : q.start_ms;
    if (q.partial || q.start_ms < first + window_.skip_start_ms ||
        q.end_ms > last - window_.skip_end_ms || t < window_.from_ms || t >= window_.to_ms) {
      continue;
    }
    std::vector<Histogram> row(cells->hosts.size());
    for (size_t h = 0; h < cells->hosts.size(); ++h) {
      auto it = q.hosts.find({direction, cells->hosts[h]});
      if (it != q.hosts.end()) row[h] = it->second;
    }
    cells->starts_ms.push_back(q.start_ms);
    cells->cells.push_back(std::move(row));
  }
  if (cells->cells.empty()) {
    return Status::Error("run '" + run_ + "': no full quantum left (" + std::to_string(seen_) +
                         " quanta, " + std::to_string(partial_) +
                         " partial, the rest cut by the ramp or window options)");
  }
  return Status();
}

}  // namespace fiohist

namespace fiohist {

Status RunCellsSink::TakeAll(RunData* run) const {
  run->run = run_;
  run->directions.clear();
  for (const Direction d : directions()) {
    run->directions.emplace_back();
    Status s = Take(d, &run->directions.back());
    if (!s.ok()) return s;
  }
  if (run->directions.empty()) {
    return Status::Error("run '" + run_ + "': no I/O in any full quantum (" +
                         std::to_string(seen_) + " quanta, " + std::to_string(partial_) +
                         " partial)");
  }
  return Status();
}

QuantumWindow BaselineWindow(const QuantumWindow& window, const RunData& run) {
  if (!window.windowed() || window.relative || run.directions.empty()) return window;
  QuantumWindow w = window;
  const int64_t first = run.directions.front().first_quantum_ms;
  if (w.from_ms != INT64_MIN) w.from_ms -= first;
  if (w.to_ms != INT64_MAX) w.to_ms -= first;
  w.relative = true;
  return w;
}

}  // namespace fiohist
