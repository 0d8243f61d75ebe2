#include "log/quantum_grid.h"

#include <gtest/gtest.h>

#include "histogram/histogram.h"

namespace fiohist {
namespace {

TEST(QuantumGrid, SpreadsByOverlap) {
  // 10 reads over (600, 1800] ms with 1 s quanta: 400/1200 and 800/1200 of them.
  QuantumGrid grid(0, 1000);
  TimeSpan span{600, 1800};
  EXPECT_NEAR(10 * grid.Weight(span, 0), 3.3333333333, 1e-9);
  EXPECT_NEAR(10 * grid.Weight(span, 1), 6.6666666667, 1e-9);
  EXPECT_EQ(grid.Weight(span, 2), 0.0);
  EXPECT_EQ(grid.Weight(span, -1), 0.0);
}

TEST(QuantumGrid, QuarterSecondQuantaAndLongStalls) {
  QuantumGrid grid(0, 250);
  TimeSpan second{1000, 2000};
  for (int q = 4; q < 8; ++q) EXPECT_DOUBLE_EQ(grid.Weight(second, q), 0.25);
  // A two-hour stall spreads evenly over 28800 quarter-second quanta.
  TimeSpan stall{0, 2 * 3600 * 1000};
  double sum = 0;
  for (int q = 0; q < 28800; ++q) sum += grid.Weight(stall, q);
  EXPECT_NEAR(sum, 1.0, 1e-9);
  EXPECT_DOUBLE_EQ(grid.Weight(stall, 100), 1.0 / 28800);
}

TEST(QuantumGrid, EpochAlignmentAndNegativeTimes) {
  QuantumGrid grid(0, 1000);
  EXPECT_EQ(grid.IndexOf(1795306120457), 1795306120);
  EXPECT_EQ(grid.Start(1795306120), 1795306120000);
  EXPECT_EQ(grid.IndexOf(-1), -1);
  EXPECT_EQ(grid.IndexOf(-1000), -1);
  EXPECT_EQ(grid.IndexOf(-1001), -2);
}

TEST(Histogram, GrowsBothWaysAndMerges) {
  Histogram h;
  EXPECT_TRUE(h.empty());
  h.Add(500, 2.5);
  h.Add(300, 1);
  h.Add(900, 0.5);
  EXPECT_EQ(h.begin_column(), 300);
  EXPECT_EQ(h.end_column(), 901);
  EXPECT_DOUBLE_EQ(h.at(500), 2.5);
  EXPECT_DOUBLE_EQ(h.at(299), 0);
  EXPECT_DOUBLE_EQ(h.total(), 4);
  Histogram g;
  g.AddWeighted({{10, 4}, {500, 2}}, 0.5);
  h.Merge(g);
  EXPECT_DOUBLE_EQ(h.at(10), 2);
  EXPECT_DOUBLE_EQ(h.at(500), 3.5);
  EXPECT_DOUBLE_EQ(h.total(), 7);
  int n = 0;
  h.ForEachNonZero([&](int, double) { ++n; });
  EXPECT_EQ(n, 4);
  h.Clear();
  EXPECT_TRUE(h.empty());
  EXPECT_EQ(h.total(), 0);
  EXPECT_EQ(h.at(500), 0);
}

}  // namespace
}  // namespace fiohist
