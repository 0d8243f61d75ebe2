#include "stats/run_comparison.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "stats/run_simulation.h"

namespace fiohist {
namespace {

RunData Data(const RunCells& cells) { return RunData{cells.run, {cells}}; }

// Coverage of the combined interval, by simulation of the random-effects model it
// assumes: runs of one job differ by a per-run offset (sd tau) plus measurement noise.
double Coverage(int baselines, double tau, double assumed, double level) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal(0, 1);
  const double v = 0.02 * 0.02;
  const int trials = 4000;
  int covered = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> logs, vars;
    for (int i = 0; i < baselines; ++i) {
      logs.push_back(tau * normal(rng) + std::sqrt(v) * normal(rng));
      vars.push_back(v);
    }
    const double run = 0.1 + tau * normal(rng) + std::sqrt(v) * normal(rng);
    const LogChange c = CombineChange(run, v, logs, vars, assumed, level);
    covered += c.low <= 0.1 && 0.1 <= c.high;
  }
  return static_cast<double>(covered) / trials;
}

TEST(RunComparison, IntervalCoversTheTrueChange) {
  EXPECT_NEAR(Coverage(5, 0.05, 0, 0.95), 0.95, 0.02);
  EXPECT_NEAR(Coverage(10, 0.05, 0, 0.90), 0.90, 0.02);
  // Where the baselines' spread is below their own measured noise, the noise is the floor:
  // conservative, never below the level.
  EXPECT_GE(Coverage(2, 0.05, 0, 0.95), 0.93);
  EXPECT_GE(Coverage(10, 0.0, 0, 0.95), 0.93);
  // The assumed spread as a floor: at least the level where it is right (conservative: the
  // floor binds in about half the trials, and t keeps its k - 1 df).
  for (int k : {2, 4}) EXPECT_GE(Coverage(k, 0.05, 0.05, 0.95), 0.95);
  // Runs that differ far more than assumed (a busy machine: 20%, assumed 3%): the measured
  // spread counts in full. (A prior of 8 df at 3% pulled it down and covered ~0.6 here.)
  EXPECT_NEAR(Coverage(3, 0.20, 0.03, 0.95), 0.95, 0.02);
  EXPECT_NEAR(Coverage(5, 0.20, 0.03, 0.95), 0.95, 0.02);
  // One baseline: the interval shown assumes the spread; right when it is right.
  EXPECT_NEAR(Coverage(1, 0.05, 0.05, 0.95), 0.95, 0.02);
  // Ignoring the spread between runs (the mistake this guards against) covers far less.
  EXPECT_LT(Coverage(1, 0.05, 0.0, 0.95), 0.6);
}

TEST(RunComparison, SingleBaselineSaysTheSpreadIsAssumed) {
  const LogChange c = CombineChange(std::log(1.1), 1e-4, {0.0}, {1e-4}, 0.05, 0.95);
  EXPECT_TRUE(c.spread_assumed);
  EXPECT_TRUE(c.single_baseline);
  EXPECT_DOUBLE_EQ(c.spread, 0.05);
  EXPECT_TRUE(std::isinf(c.df));
  // A 10% difference with a 5% spread between runs is no evidence.
  std::string why;
  EXPECT_EQ(Decide(c, 0.05, &why), Verdict::kInconclusive) << why;
  // Nor is a 50% one: two runs cannot tell a change from the spread between runs, whatever
  // the assumed spread would say; the reason says what that is.
  const LogChange big = CombineChange(std::log(1.5), 1e-4, {0.0}, {1e-4}, 0.05, 0.95);
  EXPECT_EQ(Decide(big, 0.05, &why), Verdict::kInconclusive);
  EXPECT_NE(why.find("one baseline"), std::string::npos) << why;
  EXPECT_NE(why.find("regression"), std::string::npos) << why;
  const LogChange same = CombineChange(0, 1e-6, {0.0}, {1e-6}, 0.001, 0.95);
  EXPECT_EQ(Decide(same, 0.05, &why), Verdict::kInconclusive) << why;
}

