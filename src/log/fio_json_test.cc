#include "log/fio_json.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "base/test_util.h"

namespace fiohist {
namespace {

LogSource Log(const std::string& path, const std::string& host, const std::string& job) {
  LogSource l;
  l.path = path;
  l.host = host;
  l.job = job;
  return l;
}

// A plain (not client/server) fio JSON output with one job of `ios` I/Os.
FioJsonOutput Plain(const std::string& path, int64_t start_ms) {
  FioJsonOutput out;
  out.path = path;
  FioJsonHost h;
  h.anchor.start_ms = start_ms;
  h.job_ios = {100};
  out.hosts.push_back(h);
  return out;
}

FioJsonSpec Given(const std::string& text) { return ParseFioJsonSpec(text); }

// The three hosts of the issue: logs `out_clat_hist.1.log.hostX` beside `fio-hostX.json`.
std::vector<LogSource> ThreeHosts(const std::string& dir) {
  return {Log(dir + "/out_clat_hist.1.log.hostA", "hostA", "out_clat_hist.1"),
          Log(dir + "/out_clat_hist.1.log.hostB", "hostB", "out_clat_hist.1"),
          Log(dir + "/out_clat_hist.1.log.hostC", "hostC", "out_clat_hist.1")};
}

TEST(FioJsonMatch, EachHostByTheNameOfItsFile) {
  const auto logs = ThreeHosts("run");
  // Given in another order than the logs: the names decide, not the order.
  std::vector<FioJsonSpec> specs = {Given("run/fio-hostC.json"), Given("run/fio-hostA.json"),
                                    Given("run/fio-hostB.json")};
  std::vector<FioJsonOutput> outs = {Plain("run/fio-hostC.json", 3000),
                                     Plain("run/fio-hostA.json", 0),
                                     Plain("run/fio-hostB.json", 1500)};
  std::vector<FioJsonMatch> m;
  ASSERT_TRUE(MatchFioJsons(logs, specs, outs, &m).ok());
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].file, 1);
  EXPECT_EQ(m[1].file, 2);
  EXPECT_EQ(m[2].file, 0);
  EXPECT_EQ(m[0].how, "file name");
}

TEST(FioJsonMatch, FileNameForms) {
  const std::vector<LogSource> logs = {
      Log("r/x.1.log.h1", "h1", "x.1"), Log("r/x.1.log.h2", "h2", "x.1"),
      Log("r/x.1.log.h3", "h3", "x.1"), Log("r/x.1.log.h4", "h4", "x.1")};
  std::vector<FioJsonSpec> specs = {Given("r/h1.json"), Given("r/out_h2.json"),
                                    Given("r/out.h3.json"), Given("r/output.json.h4")};
  std::vector<FioJsonOutput> outs;
  for (const auto& s : specs) outs.push_back(Plain(s.path, 0));
  std::vector<FioJsonMatch> m;
  ASSERT_TRUE(MatchFioJsons(logs, specs, outs, &m).ok());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(m[static_cast<size_t>(i)].file, i);
}

