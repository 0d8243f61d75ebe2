#include "histogram/bucket_layout.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(BucketLayout, Fio3BoundsInNanoseconds) {
  BucketLayout l;  // fio3: 29 groups, ns
  EXPECT_EQ(l.columns(), 1856);
  EXPECT_EQ(l.LowerNs(0), 0);
  EXPECT_EQ(l.UpperNs(0), 1);
  EXPECT_EQ(l.LowerNs(127), 127);
  EXPECT_EQ(l.UpperNs(127), 128);
  // Bucket 128 starts group 2: width 2.
  EXPECT_EQ(l.LowerNs(128), 128);
  EXPECT_EQ(l.UpperNs(128), 130);
  EXPECT_EQ(l.LowerNs(191), 254);
  EXPECT_EQ(l.LowerNs(192), 256);
  EXPECT_EQ(l.UpperNs(192), 260);
  // Last bucket: [17.05 s, 17.18 s).
  EXPECT_EQ(l.LowerNs(1855), 17045651456.0);
  EXPECT_EQ(l.UpperNs(1855), 17179869184.0);
  EXPECT_EQ(l.MidNs(200), (l.LowerNs(200) + l.UpperNs(200)) / 2);
}

TEST(BucketLayout, Fio2BoundsInMicroseconds) {
  BucketLayout l;
  ASSERT_TRUE(LayoutFromColumns(1216, LayoutHint{2, 0}, &l).ok());
  EXPECT_EQ(l.groups, 19);
  EXPECT_EQ(l.unit_ns, 1000);
  EXPECT_EQ(l.LowerNs(1215), 16646144.0 * 1000);  // 16.65 s
  EXPECT_EQ(l.UpperNs(1215), 16777216.0 * 1000);  // 16.78 s
}

TEST(BucketLayout, CoarsenedColumnsCoverTheirFineBuckets) {
  BucketLayout fine, coarse;
  ASSERT_TRUE(LayoutFromColumns(464, LayoutHint(), &coarse).ok());
  EXPECT_EQ(coarse.coarseness, 2);
  EXPECT_EQ(coarse.groups, 29);
  for (int c = 0; c < 464; ++c) {
    EXPECT_EQ(coarse.LowerNs(c), fine.LowerNs(4 * c));
    EXPECT_EQ(coarse.UpperNs(c), fine.UpperNs(4 * c + 3));
  }
  ASSERT_TRUE(LayoutFromColumns(29, LayoutHint(), &coarse).ok());
  EXPECT_EQ(coarse.coarseness, 6);
  EXPECT_EQ(coarse.UpperNs(28), fine.UpperNs(1855));
}

TEST(BucketLayout, ColumnCountsPickTheStockBuildsFirst) {
  BucketLayout l;
  ASSERT_TRUE(LayoutFromColumns(1856, LayoutHint(), &l).ok());
  EXPECT_EQ(l.Name(), "fio3-g29-c0");
  ASSERT_TRUE(LayoutFromColumns(1216, LayoutHint(), &l).ok());
  EXPECT_EQ(l.Name(), "fio2-g19-c0");
  ASSERT_TRUE(LayoutFromColumns(1216, LayoutHint{3, 0}, &l).ok());
  EXPECT_EQ(l.Name(), "fio3-g19-c0");
  ASSERT_TRUE(LayoutFromColumns(1664, LayoutHint(), &l).ok());  // recompiled fio, 26 groups
  EXPECT_EQ(l.Name(), "fio3-g26-c0");
  Status s = LayoutFromColumns(1000, LayoutHint(), &l);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("1000"), std::string::npos);
}

TEST(BucketLayout, ParsesHints) {
  LayoutHint h;
  ASSERT_TRUE(ParseLayoutHint("fio3:groups=26", &h).ok());
  EXPECT_EQ(h.fio_version, 3);
  EXPECT_EQ(h.groups, 26);
  EXPECT_FALSE(ParseLayoutHint("fio4", &h).ok());
  EXPECT_FALSE(ParseLayoutHint("groups=x", &h).ok());
}

TEST(BucketLayout, FioBucketValuesRoundTrip) {
  BucketLayout l;  // fio3
  // Values seen in fio 3.33's json+ bins: 24704 ns is column 608 (group 9, bucket 32).
  EXPECT_EQ(FioBucketValue(l, 608), 24704u);
  EXPECT_EQ(FioBucketValue(l, 127), 127u);
  EXPECT_EQ(FioBucketValue(l, 128), 129u);  // [128, 130): 128 + 0.5 * 2, truncated
  for (int c = 0; c < l.columns(); ++c) {
    int back = -1;
    ASSERT_TRUE(ColumnOfFioValue(l, FioBucketValue(l, c), &back)) << c;
    EXPECT_EQ(back, c);
  }
  int c = -1;
  EXPECT_FALSE(ColumnOfFioValue(l, 24705, &c));  // inside a bucket, not its value
  EXPECT_FALSE(ColumnOfFioValue(l, 128, &c));
  EXPECT_FALSE(ColumnOfFioValue(l, uint64_t{1} << 62, &c));  // beyond the last group
  BucketLayout coarse;
  coarse.coarseness = 1;
  EXPECT_FALSE(ColumnOfFioValue(coarse, 24704, &c));
}

}  // namespace
}  // namespace fiohist