TEST(RunComparison, MeasuredSpreadAboveTheAssumedCountsInFull) {
  // Three baselines 20% apart and a run 25% above their mean: no evidence of a change.
  const std::vector<double> logs = {-0.2, 0.0, 0.2}, vars = {1e-4, 1e-4, 1e-4};
  const LogChange c = CombineChange(0.25, 1e-4, logs, vars, 0.03, 0.95);
  EXPECT_FALSE(c.spread_assumed);
  EXPECT_NEAR(c.spread, std::sqrt(0.04 - 1e-4), 1e-9);
  EXPECT_LT(c.low, 0);
  EXPECT_EQ(Decide(c, 0.05, nullptr), Verdict::kInconclusive);
  // Baselines closer than the assumed spread: the floor.
  const LogChange f = CombineChange(0.0, 1e-4, {0.0, 0.001, -0.001}, vars, 0.03, 0.95);
  EXPECT_TRUE(f.spread_assumed);
  EXPECT_NEAR(f.spread, 0.03, 1e-9);
}

TEST(RunComparison, VerdictRules) {
  auto change = [](double est, double lo, double hi) {
    LogChange c;
    c.estimate = std::log(est);
    c.low = std::log(lo);
    c.high = std::log(hi);
    c.se = 0.01;
    return c;
  };
  EXPECT_EQ(Decide(change(1.20, 1.10, 1.30), 0.05, nullptr), Verdict::kRegression);
  // Evidence, but below the practical minimum: not a regression.
  EXPECT_EQ(Decide(change(1.03, 1.01, 1.04), 0.05, nullptr), Verdict::kPass);
  EXPECT_EQ(Decide(change(1.03, 1.01, 1.08), 0.05, nullptr), Verdict::kInconclusive);
  EXPECT_EQ(Decide(change(1.20, 1.10, 1.30), 0.20, nullptr), Verdict::kInconclusive);
  EXPECT_EQ(Decide(change(0.80, 0.70, 0.90), 0.05, nullptr), Verdict::kImprovement);
  EXPECT_EQ(Decide(change(1.00, 0.98, 1.02), 0.05, nullptr), Verdict::kPass);
  EXPECT_EQ(Decide(change(1.00, 0.80, 1.25), 0.05, nullptr), Verdict::kInconclusive);
  EXPECT_EQ(Worst(Verdict::kInconclusive, Verdict::kRegression), Verdict::kRegression);
  EXPECT_EQ(Worst(Verdict::kPass, Verdict::kImprovement), Verdict::kImprovement);
}

TEST(RunComparison, ParsesSettings) {
  std::vector<CompareMetric> m = DefaultCompareMetrics();
  ASSERT_EQ(m.size(), 4u);
  ASSERT_TRUE(ApplyMetricSetting("p99.9=20%", "min_effect", &m).ok());
  EXPECT_DOUBLE_EQ(m[2].min_effect, 0.2);
  EXPECT_DOUBLE_EQ(m[0].min_effect, 0.05);
  ASSERT_TRUE(ApplyMetricSetting("all=0.1", "assumed_spread", &m).ok());
  EXPECT_DOUBLE_EQ(m[3].assumed_spread, 0.1);
  EXPECT_FALSE(ApplyMetricSetting("p90=5%", "min_effect", &m).ok());
  EXPECT_FALSE(ApplyMetricSetting("p99=x", "min_effect", &m).ok());
  EXPECT_FALSE(ParseCompareMetrics("p50,p50", &m).ok());
}

