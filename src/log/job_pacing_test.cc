#include "log/job_pacing.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

rapidjson::Document Options(const char* json) {
  rapidjson::Document d;
  d.Parse(json);
  return d;
}

TEST(JobPacing, ParsesFioSizesAndTimes) {
  EXPECT_DOUBLE_EQ(ParseFioBytes("4k"), 4096);
  EXPECT_DOUBLE_EQ(ParseFioBytes("4096"), 4096);
  EXPECT_DOUBLE_EQ(ParseFioBytes("1m,2m"), 1 << 20);
  EXPECT_DOUBLE_EQ(ParseFioBytes("2MiB"), 2 << 20);
  EXPECT_DOUBLE_EQ(ParseFioBytes("lots"), 0);
  EXPECT_DOUBLE_EQ(ParseFioTimeMs("2500000"), 2500);  // microseconds without a unit
  EXPECT_DOUBLE_EQ(ParseFioTimeMs("2.5s"), 2500);
  EXPECT_DOUBLE_EQ(ParseFioTimeMs("250ms"), 250);
  EXPECT_DOUBLE_EQ(ParseFioTimeMs("1m"), 60000);
  EXPECT_DOUBLE_EQ(ParseFioTimeMs(""), 0);
}

// The recorded stall run's job (tests/data/stalls/stall): libaio iodepth 16 at 600 IOPS per
// direction: its limiter's gaps are 16/600 s; a 3 s freeze is far longer, a stall.
TEST(JobPacing, RateLimitExplainsOnlyItsOwnGaps) {
  const rapidjson::Document job =
      Options(R"({"rw":"randrw","bs":"4k","iodepth":"16","rate_iops":"600,600"})");
  const JobPacing p = JobPacingOf(nullptr, &job);
  EXPECT_DOUBLE_EQ(p.rate_iops, 600);
  EXPECT_EQ(p.iodepth, 16);
  EXPECT_NEAR(p.RateGapMs(), 26.67, 0.01);
  EXPECT_NEAR(p.LongestIdleMs(), 53.33, 0.01);
  EXPECT_LT(p.LongestIdleMs(), 3066);  // the recorded freeze
  // rate in bytes over bs; the lowest direction's limit; rate_min asks for no gap.
  const rapidjson::Document bytes = Options(R"({"bs":"8k","rate":"1m,8k","rate_min":"1k"})");
  EXPECT_DOUBLE_EQ(JobPacingOf(nullptr, &bytes).rate_iops, 1);
  EXPECT_DOUBLE_EQ(JobPacingOf(nullptr, &bytes).LongestIdleMs(), 2000);
  const rapidjson::Document minimum = Options(R"({"rate_iops_min":"100","rate_min":"1m"})");
  EXPECT_DOUBLE_EQ(JobPacingOf(nullptr, &minimum).LongestIdleMs(), 0);
}

// The recorded idle run (tests/data/stalls/idle): thinktime 2.5 s every 3000 blocks at 3000
// IOPS: gaps of 2.5 s are idle, a freeze of 3 s is not.
TEST(JobPacing, ThinktimeExplainsItsLength) {
  const rapidjson::Document global = Options(R"({"iodepth":"4","thinktime":"1s"})");
  const rapidjson::Document job = Options(
      R"({"rw":"randread","rate_iops":"3000","thinktime":"2500000","thinktime_blocks":"3000"})");
  const JobPacing p = JobPacingOf(&global, &job);  // the job's own thinktime wins
  EXPECT_DOUBLE_EQ(p.thinktime_ms, 2500);
  EXPECT_EQ(p.iodepth, 4);  // from the global options
  EXPECT_GT(p.LongestIdleMs(), 2500);
  EXPECT_LT(p.LongestIdleMs(), 3000);
  EXPECT_DOUBLE_EQ(JobPacingOf(&global, nullptr).thinktime_ms, 1000);
  EXPECT_DOUBLE_EQ(JobPacingOf(nullptr, nullptr).LongestIdleMs(), 0);
}

}  // namespace
}  // namespace fiohist
