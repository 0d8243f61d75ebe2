#include "log/fio_timeline.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "base/test_util.h"
#include "log/fio_json.h"

namespace fiohist {
namespace {

const std::string kData = std::string(FIOHIST_TEST_DATA) + "/fio-timeline/";

TEST(FioTimeOption, UnitsAndRanges) {
  int64_t lo = -1, hi = -1;
  ASSERT_TRUE(ParseFioTimeOption("2", &lo, &hi).ok());
  EXPECT_EQ(lo, 2000);
  EXPECT_EQ(hi, 2000);
  ASSERT_TRUE(ParseFioTimeOption("500ms", &lo, &hi).ok());
  EXPECT_EQ(hi, 500);
  ASSERT_TRUE(ParseFioTimeOption("1m", &lo, &hi).ok());
  EXPECT_EQ(hi, 60000);
  ASSERT_TRUE(ParseFioTimeOption("1-3", &lo, &hi).ok());
  EXPECT_EQ(lo, 1000);
  EXPECT_EQ(hi, 3000);
  ASSERT_TRUE(ParseFioTimeOption("500ms:2s", &lo, &hi).ok());
  EXPECT_EQ(lo, 500);
  EXPECT_EQ(hi, 2000);
  EXPECT_FALSE(ParseFioTimeOption("soon", &lo, &hi).ok());
  EXPECT_FALSE(ParseFioTimeOption("3-1", &lo, &hi).ok());
}

// One group without delays: every job at timestamp_ms minus the longest job_runtime (as the
// host's anchor always was), the truth at most the end slack earlier.
TEST(FioTimeline, OneGroupIsTimestampMinusTheLongestRuntime) {
  std::vector<FioTimelineJob> jobs(2);
  jobs[0].runtime_ms = 30000;
  jobs[1].runtime_ms = 30002;
  const auto a = PlaceFioJobs(jobs, 1000000);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].start_ms, 1000000 - 30002);
  EXPECT_EQ(a[1].start_ms, 1000000 - 30002);
  EXPECT_EQ(a[0].late_ms, 5);  // ms truncation only
  EXPECT_GT(a[0].early_ms, 0);
  EXPECT_LE(a[0].early_ms, 100);
}

// ramp_time: logging restarts after it, so a job with ramp_time starts logging later than
// one without by the ramp.
TEST(FioTimeline, RampTimeMovesTheEpoch) {
  std::vector<FioTimelineJob> jobs(2);
  jobs[0].runtime_ms = 4000;
  jobs[0].ramp_ms = 2000;
  jobs[1].runtime_ms = 2000;  // ends early
  const auto a = PlaceFioJobs(jobs, 100000);
  EXPECT_EQ(a[0].start_ms, 100000 - 4000);
  EXPECT_EQ(a[1].start_ms, 100000 - 6000);
}

// A startdelay range: fio's pick is unknown, so the bound covers the range.
TEST(FioTimeline, StartdelayRangeWidensTheBound) {
  std::vector<FioTimelineJob> jobs(2);
  jobs[0].runtime_ms = 10000;
  jobs[1].runtime_ms = 2000;
  jobs[1].delay_lo_ms = 1000;
  jobs[1].delay_hi_ms = 3000;
  const auto a = PlaceFioJobs(jobs, 100000);
  EXPECT_GE(a[1].early_ms, 1000);
  EXPECT_GE(a[1].late_ms, 1000);
  EXPECT_NE(a[1].how.find("1 s-3 s"), std::string::npos) << a[1].how;
  EXPECT_LE(a[0].early_ms + a[0].late_ms, 110);  // the job that ended last stays tight
}

// Jobs of a later group are placed before the ones of the first by the gap fio leaves.
TEST(FioTimeline, LaterGroupFollowsTheFirst) {
  std::vector<FioTimelineJob> jobs(2);
  jobs[0].runtime_ms = 5000;
  jobs[1].group = 1;
  jobs[1].runtime_ms = 3000;
  const auto a = PlaceFioJobs(jobs, 100000);
  EXPECT_EQ(a[1].start_ms, 100000 - 3000);
  const int64_t gap = a[1].start_ms - (a[0].start_ms + 5000);
  EXPECT_GE(gap, 200);
  EXPECT_LE(gap, 310);
  EXPECT_GT(a[0].early_ms + a[0].late_ms, a[1].early_ms + a[1].late_ms);
}

