#include "log/grid_phase.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(GridPhase, ParsesTheChoices) {
  GridChoice c;
  ASSERT_TRUE(ParseGridChoice("logs", &c).ok());
  EXPECT_EQ(c.mode, GridChoice::Mode::kLogs);
  ASSERT_TRUE(ParseGridChoice("epoch", &c).ok());
  EXPECT_EQ(c.mode, GridChoice::Mode::kEpoch);
  ASSERT_TRUE(ParseGridChoice("2026-11-22T10:00:00.250Z", &c).ok());
  EXPECT_EQ(c.mode, GridChoice::Mode::kOrigin);
  EXPECT_EQ(c.origin_ms % 1000, 250);
  ASSERT_TRUE(ParseGridChoice("1700000000.5", &c).ok());
  EXPECT_EQ(c.origin_ms, 1700000000500LL);
}

TEST(GridPhase, RejectsAnOriginThatIsNoTime) {
  GridChoice c;
  const Status s = ParseGridChoice("noon", &c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--grid"), std::string::npos);
  EXPECT_NE(s.message().find("'noon'"), std::string::npos);
  EXPECT_FALSE(ParseGridChoice("", &c).ok());
  EXPECT_FALSE(ParseGridChoice("2026-13-01T00:00:00Z", &c).ok());
}

TEST(GridPhase, PeriodIsTheIntervalWhereItDividesTheQuantum) {
  EXPECT_EQ(PhasePeriod(1000, 1000), 1000);
  EXPECT_EQ(PhasePeriod(1000, 999), 1000);  // inferred from stamps a ms apart
  EXPECT_EQ(PhasePeriod(1000, 500), 500);
  EXPECT_EQ(PhasePeriod(1000, 499), 500);
  EXPECT_EQ(PhasePeriod(1000, 100), 100);
  EXPECT_EQ(PhasePeriod(1000, 2000), 1000);
  EXPECT_EQ(PhasePeriod(1000, 300), 1000);  // 3.3 intervals: no common period
  EXPECT_EQ(PhasePeriod(1000, 0), 1000);
}

// The exact minimizer by brute force over every phase: the reference the median must meet.
double Cost(const std::vector<RecordEnd>& ends, int64_t phase, int64_t period) {
  double cost = 0;
  for (const RecordEnd& e : ends) {
    int64_t d = ((e.end_ms - phase) % period + period) % period;
    cost += (e.ios > 0 ? e.ios : 1) * static_cast<double>(std::min(d, period - d));
  }
  return cost;
}

TEST(GridPhase, MedianMinimizesTheSplitIosExactly) {
  // Pseudo-random clusters (a fixed LCG: reproducible) against the brute-force optimum.
  uint64_t x = 12345;
  auto next = [&x]() {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>(x >> 33);
  };
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<RecordEnd> ends;
    const int clusters = 1 + static_cast<int>(next() % 4);
    for (int c = 0; c < clusters; ++c) {
      const int64_t phase = next() % 1000;
      const double ios = static_cast<double>(100 + next() % 10000);
      for (int k = 0; k < 20; ++k) {
        ends.push_back({1700000000000LL + k * 1000 + phase + next() % 7 - 3, ios});
      }
    }
    const int64_t got = CircularMedianPhase(ends, 1000);
    double best = -1;
    for (int64_t p = 0; p < 1000; ++p) {
      const double c = Cost(ends, p, 1000);
      if (best < 0 || c < best) best = c;
    }
    EXPECT_DOUBLE_EQ(Cost(ends, got, 1000), best) << "trial " << trial;
  }
}

TEST(GridPhase, MedianFollowsTheIosAcrossTheWrap) {
  // Most I/Os end at .990-.995 s, a few at .010 s: the heavy cluster wins, and of its two
  // points the one nearer the light one across the wrap.
  std::vector<RecordEnd> ends = {{990, 5000}, {1995, 5000}, {3010, 10}};
  EXPECT_EQ(CircularMedianPhase(ends, 1000), 995);
  // Two hosts 0.37 s apart, the later one with more I/Os.
  ends = {{886, 100}, {1886, 100}, {244, 300}, {1244, 300}};
  EXPECT_EQ(CircularMedianPhase(ends, 1000), 244);
  EXPECT_EQ(CircularMedianPhase({}, 1000), 0);
  // Records without I/Os still count (as one each).
  EXPECT_EQ(CircularMedianPhase({{1200, 0}, {2200, 0}, {3700, 0}}, 1000), 200);
}

TEST(GridPhase, OffsetIsSignedWithinHalfAPeriod) {
  EXPECT_EQ(PhaseOffset(300, 200, 1000), 100);
  EXPECT_EQ(PhaseOffset(100, 900, 1000), 200);
  EXPECT_EQ(PhaseOffset(900, 100, 1000), -200);
}

TEST(GridPhase, PlanChoosesTheOriginAndNamesFarHosts) {
  std::vector<LogRecordEnds> logs = {
      {"a", {{1700000000886LL, 1000}, {1700000001886LL, 1000}}},
      {"a", {{1700000000887LL, 1000}, {1700000001887LL, 1000}}},
      {"b", {{1700000000244LL, 500}, {1700000001244LL, 500}}},
  };
  GridChoice logs_grid;
  GridPlan plan = PlanGrid(logs_grid, 1000, 1000, logs);
  EXPECT_EQ(plan.origin_ms, 887);  // host a's two phases tie; b pulls towards 887
  EXPECT_EQ(plan.period_ms, 1000);
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_NE(plan.notes[0].find("host b"), std::string::npos);
  EXPECT_NE(plan.notes[0].find("357 ms"), std::string::npos) << plan.notes[0];
  EXPECT_NE(plan.notes[0].find("log_hist_msec"), std::string::npos);

  GridChoice epoch;
  epoch.mode = GridChoice::Mode::kEpoch;
  plan = PlanGrid(epoch, 1000, 1000, logs);
  EXPECT_EQ(plan.origin_ms, 0);
  EXPECT_EQ(plan.notes.size(), 2u);  // both hosts end far from whole seconds

  GridChoice origin;
  ASSERT_TRUE(ParseGridChoice("1700000000.250", &origin).ok());
  plan = PlanGrid(origin, 1000, 1000, logs);
  EXPECT_EQ(plan.origin_ms, 250);  // kept as its phase
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_NE(plan.notes[0].find("host a"), std::string::npos);
}

}  // namespace
}  // namespace fiohist
