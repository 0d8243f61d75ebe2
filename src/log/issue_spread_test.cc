#include "log/issue_spread.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "histogram/bucket_layout.h"
#include "log/issue_stream.h"

namespace fiohist {
namespace {

// The share of issue times C - L in [qs, qe), C uniform on (a, b], L uniform on [lo, hi],
// computed independently of IssueCdf: exactly over L for each C (the overlap of two
// intervals), summed over C by the midpoint rule on `steps` points (the integrand is
// piecewise linear in C with a few kinks: the error is far below the tolerance used).
double Numeric(double a, double b, double lo, double hi, double qs, double qe, int steps = 200000) {
  double sum = 0;
  for (int i = 0; i < steps; ++i) {
    const double c = a + (b - a) * (i + 0.5) / steps;
    // c - l in [qs, qe)  <=>  l in (c - qe, c - qs]
    double share;
    if (hi > lo) {
      const double from = std::max(lo, c - qe), to = std::min(hi, c - qs);
      share = to > from ? (to - from) / (hi - lo) : 0;
    } else {
      share = (c - lo >= qs && c - lo < qe) ? 1 : 0;
    }
    sum += share;
  }
  return sum / steps;
}

TEST(IssueSpread, PointLatencyShiftsTheSpan) {
  const QuantumGrid grid(0, 1000);
  const TimeSpan span{1000, 2000};
  const LatencyRange l{300, 300};
  // Issued over (700, 1700]: 30 % in [0, 1000), 70 % in [1000, 2000).
  EXPECT_NEAR(IssueWeight(grid, span, l, 0), 0.3, 1e-12);
  EXPECT_NEAR(IssueWeight(grid, span, l, 1), 0.7, 1e-12);
  EXPECT_NEAR(IssueWeight(grid, span, l, 2), 0.0, 1e-12);
}

TEST(IssueSpread, MatchesANumericIntegral) {
  struct Case {
    int64_t a, b;
    double lo, hi;
    int64_t origin, quantum;
  };
  const Case cases[] = {
      {1000, 2000, 500, 3500, 0, 1000},   // latencies longer than the span
      {1000, 2000, 0.4, 0.41, 0, 250},    // a narrow bucket (microseconds)
      {5000, 5001, 3000, 3100, 0, 1000},  // a lone stuck I/O
      {0, 4120, 100, 300, 708, 1000},     // a long record, another grid phase
      {1000, 1300, 200, 2000, -17, 100},  // fine quanta, a wide bucket
  };
  for (const Case& c : cases) {
    const QuantumGrid grid(c.origin, c.quantum);
    const TimeSpan span{c.a, c.b};
    const LatencyRange l{c.lo, c.hi};
    int64_t first, last;
    IssueQuanta(grid, span, l, &first, &last);
    double total = 0;
    for (int64_t q = first - 1; q <= last + 1; ++q) {
      const double w = IssueWeight(grid, span, l, q);
      const double want =
          Numeric(static_cast<double>(c.a), static_cast<double>(c.b), c.lo, c.hi,
                  static_cast<double>(grid.Start(q)), static_cast<double>(grid.End(q)));
      EXPECT_NEAR(w, want, 1e-6) << "span (" << c.a << ", " << c.b << "] latency [" << c.lo << ", "
                                 << c.hi << "] quantum " << q;
      if (q < first || q > last) {
        EXPECT_EQ(w, 0) << q;
      }
      total += w;
    }
    EXPECT_NEAR(total, 1.0, 1e-9);
  }
}

TEST(IssueSpread, KeepsPrecisionOnEpochStamps) {
  // A 4 us wide bucket on Unix-epoch milliseconds: no cancellation of large squares.
  const int64_t t = 1795812254000;
  const QuantumGrid grid(0, 1000);
  const TimeSpan span{t - 1000, t};
  const LatencyRange l{0.400, 0.404};
  const double w = IssueWeight(grid, span, l, grid.IndexOf(t - 1));
  // Exactly: all but those issued before t - 1000, P(C < t - 1000 + L) = E[L] / 1000.
  EXPECT_NEAR(w, 1 - 0.402 / 1000, 1e-12);
}

TEST(IssueSpread, ZeroLengthSpanIsTheMillisecondBefore) {
  const QuantumGrid grid(0, 1000);
  const LatencyRange l{3000, 3000};
  // Completed at 5000: issued at 2000 (the millisecond (1999, 2000]).
  EXPECT_NEAR(IssueWeight(grid, TimeSpan{5000, 5000}, l, 1), 1.0, 1e-12);
}

TEST(IssueSpread, ColumnLatenciesEndAtTheOpenBucket) {
  const BucketLayout fio3;
  const std::vector<LatencyRange> r = ColumnLatencies(fio3);
  ASSERT_EQ(static_cast<int>(r.size()), fio3.columns());
  EXPECT_EQ(r.back().lo_ms, r.back().hi_ms);
  EXPECT_NEAR(r[1000].lo_ms, fio3.LowerNs(1000) / 1e6, 1e-12);
  EXPECT_NEAR(r[1000].hi_ms, fio3.UpperNs(1000) / 1e6, 1e-12);
}

TEST(IssueSpread, CompleteTo) {
  // The log ends at 10,000 ms; its slowest I/O took 3 s.
  EXPECT_EQ(CompleteTo(7000, 10000, 3000), RecordStream::kCompleteToAll);
  EXPECT_EQ(CompleteTo(8000, 10000, 3000), 2000);
  EXPECT_EQ(CompleteTo(11000, 10000, 3000), 0);
}

}  // namespace
}  // namespace fiohist
