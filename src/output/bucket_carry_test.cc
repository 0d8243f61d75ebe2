#include "output/bucket_carry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace fiohist {
namespace {

// A job's records of whole counts split across quantum edges: every window's sum of the
// rounded counts stays within 1 of the exact sum, and the whole run's is exact.
TEST(BucketCarry, WindowsWithinOneAndTheRunExact) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> split(0, 1);
  const int quanta = 200, columns = 5;
  std::vector<std::vector<double>> exact(quanta, std::vector<double>(columns, 0));
  for (int q = 0; q + 1 < quanta; ++q) {  // a record of n I/Os straddles q and q+1
    for (int c = 0; c < columns; ++c) {
      const double n = static_cast<double>(rng() % 7);
      const double w = split(rng);
      exact[q][c] += n * w;
      exact[q + 1][c] += n * (1 - w);
    }
  }
  BucketCarry carry;
  std::vector<std::vector<int64_t>> rounded(quanta, std::vector<int64_t>(columns, 0));
  for (int q = 0; q < quanta; ++q) {
    Histogram h;
    for (int c = 0; c < columns; ++c) {
      if (exact[q][c] > 0) h.Add(c, exact[q][c]);
    }
    ScopeResult r;
    r.kind = ScopeKind::kJob;
    r.host = "h";
    r.job = "j";
    r.histogram = &h;
    IntegerBuckets b;
    carry.Round(r, &b);
    int64_t total = 0;
    for (size_t i = 0; i < b.columns.size(); ++i) {
      EXPECT_GT(b.counts[i], 0);
      rounded[q][static_cast<size_t>(b.columns[i])] = b.counts[i];
      total += b.counts[i];
    }
    EXPECT_EQ(total, b.total);
  }
  for (int c = 0; c < columns; ++c) {
    for (int from = 0; from < quanta; from += 13) {
      for (int to = from + 1; to <= quanta; to += 17) {
        double want = 0, got = 0;
        for (int q = from; q < to; ++q) {
          want += exact[q][c];
          got += static_cast<double>(rounded[q][c]);
        }
        EXPECT_LT(std::fabs(want - got), 1.0) << c << " " << from << ".." << to;
      }
    }
    double want = 0, got = 0;
    for (int q = 0; q < quanta; ++q) {
      want += exact[q][c];
      got += static_cast<double>(rounded[q][c]);
    }
    EXPECT_EQ(got, std::round(want)) << c;
  }
}

// Each series (scope, host, job, direction) has its own carry.
TEST(BucketCarry, SeriesCarrySeparately) {
  Histogram h;
  h.Add(3, 0.4);
  BucketCarry carry;
  IntegerBuckets b;
  for (const char* job : {"a", "b"}) {
    ScopeResult r;
    r.kind = ScopeKind::kJob;
    r.job = job;
    r.histogram = &h;
    carry.Round(r, &b);
    EXPECT_EQ(b.total, 0);  // 0.4 alone rounds to 0 in each series
  }
  ScopeResult r;
  r.kind = ScopeKind::kJob;
  r.job = "a";
  r.histogram = &h;
  carry.Round(r, &b);  // 0.8 in series a
  ASSERT_EQ(b.columns.size(), 1u);
  EXPECT_EQ(b.counts[0], 1);
}

// A job done (ResultSink::JobDone) takes its carries with it, in every direction; other
// series keep theirs.
TEST(BucketCarry, ForgetJobDropsItsCarriesOnly) {
  Histogram h;
  h.Add(3, 0.4);  // rounds to 0 and carries 0.4
  ScopeResult r;
  r.kind = ScopeKind::kJob;
  r.host = "h";
  r.histogram = &h;
  BucketCarry carry;
  IntegerBuckets b;
  for (const char* job : {"a", "b"}) {
    r.job = job;
    for (Direction d : {Direction::kRead, Direction::kWrite}) {
      r.direction = d;
      carry.Round(r, &b);
      EXPECT_EQ(b.total, 0);
    }
  }
  carry.ForgetJob("h", "a");
  for (Direction d : {Direction::kRead, Direction::kWrite}) {
    r.direction = d;
    r.job = "a";
    carry.Round(r, &b);  // 0.4 again: still below one half
    EXPECT_EQ(b.total, 0);
    r.job = "b";
    carry.Round(r, &b);  // 0.4 + 0.4 carried
    EXPECT_EQ(b.total, 1);
  }
}

}  // namespace
}  // namespace fiohist
