#include "stats/change_points.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace fiohist {
namespace {

// 20 runs, log values with a run-to-run spread of 2% and 1% measurement noise, and a step
// of `step` (relative) from run index `at` on.
void Series(uint64_t seed, double step, size_t at, std::vector<double>* x, std::vector<double>* se) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, 1);
  x->clear();
  se->clear();
  for (size_t i = 0; i < 20; ++i) {
    x->push_back(std::log(100.0) + (i >= at ? std::log1p(step) : 0) + 0.02 * normal(rng) +
                 0.01 * normal(rng));
    se->push_back(0.01);
  }
}

TEST(ChangePoints, FindsATenPercentStepAtRunTwelve) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    std::vector<double> x, se;
    Series(seed, 0.10, 12, &x, &se);
    const std::vector<ChangePoint> cps = FindChangePoints(x, se, ChangePointOptions());
    ASSERT_EQ(cps.size(), 1u) << "seed " << seed;
    EXPECT_EQ(cps[0].index, 12u) << "seed " << seed;
    EXPECT_LE(cps[0].p_value, 0.01);
    EXPECT_NEAR(std::exp(cps[0].after - cps[0].before), 1.10, 0.04);
  }
}

TEST(ChangePoints, FlatSeriesHasNone) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    std::vector<double> x, se;
    Series(seed, 0, 12, &x, &se);
    EXPECT_TRUE(FindChangePoints(x, se, ChangePointOptions()).empty()) << "seed " << seed;
  }
}

TEST(ChangePoints, FindsTwoSteps) {
  std::vector<double> x, se;
  Series(3, 0.15, 7, &x, &se);
  for (size_t i = 14; i < 20; ++i) x[i] -= std::log(1.3);
  const std::vector<ChangePoint> cps = FindChangePoints(x, se, ChangePointOptions());
  ASSERT_EQ(cps.size(), 2u);
  EXPECT_EQ(cps[0].index, 7u);
  EXPECT_EQ(cps[1].index, 14u);
}

// Imprecise points (runs of few I/Os, whose tail percentile is far off) in a flat series:
// unweighted, as Otava treats every percentile, they make a change point; weighed by
// precision, they do not.
TEST(ChangePoints, ImprecisePointsWeighLess) {
  std::vector<double> x, se;
  Series(5, 0, 12, &x, &se);
  for (size_t i : {13u, 14u, 15u, 16u, 17u}) {
    x[i] += std::log(1.5);
    se[i] = 0.5;
  }
  ChangePointOptions plain;
  plain.weighted = false;
  EXPECT_FALSE(FindChangePoints(x, se, plain).empty());
  EXPECT_TRUE(FindChangePoints(x, se, ChangePointOptions()).empty());
  double tau = 0;
  const std::vector<double> w = PrecisionWeights(x, se, &tau);
  EXPECT_LT(w[13], 0.1 * w[0]);
  EXPECT_GT(tau, 0.01);
  EXPECT_LT(tau, 0.1);
}

// Matteson & James' q-hat of the split of `x` (weights `w`) after its first k points, from
// its definition (pair sums over the two sets), for the exact enumeration below.
double SplitQ(const std::vector<double>& x, const std::vector<double>& w, size_t k) {
  const size_t n = x.size();
  double across = 0, wl = 0, wr = 0, left = 0, right = 0, wl2 = 0, wr2 = 0;
  for (size_t i = 0; i < n; ++i) (i < k ? wl : wr) += w[i];
  for (size_t i = 0; i < n; ++i) (i < k ? wl2 : wr2) += w[i] * w[i];
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      const double d = w[i] * w[j] * std::fabs(x[i] - x[j]);
      if (i < k && j >= k) across += d;
      if (j < k) left += d;
      if (i >= k) right += d;
    }
  }
  return static_cast<double>(k * (n - k)) / static_cast<double>(n) *
         (2 * across / (wl * wr) - left / ((wl * wl - wl2) / 2) - right / ((wr * wr - wr2) / 2));
}

