#include "log/client_stats.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "base/test_util.h"

namespace fiohist {
namespace {

const std::string kData = std::string(FIOHIST_SOURCE_DIR) + "/tests/golden/data/fio-3.42/";

// A client_stats entry of fio 3.33's layout: `reads` I/Os at 24704 ns (and `slow` at
// 317440 ns), no job_start unless given.
std::string Entry(const std::string& name, int port, int64_t runtime, uint64_t reads,
                  uint64_t slow = 0, int64_t job_start = 0, const std::string& host = "h") {
  std::string bins = "\"24704\" : " + std::to_string(reads);
  if (slow > 0) bins += ", \"317440\" : " + std::to_string(slow);
  return "{ \"jobname\" : \"" + name + "\", \"groupid\" : 0, " +
         (job_start > 0 ? "\"job_start\" : " + std::to_string(job_start) + ", " : "") +
         "\"job options\" : { \"numjobs\" : \"2\", \"ioengine\" : \"\" }, "
         "\"read\" : { \"total_ios\" : " + std::to_string(reads + slow) +
         ", \"clat_ns\" : { \"bins\" : { " + bins + " } } }, "
         "\"job_runtime\" : " + std::to_string(runtime) + ", \"hostname\" : \"" + host +
         "\", \"port\" : " + std::to_string(port) + " }";
}

std::string Document(const std::vector<std::string>& entries, const std::string& text = "") {
  std::string list;
  for (const std::string& e : entries) list += (list.empty() ? "" : ",\n") + e;
  return text + "{\n  \"fio version\" : \"fio-3.33\",\n  \"timestamp\" : 1700000000,\n"
                "  \"global options\" : { \"rw\" : \"randread\" },\n  \"client_stats\" : [\n" +
         list + "\n  ]\n}\n";
}

uint64_t Reads(const std::vector<StatusUpdate>& updates) {
  uint64_t n = 0;
  for (const StatusUpdate& u : updates) {
    for (const JobIncrement& j : u.jobs) {
      for (const auto& c : j.counts[0]) n += c.second;
    }
  }
  return n;
}

TEST(ClientStats, ReadsFio342TwoServersOnOneHost) {
  ClientStatsRun run;
  Status s = ReadClientStats(kData + "client-2servers.json", BucketLayout(), &run);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(run.fio_version, "fio-3.42");
  EXPECT_EQ(run.text_lines, 19);
  EXPECT_EQ(run.all_clients, 1);  // after the first round, checked against the sum
  EXPECT_EQ(run.anchor, "job_start");
  EXPECT_EQ(run.client_start_ms, 1795595493000);
  ASSERT_EQ(run.servers.size(), 2u);
  // Two servers on 127.0.0.1: told apart by port, in order of first appearance.
  EXPECT_EQ(run.servers[0].host, "127.0.0.1:8782");
  EXPECT_EQ(run.servers[1].host, "127.0.0.1:8781");
  for (const ClientServer& server : run.servers) {
    EXPECT_EQ(server.jobs, 3);
    ASSERT_EQ(server.reports.size(), 5u);
    EXPECT_EQ(server.reports.back().jobs[2].name, "seq");
    EXPECT_EQ(server.reports.back().jobs[2].number, 3);
    for (size_t r = 1; r < server.reports.size(); ++r) {
      EXPECT_GT(server.reports[r].timestamp_ms, server.reports[r - 1].timestamp_ms);
    }
    // The first report ends at job_start + job_runtime (latest job of the round).
    EXPECT_EQ(server.reports[0].timestamp_ms, 1795595495036 + (server.port == 8782 ? 892 : 893));
    // Whole run = the last entries: the increments add up to them exactly.
    std::vector<StatusUpdate> updates;
    s = ClientServerUpdates(run, server, BucketLayout(), &updates);
    ASSERT_TRUE(s.ok()) << s.message();
    uint64_t last = 0;
    for (const FioJobSnapshot& j : server.reports.back().jobs) last += j.total_ios[0];
    EXPECT_EQ(Reads(updates), last);
  }
  // fio's totals of the last entries (python over the file): 15821+15734+22442 reads on 8782.
  uint64_t reads8782 = 0;
  for (const FioJobSnapshot& j : run.servers[0].reports.back().jobs) reads8782 += j.total_ios[0];
  EXPECT_EQ(reads8782, 15821u + 15734u + 22442u);
}

TEST(ClientStats, Fio333LayoutAnchorsOnTheClientTimestamp) {
  // Two servers on one host, numjobs=2 (same job name), 2 reports each, an All clients sum
  // (3.33: bins left empty) after the first round.
  const std::string all =
      "{ \"jobname\" : \"All clients\", \"read\" : { \"total_ios\" : 40, \"clat_ns\" : { "
      "\"bins\" : { } } }, \"job_runtime\" : 4000, \"hostname\" : \"h\", \"port\" : 2 }";
  const std::string text = "<vm> a: (g=0): rw=randread\n<vm> Starting 2 processes\n"
                           "<vm> Starting 2 processes\n<vm> \n\n";
  const std::string path = WriteTempFile(
      "cs333.json", Document({Entry("a", 1, 1000, 10), Entry("a", 1, 1000, 10),
                              Entry("a", 2, 1000, 10), Entry("a", 2, 1000, 10), all,
                              Entry("a", 1, 2000, 20, 5), Entry("a", 1, 2000, 25),
                              Entry("a", 2, 2001, 30), Entry("a", 2, 2000, 20)},
                             text));
  ClientStatsRun run;
  Status s = ReadClientStats(path, BucketLayout(), &run);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(run.text_lines, 5);
  EXPECT_EQ(run.anchor, "client timestamp");
  ASSERT_EQ(run.servers.size(), 2u);
  EXPECT_EQ(run.servers[0].host, "h:1");
  EXPECT_EQ(run.servers[0].jobs, 2);
  ASSERT_EQ(run.servers[1].reports.size(), 2u);
  EXPECT_EQ(run.servers[1].reports[1].timestamp_ms, 1700000000000 + 2001);
  std::vector<StatusUpdate> u;
  ASSERT_TRUE(ClientServerUpdates(run, run.servers[0], BucketLayout(), &u).ok());
  ASSERT_EQ(u.size(), 2u);
  // First report: each job's span is its job_runtime, ending at the report.
  EXPECT_EQ(u[0].jobs[0].span.start_ms, 1700000000000);
  EXPECT_EQ(u[0].jobs[0].span.end_ms, 1700000001000);
  EXPECT_EQ(u[1].jobs[0].span.start_ms, 1700000001000);
  EXPECT_EQ(Reads(u), 25u + 25u);
}

TEST(ClientStats, NumjobsWithoutTextLinesAreToldApartByTheirCounts) {
  // No "Starting" line: two jobs of one name, one report each plus a second round; job 2's
  // counts are below job 1's, so they cannot be one job's successive reports.
  const std::string path = WriteTempFile(
      "cs-notext.json", Document({Entry("a", 1, 1000, 30), Entry("a", 1, 1000, 10),
                                  Entry("a", 1, 2000, 60), Entry("a", 1, 2000, 20)}));
  ClientStatsRun run;
  ASSERT_TRUE(ReadClientStats(path, BucketLayout(), &run).ok());
  ASSERT_EQ(run.servers.size(), 1u);
  EXPECT_EQ(run.servers[0].host, "h");  // one server on the host: no port
  EXPECT_EQ(run.servers[0].jobs, 2);
  EXPECT_EQ(run.servers[0].reports.size(), 2u);
}

TEST(ClientStats, CutDocumentNamesTheByteAndWhatWasExpected) {
  const std::string whole = Document({Entry("a", 1, 1000, 10), Entry("a", 1, 2000, 20)},
                                     "<vm> Starting 1 process\n");
  const std::string path = WriteTempFile("cs-cut.json", whole.substr(0, whole.size() / 2));
  ClientStatsRun run;
  Status s = ReadClientStats(path, BucketLayout(), &run);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cs-cut.json: byte " + std::to_string(whole.size() / 2)),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("is cut"), std::string::npos) << s.message();
}

TEST(ClientStats, EntriesGoingBackwardsNameTheEntry) {
  // "Starting 1 process": one job per report; its third report has fewer I/Os.
  const std::string path = WriteTempFile(
      "cs-back.json", Document({Entry("a", 1, 1000, 10), Entry("a", 1, 2000, 20),
                                Entry("a", 1, 3000, 15)},
                               "<vm> Starting 1 process\n"));
  ClientStatsRun run;
  Status s = ReadClientStats(path, BucketLayout(), &run);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("client_stats[2] (server h, report 3)"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("read counts go backwards: the bucket of 24704 ns had 20 I/Os and "
                             "now has 15"),
            std::string::npos)
      << s.message();
}

TEST(ClientStats, AnotherLayoutIsRefusedNamingTheEntry) {
  std::string entry = Entry("a", 1, 1000, 10);
  const std::string no_host = entry.substr(0, entry.find(", \"hostname\"")) + " }";
  ClientStatsRun run;
  Status s = ReadClientStats(WriteTempFile("cs-nohost.json", Document({no_host})), BucketLayout(),
                             &run);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("client_stats[0]: expected \"hostname\""), std::string::npos)
      << s.message();
  const std::string no_runtime = "{ \"jobname\" : \"a\", \"hostname\" : \"h\" }";
  s = ReadClientStats(WriteTempFile("cs-noruntime.json", Document({no_runtime})),
                      BucketLayout(), &run);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("client_stats[0]: expected \"job_runtime\""), std::string::npos)
      << s.message();
}

