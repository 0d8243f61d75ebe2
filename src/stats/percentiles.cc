#include "stats/percentiles.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <sstream>
#include <utility>

namespace fiohist {
namespace {

std::string FormatPercentile(double p) {
  std::ostringstream s;
  s.precision(10);
  s << p;
  return s.str();
}

// The column of the bucket holding running count `position`: the first whose running count
// reaches it (less a relative 1e-12, for sums of fractions).
// Running counts after each non-empty bucket, with the bucket's column.
struct Running {
  const std::pair<double, int>* begin;
  const std::pair<double, int>* end;
};

int ColumnAt(const Running& running, double position) {
  const double want = position * (1 - 1e-12);
  auto it = std::lower_bound(running.begin, running.end, want,
                             [](const std::pair<double, int>& e, double v) { return e.first < v; });
  if (it == running.end) --it;
  return it->second;
}

// Maps each percentile's interval ranks onto the buckets (see LatencyStats).
void SetIntervals(double total, const std::vector<double>& percentiles, double confidence,
                  const std::vector<double>& edges, const Running& running, LatencyStats* s) {
  const int64_t ios = WholeIos(total);
  s->interval_ios = ios;
  if (ios <= 0) {
    for (size_t i = 0; i < percentiles.size(); ++i) {
      s->percentile_low_ns[i] = 0;
      s->percentile_high_ns[i] = s->max_ns;
    }
    return;
  }
  const double scale = total / static_cast<double>(ios);
  auto column = [&](int64_t rank) {
    return ColumnAt(running, static_cast<double>(rank) * scale);
  };
  // The bucket of a rank: -1 for rank 0 (the bound is 0) and for ranks past the last I/O
  // (no upper bound).
  auto low_column_of = [&](int64_t rank) { return rank <= 0 ? -1 : column(rank); };
  auto high_column_of = [&](int64_t rank) { return rank > ios ? -1 : column(rank); };
  for (size_t i = 0; i < percentiles.size(); ++i) {
    const double p = percentiles[i] / 100;
    // The bracket holds each exact rank; where it spans buckets, bisecting over it with one
    // cdf evaluation a step finds the bound's bucket (the rank itself is not needed).
    const RankBracket b = QuantileRankBracket(ios, p, confidence);
    int64_t lo = b.lower_min, past = b.lower_max + 1;  // lower rank in [lo, past)
    while (low_column_of(lo) != low_column_of(past - 1)) {
      const int64_t m = lo + (past - lo) / 2;
      (LowerRankAtLeast(ios, p, confidence, m) ? lo : past) = m;
    }
    const int low_column = low_column_of(lo);
    s->percentile_low_ns[i] = low_column < 0 ? 0.0 : edges[static_cast<size_t>(low_column)];
    int64_t below = b.upper_min - 1, hi = b.upper_max;  // upper rank in (below, hi]
    while (high_column_of(below + 1) != high_column_of(hi)) {
      const int64_t m = below + (hi - below + 1) / 2;
      (UpperRankAtMost(ios, p, confidence, m) ? hi : below) = m;
    }
    const int high_column = high_column_of(hi);
    s->few_ios[i] = high_column < 0;
    s->percentile_high_ns[i] =
        high_column < 0 ? s->max_ns : edges[static_cast<size_t>(high_column) + 1];
  }
}

}  // namespace

PercentileList DefaultPercentiles() {
  PercentileList list;
  MakePercentiles({50, 90, 95, 99, 99.9, 99.99}, &list);
  return list;
}

std::string FieldNameOf(const std::string& name) {
  std::string field = name;
  std::replace(field.begin(), field.end(), '.', '_');
  return field;
}

Status MakePercentiles(const std::vector<double>& values, PercentileList* list) {
  PercentileList out;
  for (double p : values) {
    if (!(p >= 0 && p <= 100)) {
      return Status::Error("percentiles must lie in [0, 100], got " + FormatPercentile(p));
    }
    if (std::find(out.values.begin(), out.values.end(), p) != out.values.end()) {
      return Status::Error("percentile " + FormatPercentile(p) + " is given twice");
    }
    out.values.push_back(p);
    const std::string text = FormatPercentile(p);
    out.names.push_back("p" + text);
    out.field_names.push_back(FieldNameOf(out.names.back()));
  }
  if (out.values.empty()) return Status::Error("no percentiles given");
  *list = std::move(out);
  return Status();
}

Status ParsePercentiles(const std::string& text, PercentileList* list) {
  std::vector<double> values;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t start = text.find_first_not_of(", ", pos);
    if (start == std::string::npos) break;
    size_t end = text.find_first_of(", ", start);
    if (end == std::string::npos) end = text.size();
    const std::string token = text.substr(start, end - start);
    char* rest = nullptr;
    const double v = std::strtod(token.c_str(), &rest);
    if (rest == token.c_str() || *rest != '\0' || !std::isfinite(v)) {
      return Status::Error("--percentiles: expected numbers such as 50,99,99.9, got '" + token +
                           "'");
    }
    values.push_back(v);
    pos = end;
  }
  return MakePercentiles(values, list);
}

