#include "log/issue_stream.h"

#include <algorithm>
#include <cmath>

namespace fiohist {

std::vector<LatencyRange> ColumnLatencies(const BucketLayout& layout) {
  std::vector<LatencyRange> out(static_cast<size_t>(layout.columns()));
  for (int c = 0; c < layout.columns(); ++c) {
    LatencyRange& r = out[static_cast<size_t>(c)];
    r.lo_ms = layout.LowerNs(c) / 1e6;
    r.hi_ms = c == layout.top_column() ? r.lo_ms : layout.UpperNs(c) / 1e6;
  }
  return out;
}

int64_t CompleteTo(int64_t qe, int64_t last_ms, double slowest_ms) {
  const int64_t room = last_ms - qe;
  if (static_cast<double>(room) >= slowest_ms) return RecordStream::kCompleteToAll;
  return std::max<int64_t>(0, room);
}

IssueLogStream::IssueLogStream(const LogSource& source, const StreamSetup& setup)
    : inner_(source, setup),
      grid_(setup.grid_origin_ms, setup.grid_quantum_ms),
      latency_(ColumnLatencies(setup.layout)) {
  double h = 0;
  for (const LatencyRange& r : latency_) h = std::max(h, r.hi_ms);
  horizon_ms_ = static_cast<int64_t>(std::ceil(h)) + 1;
}

Status IssueLogStream::Prime() {
  Status s = inner_.Prime();
  if (!s.ok()) return s;
  // Read until the earliest quantum any I/O was issued in is known: next_start_ms() is then
  // where the file starts, not a horizon before.
  while (!inner_.done() && (pending_.empty() || inner_.next_start_ms() - horizon_ms_ <
                                                    grid_.Start(pending_.begin()->first))) {
    s = ReadAhead(inner_.next_start_ms() - horizon_ms_ + 1);
    if (!s.ok()) return s;
  }
  report_ = inner_.report();
  return Status();
}

int64_t IssueLogStream::next_start_ms() const {
  int64_t next = inner_.done() ? INT64_MAX : inner_.next_start_ms() - horizon_ms_;
  if (!pending_.empty()) next = std::min(next, grid_.Start(pending_.begin()->first));
  if (!covers_.empty()) next = std::min(next, grid_.Start(covers_.begin()->first));
  return next;
}

Status IssueLogStream::ReadAhead(int64_t until_ms) {
  while (!inner_.done() && inner_.next_start_ms() - horizon_ms_ < until_ms) {
    const int64_t q = std::max(inner_q_, grid_.IndexOf(inner_.next_start_ms()));
    for (Histogram& h : scratch_) h.Clear();
    scratch_touched_ = {};
    parts_.clear();
    Status s = inner_.Feed(grid_, q, &scratch_, &scratch_touched_, &parts_);
    if (!s.ok()) return s;
    inner_q_ = q + 1;
    Cover& c = covers_[q];
    c.covered_ms = inner_.covered_ms(q);
    c.touched = scratch_touched_;
    Spread(parts_);
  }
  return Status();
}

void IssueLogStream::Spread(const std::vector<PlacedRecord>& parts) {
  for (const PlacedRecord& p : parts) {
    const size_t d = static_cast<size_t>(p.direction);
    last_end_[d] = std::max(last_end_[d], p.span.end_ms);
    for (const auto& [column, count] : p.counts) {
      const LatencyRange& lat = latency_[column];
      slowest_ms_ = std::max(slowest_ms_, lat.hi_ms);
      int64_t first, last;
      IssueQuanta(grid_, p.span, lat, &first, &last);
      for (int64_t q = first; q <= last; ++q) {
        const double w = IssueWeight(grid_, p.span, lat, q);
        if (w > 0) pending_[q].push_back(Entry{p.direction, column, count, w});
      }
    }
  }
}

Status IssueLogStream::Feed(const QuantumGrid& grid, int64_t q, DirectionSums* out,
                            DirectionFlags* touched, std::vector<PlacedRecord>*) {
  Status s = ReadAhead(grid.End(q));
  if (!s.ok()) return s;
  covered_q_ = q;
  covered_ = 0;
  straddled_ = {};
  // Entries of quanta before q were issued further back than the horizon (fio's last
  // bucket): placed here, and counted.
  while (!pending_.empty() && pending_.begin()->first <= q) {
    const bool late = pending_.begin()->first < q;
    for (const Entry& e : pending_.begin()->second) {
      const size_t d = static_cast<size_t>(e.direction);
      one_.assign(1, {e.column, e.count});
      (*out)[d].AddWeighted(one_, e.weight);
      if (observer_) observer_(e.direction, one_, e.weight);
      (*touched)[d] = true;
      const double n = static_cast<double>(e.count);
      if (late) late_ios_ += n * e.weight;
      straddled_[d] += std::min(e.weight, 1 - e.weight) * n;
    }
    pending_.erase(pending_.begin());
  }
  while (!covers_.empty() && covers_.begin()->first <= q) {
    if (covers_.begin()->first == q) {
      covered_ = covers_.begin()->second.covered_ms;
      for (size_t d = 0; d < kLogDirections; ++d) {
        (*touched)[d] = (*touched)[d] || covers_.begin()->second.touched[d];
      }
    }
    covers_.erase(covers_.begin());
  }
  complete_to_ = kCompleteToAll;
  if (inner_.done()) {
    int64_t last = INT64_MAX;
    for (int64_t t : last_end_) {
      if (t != INT64_MIN) last = std::min(last, t);
    }
    if (last != INT64_MAX) complete_to_ = CompleteTo(grid.End(q), last, slowest_ms_);
  }
  report_ = inner_.report();
  report_.late_ios += late_ios_;
  return Status();
}

}  // namespace fiohist
