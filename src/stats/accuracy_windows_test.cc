#include "stats/accuracy_windows.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace fiohist {
namespace {

TEST(AccuracyTarget, Parses) {
  AccuracyTarget t;
  ASSERT_TRUE(ParseAccuracyTarget("p99=10%", &t).ok());
  EXPECT_EQ(t.percentile, 99);
  EXPECT_DOUBLE_EQ(t.relative, 0.1);
  ASSERT_TRUE(ParseAccuracyTarget("99.9=2.5%", &t).ok());
  EXPECT_EQ(t.percentile, 99.9);
  EXPECT_DOUBLE_EQ(t.relative, 0.025);
  for (const char* bad : {"p99=10", "p99=0.1", "p99", "p101=10%", "p99=0%", "p99=100%",
                          "=10%", "px=10%", "p99=ten%"}) {
    EXPECT_FALSE(ParseAccuracyTarget(bad, &t).ok()) << bad;
  }
}

// fio's plat_val_to_idx (stat.c): the column of a latency of `ns` nanoseconds.
int FioColumn(uint64_t ns, int top) {
  if (ns < 128) return static_cast<int>(ns);
  int msb = 63 - __builtin_clzll(ns);
  const int error_bits = msb - 6;
  const int base = (error_bits + 1) << 6;
  const int offset = static_cast<int>((ns >> error_bits) & 63);
  return std::min(base + offset, top);
}

// Simulation with a known answer: every quantum holds 400 I/Os drawn from a lognormal
// latency distribution (median 200 us, sigma 0.5), so the true p99 is known exactly.
// Greedy windows for p99 within +-10% at 95% confidence must each meet the target, must
// not be able to end one quantum earlier, and their intervals must cover the true p99 in
// 93-97% of windows.
TEST(WindowBuilder, KnownDistribution) {
  BucketLayout layout;
  const std::vector<double> percentiles = {50, 99};
  const std::vector<AccuracyTarget> targets = {{99, 0.10}};
  const std::vector<size_t> indices = {1};
  const double mu = std::log(200000.0), sigma = 0.5;
  const double true_p99 = std::exp(mu + sigma * 2.3263478740408408);
  std::mt19937_64 rng(20261127);
  std::lognormal_distribution<double> draw(mu, sigma);
  WindowBuilder builder(layout, percentiles, 0.95, targets, indices, 1000);
  std::vector<Histogram> window;  // the current window's quanta, for the earlier-end check
  int windows = 0, covered = 0;
  for (int q = 0; q < 6000; ++q) {
    Histogram h;
    for (int i = 0; i < 400; ++i) {
      h.Add(FioColumn(static_cast<uint64_t>(draw(rng)), layout.top_column()), 1.0);
    }
    window.push_back(h);
    if (!builder.Add(h)) continue;
    ++windows;
    const LatencyStats& s = builder.stats();
    ASSERT_TRUE(builder.accurate());
    EXPECT_TRUE(MeetsAccuracy(s, targets, indices));
    EXPECT_GE(s.percentile_low_ns[1], s.percentile_ns[1] * 0.9);
    EXPECT_LE(s.percentile_high_ns[1], s.percentile_ns[1] * 1.1);
    if (s.percentile_low_ns[1] <= true_p99 && true_p99 <= s.percentile_high_ns[1]) ++covered;
    ASSERT_EQ(builder.quanta(), static_cast<int>(window.size()));
    // One quantum shorter would not have met the target.
    if (window.size() > 1) {
      Histogram shorter;
      for (size_t i = 0; i + 1 < window.size(); ++i) shorter.Merge(window[i]);
      LatencyStats t;
      ComputeStats(shorter, layout, percentiles, &t, 0.95);
      EXPECT_FALSE(MeetsAccuracy(t, targets, indices)) << "window " << windows;
    }
    window.clear();
  }
  ASSERT_GT(windows, 500);
  const double coverage = static_cast<double>(covered) / windows;
  std::printf("%d windows, mean %.2f quanta, coverage of the true p99 %.4f\n", windows,
              6000.0 / windows, coverage);
  EXPECT_GE(coverage, 0.93);
  EXPECT_LE(coverage, 0.97);
}

TEST(WindowBuilder, CutAtTheMaximumAndAtTheEnd) {
  BucketLayout layout;
  WindowBuilder builder(layout, {99}, 0.95, {{99, 0.01}}, {0}, 3);
  Histogram h;
  h.Add(500, 10);
  EXPECT_FALSE(builder.Add(h));
  EXPECT_FALSE(builder.Add(h));
  EXPECT_TRUE(builder.Add(h));  // 3 quanta: cut, not accurate
  EXPECT_FALSE(builder.accurate());
  EXPECT_EQ(builder.quanta(), 3);
  EXPECT_FALSE(builder.Finish());  // nothing open
  EXPECT_FALSE(builder.Add(h));
  EXPECT_TRUE(builder.Finish());
  EXPECT_EQ(builder.quanta(), 1);
  EXPECT_FALSE(builder.accurate());
}

}  // namespace
}  // namespace fiohist
