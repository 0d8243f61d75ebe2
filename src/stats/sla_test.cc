#include "stats/sla.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace fiohist {
namespace {

SlaThreshold Parse(const std::string& text) {
  SlaThreshold t;
  Status s = ParseSlaThreshold(text, "--sla", &t);
  EXPECT_TRUE(s.ok()) << text << ": " << s.message();
  return t;
}

std::string Error(const std::string& text) {
  SlaThreshold t;
  Status s = ParseSlaThreshold(text, "--sla", &t);
  EXPECT_FALSE(s.ok()) << text;
  return s.message();
}

TEST(Sla, ParsesAndNormalizes) {
  SlaThreshold t = Parse("p99=2ms");
  EXPECT_EQ(t.direction, Direction::kAll);
  EXPECT_EQ(t.percentile, 99);
  EXPECT_EQ(t.limit_ns, 2e6);
  EXPECT_EQ(t.text, "p99<=2ms");

  t = Parse("read.p99.9=5ms");
  EXPECT_EQ(t.direction, Direction::kRead);
  EXPECT_EQ(t.percentile, 99.9);
  EXPECT_EQ(t.text, "read.p99_9<=5ms");
  EXPECT_EQ(Parse("read.p99_9=5000us").text, "read.p99_9<=5ms");
  EXPECT_EQ(Parse("read.p99_9<=5ms").text, "read.p99_9<=5ms");  // its own text reads back
  EXPECT_EQ(Parse("all.p50=800").text, "p50<=800us");            // default unit: us
  EXPECT_EQ(Parse("write.p50=0.8ms").text, "write.p50<=800us");
  EXPECT_EQ(Parse("trim.p99.99=1.5s").text, "trim.p99_99<=1.5s");
  EXPECT_EQ(Parse("p100=2310us").text, "p100<=2.31ms");
  EXPECT_EQ(Parse("p0=999ns").text, "p0<=999ns");
  EXPECT_EQ(Parse("p99=2\xc2\xb5s").text, "p99<=2us");
  EXPECT_EQ(Parse("p99=2310us").limit_ns, 2310000);
}

TEST(Sla, ErrorsNameTheOptionAndWhatIsExpected) {
  for (const char* bad : {"", "99=2ms", "p=2ms", "p99", "p99=", "p99=ms", "p99=2 ms", "p99=2h",
                          "p101=2ms", "p99.=2ms", "read p99=2ms", "reads.p99=2ms", "p99=-2ms",
                          "p99=1e3us", "p99=inf", "p99=0.1ns", "p99=0", "p99=2ms,p50=1ms"}) {
    const std::string m = Error(bad);
    EXPECT_EQ(m.rfind("--sla: expected [DIR.]pNN[.N]=VALUE[UNIT]", 0), 0u) << bad << ": " << m;
    EXPECT_NE(m.find(std::string("got '") + bad + "'"), std::string::npos) << m;
  }
  EXPECT_NE(Error("reads.p99=2ms").find("direction 'reads' is none of"), std::string::npos);
  EXPECT_NE(Error("p99=2h").find("unit 'h' is none of ns, us, ms, s"), std::string::npos);
  EXPECT_NE(Error("p101=2ms").find("[0, 100]"), std::string::npos);
}

TEST(Sla, RefusesTwoLimitsOnOnePercentile) {
  std::vector<SlaThreshold> ts;
  EXPECT_TRUE(ParseSlaThresholds({"p99=2ms", "read.p99=3ms", "p99.9=5ms"}, "--sla", &ts).ok());
  EXPECT_EQ(ts.size(), 3u);
  Status s = ParseSlaThresholds({"p99=2ms", "all.p99=2000us"}, "--sla", &ts);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "--sla: p99<=2ms and p99<=2ms limit the same percentile of the same direction: "
            "give one");
}

TEST(Sla, AddsMissingPercentilesAfterTheUsersOwn) {
  PercentileList list = DefaultPercentiles();
  std::vector<SlaThreshold> ts = {Parse("p99=2ms"), Parse("read.p99.5=3ms"),
                                  Parse("write.p99.5=4ms"), Parse("p75=1ms")};
  AddSlaPercentiles(ts, &list);
  EXPECT_EQ(list.values, (std::vector<double>{50, 90, 95, 99, 99.9, 99.99, 99.5, 75}));
  EXPECT_EQ(list.field_names.back(), "p75");
  EXPECT_EQ(list.names[6], "p99.5");
  PercentileList same = DefaultPercentiles();
  AddSlaPercentiles({Parse("p99.9=1ms")}, &same);
  EXPECT_EQ(same.values, DefaultPercentiles().values);
}

ScopeResult Result(Direction d, std::vector<double> percentile_ns, double samples = 100) {
  ScopeResult r;
  r.kind = ScopeKind::kCluster;
  r.direction = d;
  r.stats.samples = samples;
  r.stats.lower_bound.assign(percentile_ns.size(), false);
  r.stats.percentile_ns = std::move(percentile_ns);
  return r;
}

