#include "stats/stalls.h"

#include <algorithm>
#include <map>
#include <utility>

namespace fiohist {
namespace {

using Spans = std::vector<std::pair<int64_t, int64_t>>;  // sorted, disjoint [start, end)

// The instants in both `a` and `b`.
Spans Intersect(const Spans& a, const Spans& b) {
  Spans out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t lo = std::max(a[i].first, b[j].first);
    const int64_t hi = std::min(a[i].second, b[j].second);
    if (lo < hi) out.emplace_back(lo, hi);
    (a[i].second < b[j].second ? i : j)++;
  }
  return out;
}

// Where log `r` completed nothing: where every direction it has records of paused.
Spans QuietSpans(const LogReport& r) {
  bool first = true;
  Spans out;
  for (int d = 0; d < kLogDirections; ++d) {
    if (!r.has_direction[static_cast<size_t>(d)]) continue;
    Spans mine;
    for (const Pause& p : r.pauses) {
      if (static_cast<int>(p.direction) == d && p.start_ms < p.end_ms) {
        mine.emplace_back(p.start_ms, p.end_ms);
      }
    }
    out = first ? mine : Intersect(out, mine);
    first = false;
  }
  return out;
}

}  // namespace

std::vector<Stall> FindStalls(const std::vector<LogSource>& logs,
                              const std::vector<LogReport>& reports, const BucketLayout& layout,
                              int64_t min_ms, const std::vector<double>& idle_ms) {
  const std::vector<double>& edges = EdgesNs(layout);
  std::vector<Spans> quiet(reports.size());
  for (size_t i = 0; i < reports.size(); ++i) quiet[i] = QuietSpans(reports[i]);
  // Scopes: every host (by host index), then the cluster ("" as host, every log).
  std::map<int, std::vector<size_t>> hosts;
  for (size_t i = 0; i < reports.size() && i < logs.size(); ++i) {
    hosts[logs[i].host_index].push_back(i);
  }
  std::vector<std::pair<std::string, std::vector<size_t>>> scopes;
  std::vector<size_t> all;
  for (const auto& [index, members] : hosts) {
    scopes.emplace_back(logs[members.front()].host, members);
    all.insert(all.end(), members.begin(), members.end());
  }
  if (!all.empty()) scopes.emplace_back("", all);
  std::vector<Stall> out;
  for (const auto& [host, members] : scopes) {
    Spans spans = quiet[members.front()];
    for (size_t k = 1; k < members.size(); ++k) spans = Intersect(spans, quiet[members[k]]);
    for (const auto& [start, end] : spans) {
      if (end - start <= min_ms) continue;
      Stall s;
      s.host = host;
      s.start_ms = start;
      s.end_ms = end;
      // Idle where every log's job options explain a gap this long (docs/stalls.md).
      bool all_paced = !idle_ms.empty();
      for (size_t i : members) {
        all_paced = all_paced && i < idle_ms.size() &&
                    static_cast<double>(end - start) <= idle_ms[i];
        for (const Pause& p : reports[i].pauses) {
          // The pauses this stall is part of: they end with it or after it.
          if (p.start_ms > start || p.end_ms < end) continue;
          s.stuck_ios += p.stuck_ios;
          if (p.stuck_ios <= 0) continue;
          const size_t c = static_cast<size_t>(p.slowest_column) + 1;
          if (c < edges.size()) s.slowest_ns = std::max(s.slowest_ns, edges[c]);
        }
      }
      s.idle = all_paced;
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace fiohist