// The minP p-value of each series from every order of the points, written out plainly:
// each order's statistic per series, its p-value within the series, the smallest over the
// series, and the share of orders whose smallest reaches the series' observed p-value.
std::vector<double> EnumeratedP(const std::vector<std::vector<double>>& xs,
                                const std::vector<std::vector<double>>& ws, int min_segment) {
  const size_t n = xs[0].size();
  auto stat = [&](const std::vector<size_t>& order, size_t s) {
    std::vector<double> x, w;
    for (size_t i : order) {
      x.push_back(xs[s][i]);
      w.push_back(ws[s][i]);
    }
    double best = -1;
    const size_t m = static_cast<size_t>(min_segment);
    for (size_t k = m; k + m <= n; ++k) best = std::max(best, SplitQ(x, w, k));
    return best;
  };
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::vector<double>> all(xs.size());  // [series][order]
  do {
    for (size_t s = 0; s < xs.size(); ++s) all[s].push_back(stat(order, s));
  } while (std::next_permutation(order.begin(), order.end()));
  const size_t orders = all[0].size();
  auto marginal = [&](size_t s, size_t j) {
    double c = 0;
    for (double v : all[s]) c += v >= all[s][j] * (1 - 1e-9);
    return c / static_cast<double>(orders);
  };
  std::vector<double> least(orders, 1);
  for (size_t j = 0; j < orders; ++j) {
    for (size_t s = 0; s < xs.size(); ++s) least[j] = std::min(least[j], marginal(s, j));
  }
  std::vector<double> p;
  for (size_t s = 0; s < xs.size(); ++s) {
    const double own = marginal(s, 0);  // the first order is the observed one
    double c = 0;
    for (double l : least) c += l <= own * (1 + 1e-12);
    p.push_back(c / static_cast<double>(orders));
  }
  return p;
}

// Seven runs, one and two series, equal and precision weights: the p-value is the one of the
// enumeration above, to the last order (ties counted as ties).
TEST(ChangePoints, ExactPValueEqualsEnumeration) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0, 1);
    std::vector<ChangePointSeries> series(2);
    for (size_t i = 0; i < 7; ++i) {
      series[0].values.push_back((i >= 3 ? 0.08 : 0) + 0.02 * normal(rng));
      series[0].se.push_back(0.005 + (i == 5 ? 0.05 : 0));
      series[1].values.push_back((i >= 3 ? 0.03 : 0) + 0.02 * normal(rng));
      series[1].se.push_back(0.01);
    }
    for (bool weighted : {false, true}) {
      ChangePointOptions o;
      o.significance = 1;  // report every first split
      o.weighted = weighted;
      std::vector<std::vector<double>> xs, ws;
      for (const ChangePointSeries& s : series) {
        xs.push_back(s.values);
        ws.push_back(weighted ? PrecisionWeights(s.values, s.se, nullptr)
                              : std::vector<double>(7, 1.0));
      }
      const JointChangePoints one = FindJointChangePoints({series[0]}, o);
      ASSERT_TRUE(one.exact);
      ASSERT_FALSE(one.found[0].empty());
      const double p1 = EnumeratedP({xs[0]}, {ws[0]}, o.min_segment)[0];
      EXPECT_NEAR(one.found[0][0].p_value, p1, 1e-12) << "seed " << seed;
      const JointChangePoints two = FindJointChangePoints(series, o);
      const std::vector<double> p2 = EnumeratedP(xs, ws, o.min_segment);
      for (size_t s = 0; s < 2; ++s) {
        ASSERT_FALSE(two.found[s].empty());
        EXPECT_NEAR(two.found[s][0].p_value, p2[s], 1e-12) << "seed " << seed << " series " << s;
      }
      EXPECT_GE(two.found[0][0].p_value, one.found[0][0].p_value - 1e-12);
    }
  }
}

