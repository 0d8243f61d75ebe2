#include "stats/percentile_interval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <boost/math/distributions/binomial.hpp>

#include "histogram/bucket_layout.h"
#include "histogram/histogram.h"
#include "stats/percentiles.h"

namespace fiohist {
namespace {

// The binomial cdf summed term by term in long double (not Boost's incomplete beta): the
// exact computation the ranks are checked against for small n.
std::vector<long double> ExactCdf(int n, double p) {
  std::vector<long double> pmf(static_cast<size_t>(n) + 1);
  long double choose = 1;  // C(n, k)
  for (int k = 0; k <= n; ++k) {
    pmf[static_cast<size_t>(k)] = choose * std::pow(static_cast<long double>(p), k) *
                                  std::pow(1.0L - static_cast<long double>(p), n - k);
    choose = choose * (n - k) / (k + 1);
  }
  std::vector<long double> cdf(pmf.size());
  long double sum = 0;
  for (size_t k = 0; k < pmf.size(); ++k) cdf[k] = sum += pmf[k];
  return cdf;
}

// Ranks by scanning every k: l - 1 the largest k with P(B <= k) <= a, u the smallest
// with P(B >= u) <= a.
RankInterval ExactRanks(int n, double p, double confidence) {
  const std::vector<long double> cdf = ExactCdf(n, p);
  const long double a = (1 - static_cast<long double>(confidence)) / 2;
  RankInterval r;
  r.lower = 0;
  for (int k = 0; k < n; ++k) {
    if (cdf[static_cast<size_t>(k)] <= a) r.lower = k + 1;
  }
  r.upper = n + 1;
  for (int u = n; u >= 1; --u) {
    const long double at_least_u = 1 - cdf[static_cast<size_t>(u - 1)];
    if (at_least_u <= a) r.upper = u;
  }
  return r;
}

TEST(PercentileInterval, TextbookMedianOfHundred) {
  // n = 100, 95 %: the median lies between the 40th and the 61st smallest (Conover,
  // table A3 / the usual normal-approximation ranks 50 -+ 9.8).
  const RankInterval r = QuantileRanks(100, 0.5, 0.95);
  EXPECT_EQ(r.lower, 40);
  EXPECT_EQ(r.upper, 61);
  EXPECT_GE(RanksCoverage(100, 0.5, r), 0.95);
}

TEST(PercentileInterval, SmallNEqualsExactBinomial) {
  for (double confidence : {0.9, 0.95, 0.99}) {
    for (double p : {0.01, 0.1, 0.5, 0.9, 0.95, 0.99, 0.999}) {
      for (int n = 1; n <= 300; n += (n < 40 ? 1 : 7)) {
        const RankInterval want = ExactRanks(n, p, confidence);
        const RankInterval got = QuantileRanks(n, p, confidence);
        // Ties with a (exact equality of a tail and alpha/2) do not occur at these levels.
        EXPECT_EQ(got.lower, want.lower) << "n " << n << " p " << p << " c " << confidence;
        EXPECT_EQ(got.upper, want.upper) << "n " << n << " p " << p << " c " << confidence;
        EXPECT_GE(RanksCoverage(n, p, got), confidence - 1e-12);
      }
    }
  }
}

TEST(PercentileInterval, TooFewIosHaveNoUpperBound) {
  // p99 of 100 I/Os: P(B = 100) = 0.99^100 = 0.366 > 0.025, so no rank bounds it above.
  EXPECT_EQ(QuantileRanks(100, 0.99, 0.95).upper, 101);
  // The smallest n with an upper bound for p99 at 95 %: 0.99^n <= 0.025, n >= 368.
  EXPECT_EQ(QuantileRanks(367, 0.99, 0.95).upper, 368);
  EXPECT_EQ(QuantileRanks(368, 0.99, 0.95).upper, 368);
  // p99.9 of 1000 I/Os, p99.99 of 10000: still the slowest I/O at best.
  EXPECT_EQ(QuantileRanks(1000, 0.999, 0.95).upper, 1001);
  EXPECT_EQ(QuantileRanks(10000, 0.9999, 0.95).upper, 10001);
  // No I/O at all.
  EXPECT_EQ(QuantileRanks(0, 0.5, 0.95).upper, 1);
  EXPECT_EQ(QuantileRanks(0, 0.5, 0.95).lower, 0);
}

TEST(PercentileInterval, LargeNMeetsTheDefinition) {
  for (int64_t n : {1000LL, 99999LL, 100000LL, 1234567LL, 50000000LL}) {
    for (double p : {0.5, 0.9, 0.99, 0.999, 0.9999}) {
      const double c = 0.95, a = (1 - c) / 2;
      const RankInterval r = QuantileRanks(n, p, c);
      const boost::math::binomial_distribution<double> b(static_cast<double>(n), p);
      auto cdf = [&](int64_t k) {
        return k < 0 ? 0.0 : k >= n ? 1.0 : boost::math::cdf(b, static_cast<double>(k));
      };
      EXPECT_LE(cdf(r.lower - 1), a) << n << " " << p;
      EXPECT_GT(cdf(r.lower), a) << n << " " << p;
      EXPECT_LE(1 - cdf(r.upper - 1), a) << n << " " << p;
      EXPECT_GT(1 - cdf(r.upper - 2), a) << n << " " << p;
      EXPECT_LT(r.lower, r.upper);
    }
  }
}

TEST(PercentileInterval, EdgesOfP) {
  EXPECT_EQ(QuantileRanks(50, 0, 0.95).lower, 0);
  EXPECT_EQ(QuantileRanks(50, 0, 0.95).upper, 1);
  EXPECT_EQ(QuantileRanks(50, 1, 0.95).lower, 50);
  EXPECT_EQ(QuantileRanks(50, 1, 0.95).upper, 51);
}

TEST(PercentileInterval, WholeIosRoundsDown) {
  EXPECT_EQ(WholeIos(0), 0);
  EXPECT_EQ(WholeIos(-1), 0);
  EXPECT_EQ(WholeIos(0.99), 0);
  EXPECT_EQ(WholeIos(2.7), 2);
  EXPECT_EQ(WholeIos(3000), 3000);
  EXPECT_EQ(WholeIos(2999.9999999999), 3000);  // a sum of fractions a hair short
  EXPECT_EQ(WholeIos(2999.99), 2999);
}

TEST(PercentileInterval, ParsesConfidence) {
  double c = 0;
  ASSERT_TRUE(ParseConfidence("0.9", &c).ok());
  EXPECT_DOUBLE_EQ(c, 0.9);
  ASSERT_TRUE(ParseConfidence("99%", &c).ok());
  EXPECT_DOUBLE_EQ(c, 0.99);
  for (const char* bad : {"0", "1", "1.5", "-0.2", "abc", "", "100%", "0%", "nan", "0.9x"}) {
    const Status s = ParseConfidence(bad, &c);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find("between 0 and 1"), std::string::npos) << s.message();
  }
  EXPECT_FALSE(CheckConfidence(1).ok());
  EXPECT_TRUE(CheckConfidence(0.5).ok());
}

// One I/O per bucket, in buckets 100, 101, ...: the I/O of rank r is in bucket 99 + r, so
// the bounds must be the edges of exactly the buckets the exact ranks name.
TEST(PercentileInterval, StatsPlaceExactRanksOnBuckets) {
  const BucketLayout layout;
  for (int n : {1, 2, 5, 10, 30, 100, 400}) {
    Histogram h;
    for (int i = 0; i < n; ++i) h.Add(100 + i, 1);
    const std::vector<double> ps = {50, 90, 99};
    const LatencyStats s = ComputeStats(h, layout, ps, 0.95);
    EXPECT_EQ(s.interval_ios, n);
    for (size_t i = 0; i < ps.size(); ++i) {
      const RankInterval r = ExactRanks(n, ps[i] / 100, 0.95);
      const double low = r.lower == 0 ? 0.0 : layout.LowerNs(99 + static_cast<int>(r.lower));
      EXPECT_DOUBLE_EQ(s.percentile_low_ns[i], low) << n << " p" << ps[i];
      EXPECT_EQ(s.few_ios[i], r.upper > n) << n << " p" << ps[i];
      const double high =
          r.upper > n ? s.max_ns : layout.UpperNs(99 + static_cast<int>(r.upper));
      EXPECT_DOUBLE_EQ(s.percentile_high_ns[i], high) << n << " p" << ps[i];
      EXPECT_LE(s.percentile_low_ns[i], s.percentile_ns[i]);
      EXPECT_GE(s.percentile_high_ns[i], s.percentile_ns[i]);
    }
  }
}

// Fractional counts (records split over quanta): n is the count rounded down and rank r
// sits at running count r * total / n.
TEST(PercentileInterval, FractionalCountsScaleRanks) {
  const BucketLayout layout;
  Histogram h;
  for (int i = 0; i < 100; ++i) h.Add(200 + i, 0.5);  // 50 I/Os' worth over 100 buckets
  const LatencyStats s = ComputeStats(h, layout, {50}, 0.95);
  EXPECT_EQ(s.interval_ios, 50);
  const RankInterval r = ExactRanks(50, 0.5, 0.95);
  // Rank r at running count r: reached in the bucket 200 + 2r - 1.
  EXPECT_DOUBLE_EQ(s.percentile_low_ns[0], layout.LowerNs(200 + 2 * static_cast<int>(r.lower) - 1));
  EXPECT_DOUBLE_EQ(s.percentile_high_ns[0],
                   layout.UpperNs(200 + 2 * static_cast<int>(r.upper) - 1));
  EXPECT_FALSE(s.few_ios[0]);
}

TEST(PercentileInterval, EmptyHistogramIsFlagged) {
  const BucketLayout layout;
  Histogram h;
  const LatencyStats s = ComputeStats(h, layout, {50, 99}, 0.95);
  ASSERT_EQ(s.few_ios.size(), 2u);
  EXPECT_TRUE(s.few_ios[0]);
  EXPECT_TRUE(s.few_ios[1]);
  EXPECT_EQ(s.percentile_low_ns[1], 0);
  EXPECT_EQ(s.percentile_high_ns[1], 0);
}

}  // namespace
}  // namespace fiohist