// Identical jobs: never a regression. The runs differ by a real per-run offset (run_sd
// 15%, as on a busy machine: far above the 3% assumed for p50); several baselines measure
// it, one cannot (inconclusive).
TEST(RunComparison, IdenticalRunsAreNeverARegression) {
  SimulatedJob job;
  job.quanta = 60;
  job.drift_sd = 0.03;
  job.ios_per_quantum = 1000;
  job.run_sd = 0.15;
  CompareOptions options;
  options.bootstrap.replicates = 200;
  for (int trial = 0; trial < 6; ++trial) {
    const RunData run = Data(SimulateRun(job, "new", 1000 + trial));
    std::vector<RunData> one = {Data(SimulateRun(job, "base", 2000 + trial))};
    ComparisonResult r;
    ASSERT_TRUE(CompareRuns(run, one, options, &r).ok());
    for (const MetricComparison& m : r.metrics) {
      EXPECT_NE(m.verdict, Verdict::kRegression)
          << trial << " " << m.metric.spec.name << " " << m.change << " [" << m.change_low
          << ", " << m.change_high << "]";
    }
    ASSERT_FALSE(r.notes.empty());
    EXPECT_NE(r.notes[0].find("single baseline"), std::string::npos);
    std::vector<RunData> four;
    for (int b = 0; b < 4; ++b) {
      four.push_back(Data(SimulateRun(job, "base" + std::to_string(b), 3000 + 10 * trial + b)));
    }
    ASSERT_TRUE(CompareRuns(run, four, options, &r).ok());
    for (const MetricComparison& m : r.metrics) {
      EXPECT_NE(m.verdict, Verdict::kRegression)
          << trial << " four " << m.metric.spec.name << " " << m.change << " [" << m.change_low
          << ", " << m.change_high << "]";
    }
  }
}

// Five baseline runs (the spread between them measured; here the 3% floor).
std::vector<RunData> Baselines(const SimulatedJob& job) {
  std::vector<RunData> base;
  for (int b = 0; b < 5; ++b) {
    base.push_back(Data(SimulateRun(job, "base" + std::to_string(b), 10 + b)));
  }
  return base;
}

// Every latency 30% higher: a regression of p50 and p99 whose interval holds +30%, and
// the I/O rate (the same) is not one. Against one baseline: inconclusive, saying why.
TEST(RunComparison, SlowerRunIsARegressionWithTheRightSign) {
  SimulatedJob job;
  job.quanta = 30;
  job.ios_per_quantum = 1000;
  CompareOptions options;
  options.bootstrap.replicates = 200;
  SimulatedJob slow = job;
  slow.scale = 1.3;
  const std::vector<RunData> base = Baselines(job);
  ComparisonResult r;
  ASSERT_TRUE(CompareRuns(Data(SimulateRun(slow, "slow", 2)), base, options, &r).ok());
  EXPECT_EQ(r.overall, Verdict::kRegression);
  ASSERT_EQ(r.metrics.size(), 4u);
  for (int m = 0; m < 2; ++m) {
    const MetricComparison& c = r.metrics[static_cast<size_t>(m)];
    EXPECT_EQ(c.verdict, Verdict::kRegression) << c.metric.spec.name << ": " << c.reason;
    EXPECT_GT(c.change, 0.2);
    EXPECT_LT(c.change_low, 0.3);
    EXPECT_GT(c.change_high, 0.3);
  }
  EXPECT_NE(r.metrics[3].verdict, Verdict::kRegression);
  // Against one of them: the spread between runs is unknown.
  ASSERT_TRUE(CompareRuns(Data(SimulateRun(slow, "slow", 2)), {base[0]}, options, &r).ok());
  EXPECT_EQ(r.overall, Verdict::kInconclusive);
  EXPECT_NE(r.metrics[0].reason.find("one baseline"), std::string::npos) << r.metrics[0].reason;
  // The other way round it is an improvement.
  std::vector<RunData> slow_base;
  for (int b = 0; b < 5; ++b) {
    slow_base.push_back(Data(SimulateRun(slow, "slow" + std::to_string(b), 20 + b)));
  }
  ASSERT_TRUE(CompareRuns(base[0], slow_base, options, &r).ok());
  EXPECT_EQ(r.metrics[0].verdict, Verdict::kImprovement) << r.metrics[0].reason;
}

TEST(RunComparison, FewerIOsPerSecondIsARegression) {
  SimulatedJob job;
  job.quanta = 30;
  job.ios_per_quantum = 1000;
  SimulatedJob fewer = job;
  fewer.ios_per_quantum = 700;
  CompareOptions options;
  options.bootstrap.replicates = 200;
  ComparisonResult r;
  ASSERT_TRUE(CompareRuns(Data(SimulateRun(fewer, "new", 2)), Baselines(job), options, &r).ok());
  EXPECT_EQ(r.metrics[3].metric.spec.name, "iops");
  EXPECT_EQ(r.metrics[3].verdict, Verdict::kRegression) << r.metrics[3].reason;
  EXPECT_NEAR(r.metrics[3].change, -0.3, 1e-9);
}

