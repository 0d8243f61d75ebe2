#include "stats/change_points.h"

#include <algorithm>
#include <cmath>
#include <limits>
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

// The least statistic as strong as `v`: equal up to rounding counts (the same split's sums
// added in another order differ in their last bits), so ties are ties.
double TieFloor(double v) { return v - 1e-9 * std::fabs(v); }

double WeightedMean(const std::vector<double>& x, const std::vector<double>& w, size_t lo,
                    size_t hi) {
  double s = 0, ws = 0;
  for (size_t i = lo; i < hi; ++i) {
    s += w[i] * x[i];
    ws += w[i];
  }
  return ws > 0 ? s / ws : 0;
}

// Random permutations of a test's first stage.
constexpr int kFirstStagePermutations = 999;

// n!, or 0 when it exceeds `limit`.
uint64_t OrdersUpTo(size_t n, uint64_t limit) {
  uint64_t f = 1;
  for (size_t i = 2; i <= n; ++i) {
    if (f > limit / i) return 0;
    f *= i;
  }
  return f;
}

// One series of a permutation test: its points and weights over the tested range.
struct TestedSeries {
  std::vector<double> x, w;
};

struct PermutationOutcome {
  std::vector<double> p;  // per series: its adjusted p-value
  bool exact = false;
  double smallest_p = 1;
};

// Westfall & Young's minP permutation test (1993, algorithm 2.8; computed as Ge, Dudoit &
// Speed 2003 describe): one order of the points applied to every series; under each order,
// each series' statistic becomes its p-value within the series' own permutation
// distribution (so series whose statistics are on different scales or differently
// distributed weigh alike), and a series' adjusted p-value is the share of orders whose
// smallest p-value over the series is at most the series' observed one. Every order when
// they are at most options.max_exact_orders (the observed order is one of them: exact),
// else the observed order and options.permutations random ones (Fisher-Yates on
// mt19937_64's fixed output: the same permutations everywhere), which makes
// (b + 1) / (B + 1) (Phipson & Smyth 2010). Counts are integers: ties are ties.
PermutationOutcome PermutationTest(const std::vector<TestedSeries>& series,
                                   const ChangePointOptions& options, std::mt19937_64* rng) {
  PermutationOutcome out;
  if (series.empty()) return out;
  const size_t n = series[0].x.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> x(n), w(n);
  // stat[s][j]: series s's statistic under the j-th order (j = 0: the observed order).
  std::vector<std::vector<double>> stat(series.size());
  auto evaluate = [&]() {
    for (size_t k = 0; k < series.size(); ++k) {
      const TestedSeries& t = series[k];
      for (size_t i = 0; i < n; ++i) {
        x[i] = t.x[order[i]];
        w[i] = t.w[order[i]];
      }
      size_t unused = 0;
      stat[k].push_back(BestSplitStatistic(x, w, options.min_segment, &unused));
    }
  };
  // The adjusted p-values of the orders evaluated so far.
  auto adjust = [&]() {
    const size_t total = stat[0].size();
    // Per order, the smallest over the series of how many orders are as strong as it.
    std::vector<size_t> least(total, total);
    std::vector<size_t> observed(series.size());
    std::vector<double> sorted;
    for (size_t k = 0; k < series.size(); ++k) {
      sorted = stat[k];
      std::sort(sorted.begin(), sorted.end());
      for (size_t j = 0; j < total; ++j) {
        const double v = stat[k][j];
        const size_t as_strong = static_cast<size_t>(
            sorted.end() - std::lower_bound(sorted.begin(), sorted.end(), TieFloor(v)));
        least[j] = std::min(least[j], as_strong);
        if (j == 0) observed[k] = as_strong;
      }
    }
    out.p.clear();
    for (size_t k = 0; k < series.size(); ++k) {
      const size_t reach = static_cast<size_t>(std::count_if(
          least.begin(), least.end(), [&](size_t c) { return c <= observed[k]; }));
      out.p.push_back(static_cast<double>(reach) / static_cast<double>(total));
    }
    // The most extreme order's p-value: as many orders reach it as share its least count.
    const size_t most = *std::min_element(least.begin(), least.end());
    out.smallest_p = out.exact ? static_cast<double>(std::count(least.begin(), least.end(), most)) /
                                     static_cast<double>(total)
                               : 1 / static_cast<double>(total);
  };
  const uint64_t orders = OrdersUpTo(n, options.max_exact_orders);
  out.exact = orders > 0;
  if (out.exact) {
    // An order and its mirror image have the same statistic (a split's q is symmetric in
    // its two sides): half of the orders, one of each pair, give the same shares. The
    // observed order (0, 1, ..., n-1) is one of them.
    for (auto& v : stat) v.reserve(orders / 2 + 1);
    do {
      if (order.front() < order.back()) evaluate();
    } while (std::next_permutation(order.begin(), order.end()));
    adjust();
    return out;
  }
  // Random orders in two stages: where the first 999 leave every series far from
  // significant (p above twice the significance), the rest cannot make a change point of
  // it (a series is rejected only if its p-value from all of them is small enough, so the
  // test keeps its level); only evidence pays for the fine p-values.
  const int first = std::min(options.permutations, kFirstStagePermutations);
  for (auto& v : stat) v.reserve(static_cast<size_t>(options.permutations) + 1);
  evaluate();
  for (int r = 0; r < options.permutations; ++r) {
    for (size_t i = n - 1; i > 0; --i) std::swap(order[i], order[(*rng)() % (i + 1)]);
    evaluate();
    if (r + 1 == first && first < options.permutations) {
      adjust();
      if (*std::min_element(out.p.begin(), out.p.end()) > 2 * options.significance) return out;
    }
  }
  adjust();
  return out;
}

