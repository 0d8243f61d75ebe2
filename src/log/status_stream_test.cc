#include "log/status_stream.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "base/test_util.h"

namespace fiohist {
namespace {

// A fio-like json+ report of one job with `reads` I/Os at 24704 ns.
std::string Report(int64_t ts, int64_t runtime, uint64_t reads, int eta = 5) {
  return "{\n  \"fio version\" : \"fio-3.33\",\n  \"timestamp_ms\" : " + std::to_string(ts) +
         ",\n  \"jobs\" : [ { \"jobname\" : \"j\", \"eta\" : " + std::to_string(eta) +
         ", \"job_runtime\" : " + std::to_string(runtime) +
         ", \"read\" : { \"total_ios\" : " + std::to_string(reads) +
         ", \"clat_ns\" : { \"bins\" : { \"24704\" : " + std::to_string(reads) + " } } } } ]\n}\n";
}

uint64_t Reads(const StatusUpdate& u) {
  uint64_t n = 0;
  for (const JobIncrement& j : u.jobs) {
    // Spread, and at the span's end or start (late reports, catching up after a pause).
    for (const auto* part : {&j.counts, &j.end_counts, &j.start_counts}) {
      for (const auto& c : (*part)[0]) n += c.second;
    }
  }
  return n;
}

TEST(StatusStream, TakesWholeObjectsAndWaitsForACutOne) {
  FioStatusStream s("host1.json", BucketLayout());
  const std::string a = Report(10000, 900, 100), b = Report(11000, 1900, 250);
  std::vector<StatusUpdate> u;
  // The first object whole and half of the second: one report, the rest waited for.
  ASSERT_TRUE(s.Feed(a + b.substr(0, b.size() / 2), &u).ok());
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].offset, 0u);
  EXPECT_TRUE(s.has_partial());
  EXPECT_EQ(s.bytes_used(), a.size());
  ASSERT_TRUE(s.Feed(b.substr(b.size() / 2), &u).ok());
  ASSERT_EQ(u.size(), 2u);
  EXPECT_EQ(u[1].offset, a.size());
  EXPECT_FALSE(s.has_partial());
  // First report: (ts - job_runtime, ts]; the next: (previous ts, ts], the difference.
  ASSERT_EQ(u[0].jobs.size(), 1u);
  EXPECT_EQ(u[0].jobs[0].span.start_ms, 9100);
  EXPECT_EQ(u[0].jobs[0].span.end_ms, 10000);
  EXPECT_EQ(Reads(u[0]), 100u);
  EXPECT_EQ(u[1].jobs[0].span.start_ms, 10000);
  EXPECT_EQ(u[1].jobs[0].span.end_ms, 11000);
  EXPECT_EQ(Reads(u[1]), 150u);
  EXPECT_EQ(s.differ().interval_ms(), 1000);
}

// A report of one job with `fast` reads at 24704 ns and `slow` at fio's bucket of about 3 s.
// Without any, clat_ns has no bins (N 0), as fio writes it before the first completion.
std::string SlowReport(int64_t ts, int64_t runtime, uint64_t fast, uint64_t slow) {
  const BucketLayout layout;
  int column = 0;
  while (FioBucketValue(layout, column) < 3000000000ULL) ++column;
  if (fast + slow == 0) {
    return "{\"timestamp_ms\" : " + std::to_string(ts) +
           ", \"jobs\" : [ { \"jobname\" : \"j\", \"eta\" : 5, \"job_runtime\" : " +
           std::to_string(runtime) +
           ", \"read\" : { \"total_ios\" : 3, \"clat_ns\" : { \"N\" : 0 } } } ]}\n";
  }
  return "{\"timestamp_ms\" : " + std::to_string(ts) +
         ", \"jobs\" : [ { \"jobname\" : \"j\", \"eta\" : 5, \"job_runtime\" : " +
         std::to_string(runtime) + ", \"read\" : { \"total_ios\" : " +
         std::to_string(fast + slow) + ", \"clat_ns\" : { \"bins\" : { \"24704\" : " +
         std::to_string(fast) +
         (slow ? ", \"" + std::to_string(FioBucketValue(layout, column)) +
                     "\" : " + std::to_string(slow)
               : std::string()) +
         " } } } } ]}\n";
}

uint64_t Sum(const std::vector<std::pair<uint32_t, uint64_t>>& counts) {
  uint64_t n = 0;
  for (const auto& c : counts) n += c.second;
  return n;
}