TEST(FioJsonMatch, ExplicitHostWinsAndMustExist) {
  const auto logs = ThreeHosts("run");
  std::vector<FioJsonSpec> specs = {Given("hostA=run/a.json"), Given("hostB=run/b.json"),
                                    Given("hostC=run/c.json")};
  EXPECT_EQ(specs[0].host, "hostA");
  EXPECT_EQ(specs[0].path, "run/a.json");
  std::vector<FioJsonOutput> outs = {Plain("run/a.json", 0), Plain("run/b.json", 1),
                                     Plain("run/c.json", 2)};
  std::vector<FioJsonMatch> m;
  ASSERT_TRUE(MatchFioJsons(logs, specs, outs, &m).ok());
  EXPECT_EQ(m[1].file, 1);
  EXPECT_EQ(m[1].how, "HOST=FILE");
  specs[2] = Given("hostD=run/c.json");
  Status s = MatchFioJsons(logs, specs, outs, &m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no log of host 'hostD'"), std::string::npos) << s.message();
}

TEST(FioJsonMatch, AnEqualsSignInADirectoryIsNoHost) {
  const FioJsonSpec s = Given("runs/a=b/fio.json");
  EXPECT_EQ(s.host, "");
  EXPECT_EQ(s.path, "runs/a=b/fio.json");
}

TEST(FioJsonMatch, OneUnnamedFileForSeveralHostsIsRefused) {
  const auto logs = ThreeHosts("run");
  std::vector<FioJsonMatch> m;
  Status s = MatchFioJsons(logs, {Given("run/fio.json")}, {Plain("run/fio.json", 0)}, &m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("hostA, hostB, hostC"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("--fio-json HOST=FILE"), std::string::npos) << s.message();
}

TEST(FioJsonMatch, TwoUnnamedFilesInOneDirectoryAreRefused) {
  const std::vector<LogSource> logs = {Log("run/x.1.log", "localhost", "x.1")};
  std::vector<FioJsonMatch> m;
  Status s = MatchFioJsons(logs, {Given("run/fio-1.json"), Given("run/fio-2.json")},
                           {Plain("run/fio-1.json", 0), Plain("run/fio-2.json", 0)}, &m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("more than one fio JSON output"), std::string::npos) << s.message();
}

TEST(FioJsonMatch, TwoFilesForOneHostAreRefused) {
  const auto logs = ThreeHosts("run");
  std::vector<FioJsonMatch> m;
  Status s = MatchFioJsons(logs, {Given("run/fio-hostA.json"), Given("hostA=run/other.json")},
                           {Plain("run/fio-hostA.json", 0), Plain("run/other.json", 0)}, &m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("host 'hostA' has more than one"), std::string::npos) << s.message();
}

TEST(FioJsonMatch, ANameFittingTwoHostsIsRefused) {
  const std::vector<LogSource> logs = {Log("r/x.1.log.a", "a", "x.1"),
                                       Log("r/x.1.log.b-a", "b-a", "x.1")};
  std::vector<FioJsonMatch> m;
  Status s = MatchFioJsons(logs, {Given("r/fio-b-a.json")}, {Plain("r/fio-b-a.json", 0)}, &m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("fits more than one host"), std::string::npos) << s.message();
}

TEST(FioJsonMatch, DirectoriesAreComparedNormalised) {
  // Hosts from their directories, each with its fio.json, spelt differently.
  const std::vector<LogSource> logs = {Log("hostA/x.1.log", "hostA", "x.1"),
                                       Log("./hostB/x.1.log", "hostB", "x.1")};
  std::vector<FioJsonSpec> specs = {Given("./hostA/fio.json"), Given("hostB//fio.json")};
  std::vector<FioJsonOutput> outs = {Plain(specs[0].path, 0), Plain(specs[1].path, 1500)};
  std::vector<FioJsonMatch> m;
  ASSERT_TRUE(MatchFioJsons(logs, specs, outs, &m).ok());
  EXPECT_EQ(m[0].file, 0);
  EXPECT_EQ(m[1].file, 1);
  EXPECT_EQ(m[0].how, "directory");
}

TEST(FioJsonMatch, ASingleGivenFileCoversLogsElsewhereButAFoundOneDoesNot) {
  const std::vector<LogSource> logs = {Log("copy/x.1.log", "localhost", "x.1")};
  std::vector<FioJsonMatch> m;
  ASSERT_TRUE(MatchFioJsons(logs, {Given("orig/fio.json")}, {Plain("orig/fio.json", 0)}, &m).ok());
  EXPECT_EQ(m[0].file, 0);
  EXPECT_EQ(m[0].how, "only file");
  FioJsonSpec found = Given("orig/fio.json");
  found.found = true;
  ASSERT_TRUE(MatchFioJsons(logs, {found}, {Plain("orig/fio.json", 0)}, &m).ok());
  EXPECT_EQ(m[0].file, -1);
}

TEST(FioJsonMatch, ClientServerOutputByHostname) {
  const auto logs = ThreeHosts("run");
  FioJsonOutput out;
  out.path = "run/client.json";
  for (const char* h : {"hostC", "hostA", "hostB"}) {
    FioJsonHost host;
    host.hostname = h;
    out.hosts.push_back(host);
  }
  std::vector<FioJsonMatch> m;
  ASSERT_TRUE(MatchFioJsons(logs, {Given("run/client.json")}, {out}, &m).ok());
  EXPECT_EQ(m[0].host, 1);
  EXPECT_EQ(m[1].host, 2);
  EXPECT_EQ(m[2].host, 0);
  EXPECT_EQ(m[2].how, "hostname");
}

TEST(FioJson, ReadsJobsAndTheirIos) {
  FioJsonOutput out;
  ASSERT_TRUE(ReadFioJson(FIOHIST_TEST_DATA "/fio-logs/randrw4/fio.json", &out).ok());
  EXPECT_EQ(out.fio_version, "fio-3.33");
  ASSERT_EQ(out.hosts.size(), 1u);
  ASSERT_EQ(out.hosts[0].job_ios.size(), 4u);
  EXPECT_EQ(out.hosts[0].job_ios[0], 198811.0 + 198638.0);
  EXPECT_FALSE(out.hosts[0].grouped);
  EXPECT_TRUE(IsFioJsonOutput(FIOHIST_TEST_DATA "/fio-logs/randrw4/fio.json"));
}

// fio >= 3.36 with log_alternate_epoch_clock_id=1: the clock is named and each job's
// job_start kept (the host's anchor is the earliest).
TEST(FioJson, JobStartsAndTheClockOfAFio336Output) {
  // A folder of its own: a JSON in the shared temp dir would be found beside other tests' logs.
  ::mkdir((::testing::TempDir() + "/fio336-mono").c_str(), 0755);
  const std::string path =
      WriteTempFile("fio336-mono/fio.json",
                    R"({"fio version": "fio-3.36", "timestamp_ms": 1795800009000,
          "global options": {"log_alternate_epoch": "1", "log_alternate_epoch_clock_id": "1"},
          "jobs": [{"jobname": "a", "groupid": 0, "job_start": 1795800001000, "job_runtime": 8000},
                   {"jobname": "b", "groupid": 0, "job_start": 1795800002200, "job_runtime": 6800}]})");
  FioJsonOutput out;
  const Status s = ReadFioJson(path, &out);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(out.hosts.size(), 1u);
  EXPECT_EQ(out.hosts[0].anchor.start_ms, 1795800001000);
  EXPECT_EQ(out.hosts[0].alternate_clock, 1);
  EXPECT_EQ(out.hosts[0].job_starts, (std::vector<int64_t>{1795800001000, 1795800002200}));
}

TEST(FioJson, ReadsAClientServerOutput) {
  const std::string path = WriteTempFile(
      "client.json",
      "note: fio client\n{\"fio version\": \"fio-3.36\", \"timestamp_ms\": 100000,"
      " \"client_stats\": ["
      "{\"jobname\": \"j\", \"hostname\": \"n1\", \"job_start\": 5000, \"job_runtime\": 10,"
      "  \"read\": {\"total_ios\": 7}, \"write\": {\"total_ios\": 3}},"
      "{\"jobname\": \"j\", \"hostname\": \"n2\", \"job_start\": 6500, \"job_runtime\": 10,"
      "  \"read\": {\"total_ios\": 5}},"
      "{\"jobname\": \"All clients\", \"read\": {\"total_ios\": 15}}]}");
  FioJsonOutput out;
  ASSERT_TRUE(ReadFioJson(path, &out).ok());
  ASSERT_EQ(out.hosts.size(), 2u);
  EXPECT_EQ(out.hosts[0].hostname, "n1");
  EXPECT_EQ(out.hosts[0].anchor.start_ms, 5000);
  EXPECT_EQ(out.hosts[0].anchor.method, "job_start");
  EXPECT_EQ(out.hosts[0].job_ios, std::vector<double>{10});
  EXPECT_EQ(out.hosts[1].anchor.start_ms, 6500);
}

TEST(FioJson, FindsOnlyFioOutputs) {
  const std::string dir = ::testing::TempDir() + "/find_fio_json";
  mkdir(dir.c_str(), 0755);
  WriteTempFile("find_fio_json/fio-h.json",
                "{\"fio version\": \"fio-3.33\", \"timestamp_ms\": 1, \"jobs\": []}");
  WriteTempFile("find_fio_json/other.json", "{\"jobs\": [1]}");
  WriteTempFile("find_fio_json/broken.json", "{\"fio version\": ");
  WriteTempFile("find_fio_json/x.log", "{\"fio version\": \"fio-3.33\", \"jobs\": []}");
  const auto found = FindFioJsonOutputs(dir);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0], dir + "/fio-h.json");
}

TEST(FioJson, JobNumberFromTheLogName) {
  EXPECT_EQ(FioJobNumber(Log("a", "h", "randrw4_clat_hist.2")), 2);
  EXPECT_EQ(FioJobNumber(Log("a", "h", "t_clat_hist.12")), 12);
  EXPECT_EQ(FioJobNumber(Log("a", "h", "t_clat_hist")), 0);
}

TEST(FioJson, Fio342ResultAnchorsOnJobStart) {
  FioJsonOutput out;
  Status s = ReadFioJson(FIOHIST_SOURCE_DIR "/tests/golden/data/fio-3.42/fio-node1.json", &out);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(out.fio_version, "fio-3.42");
  ASSERT_EQ(out.hosts.size(), 1u);
  EXPECT_EQ(out.hosts[0].anchor.method, "job_start");
  EXPECT_EQ(out.hosts[0].anchor.start_ms, 1795595481296);
  EXPECT_EQ(out.hosts[0].job_ios, (std::vector<double>{52220, 52243, 51748}));
}

}  // namespace
}  // namespace fiohist