TestedSeries Range(const std::vector<double>& x, const std::vector<double>& w, size_t lo,
                   size_t hi) {
  TestedSeries t;
  t.x.assign(x.begin() + static_cast<long>(lo), x.begin() + static_cast<long>(hi));
  t.w.assign(w.begin() + static_cast<long>(lo), w.begin() + static_cast<long>(hi));
  return t;
}

}  // namespace

// The best split of x[0..n) with weights w. O(n^2): moving one point from the right part to
// the left updates the three weighted sums of distances with that point's row.
double BestSplitStatistic(const std::vector<double>& x, const std::vector<double>& w,
                          int min_segment, size_t* at) {
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

double SmallestPermutationP(size_t n, int min_segment) {
  if (n < 2 * static_cast<size_t>(min_segment)) return 1;
  // C(n, n/2), exactly enough in double for any number of runs a tag has.
  double c = 1;
  const size_t k = n / 2;
  for (size_t i = 1; i <= k; ++i) c = c * static_cast<double>(n - k + i) / static_cast<double>(i);
  return std::min(1.0, 2 / c);
}

JointChangePoints FindJointChangePoints(const std::vector<ChangePointSeries>& series,
                                        const ChangePointOptions& options) {
  JointChangePoints result;
  result.found.resize(series.size());
  if (series.empty()) return result;
  const size_t n = series[0].values.size();
  std::mt19937_64 rng(options.seed);
  std::vector<std::vector<double>> weights;
  std::vector<size_t> first_at(series.size(), 0);
  // The series that take part: of the same points, with a split.
  std::vector<TestedSeries> joint;
  std::vector<size_t> joint_of;
  for (size_t s = 0; s < series.size(); ++s) {
    const ChangePointSeries& x = series[s];
    weights.push_back(options.weighted && x.se.size() == x.values.size()
                          ? PrecisionWeights(x.values, x.se, nullptr)
                          : std::vector<double>(x.values.size(), 1.0));
    TestedSeries t = Range(x.values, weights[s], 0, x.values.size());
    const double q = BestSplitStatistic(t.x, t.w, options.min_segment, &first_at[s]);
    if (x.values.size() != n || !(q > 0)) continue;  // flat, too short, or of other points
    joint.push_back(std::move(t));
    joint_of.push_back(s);
  }
  if (joint.empty()) return result;
  const PermutationOutcome first = PermutationTest(joint, options, &rng);
  result.exact = first.exact;
  result.smallest_p = first.smallest_p;
  for (size_t k = 0; k < joint.size(); ++k) {
    if (first.p[k] > options.significance) continue;
    const size_t s = joint_of[k];
    const std::vector<double>& values = series[s].values;
    const std::vector<double>& w = weights[s];
    std::vector<ChangePoint>& found = result.found[s];
    ChangePoint cp;
    cp.index = first_at[s];
    size_t unused = 0;
    cp.q = BestSplitStatistic(joint[k].x, joint[k].w, options.min_segment, &unused);
    cp.p_value = first.p[k];
    cp.exact = first.exact;
    found.push_back(cp);
    std::vector<size_t> cuts = {0, cp.index, n};  // segment bounds, sorted
    for (;;) {
      // The strongest split of any segment.
      double best_q = -1;
      size_t best_lo = 0, best_hi = 0, best_at = 0;
      for (size_t c = 0; c + 1 < cuts.size(); ++c) {
        const TestedSeries t = Range(values, w, cuts[c], cuts[c + 1]);
        size_t at = 0;
        const double q = BestSplitStatistic(t.x, t.w, options.min_segment, &at);
        if (q > best_q) {
          best_q = q;
          best_lo = cuts[c];
          best_hi = cuts[c + 1];
          best_at = cuts[c] + at;
        }
      }
      if (best_q <= 0) break;
      const PermutationOutcome within =
          PermutationTest({Range(values, w, best_lo, best_hi)}, options, &rng);
      if (within.p[0] > options.significance) break;
      ChangePoint next;
      next.index = best_at;
      next.q = best_q;
      next.p_value = within.p[0];
      next.exact = within.exact;
      found.push_back(next);
      cuts.insert(std::upper_bound(cuts.begin(), cuts.end(), best_at), best_at);
    }
    std::sort(found.begin(), found.end(),
              [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
    for (ChangePoint& c : found) {
      const auto at = std::find(cuts.begin(), cuts.end(), c.index);
      c.lo = *(at - 1);
      c.hi = *(at + 1);
      c.before = WeightedMean(values, w, c.lo, c.index);
      c.after = WeightedMean(values, w, c.index, c.hi);
    }
  }
  return result;
}

std::vector<ChangePoint> FindChangePoints(const std::vector<double>& values,
                                          const std::vector<double>& se,
                                          const ChangePointOptions& options) {
  return FindJointChangePoints({ChangePointSeries{values, se}}, options).found[0];
}

}  // namespace fiohist
