#include "stats/log_placement.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fiohist {
namespace {

// One host's JSON with per-job anchors (as fio < 3.36's places them), jobs `names`, job J
// at 1000 * J.
FioJsonOutput Json(const std::vector<std::string>& names, int clock = -1) {
  FioJsonOutput out;
  FioJsonHost h;
  h.anchor.start_ms = 500;
  h.alternate_clock = clock;
  for (size_t j = 0; j < names.size(); ++j) {
    h.job_names.push_back(names[j]);
    FioJobAnchor a;
    a.start_ms = 1000 * static_cast<int64_t>(j + 1);
    a.early_ms = j == 0 ? 40 : 300;
    h.job_anchors.push_back(a);
  }
  out.hosts.push_back(h);
  return out;
}

// Places `jobs` (the LogSource job ids, e.g. "a_clat_hist.2") with first stamps `firsts`,
// all covered by `json`.
Status Place(const std::vector<std::string>& jobs, const std::vector<int64_t>& firsts,
             std::vector<FioJsonOutput> json, LogPlacement* out) {
  std::vector<LogSource> logs;
  std::vector<LogProbe> probes;
  std::vector<FioJsonMatch> matches;
  for (size_t i = 0; i < jobs.size(); ++i) {
    LogSource l;
    l.path = "/no/such/" + jobs[i] + ".log";  // no tail to read: the JSON alone
    l.host = "h";
    l.job = jobs[i];
    logs.push_back(l);
    LogProbe p;
    p.first_time_ms = firsts[i];
    probes.push_back(p);
    FioJsonMatch m;
    m.file = 0;
    matches.push_back(m);
  }
  std::vector<FioJsonSpec> specs(1);
  specs[0].path = "fio.json";
  PlacementInput in;
  in.logs = &logs;
  in.probes = &probes;
  in.first_interval_ms.assign(jobs.size(), 500);
  in.log_hist_msec = 500;
  in.specs = &specs;
  in.matches = &matches;
  return PlaceLogs(in, &json, out);
}

TEST(LogPlacement, EachJobAtItsAnchorWithNotesAndWarnings) {
  LogPlacement out;
  ASSERT_TRUE(Place({"t_clat_hist.2", "t_clat_hist.1"}, {500, 500}, {Json({"a", "b"})}, &out).ok());
  EXPECT_EQ(out.offset_ms, (std::vector<int64_t>{2000, 1000}));
  EXPECT_EQ(out.floor_ms, (std::vector<int64_t>{2000, 1000}));
  ASSERT_EQ(out.jobs.size(), 2u);
  EXPECT_EQ(FormatPlacedJob(out.jobs[0]).substr(0, 27), "h/t_clat_hist.2 (job b): 19");
  EXPECT_EQ(out.jobs[0].fio_job, "b");
  EXPECT_EQ(out.jobs[0].anchor.early_ms, 300);
  ASSERT_EQ(out.warnings.size(), 1u);  // job b's bound is 300 ms
  EXPECT_NE(out.warnings[0].find("places this job only within -300/+0 ms"), std::string::npos)
      << out.warnings[0];
}

TEST(LogPlacement, TheOnlyJobOfAJsonTakesALogWithoutNumber) {
  LogPlacement out;
  ASSERT_TRUE(Place({"renamed"}, {500}, {Json({"a"})}, &out).ok());
  EXPECT_EQ(out.offset_ms[0], 1000);
  EXPECT_FALSE(Place({"renamed"}, {500}, {Json({"a", "b"})}, &out).ok());
}

// fio names a log after its job (unless write_hist_log names it): a log named after
// another job of the JSON is refused.
TEST(LogPlacement, ALogNamedForAnotherJobIsRefused) {
  LogPlacement out;
  const Status s = Place({"b_clat_hist.1"}, {500}, {Json({"a", "b"})}, &out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("is named for job 'b', but job 1 of fio.json is 'a'"),
            std::string::npos)
      << s.message();
  EXPECT_TRUE(Place({"a_clat_hist.1", "b_clat_hist.2"}, {500, 500}, {Json({"a", "b"})}, &out).ok());
}

// Stamps of CLOCK_MONOTONIC: every log of the host follows the clock of its job placed
// most tightly (job 1 here), so the logs keep the clock's order.
TEST(LogPlacement, AnotherClockFollowsTheTightestJob) {
  LogPlacement out;
  const int64_t up = 3600000;
  ASSERT_TRUE(
      Place({"t_clat_hist.1", "t_clat_hist.2"}, {up + 500, up + 1700}, {Json({"a", "b"}, 1)}, &out)
          .ok());
  // Job 1's zero (up) is at 1000: the clock reads 1000 - up on Unix time.
  EXPECT_EQ(out.offset_ms[0], 1000 - up);
  EXPECT_EQ(out.offset_ms[1], 1000 - up);
  EXPECT_EQ(out.floor_ms[1], 1000 + 1200);  // job 2 started 1.2 s after job 1 on the clock
}

// Stamps of CLOCK_MONOTONIC with a fio >= 3.36 JSON (job_start per job, no timeline): each
// log's clock zero is its own job's start, not the host's earliest. Job 2 started 1.2 s
// after job 1 (startdelay); the clock agrees.
TEST(LogPlacement, AnotherClockWithJobStartUsesEachJobsOwn) {
  FioJsonOutput json;
  FioJsonHost h;
  h.anchor.start_ms = 1000;  // the host's earliest job_start
  h.alternate_clock = 1;
  h.job_names = {"a", "b"};
  h.job_starts = {1000, 2200};
  json.hosts.push_back(h);
  LogPlacement out;
  const int64_t up = 3600000;
  // Log 2 (job b) comes first: it alone must not set the host's clock by job a's start.
  ASSERT_TRUE(Place({"t_clat_hist.2", "t_clat_hist.1"}, {up + 1700, up + 500}, {json}, &out).ok());
  EXPECT_EQ(out.offset_ms[0], 1000 - up);
  EXPECT_EQ(out.offset_ms[1], 1000 - up);
  EXPECT_EQ(out.floor_ms[0], 2200);
  EXPECT_EQ(out.floor_ms[1], 1000);
}

}  // namespace
}  // namespace fiohist