// fio took the late report's job_runtime when it was due (4000 ms into the job) and its
// bins when the frozen job resumed (6100): the job completed nothing in between. Its fast
// I/Os at the previous rate (1 per ms) from the previous report on, the stuck one at its
// end; then reports repeating the counts are a pause the next one with counts ends.
TEST(StatusStream, LateReportAndRepeatedCountsArePauses) {
  FioStatusStream s("h", BucketLayout());
  std::vector<StatusUpdate> u;
  ASSERT_TRUE(s.Feed(SlowReport(1000, 1000, 1000, 0) + SlowReport(2000, 2000, 2000, 0) +
                         SlowReport(3000, 3000, 3000, 0) + SlowReport(6100, 4000, 3060, 1) +
                         SlowReport(6200, 6199, 3160, 1) + SlowReport(7200, 7199, 3160, 1) +
                         SlowReport(8200, 8199, 3160, 1) + SlowReport(9200, 9199, 4160, 2),
                     &u)
                  .ok());
  ASSERT_EQ(u.size(), 8u);
  const JobIncrement& late = u[3].jobs.at(0);
  EXPECT_EQ(late.span.start_ms, 3000);
  EXPECT_EQ(late.span.end_ms, 6100);
  EXPECT_EQ(late.ios.start_ms, 3000);
  EXPECT_EQ(late.ios.end_ms, 3060);
  EXPECT_EQ(Sum(late.counts[0]), 60u);
  EXPECT_EQ(Sum(late.end_counts[0]), 1u);
  ASSERT_EQ(late.pauses.size(), 1u);
  EXPECT_EQ(late.pauses[0].start_ms, 3060);
  EXPECT_EQ(late.pauses[0].end_ms, 6100);
  EXPECT_EQ(late.pauses[0].stuck_ios, 1);
  // On time again: spread over its span.
  const JobIncrement& next = u[4].jobs.at(0);
  EXPECT_EQ(next.ios.start_ms, 6100);
  EXPECT_EQ(next.ios.end_ms, 6200);
  EXPECT_TRUE(next.pauses.empty());
  // Two reports with the previous counts: covered, nothing completed; the next names it.
  EXPECT_EQ(Sum(u[5].jobs.at(0).counts[0]), 0u);
  EXPECT_EQ(Sum(u[6].jobs.at(0).counts[0]), 0u);
  const JobIncrement& after = u[7].jobs.at(0);
  ASSERT_EQ(after.pauses.size(), 1u);
  EXPECT_EQ(after.pauses[0].start_ms, 6200);
  EXPECT_EQ(after.pauses[0].end_ms, 8200);
  EXPECT_EQ(after.pauses[0].stuck_ios, 1);
}

// A late report with no I/O slower than the wait: that job was not blocked (fio waited for
// another one); its I/Os are spread over the whole span.
TEST(StatusStream, LateReportWithoutStuckIOsIsSpread) {
  FioStatusStream s("h", BucketLayout());
  std::vector<StatusUpdate> u;
  ASSERT_TRUE(s.Feed(SlowReport(1000, 1000, 1000, 0) + SlowReport(2000, 2000, 2000, 0) +
                         SlowReport(5000, 3000, 5000, 0),
                     &u)
                  .ok());
  const JobIncrement& late = u[2].jobs.at(0);
  EXPECT_EQ(late.ios.start_ms, 2000);
  EXPECT_EQ(late.ios.end_ms, 5000);
  EXPECT_EQ(Sum(late.counts[0]), 3000u);
  EXPECT_TRUE(late.pauses.empty());
}

// fio 3.33 restarts a job's clock early in the job (fresh runs here: 1017 then 976 ms
// before any completion; 1018 then 897 after a few): the job's start, not an error.
TEST(StatusStream, RuntimeRestartedEarlyIsTheJobsStart) {
  FioStatusStream s("h", BucketLayout());
  std::vector<StatusUpdate> u;
  ASSERT_TRUE(s.Feed(SlowReport(1000, 1017, 0, 0) + SlowReport(2000, 976, 100, 0), &u).ok());
  ASSERT_EQ(u.size(), 2u);
  const JobIncrement& j = u[1].jobs.at(0);
  EXPECT_EQ(j.span.start_ms, 1024);
  EXPECT_EQ(j.span.end_ms, 2000);
  EXPECT_EQ(Sum(j.counts[0]), 100u);
  // Again, with completions before: counted from the new start.
  ASSERT_TRUE(s.Feed(SlowReport(3000, 900, 200, 0), &u).ok());
  EXPECT_EQ(u[2].jobs.at(0).span.start_ms, 2100);
  EXPECT_EQ(Sum(u[2].jobs.at(0).counts[0]), 100u);
  // Counts going back as well: another run into the same file, refused.
  EXPECT_FALSE(s.Feed(SlowReport(4000, 100, 50, 0), &u).ok());
}

TEST(StatusStream, EndedJobAddsNoSpan) {
  FioStatusStream s("h", BucketLayout());
  std::vector<StatusUpdate> u;
  ASSERT_TRUE(s.Feed(Report(10000, 900, 100) + Report(11000, 900, 100, 0), &u).ok());
  ASSERT_EQ(u.size(), 2u);
  EXPECT_TRUE(u[1].jobs.empty());
  EXPECT_TRUE(s.differ().last().all_done());
}

