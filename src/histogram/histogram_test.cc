#include "histogram/histogram.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <utility>
#include <vector>

namespace fiohist {
namespace {

std::map<int, double> NonZero(const Histogram& h) {
  std::map<int, double> m;
  int previous = -1;
  h.ForEachNonZero([&](int column, double count) {
    EXPECT_GT(column, previous);  // column order
    previous = column;
    m[column] = count;
  });
  return m;
}

TEST(HistogramTest, AddsSparseRecordsWithWeight) {
  Histogram h;
  EXPECT_TRUE(h.empty());
  h.AddWeighted({{3, 4}, {70, 2}, {1800, 1}}, 0.5);
  EXPECT_FALSE(h.empty());
  EXPECT_EQ(h.total(), 3.5);
  EXPECT_EQ(h.at(3), 2.0);
  EXPECT_EQ(h.at(70), 1.0);
  EXPECT_EQ(h.at(1800), 0.5);
  EXPECT_EQ(h.at(4), 0.0);
  EXPECT_EQ(h.at(5000), 0.0);
  EXPECT_EQ(h.begin_column(), 3);
  EXPECT_EQ(h.end_column(), 1801);
  EXPECT_EQ(NonZero(h), (std::map<int, double>{{3, 2.0}, {70, 1.0}, {1800, 0.5}}));
  h.Clear();
  EXPECT_TRUE(h.empty());
  EXPECT_EQ(h.total(), 0.0);
  EXPECT_TRUE(NonZero(h).empty());
  // Storage is kept, but a new range starts clean.
  h.Add(10, 1.0);
  EXPECT_EQ(NonZero(h), (std::map<int, double>{{10, 1.0}}));
}

// Merge adds crowded bitmap words densely and sparse ones column by column: both must
// give exactly what adding column by column gives, whatever the ranges.
TEST(HistogramTest, MergeEqualsColumnByColumnAddition) {
  std::mt19937 rng(11);
  for (int round = 0; round < 500; ++round) {
    Histogram a, b;
    for (Histogram* h : {&a, &b}) {
      const int records = 1 + static_cast<int>(rng() % 3);
      for (int r = 0; r < records; ++r) {
        std::vector<std::pair<uint32_t, uint64_t>> counts;
        const int lo = static_cast<int>(rng() % 1500);
        const int span = 1 + static_cast<int>(rng() % 300);
        const unsigned density = 1 + rng() % 4;  // 1: every column ... 4: a quarter
        for (int c = lo; c < lo + span && c < Histogram::kMaxColumns; ++c) {
          if (rng() % density == 0) counts.emplace_back(c, 1 + rng() % 1000);
        }
        if (rng() % 5 == 0) counts.emplace_back(2000 + rng() % 500, 1);  // a far tail event
        if (counts.empty()) continue;
        const double w = (1 + rng() % 999) / 1000.0;
        h->AddWeighted(counts, w);
      }
    }
    // Expected: a's counts plus b's, added column by column in the same order.
    std::map<int, double> expect = NonZero(a);
    for (const auto& [c, n] : NonZero(b)) expect[c] += n;
    const double total = a.total() + b.total();
    a.Merge(b);
    EXPECT_EQ(NonZero(a), expect);
    EXPECT_EQ(a.total(), total);
  }
}

TEST(HistogramTest, MergeIntoEmptyAndGrowingDownwards) {
  Histogram a, b;
  b.AddWeighted({{500, 3}, {501, 1}}, 1.0);
  a.Merge(b);
  EXPECT_EQ(NonZero(a), NonZero(b));
  Histogram c;
  c.AddWeighted({{2, 5}}, 1.0);
  a.Merge(c);  // range grows below its start
  EXPECT_EQ(NonZero(a), (std::map<int, double>{{2, 5.0}, {500, 3.0}, {501, 1.0}}));
  EXPECT_EQ(a.total(), 9.0);
  Histogram empty;
  a.Merge(empty);
  EXPECT_EQ(a.total(), 9.0);
}

}  // namespace
}  // namespace fiohist
