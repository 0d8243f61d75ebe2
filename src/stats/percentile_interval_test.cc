#include "stats/percentile_interval.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/lognormal.hpp>

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
  // The same for p99.9 and p99.99 (the README's figures): 0.999^n <= 0.025 from 3,688 on,
  // 0.9999^n from 36,887 on.
  EXPECT_EQ(QuantileRanks(3687, 0.999, 0.95).upper, 3688);
  EXPECT_EQ(QuantileRanks(3688, 0.999, 0.95).upper, 3688);
  EXPECT_EQ(QuantileRanks(36886, 0.9999, 0.95).upper, 36887);
  EXPECT_EQ(QuantileRanks(36887, 0.9999, 0.95).upper, 36887);
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

TEST(PercentileInterval, RankTestsAgreeWithTheExactRanks) {
  // LowerRankAtLeast / UpperRankAtMost are the predicates the bucket bisection uses: each
  // must flip exactly at QuantileRanks' rank.
  for (int64_t n : {1LL, 7LL, 100LL, 368LL, 1000LL, 6113LL, 250001LL}) {
    for (double p : {0.0, 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0}) {
      const RankInterval r = QuantileRanks(n, p, 0.95);
      for (int64_t d = -3; d <= 3; ++d) {
        EXPECT_EQ(LowerRankAtLeast(n, p, 0.95, r.lower + d), d <= 0) << n << " " << p << " " << d;
        EXPECT_EQ(UpperRankAtMost(n, p, 0.95, r.upper + d), d >= 0) << n << " " << p << " " << d;
      }
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
  // Sums of 64-bit counts beyond int64_t (the fuzzer's 1.2e19) are capped, never cast out
  // of range, and their ranks stay inside the grid.
  EXPECT_EQ(WholeIos(1.22222e19), kMaxIntervalIos);
  EXPECT_EQ(WholeIos(1e300), kMaxIntervalIos);
  const RankBracket b = QuantileRankBracket(kMaxIntervalIos - 12345, 0.99, 0.95);
  EXPECT_LE(b.lower_min, b.upper_max);
  EXPECT_GT(b.lower_min, 0);
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

TEST(PercentileInterval, NoIntervalsLeavesThemOut) {
  const BucketLayout layout;
  Histogram h;
  h.Add(300, 1000);
  const LatencyStats s = ComputeStats(h, layout, {50, 99}, kNoIntervals);
  EXPECT_EQ(s.percentile_ns.size(), 2u);
  EXPECT_TRUE(s.few_ios.empty());
  EXPECT_TRUE(s.percentile_low_ns.empty());
  EXPECT_TRUE(s.percentile_high_ns.empty());
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

// Coverage by simulation, against a known distribution: latencies log-normal (median
// 100 us, sigma 0.6), so the true p-quantile is exp(mu + sigma z_p). A quantum's bucket
// counts are drawn as Multinomial(n, bucket probabilities): exactly what n i.i.d. draws
// placed in fio's buckets give, at a cost per bucket instead of per draw. For each n and
// p: the share of quanta whose interval holds the true quantile (>= 93 % wanted at 95 %),
// the share flagged few_ios (then only the lower bound can miss), the median relative
// width, and the binomial coverage of the ranks alone: what the bucket edges add on top is
// how conservative the interval is.
TEST(PercentileInterval, CoversTheTrueQuantileOfIidDraws) {
  const BucketLayout layout;
  const std::vector<double>& edges = EdgesNs(layout);
  const double mu = std::log(100e3), sigma = 0.6;
  const boost::math::lognormal_distribution<double> truth(mu, sigma);
  std::vector<double> prob(edges.size() - 1);
  for (size_t c = 0; c + 1 < edges.size(); ++c) {
    prob[c] = boost::math::cdf(truth, std::max(edges[c + 1], 1e-9)) -
              boost::math::cdf(truth, std::max(edges[c], 1e-9));
  }
  std::mt19937_64 rng(20261125);
  const std::vector<double> ps = {50, 99, 99.9};
  const int quanta = 2000;
  std::printf("%8s %6s %9s %9s %12s %12s\n", "n", "p", "covered", "few_ios", "median width",
              "rank cover");
  for (int n : {100, 1000, 10000, 100000}) {
    std::vector<int> covered(ps.size(), 0), few(ps.size(), 0);
    std::vector<std::vector<double>> widths(ps.size());
    for (int q = 0; q < quanta; ++q) {
      Histogram h;
      int64_t left = n;
      double mass = 1;
      for (size_t c = 0; c < prob.size() && left > 0; ++c) {
        if (prob[c] <= 0) continue;
        const double share = std::clamp(prob[c] / mass, 0.0, 1.0);
        const int64_t k = std::binomial_distribution<int64_t>(left, share)(rng);
        if (k > 0) h.Add(static_cast<int>(c), static_cast<double>(k));
        left -= k;
        mass -= prob[c];
      }
      const LatencyStats s = ComputeStats(h, layout, ps, 0.95);
      for (size_t i = 0; i < ps.size(); ++i) {
        const double x = boost::math::quantile(truth, ps[i] / 100);
        const bool above = s.few_ios[i] || x <= s.percentile_high_ns[i];
        if (s.percentile_low_ns[i] <= x && above) ++covered[i];
        if (s.few_ios[i]) {
          ++few[i];
        } else {
          widths[i].push_back((s.percentile_high_ns[i] - s.percentile_low_ns[i]) / x);
        }
      }
    }
    for (size_t i = 0; i < ps.size(); ++i) {
      const double share = static_cast<double>(covered[i]) / quanta;
      std::string width = "-";
      if (!widths[i].empty()) {
        std::nth_element(widths[i].begin(), widths[i].begin() + widths[i].size() / 2,
                         widths[i].end());
        char text[32];
        std::snprintf(text, sizeof text, "%.2f%%", 100 * widths[i][widths[i].size() / 2]);
        width = text;
      }
      const double rank_cover = RanksCoverage(n, ps[i] / 100, QuantileRanks(n, ps[i] / 100, 0.95));
      std::printf("%8d %6g %8.2f%% %8.2f%% %12s %11.2f%%\n", n, ps[i], 100 * share,
                  100.0 * few[i] / quanta, width.c_str(), 100 * rank_cover);
      EXPECT_GE(share, 0.93) << "n " << n << " p" << ps[i];
    }
  }
}

// The bracket from the grid always holds the exact ranks (the property ComputeStats relies
// on to skip the search), and ComputeStats' bounds equal those of the exact ranks mapped on
// the buckets, on random histograms of many sizes.
TEST(PercentileInterval, BracketHoldsTheExactRanks) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> size(1, 2000000);
  for (int i = 0; i < 400; ++i) {
    const int64_t n = i < 300 ? 1 + i * 37 : size(rng);
    for (double p : {0.5, 0.9, 0.99, 0.999, 0.9999}) {
      const RankInterval r = QuantileRanks(n, p, 0.95);
      const RankBracket b = QuantileRankBracket(n, p, 0.95);
      EXPECT_LE(b.lower_min, r.lower) << n << " " << p;
      EXPECT_GE(b.lower_max, r.lower) << n << " " << p;
      EXPECT_LE(b.upper_min, r.upper) << n << " " << p;
      EXPECT_GE(b.upper_max, r.upper) << n << " " << p;
    }
  }
}

TEST(PercentileInterval, StatsEqualExactRanksOnRandomHistograms) {
  const BucketLayout layout;
  const std::vector<double>& edges = EdgesNs(layout);
  std::mt19937_64 rng(11);
  const std::vector<double> ps = {50, 90, 99, 99.9, 99.99};
  for (int i = 0; i < 300; ++i) {
    Histogram h;
    const int buckets = 1 + static_cast<int>(rng() % 200);
    const int first = 100 + static_cast<int>(rng() % 400);
    const double weight = (rng() % 2) ? 1.0 : 0.37;  // whole and fractional counts
    for (int c = 0; c < buckets; ++c) {
      h.Add(first + c, weight * static_cast<double>(rng() % (1 + (rng() % 20000))));
    }
    const LatencyStats s = ComputeStats(h, layout, ps, 0.95);
    // The exact mapping: rank r in the first bucket whose running count reaches
    // r * total / n.
    const int64_t n = WholeIos(h.total());
    for (size_t k = 0; k < ps.size() && n > 0; ++k) {
      const RankInterval r = QuantileRanks(n, ps[k] / 100, 0.95);
      auto column_of = [&](int64_t rank) {
        const double want = static_cast<double>(rank) * h.total() / static_cast<double>(n) *
                            (1 - 1e-12);
        double run = 0;
        int last = -1;
        for (int c = 0; c < layout.columns(); ++c) {
          if (h.at(c) <= 0) continue;
          run += h.at(c);
          last = c;
          if (run >= want) return c;
        }
        return last;
      };
      const double low = r.lower <= 0 ? 0.0 : edges[static_cast<size_t>(column_of(r.lower))];
      EXPECT_EQ(s.percentile_low_ns[k], low) << i << " p" << ps[k];
      EXPECT_EQ(s.few_ios[k], r.upper > n) << i << " p" << ps[k];
      if (r.upper <= n) {
        EXPECT_EQ(s.percentile_high_ns[k], edges[static_cast<size_t>(column_of(r.upper)) + 1])
            << i << " p" << ps[k];
      }
    }
  }
}

}  // namespace
}  // namespace fiohist
