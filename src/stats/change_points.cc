#include "stats/change_points.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace fiohist {

std::vector<double> PrecisionWeights(const std::vector<double>& values,
                                     const std::vector<double>& se, double* tau) {
  const size_t n = values.size();
  std::vector<double> w(n, 1.0);
  if (tau) *tau = 0;
  if (n < 2) return w;
  std::vector<double> d2, se2;
  for (size_t i = 0; i + 1 < n; ++i) d2.push_back((values[i + 1] - values[i]) * (values[i + 1] - values[i]));
  for (double s : se) se2.push_back(s * s);
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
  };
  const double total = median(d2) / (2 * 0.4549364231195724);
  const double t2 = std::max(0.0, total - median(se2));
  if (tau) *tau = std::sqrt(t2);
  double sum = 0;
  for (size_t i = 0; i < n; ++i) {
    const double v = se2[i] + t2;
    w[i] = v > 0 && std::isfinite(v) ? 1 / v : (v > 0 ? 0 : 1);
    sum += w[i];
  }
  if (!(sum > 0)) return std::vector<double>(n, 1.0);
  for (double& x : w) x *= static_cast<double>(n) / sum;
  return w;
}

namespace {

// The best split of x[0..n) with weights w: returns its statistic, sets *at (points
// before the split). O(n^2): moving one point from the right part to the left updates the
// three weighted sums of distances with that point's row.
double BestSplit(const std::vector<double>& x, const std::vector<double>& w, int min_segment,
                 size_t* at) {
  const size_t n = x.size();
  double best = -1;
  *at = 0;
  if (n < 2 * static_cast<size_t>(min_segment)) return best;
  double between = 0, left = 0, right = 0;
  double wl = 0, wl2 = 0, wr = 0, wr2 = 0;
  for (size_t i = 0; i < n; ++i) {
    wr += w[i];
    wr2 += w[i] * w[i];
    for (size_t j = i + 1; j < n; ++j) right += w[i] * w[j] * std::fabs(x[i] - x[j]);
  }
  for (size_t p = 0; p + 1 < n; ++p) {
    // Move point p from the right part to the left one.
    double row_left = 0, row_right = 0;
    for (size_t i = 0; i < p; ++i) row_left += w[i] * std::fabs(x[i] - x[p]);
    for (size_t j = p + 1; j < n; ++j) row_right += w[j] * std::fabs(x[p] - x[j]);
    left += w[p] * row_left;
    right -= w[p] * row_right;
    between += w[p] * (row_right - row_left);
    wl += w[p];
    wl2 += w[p] * w[p];
    wr -= w[p];
    wr2 -= w[p] * w[p];
    const size_t nl = p + 1, nr = n - nl;
    if (nl < static_cast<size_t>(min_segment) || nr < static_cast<size_t>(min_segment)) continue;
    // Weighted means over pairs: across the split, and within each side (distinct pairs).
    const double across = between / (wl * wr);
    const double within_l = nl > 1 ? left / ((wl * wl - wl2) / 2) : 0;
    const double within_r = nr > 1 ? right / ((wr * wr - wr2) / 2) : 0;
    const double q = static_cast<double>(nl * nr) / static_cast<double>(n) *
                     (2 * across - within_l - within_r);
    if (q > best) {
      best = q;
      *at = nl;
    }
  }
  return best;
}

double WeightedMean(const std::vector<double>& x, const std::vector<double>& w, size_t lo,
                    size_t hi) {
  double s = 0, ws = 0;
  for (size_t i = lo; i < hi; ++i) {
    s += w[i] * x[i];
    ws += w[i];
  }
  return ws > 0 ? s / ws : 0;
}

}  // namespace

std::vector<ChangePoint> FindChangePoints(const std::vector<double>& values,
                                          const std::vector<double>& se,
                                          const ChangePointOptions& options) {
  const size_t n = values.size();
  std::vector<double> w = options.weighted && se.size() == n ? PrecisionWeights(values, se, nullptr)
                                                             : std::vector<double>(n, 1.0);
  std::mt19937_64 rng(options.seed);
  std::vector<size_t> cuts = {0, n};  // segment bounds, sorted
  std::vector<ChangePoint> found;
  for (;;) {
    // The strongest split of any segment.
    double best_q = -1;
    size_t best_lo = 0, best_hi = 0, best_at = 0;
    for (size_t s = 0; s + 1 < cuts.size(); ++s) {
      const size_t lo = cuts[s], hi = cuts[s + 1];
      std::vector<double> x(values.begin() + static_cast<long>(lo), values.begin() + static_cast<long>(hi));
      std::vector<double> ww(w.begin() + static_cast<long>(lo), w.begin() + static_cast<long>(hi));
      size_t at = 0;
      const double q = BestSplit(x, ww, options.min_segment, &at);
      if (q > best_q) {
        best_q = q;
        best_lo = lo;
        best_hi = hi;
        best_at = lo + at;
      }
    }
    if (best_q <= 0) break;
    // Permutation test within that segment.
    std::vector<size_t> order(best_hi - best_lo);
    std::iota(order.begin(), order.end(), best_lo);
    std::vector<double> x(order.size()), ww(order.size());
    int as_strong = 0;
    for (int r = 0; r < options.permutations; ++r) {
      // Fisher-Yates on mt19937_64's fixed output: the same permutations everywhere.
      for (size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng() % (i + 1)]);
      for (size_t i = 0; i < order.size(); ++i) {
        x[i] = values[order[i]];
        ww[i] = w[order[i]];
      }
      size_t unused = 0;
      as_strong += BestSplit(x, ww, options.min_segment, &unused) >= best_q;
    }
    const double p = (as_strong + 1.0) / (options.permutations + 1.0);
    if (p > options.significance) break;
    ChangePoint cp;
    cp.index = best_at;
    cp.q = best_q;
    cp.p_value = p;
    found.push_back(cp);
    cuts.insert(std::upper_bound(cuts.begin(), cuts.end(), best_at), best_at);
  }
  std::sort(found.begin(), found.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  for (ChangePoint& cp : found) {
    const auto at = std::find(cuts.begin(), cuts.end(), cp.index);
    cp.before = WeightedMean(values, w, *(at - 1), cp.index);
    cp.after = WeightedMean(values, w, cp.index, *(at + 1));
  }
  return found;
}

}  // namespace fiohist