TEST(ClientStats, AllClientsMustBeTheSumOfTheEntriesBeforeIt) {
  const std::string all =
      "{ \"jobname\" : \"All clients\", \"read\" : { \"total_ios\" : 11 }, \"job_runtime\" : 1, "
      "\"hostname\" : \"h\", \"port\" : 1 }";
  ClientStatsRun run;
  Status s = ReadClientStats(WriteTempFile("cs-all.json", Document({Entry("a", 1, 1000, 10), all})),
                             BucketLayout(), &run);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("client_stats[1]: the 'All clients' entry counts 11 read I/Os, but "
                             "the 1 entries before it sum to 10"),
            std::string::npos)
      << s.message();
}

TEST(ClientStats, Fio342TrapsAreNotCounted) {
  // fio 3.42 adds a steadystate object whose data holds a `lat_ns` array, latency_target_ns
  // and empty-string options: only read/write/trim clat_ns.bins are latencies.
  std::string entry = Entry("a", 1, 1000, 10, 0, 1795595495036);
  entry.insert(1, " \"latency_target_ns\" : 0, \"steadystate\" : { \"ss\" : \"lat_slope\", "
                  "\"data\" : { \"lat_ns\" : [ 1000, 2000 ], \"clat_ns\" : { \"bins\" : { "
                  "\"1\" : 5 } } } },");
  ClientStatsRun run;
  Status s = ReadClientStats(WriteTempFile("cs-ss.json", Document({entry})), BucketLayout(), &run);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(run.servers.size(), 1u);
  EXPECT_EQ(run.servers[0].reports[0].jobs[0].total_ios[0], 10u);
  ASSERT_EQ(run.servers[0].reports[0].jobs[0].bins[0].size(), 1u);
  EXPECT_EQ(run.servers[0].reports[0].timestamp_ms, 1795595495036 + 1000);
}

TEST(ClientStats, DetectsTheDocument) {
  EXPECT_TRUE(IsClientStatsText("{ \"fio version\" : \"x\", \"client_stats\" : ["));
  EXPECT_FALSE(IsClientStatsText("{ \"fio version\" : \"x\", \"jobs\" : ["));
}

}  // namespace
}  // namespace fiohist
