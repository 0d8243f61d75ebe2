#include "log/issue_spread.h"

#include <algorithm>
#include <cmath>

namespace fiohist {
namespace {

// E[max(0, u + L')] for L' uniform on [0, d], with v = u + d, w = u:
// (max(v, 0)^2 - max(w, 0)^2) / (2 d), written so that no two large squares are subtracted
// (d may be microseconds against spans of seconds).
double MeanRamp(double v, double w, double d) {
  if (w >= 0) return (v + w) / 2;
  if (v <= 0) return 0;
  return d > 0 ? v * v / (2 * d) : 0;
}

}  // namespace

// Issue I = C - L, C ~ U(a, b), L ~ U(lo, hi) independent. P(I <= x) = P(C <= x + L) =
// E_L[g(x + L)] / (b - a) with g(s) = max(0, s - a) - max(0, s - b) (C's distribution
// function times its width): the mean of a ramp over L's range, MeanRamp.
double IssueCdf(const TimeSpan& completion, const LatencyRange& latency, double x) {
  int64_t a = completion.start_ms;
  const int64_t b = completion.end_ms;
  if (b - a <= 0) a = b - 1;
  const double width = static_cast<double>(b - a);
  const double d = latency.hi_ms - latency.lo_ms;
  // Relative to the span's start and end, so epoch milliseconds lose no precision.
  const double xa = x - static_cast<double>(a), xb = x - static_cast<double>(b);
  double up, down;
  if (d <= 0) {
    up = std::max(0.0, xa + latency.lo_ms);
    down = std::max(0.0, xb + latency.lo_ms);
  } else {
    up = MeanRamp(xa + latency.hi_ms, xa + latency.lo_ms, d);
    down = MeanRamp(xb + latency.hi_ms, xb + latency.lo_ms, d);
  }
  return std::clamp((up - down) / width, 0.0, 1.0);
}

double IssueWeight(const QuantumGrid& grid, const TimeSpan& completion, const LatencyRange& latency,
                   int64_t q) {
  const double lo = IssueCdf(completion, latency, static_cast<double>(grid.Start(q)));
  const double hi = IssueCdf(completion, latency, static_cast<double>(grid.End(q)));
  return std::max(0.0, hi - lo);
}

void IssueQuanta(const QuantumGrid& grid, const TimeSpan& completion, const LatencyRange& latency,
                 int64_t* first_q, int64_t* last_q) {
  int64_t a = completion.start_ms;
  if (completion.end_ms - a <= 0) a = completion.end_ms - 1;
  *first_q = grid.IndexOf(a - static_cast<int64_t>(std::ceil(latency.hi_ms)));
  *last_q = grid.IndexOf(completion.end_ms - static_cast<int64_t>(std::floor(latency.lo_ms)));
}

}  // namespace fiohist