LatencyStats ComputeStats(const Histogram& h, const BucketLayout& layout,
                          const std::vector<double>& percentiles, double confidence) {
  LatencyStats s;
  ComputeStats(h, layout, percentiles, &s, confidence);
  return s;
}

void ComputeSamplesOnly(const Histogram& h, LatencyStats* stats, double confidence) {
  LatencyStats& s = *stats;
  s.min_ns = s.mean_ns = s.max_ns = s.top_bucket = 0;
  s.max_lower_bound = false;
  s.interval_ios = 0;
  s.confidence = confidence;
  s.percentile_ns.clear();
  s.lower_bound.clear();
  s.percentile_low_ns.clear();
  s.percentile_high_ns.clear();
  s.few_ios.clear();
  const double total = h.total();
  s.samples = total > 0 ? total : 0;
}

void ComputeStats(const Histogram& h, const BucketLayout& layout,
                  const std::vector<double>& percentiles, LatencyStats* stats,
                  double confidence) {
  LatencyStats& s = *stats;
  s.samples = s.min_ns = s.mean_ns = s.max_ns = s.top_bucket = 0;
  s.max_lower_bound = false;
  s.interval_ios = 0;
  s.confidence = confidence;
  s.percentile_ns.assign(percentiles.size(), 0.0);
  s.lower_bound.assign(percentiles.size(), false);
  // confidence 0 (kNoIntervals): point estimates only, the interval vectors stay empty.
  const size_t bounded = confidence > 0 ? percentiles.size() : 0;
  s.percentile_low_ns.assign(bounded, 0.0);
  s.percentile_high_ns.assign(bounded, 0.0);
  s.few_ios.assign(bounded, true);
  const std::vector<double>& edges = EdgesNs(layout);
  const int top = layout.top_column();
  // Wanted percentiles in increasing order, so one walk over the buckets finds them all.
  const size_t n = percentiles.size();
  size_t order_small[16];
  std::vector<size_t> order_big;
  size_t* order = order_small;
  if (n > 16) {
    order_big.resize(n);
    order = order_big.data();
  }
  for (size_t i = 0; i < n; ++i) order[i] = i;
  if (!std::is_sorted(percentiles.begin(), percentiles.end())) {  // they usually are
    std::sort(order, order + n,
              [&](size_t a, size_t b) { return percentiles[a] < percentiles[b]; });
  }

  // The histogram keeps its total as counts are added (in a fixed order, so results stay
  // deterministic): one walk over the buckets instead of two.
  const double total = h.total();
  if (!(total > 0)) return;
  s.samples = total;
  // The running count at which the next wanted percentile is reached (p = 100 never is:
  // it is the upper edge of the last bucket, set after the walk).
  size_t next = 0;
  auto target_of = [&](size_t k) {
    const double p = percentiles[order[k]];
    return p >= 100 ? std::numeric_limits<double>::infinity() : p / 100.0 * total;
  };
  double target = n > 0 ? target_of(0) : std::numeric_limits<double>::infinity();
  int first = -1, last = -1;
  double before = 0, weighted = 0;
  // Running count after each non-empty bucket, for placing the intervals' ranks. Written
  // through a pointer into storage sized once: a push_back in this loop (a possible call)
  // kept the sums below in memory, a store-to-load chain per bucket (16 % of this
  // function's time in one instruction).
  thread_local std::vector<std::pair<double, int>> running_storage;
  const size_t most = static_cast<size_t>(h.end_column() - h.begin_column());
  if (running_storage.size() < most) running_storage.resize(most);
  std::pair<double, int>* const running = running_storage.data();
  size_t running_n = 0;
  h.ForEachNonZero([&](int column, double count) {
    if (count <= 0) return;
    const double lo = edges[static_cast<size_t>(column)];
    const double hi = edges[static_cast<size_t>(column) + 1];
    if (first < 0) {
      first = column;
      // p = 0 is the lower edge of the first non-empty bucket.
      while (next < n && percentiles[order[next]] <= 0) {
        s.percentile_ns[order[next]] = lo;
        s.lower_bound[order[next]] = column == top;
        ++next;
        target = next < n ? target_of(next) : std::numeric_limits<double>::infinity();
      }
    }
    last = column;
    weighted += count * (lo + hi) / 2;
    const double after = before + count;
    while (after > target) {
      const double frac = std::clamp((target - before) / count, 0.0, 1.0);
      s.percentile_ns[order[next]] = lo + frac * (hi - lo);
      s.lower_bound[order[next]] = column == top;
      ++next;
      target = next < n ? target_of(next) : std::numeric_limits<double>::infinity();
    }
    before = after;
    running[running_n++] = {after, column};
  });
  s.min_ns = edges[static_cast<size_t>(first)];
  s.max_ns = edges[static_cast<size_t>(last) + 1];
  s.mean_ns = weighted / total;
  s.top_bucket = h.at(top);
  s.max_lower_bound = last == top;
  // p = 100, and any p that rounding left behind, is the upper edge of the last bucket.
  for (; next < n; ++next) {
    s.percentile_ns[order[next]] = s.max_ns;
    s.lower_bound[order[next]] = last == top;
  }
  if (confidence > 0) {
    SetIntervals(total, percentiles, confidence, edges, Running{running, running + running_n}, &s);
  }
}

}  // namespace fiohist
