#include "stats/change_points.h"

#include <gtest/gtest.h>

#include <cmath>
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

}  // namespace
}  // namespace fiohist