TEST(StatusStream, CountsGoingBackwardsNameStreamAndOffset) {
  FioStatusStream s("host1.json", BucketLayout());
  const std::string a = Report(10000, 900, 100);
  std::vector<StatusUpdate> u;
  Status st = s.Feed(a + Report(11000, 1900, 50), &u);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("host1.json: byte " + std::to_string(a.size()) + ": "),
            std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("read counts go backwards"), std::string::npos) << st.message();
}

TEST(StatusStream, TimeGoingBackwardsIsRefused) {
  FioStatusStream s("h", BucketLayout());
  std::vector<StatusUpdate> u;
  Status st = s.Feed(Report(10000, 900, 100) + Report(9000, 100, 10), &u);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("is not after"), std::string::npos) << st.message();
}

TEST(StatusStream, NonFioJsonAndTextNameTheOffset) {
  {
    FioStatusStream s("x.json", BucketLayout());
    std::vector<StatusUpdate> u;
    Status st = s.Feed("\n\n{\"hello\": 1}\n", &u);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("x.json: byte 2: not fio's json+ output"), std::string::npos)
        << st.message();
  }
  {
    FioStatusStream s("x.json", BucketLayout());
    std::vector<StatusUpdate> u;
    Status st = s.Feed(Report(10000, 900, 100) + "fio: some text\n", &u);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("expected '{'"), std::string::npos) << st.message();
    EXPECT_EQ(u.size(), 1u);
  }
  {
    FioStatusStream s("x.json", BucketLayout());
    std::vector<StatusUpdate> u;
    Status st = s.Feed("{\"a\": ]}", &u);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("x.json: byte 6: not valid JSON"), std::string::npos)
        << st.message();
  }
}

TEST(StatusStream, FollowsAFileThatAppearsGrowsAndShrinks) {
  const std::string path = ::testing::TempDir() + "/status_stream_follow.json";
  std::remove(path.c_str());
  FioStatusStream s(path, BucketLayout());
  std::vector<StatusUpdate> u;
  ASSERT_TRUE(s.Poll(&u).ok());  // not there yet: waited for
  EXPECT_FALSE(s.opened());
  const std::string a = Report(10000, 900, 100), b = Report(11000, 1900, 250);
  {
    std::ofstream f(path, std::ios::binary);
    f << a << b.substr(0, 10);
  }
  ASSERT_TRUE(s.Poll(&u).ok());
  EXPECT_TRUE(s.opened());
  EXPECT_EQ(u.size(), 1u);
  {
    std::ofstream f(path, std::ios::binary | std::ios::app);
    f << b.substr(10);
  }
  ASSERT_TRUE(s.Poll(&u).ok());
  EXPECT_EQ(u.size(), 2u);
  EXPECT_FALSE(s.closed());  // a regular file never closes
  ASSERT_EQ(::truncate(path.c_str(), 5), 0);  // fio started again into the same file
  Status st = s.Poll(&u);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find(path + ": byte 5: the file shrank"), std::string::npos)
      << st.message();
}

TEST(StatusStream, RealStreamGivesFiosCounts) {
  std::ifstream in(FIOHIST_TEST_DATA "/fio-status/randrw-4s-status1.json");
  ASSERT_TRUE(in) << "tests/data/fio-status/randrw-4s-status1.json is part of the repository";
  std::stringstream text;
  text << in.rdbuf();
  FioStatusStream s("randrw", BucketLayout());
  std::vector<StatusUpdate> u;
  ASSERT_TRUE(s.Feed(text.str(), &u).ok());
  ASSERT_EQ(u.size(), 5u);
  uint64_t total = 0;
  for (const StatusUpdate& x : u) total += Reads(x);
  EXPECT_EQ(total, 96598u);  // fio's final read total_ios
  EXPECT_EQ(u[1].offset, 15390u);
  EXPECT_TRUE(s.differ().last().all_done());
}

TEST(StatusStream, Fio342StreamGivesFiosCounts) {
  // fio 3.42 adds job_start, latency_target_ns and more to each job; the model is unchanged.
  std::ifstream in(FIOHIST_SOURCE_DIR "/tests/golden/data/fio-3.42/status-node1.json");
  ASSERT_TRUE(in);
  std::stringstream text;
  text << in.rdbuf();
  FioStatusStream s("node1", BucketLayout());
  std::vector<StatusUpdate> u;
  Status st = s.Feed(text.str(), &u);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(u.size(), 6u);
  uint64_t total = 0;
  for (const StatusUpdate& x : u) total += Reads(x);
  EXPECT_EQ(total, 106914u);  // fio's final read total_ios (python over the file)
  EXPECT_EQ(s.differ().last().jobs[0].start_ms, 1795595487629);
}

}  // namespace
}  // namespace fiohist
