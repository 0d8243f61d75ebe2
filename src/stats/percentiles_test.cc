#include "stats/percentiles.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(Percentiles, InterpolatesInsideTheBucket) {
  BucketLayout l;  // fio3
  Histogram h;
  // 100 I/Os in bucket 200: [l.LowerNs(200), l.UpperNs(200)).
  h.Add(200, 100);
  const double lo = l.LowerNs(200), hi = l.UpperNs(200);
  LatencyStats s = ComputeStats(h, l, {0, 50, 90, 100});
  EXPECT_DOUBLE_EQ(s.samples, 100);
  EXPECT_DOUBLE_EQ(s.percentile_ns[0], lo);
  EXPECT_DOUBLE_EQ(s.percentile_ns[1], lo + 0.5 * (hi - lo));
  EXPECT_DOUBLE_EQ(s.percentile_ns[2], lo + 0.9 * (hi - lo));
  EXPECT_DOUBLE_EQ(s.percentile_ns[3], hi);
  EXPECT_DOUBLE_EQ(s.min_ns, lo);
  EXPECT_DOUBLE_EQ(s.max_ns, hi);
  EXPECT_DOUBLE_EQ(s.mean_ns, (lo + hi) / 2);
}

TEST(Percentiles, WalksBucketsAndKeepsRequestOrder) {
  BucketLayout l;
  Histogram h;
  h.Add(10, 30);   // [10, 11) ns
  h.Add(20, 60);   // [20, 21)
  h.Add(100, 10);  // [100, 101)
  LatencyStats s = ComputeStats(h, l, {99, 50, 30, 95});
  EXPECT_DOUBLE_EQ(s.percentile_ns[0], 100.9);   // 99 is 90% into the last bucket
  EXPECT_DOUBLE_EQ(s.percentile_ns[1], 20 + 20.0 / 60);
  EXPECT_DOUBLE_EQ(s.percentile_ns[2], 20);      // exactly the 30% boundary: next bucket
  EXPECT_DOUBLE_EQ(s.percentile_ns[3], 100.5);
  EXPECT_DOUBLE_EQ(s.mean_ns, (30 * 10.5 + 60 * 20.5 + 10 * 100.5) / 100);
}

TEST(Percentiles, MarksTheClampedBucketAsLowerBound) {
  BucketLayout l;
  Histogram h;
  h.Add(300, 99);
  h.Add(l.top_column(), 1);
  LatencyStats s = ComputeStats(h, l, {50, 99.5});
  EXPECT_FALSE(s.lower_bound[0]);
  EXPECT_TRUE(s.lower_bound[1]);
  EXPECT_TRUE(s.max_lower_bound);
  EXPECT_DOUBLE_EQ(s.top_bucket, 1);
  EXPECT_GE(s.percentile_ns[1], l.LowerNs(l.top_column()));
}

TEST(Percentiles, EmptyHistogramHasNoSamples) {
  BucketLayout l;
  Histogram h;
  LatencyStats s = ComputeStats(h, l, {50});
  EXPECT_EQ(s.samples, 0);
  EXPECT_EQ(s.percentile_ns.size(), 1u);
}

TEST(Percentiles, ParsesAndNamesLists) {
  PercentileList p;
  ASSERT_TRUE(ParsePercentiles("50, 99.9,99.99", &p).ok());
  ASSERT_EQ(p.values.size(), 3u);
  EXPECT_EQ(p.names[1], "p99.9");
  EXPECT_EQ(p.field_names[2], "p99_99");
  EXPECT_FALSE(ParsePercentiles("50,101", &p).ok());
  EXPECT_FALSE(ParsePercentiles("50,abc", &p).ok());
  EXPECT_FALSE(ParsePercentiles("50,50", &p).ok());
  EXPECT_EQ(DefaultPercentiles().names.size(), 6u);
}

}  // namespace
}  // namespace fiohist