TEST(Sla, ChecksClusterResultsOfTheThresholdsDirection) {
  PercentileList list;
  ASSERT_TRUE(MakePercentiles({50, 99}, &list).ok());
  std::vector<SlaThreshold> ts = {Parse("p99=2ms"), Parse("read.p99=3ms"), Parse("read.p50=1ms"),
                                  Parse("p99.9=9ms")};
  AddSlaPercentiles(ts, &list);
  const SlaChecker checker(ts, list);
  ASSERT_TRUE(checker.active());
  std::vector<size_t> breached;
  // all: p99 2.31 ms > 2 ms; p99.9 exactly 9 ms is no breach (value > limit).
  EXPECT_TRUE(checker.Breaches(Result(Direction::kAll, {5e5, 2.31e6, 9e6}), &breached));
  EXPECT_EQ(breached, (std::vector<size_t>{0}));
  EXPECT_DOUBLE_EQ(checker.Value(Result(Direction::kAll, {5e5, 2.31e6, 9e6}), 0), 2.31e6);
  breached.clear();
  // read: its own two thresholds, not the all-direction ones.
  EXPECT_TRUE(checker.Breaches(Result(Direction::kRead, {1.5e6, 2.5e6, 1e9}), &breached));
  EXPECT_EQ(breached, (std::vector<size_t>{2}));
  breached.clear();
  EXPECT_FALSE(checker.Breaches(Result(Direction::kWrite, {9e9, 9e9, 9e9}), &breached));
  EXPECT_FALSE(checker.Applies(Result(Direction::kWrite, {})));
  EXPECT_TRUE(checker.Applies(Result(Direction::kRead, {})));
  // No samples: no latency, no breach. Host scope: not what an SLA is about.
  EXPECT_FALSE(checker.Breaches(Result(Direction::kAll, {0, 0, 0}, 0), &breached));
  ScopeResult host = Result(Direction::kAll, {5e5, 9e6, 9e6});
  host.kind = ScopeKind::kHost;
  EXPECT_FALSE(checker.Breaches(host, &breached));
  EXPECT_FALSE(checker.Applies(host));
  EXPECT_TRUE(breached.empty());
}

TEST(Sla, ClampedPercentileBreachesWhenItsLowerBoundExceedsTheLimit) {
  PercentileList list;
  ASSERT_TRUE(MakePercentiles({99}, &list).ok());
  const SlaChecker small({Parse("p99=2ms")}, list);
  const SlaChecker huge({Parse("p99=20s")}, list);
  ScopeResult r = Result(Direction::kAll, {17.2e9});
  r.stats.lower_bound = {true};  // in fio's last bucket: at least 17.2 s
  EXPECT_TRUE(small.Breaches(r, nullptr));
  EXPECT_FALSE(huge.Breaches(r, nullptr));  // could be above 20 s, or not: unknown
}

// A breach is beyond sampling noise when the percentile's interval lies above the limit:
// with 400 I/Os, 4 of them slow, p99 sits in the slow bucket but its lower bound among the
// fast ones; with 40,000 I/Os, 1,000 slow, the whole interval is in the slow bucket.
TEST(Sla, TellsBreachesBeyondSamplingNoiseFromThoseWithin) {
  PercentileList list;
  ASSERT_TRUE(MakePercentiles({99}, &list).ok());
  const SlaChecker checker({Parse("p99=2ms")}, list);
  const BucketLayout layout;
  const std::vector<double>& edges = EdgesNs(layout);
  auto column_of = [&](double ns) {
    return static_cast<int>(std::upper_bound(edges.begin(), edges.end(), ns) - edges.begin()) - 1;
  };
  const int fast = column_of(1e6), slow = column_of(3e6);
  auto result = [&](double fast_ios, double slow_ios) {
    Histogram h;
    h.Add(fast, fast_ios);
    h.Add(slow, slow_ios);
    ScopeResult r = Result(Direction::kAll, {});
    ComputeStats(h, layout, list.values, &r.stats, 0.95);
    return r;
  };
  std::vector<size_t> breached, beyond;
  const ScopeResult few = result(396, 4);
  EXPECT_TRUE(checker.Breaches(few, &breached, &beyond));
  EXPECT_EQ(breached, (std::vector<size_t>{0}));
  EXPECT_TRUE(beyond.empty());
  EXPECT_LT(checker.Low(few, 0), 2e6);
  EXPECT_FALSE(checker.BreachesBeyondNoise(few));
  breached.clear();
  const ScopeResult many = result(39000, 1000);
  EXPECT_TRUE(checker.Breaches(many, &breached, &beyond));
  EXPECT_EQ(beyond, (std::vector<size_t>{0}));
  EXPECT_GT(checker.Low(many, 0), 2e6);
  EXPECT_GT(checker.High(many, 0), checker.Low(many, 0));
  EXPECT_TRUE(checker.BreachesBeyondNoise(many));
}

TEST(Sla, FormatsLatencies) {
  EXPECT_EQ(FormatSlaLatency(2312345.678, 4, true), "2.312 ms");
  EXPECT_EQ(FormatSlaLatency(2e6, 4, true), "2 ms");
  EXPECT_EQ(FormatSlaLatency(999), "999ns");
  EXPECT_EQ(FormatSlaLatency(1.5e9), "1.5s");
  EXPECT_EQ(FormatSlaLatency(0.5), "0.5ns");
}

}  // namespace
}  // namespace fiohist
