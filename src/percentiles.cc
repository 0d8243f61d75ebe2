#include "percentiles.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <sstream>

namespace fiohist {
namespace {

std::string FormatPercentile(double p) {
  std::ostringstream s;
  s.precision(10);
  s << p;
  return s.str();
}

}  // namespace

PercentileList DefaultPercentiles() {
  PercentileList list;
  MakePercentiles({50, 90, 95, 99, 99.9, 99.99}, &list);
  return list;
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
    std::string field = "p" + text;
    std::replace(field.begin(), field.end(), '.', '_');
    out.field_names.push_back(field);
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
                          const std::vector<double>& percentiles) {
  LatencyStats s;
  s.percentile_ns.assign(percentiles.size(), 0.0);
  s.lower_bound.assign(percentiles.size(), false);
  int first = -1, last = -1;
  double total = 0, weighted = 0;
  h.ForEachNonZero([&](int column, double count) {
    if (count <= 0) return;
    if (first < 0) first = column;
    last = column;
    total += count;
    weighted += count * layout.MidNs(column);
  });
  if (first < 0 || total <= 0) return s;
  const int top = layout.top_column();
  s.samples = total;
  s.min_ns = layout.LowerNs(first);
  s.max_ns = layout.UpperNs(last);
  s.mean_ns = weighted / total;
  s.top_bucket = h.at(top);
  s.max_lower_bound = last == top;

  // Visit wanted percentiles in increasing order while walking the buckets once.
  std::vector<size_t> order(percentiles.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return percentiles[a] < percentiles[b]; });
  size_t next = 0;
  // p = 0 is the lower edge of the first non-empty bucket.
  while (next < order.size() && percentiles[order[next]] <= 0) {
    s.percentile_ns[order[next]] = s.min_ns;
    s.lower_bound[order[next]] = first == top;
    ++next;
  }
  double before = 0;
  h.ForEachNonZero([&](int column, double count) {
    if (count <= 0 || next >= order.size()) return;
    const double after = before + count;
    while (next < order.size()) {
      const double p = percentiles[order[next]];
      if (p >= 100) break;
      const double target = p / 100.0 * total;
      if (!(after > target)) break;
      const double frac = std::clamp((target - before) / count, 0.0, 1.0);
      const double lo = layout.LowerNs(column);
      s.percentile_ns[order[next]] = lo + frac * (layout.UpperNs(column) - lo);
      s.lower_bound[order[next]] = column == top;
      ++next;
    }
    before = after;
  });
  // p = 100, and any p that rounding left behind, is the upper edge of the last bucket.
  for (; next < order.size(); ++next) {
    s.percentile_ns[order[next]] = s.max_ns;
    s.lower_bound[order[next]] = last == top;
  }
  return s;
}

}  // namespace fiohist
