#include "stats/block_bootstrap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "stats/run_simulation.h"

namespace fiohist {
namespace {

std::vector<MetricSpec> Metrics() {
  std::vector<MetricSpec> m(3);
  EXPECT_TRUE(ParseMetricSpec("p50", &m[0]).ok());
  EXPECT_TRUE(ParseMetricSpec("p99", &m[1]).ok());
  EXPECT_TRUE(ParseMetricSpec("iops", &m[2]).ok());
  return m;
}

TEST(BlockBootstrap, ParsesMetrics) {
  MetricSpec m;
  ASSERT_TRUE(ParseMetricSpec("p99.9", &m).ok());
  EXPECT_EQ(m.name, "p99.9");
  EXPECT_DOUBLE_EQ(m.percentile, 99.9);
  ASSERT_TRUE(ParseMetricSpec("iops", &m).ok());
  EXPECT_TRUE(m.iops);
  EXPECT_FALSE(ParseMetricSpec("p100", &m).ok());
  EXPECT_FALSE(ParseMetricSpec("px", &m).ok());
}

TEST(BlockBootstrap, WholeRunValuesMergeHistograms) {
  SimulatedJob job;
  job.quanta = 20;
  const RunCells run = SimulateRun(job, "r", 1);
  RunEstimate e;
  ASSERT_TRUE(EstimateRun(run, Metrics(), BootstrapOptions(), &e).ok());
  EXPECT_EQ(e.quanta, 20);
  EXPECT_DOUBLE_EQ(e.ios, 20.0 * 2 * 2000);
  EXPECT_DOUBLE_EQ(e.value[2], 2 * 2000);  // I/Os per second
  EXPECT_NEAR(e.value[0], 50000, 50000 * 0.1);
  // Same seed, same answer.
  RunEstimate again;
  ASSERT_TRUE(EstimateRun(run, Metrics(), BootstrapOptions(), &again).ok());
  EXPECT_EQ(e.log_var, again.log_var);
}

TEST(BlockBootstrap, TooFewBlocksGiveNoInterval) {
  SimulatedJob job;
  job.quanta = 4;
  RunEstimate e;
  ASSERT_TRUE(EstimateRun(SimulateRun(job, "r", 1), Metrics(), BootstrapOptions(), &e).ok());
  EXPECT_TRUE(std::isinf(e.log_var[0]));
  EXPECT_NE(e.note.find("too few"), std::string::npos);
}

// The known answer: the spread of log p50 / p99 over many independent runs of the same
// simulated job. The block bootstrap of one run must estimate it (on average within a
// factor of 1.5), while resampling single quanta as if they were independent
// underestimates it when quanta are correlated (here by a factor of about 2).
TEST(BlockBootstrap, SpreadMatchesIndependentRunsOfACorrelatedJob) {
  SimulatedJob job;
  job.quanta = 64;
  job.ios_per_quantum = 500;
  job.drift_sd = 0.04;
  job.drift_phi = 0.8;
  const int runs = 40;
  std::vector<MetricSpec> metrics = Metrics();
  BootstrapOptions blocks;
  blocks.replicates = 300;
  BootstrapOptions single = blocks;
  single.block_quanta = 1;
  std::vector<double> values[2];
  double block_var[2] = {0, 0}, single_var[2] = {0, 0};
  for (int r = 0; r < runs; ++r) {
    const RunCells run = SimulateRun(job, "r" + std::to_string(r), 100 + r);
    RunEstimate b, s;
    ASSERT_TRUE(EstimateRun(run, metrics, blocks, &b).ok());
    ASSERT_TRUE(EstimateRun(run, metrics, single, &s).ok());
    EXPECT_GE(b.block_quanta, 4);
    for (int m = 0; m < 2; ++m) {
      values[m].push_back(std::log(b.value[m]));
      block_var[m] += b.log_var[m] / runs;
      single_var[m] += s.log_var[m] / runs;
    }
  }
  for (int m = 0; m < 2; ++m) {
    double mean = 0, var = 0;
    for (double v : values[m]) mean += v / runs;
    for (double v : values[m]) var += (v - mean) * (v - mean) / (runs - 1);
    const double ratio = std::sqrt(block_var[m] / var);
    SCOPED_TRACE(metrics[m].name + ": true sd " + std::to_string(std::sqrt(var)) +
                 ", block bootstrap " + std::to_string(std::sqrt(block_var[m])) +
                 ", single quanta " + std::to_string(std::sqrt(single_var[m])));
    EXPECT_GT(ratio, 0.66);
    EXPECT_LT(ratio, 1.5);
    EXPECT_LT(std::sqrt(single_var[m] / var), 0.8 * ratio);
  }
}

// Independent points ask for blocks of one or two; an AR(1) series with coefficient 0.8
// (correlation time about 9) for far longer ones.
TEST(BlockBootstrap, BlockLengthFollowsTheAutocorrelation) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> normal(0, 1);
  std::vector<double> iid, ar;
  double a = 0;
  for (int i = 0; i < 200; ++i) {
    iid.push_back(normal(rng));
    a = 0.8 * a + normal(rng);
    ar.push_back(a);
  }
  EXPECT_LE(AutoBlockLength(iid), 2);
  EXPECT_GE(AutoBlockLength(ar), 6);
  EXPECT_LE(AutoBlockLength(ar), 3 * std::sqrt(200.0) + 1);
  EXPECT_EQ(AutoBlockLength({1, 2}), 1);
}

TEST(BlockBootstrap, ResamplesHostsWhenThereAreEnough) {
  SimulatedJob job;
  job.quanta = 20;
  job.hosts = 4;
  job.ios_per_quantum = 200;
  RunEstimate e;
  ASSERT_TRUE(EstimateRun(SimulateRun(job, "r", 1), Metrics(), BootstrapOptions(), &e).ok());
  EXPECT_TRUE(e.hosts_resampled);
  job.hosts = 2;
  ASSERT_TRUE(EstimateRun(SimulateRun(job, "r", 1), Metrics(), BootstrapOptions(), &e).ok());
  EXPECT_FALSE(e.hosts_resampled);
}

}  // namespace
}  // namespace fiohist
