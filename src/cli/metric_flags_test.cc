#include "cli/metric_flags.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

// compare and history read the same three flags the same way.
TEST(MetricFlags, EffectsAndSpreadsOnTheMetrics) {
  MetricFlags f;
  f.metrics = "p50,p99.9,iops";
  f.effects = {"all=10%", "p99.9=0.2"};
  f.spreads = {"p50=4%"};
  std::vector<CompareMetric> m;
  ASSERT_TRUE(ParseMetricFlags(f, &m).ok());
  ASSERT_EQ(m.size(), 3u);
  EXPECT_DOUBLE_EQ(m[0].min_effect, 0.10);
  EXPECT_DOUBLE_EQ(m[1].min_effect, 0.20);
  EXPECT_DOUBLE_EQ(m[2].min_effect, 0.10);
  EXPECT_DOUBLE_EQ(m[0].assumed_spread, 0.04);
  EXPECT_DOUBLE_EQ(m[1].assumed_spread, DefaultAssumedSpread(m[1].spec));
  EXPECT_TRUE(ParseMetricFlags(MetricFlags(), &m).ok());
  EXPECT_DOUBLE_EQ(m[0].min_effect, 0.05);
}

TEST(MetricFlags, NamesTheFlagOfBadInput) {
  std::vector<CompareMetric> m;
  MetricFlags f;
  f.effects = {"p50=abc"};
  Status s = ParseMetricFlags(f, &m);
  EXPECT_EQ(s.message(), "--min-effect: 'p50=abc': expected a share such as 20% or 0.2");
  f.effects = {"5%"};
  EXPECT_NE(ParseMetricFlags(f, &m).message().find("--min-effect: expected METRIC=VALUE"),
            std::string::npos);
  f.effects.clear();
  f.spreads = {"p50=-1%"};
  EXPECT_NE(ParseMetricFlags(f, &m).message().find("--run-spread: 'p50=-1%'"), std::string::npos);
  f.spreads.clear();
  f.metrics = "p50,p50";
  EXPECT_NE(ParseMetricFlags(f, &m).message().find("--metrics: 'p50' given twice"),
            std::string::npos);
}

}  // namespace
}  // namespace fiohist
