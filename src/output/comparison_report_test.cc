#include "output/comparison_report.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

ComparisonResult Sample() {
  ComparisonResult r;
  r.run = "run <\"new\"> & \x01 co";
  r.baselines = {"base'1"};
  r.quanta = 12;
  r.notes = {"single baseline: assumed"};
  MetricComparison m;
  m.direction = Direction::kRead;
  ParseMetricSpec("p99", &m.metric.spec);
  m.run_value = 123000;
  m.baseline_value = 100000;
  m.baseline_values = {100000};
  m.change = 0.23;
  m.change_low = 0.1;
  m.change_high = 0.37;
  m.level = 0.9875;
  m.verdict = Verdict::kRegression;
  m.reason = "worse";
  r.metrics.push_back(m);
  m.verdict = Verdict::kInconclusive;
  ParseMetricSpec("iops", &m.metric.spec);
  m.run_value = 5000;
  r.metrics.push_back(m);
  r.overall = Verdict::kRegression;
  return r;
}

TEST(ComparisonReport, EscapesXml) {
  EXPECT_EQ(XmlEscape("a<b>&\"c'\x01\n"), "a&lt;b&gt;&amp;&quot;c&apos;?&#10;");
}

TEST(ComparisonReport, JunitHasAFailurePerRegressionAndSkipsInconclusive) {
  const std::string x = ComparisonJunit(Sample(), LatencyUnit());
  EXPECT_NE(x.find("failures=\"1\""), std::string::npos) << x;
  EXPECT_NE(x.find("skipped=\"1\""), std::string::npos) << x;
  EXPECT_NE(x.find("<failure type=\"regression\" message=\"p99 123 us against 100 us: +23.0% [+10.0%, +37.0%]"),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("run &lt;&quot;new&quot;&gt; &amp; ? co"), std::string::npos) << x;
  EXPECT_EQ(x.find('\x01'), std::string::npos);
}

TEST(ComparisonReport, JsonCarriesValuesInTheUnit) {
  const std::string j = ComparisonJson(Sample(), LatencyUnit());
  EXPECT_NE(j.find("\"verdict\":\"regression\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"run_value\":123.0"), std::string::npos) << j;
  EXPECT_NE(j.find("\"run_value\":5000.0"), std::string::npos) << j;  // iops as is
}

}  // namespace
}  // namespace fiohist