// The recorded run (README: ramp_time, startdelay, an early end, two stonewall groups):
// each job within 250 ms of the epoch its log_unix_epoch stamps show, and inside its bound.
void CheckRecordedRun(const std::string& json, const std::vector<int64_t>& truth,
                      const std::vector<std::string>& names = {"a", "b", "c", "d"}) {
  FioJsonOutput out;
  const Status s = ReadFioJson(json, &out);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(out.hosts.size(), 1u);
  const auto& anchors = out.hosts[0].job_anchors;
  ASSERT_EQ(anchors.size(), truth.size());
  EXPECT_EQ(out.hosts[0].job_names, names);
  for (size_t j = 0; j < truth.size(); ++j) {
    const FioJobAnchor& a = anchors[j];
    EXPECT_LE(std::llabs(a.start_ms - truth[j]), 250) << "job " << j << ": " << a.how;
    EXPECT_GE(truth[j], a.start_ms - a.early_ms) << "job " << j << " " << FormatUncertainty(a);
    EXPECT_LE(truth[j], a.start_ms + a.late_ms) << "job " << j << " " << FormatUncertainty(a);
  }
  EXPECT_EQ(out.hosts[0].alternate_clock, -1);
}

TEST(FioTimeline, RecordedRunPlacesEveryJob) {
  CheckRecordedRun(kData + "plain/out.json",
                   {1795816744824, 1795816745838, 1795816742827, 1795816750064});
}

// startdelay counts from fio's start, not its group's: in the second group, b's 1 s had
// passed when the group started (no delay), c's 5 s had not (created 5 s after fio began).
TEST(FioTimeline, StartdelayOfALaterGroupCountsFromFiosStart) {
  CheckRecordedRun(kData + "genesis/out.json", {1795818826686, 1795818829903, 1795818831725},
                   {"a", "b", "c"});
}

// group_reporting: one entry sums its clones' job_runtime (4003 ms for two jobs of 2 s);
// the host's anchor divides it by numjobs and leaves out the ramp (it was 2,980 ms early).
TEST(FioTimeline, GroupReportingAnchorsTheHostOnItsClones) {
  FioJsonOutput out;
  const Status s = ReadFioJson(kData + "grouped/out.json", &out);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(out.hosts.size(), 1u);
  EXPECT_TRUE(out.hosts[0].grouped);
  EXPECT_TRUE(out.hosts[0].job_anchors.empty());
  EXPECT_LE(std::llabs(out.hosts[0].anchor.start_ms - 1795819287492), 250)
      << out.hosts[0].anchor.start_ms;
  EXPECT_NE(out.hosts[0].anchor.method.find("group_reporting"), std::string::npos);
}

// A --status-interval stream is read as its last report (the run's result).
TEST(FioTimeline, StatusStreamIsReadAsItsLastReport) {
  EXPECT_TRUE(IsFioJsonOutput(kData + "status/status.json"));
  CheckRecordedRun(kData + "status/status.json",
                   {1795817004867, 1795817005879, 1795817002867, 1795817010098});
}

// A stream cut while fio still ran (its last report has jobs with an eta) is refused.
TEST(FioTimeline, StatusStreamOfARunningFioIsRefused) {
  std::ifstream in(kData + "status/status.json");
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  // The first three reports and the start of the fourth, as a copy taken while fio ran.
  size_t at = 0;
  for (int k = 0; k < 3; ++k) at = all.find("\n{", at + 1);
  const std::string path =
      WriteTempFile("running-status.json", all.substr(0, at + 1) + all.substr(at + 1, 200));
  FioJsonOutput out;
  const Status s = ReadFioJson(path, &out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("is a status stream whose last report (of 3) is not fio's final"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace fiohist