TEST(RunComparison, RefusesWhatCannotBeCompared) {
  SimulatedJob job;
  job.quanta = 10;
  job.ios_per_quantum = 50;
  const RunCells a = SimulateRun(job, "a", 1);
  ComparisonResult r;
  CompareOptions options;
  Status s = CompareRuns(Data(a), {Data(a)}, options, &r);
  EXPECT_NE(s.message().find("is the run itself"), std::string::npos) << s.message();
  s = CompareRuns(Data(a), {}, options, &r);
  EXPECT_NE(s.message().find("no baseline"), std::string::npos) << s.message();
  RunCells b = SimulateRun(job, "b", 2);
  b.quantum_ms = 500;
  s = CompareRuns(Data(a), {Data(b)}, options, &r);
  EXPECT_NE(s.message().find("different quanta"), std::string::npos) << s.message();
  b.quantum_ms = 1000;
  b.layout.coarseness = 1;
  s = CompareRuns(Data(a), {Data(b)}, options, &r);
  EXPECT_NE(s.message().find("different bucket layouts"), std::string::npos) << s.message();
  RunCells w = SimulateRun(job, "w", 3, Direction::kWrite);
  s = CompareRuns(Data(a), {Data(w)}, options, &r);
  EXPECT_NE(s.message().find("no direction in common"), std::string::npos) << s.message();
}

TEST(RunComparison, ShortRunsAreInconclusive) {
  SimulatedJob job;
  job.quanta = 4;
  ComparisonResult r;
  ASSERT_TRUE(CompareRuns(Data(SimulateRun(job, "a", 1)),
                          {Data(SimulateRun(job, "b", 2)), Data(SimulateRun(job, "c", 3))},
                          CompareOptions(), &r)
                  .ok());
  EXPECT_EQ(r.overall, Verdict::kInconclusive);
}

// Two segments of three runs with equal weights: the pooled two-sample t interval, 4 df;
// with the assumed spread above what they show, the floor binds (compare's rule).
TEST(RunComparison, SegmentChangeIsTheTwoSampleInterval) {
  const std::vector<double> before = {0, 0.02, -0.02}, after = {0.2, 0.22, 0.18};
  const std::vector<double> w(3, 1.0);
  LogChange c = CombineSegments(before, w, after, w, 0, 0, 0.95);
  const double se = std::sqrt((0.0008 + 0.0008) / 4 * (1.0 / 3 + 1.0 / 3));
  EXPECT_NEAR(c.estimate, 0.2, 1e-12);
  EXPECT_NEAR(c.se, se, 1e-12);
  EXPECT_EQ(c.df, 4);
  EXPECT_NEAR(c.high - c.estimate, 2.7764451051977987 * se, 1e-9);  // t(4) at 0.975
  EXPECT_FALSE(c.spread_assumed);
  c = CombineSegments(before, w, after, w, 0.0001, 0.05, 0.95);
  EXPECT_TRUE(c.spread_assumed);
  EXPECT_NEAR(c.se, std::sqrt((0.05 * 0.05 + 0.0001) * (2.0 / 3)), 1e-12);
  // Decided as compare decides: a 22 % rise at least 5 % is a regression; the I/O rate's
  // fall of the same size too.
  EXPECT_EQ(Decide(c, 0.05, nullptr), Verdict::kRegression);
  MetricSpec iops;
  ASSERT_TRUE(ParseMetricSpec("iops", &iops).ok());
  LogChange fall = c;
  fall.estimate = -c.estimate;
  fall.low = -c.high;
  fall.high = -c.low;
  EXPECT_EQ(Decide(OnWorseSide(fall, iops), 0.05, nullptr), Verdict::kRegression);
  EXPECT_EQ(Decide(c, 0.30, nullptr), Verdict::kInconclusive);
}

}  // namespace
}  // namespace fiohist