// Nine runs split 4|5 by a clean step: the orders within each side and the mirrored order
// are as strong, so the exact p-value is 2 * 4! * 5! / 9! = 2 / C(9,4) = 1/63, the smallest
// nine runs allow, with equal or with unequal weights (q depends on the sets alone).
TEST(ChangePoints, NineRunsCannotGoBelowTwoOverChoose) {
  std::vector<double> x = {0, 0.001, -0.001, 0.0005, 0.2, 0.201, 0.199, 0.2005, 0.1995};
  for (bool weighted : {false, true}) {
    std::vector<double> se = {0.01, 0.02, 0.01, 0.03, 0.01, 0.01, 0.05, 0.01, 0.02};
    ChangePointOptions o;
    o.weighted = weighted;
    o.significance = 0.05;
    const JointChangePoints r = FindJointChangePoints({ChangePointSeries{x, se}}, o);
    ASSERT_TRUE(r.exact);
    ASSERT_EQ(r.found[0].size(), 1u);
    EXPECT_EQ(r.found[0][0].index, 4u);
    EXPECT_NEAR(r.found[0][0].p_value, 2.0 / 126, 1e-12);
    EXPECT_NEAR(r.smallest_p, 2.0 / 126, 1e-12);
  }
  EXPECT_NEAR(SmallestPermutationP(9, 3), 2.0 / 126, 1e-15);
  EXPECT_NEAR(SmallestPermutationP(12, 3), 2.0 / 924, 1e-15);
  EXPECT_NEAR(SmallestPermutationP(8, 3), 2.0 / 70, 1e-15);
  EXPECT_EQ(SmallestPermutationP(5, 3), 1.0);
}

// The nine identical fio runs (their p50 in us): a 3.7 % drift whose p-value was
// printed as 0.009 by 999 random permutations; exactly it is no smaller than 1/63.
TEST(ChangePoints, NineIdenticalRunsExactly) {
  std::vector<double> x, se;
  for (double v : {55.0, 53.6, 54.8, 55.4, 56.0, 56.6, 57.2, 57.0, 56.3}) {
    x.push_back(std::log(v));
    se.push_back(0.004);
  }
  ChangePointOptions o;
  o.significance = 1;
  const JointChangePoints r = FindJointChangePoints({ChangePointSeries{x, se}}, o);
  ASSERT_TRUE(r.exact);
  ASSERT_FALSE(r.found[0].empty());
  EXPECT_GE(r.found[0][0].p_value, 2.0 / 126 - 1e-12);
  EXPECT_TRUE(FindChangePoints(x, se, ChangePointOptions()).empty());
}

// Series of pure noise, four at a time, moving together in part (one load on one machine):
// tested jointly, any series has a change point in about `significance` of the analyses;
// tested alone, each series adds its own chance.
TEST(ChangePoints, JointTestHoldsItsLevelOverSeries) {
  ChangePointOptions o;
  o.significance = 0.05;
  o.permutations = 199;
  int joint_alarms = 0, separate_alarms = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0, 1);
    std::vector<ChangePointSeries> series(4);
    for (size_t i = 0; i < 12; ++i) {
      const double common = 0.01 * normal(rng);
      for (ChangePointSeries& s : series) {
        s.values.push_back(common + 0.02 * normal(rng));
        s.se.push_back(0.01);
      }
    }
    const JointChangePoints joint = FindJointChangePoints(series, o);
    bool any = false, any_alone = false;
    for (size_t s = 0; s < 4; ++s) {
      any = any || !joint.found[s].empty();
      any_alone = any_alone || !FindChangePoints(series[s].values, series[s].se, o).empty();
    }
    joint_alarms += any;
    separate_alarms += any_alone;
  }
  // Binomial(100, 0.05): 12 or more has probability 0.004.
  EXPECT_LE(joint_alarms, 11);
  EXPECT_GT(separate_alarms, joint_alarms);
}

}  // namespace
}  // namespace fiohist
