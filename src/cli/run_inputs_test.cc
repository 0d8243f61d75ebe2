#include "cli/run_inputs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "stats/collecting_sink.h"

namespace fiohist {
namespace {

const std::string kData = std::string(FIOHIST_SOURCE_DIR) + "/tests/golden/data/fio-3.42/";

TEST(RunInputs, JsonBesideLogsIsTheirFioOutput) {
  PipelineOptions options;
  const InputPlan plan = PlanInputs(
      {kData + "v342_clat_hist.1.log.node1.gz", kData + "fio-node1.json"}, &options);
  EXPECT_FALSE(plan.fio_json);
  EXPECT_EQ(plan.moved_to_fio_json, 1u);
  EXPECT_EQ(plan.inputs, (std::vector<std::string>{kData + "v342_clat_hist.1.log.node1.gz"}));
  EXPECT_EQ(options.fio_json, (std::vector<std::string>{kData + "fio-node1.json"}));
}

TEST(RunInputs, ClientServerOutputGivesQuantaPerServer) {
  PipelineOptions options;
  options.scopes = {true, true, true};
  const InputPlan plan = PlanInputs({kData + "client-2servers.json"}, &options);
  ASSERT_TRUE(plan.fio_json);
  CollectingSink sink;
  RunSummary summary;
  Status s = RunInputs(options, plan, &sink, &summary);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_FALSE(sink.quanta.empty());
  std::set<std::string> hosts;
  for (const ScopeResult& r : sink.whole) {
    if (!r.host.empty()) hosts.insert(r.host);
  }
  EXPECT_EQ(hosts, (std::set<std::string>{"127.0.0.1:8781", "127.0.0.1:8782"}));
  bool counted = false;
  for (const std::string& w : summary.warnings) {
    counted = counted || w.find("19 text lines before fio's JSON document skipped") !=
                             std::string::npos;
  }
  EXPECT_TRUE(counted);
}

// A folder made for one test under the test's temp dir, with `files` (name: text).
std::string MakeDir(const std::string& name,
                    const std::vector<std::pair<std::string, std::string>>& files) {
  const std::string dir = ::testing::TempDir() + "/expand-" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const auto& f : files) {
    std::filesystem::create_directories(std::filesystem::path(dir + "/" + f.first).parent_path());
    std::ofstream(dir + "/" + f.first) << f.second;
  }
  return dir;
}

const char kFioJson[] = R"({"fio version": "fio-3.33", "jobs": []})";

TEST(ExpandInputs, DirectoryGivesItsLogsNotTheJsonBesideThem) {
  const std::string dir = MakeDir("logs", {{"h1/a_clat_hist.1.log", "1"},
                                           {"h2/a_clat_hist.1.log.gz", "1"},
                                           {"fio.json", kFioJson},
                                           {"commands.txt", "fio job.fio"}});
  std::vector<std::string> files;
  std::vector<DirectoryInputs> dirs;
  ASSERT_TRUE(ExpandInputs({dir, "x_clat_hist.3.log"}, &files, &dirs).ok());
  EXPECT_EQ(files, (std::vector<std::string>{dir + "/h1/a_clat_hist.1.log",
                                             dir + "/h2/a_clat_hist.1.log.gz",
                                             "x_clat_hist.3.log"}));
  ASSERT_EQ(dirs.size(), 1u);
  EXPECT_EQ(DescribeDirectoryInputs(dirs[0]),
            dir + ": 2 histogram logs (and 1 fio JSON output beside them: their fio output, "
                  "not an input)");
}

TEST(ExpandInputs, DirectoryWithoutLogsGivesItsFioJson) {
  const std::string dir = MakeDir("json", {{"host1.json", kFioJson}, {"other.json", "{}"}});
  std::vector<std::string> files;
  std::vector<DirectoryInputs> dirs;
  ASSERT_TRUE(ExpandInputs({dir}, &files, &dirs).ok());
  EXPECT_EQ(files, (std::vector<std::string>{dir + "/host1.json"}));
  EXPECT_EQ(DescribeDirectoryInputs(dirs[0]), dir + ": no histogram logs; 1 fio JSON output");
}

TEST(ExpandInputs, DirectoryWithoutInputSaysWhatItHoldsAndWhatIsExpected) {
  const std::string dir = MakeDir("none", {{"commands.txt", "fio"}, {"job.fio", "[j]"}});
  std::vector<std::string> files;
  std::vector<DirectoryInputs> dirs;
  const Status s = ExpandInputs({dir}, &files, &dirs);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(dir + ": no input in this directory: expected fio histogram logs"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("it holds 2 files ("), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("commands.txt"), std::string::npos) << s.message();
  EXPECT_FALSE(ExpandInputs({MakeDir("empty", {})}, &files, &dirs).ok());
}

TEST(ExpandInputs, DirectoriesOfTwoKindsAreRefused) {
  const std::string logs = MakeDir("kind-logs", {{"a_clat_hist.1.log", "1"}});
  const std::string json = MakeDir("kind-json", {{"host1.json", kFioJson}});
  std::vector<std::string> files;
  std::vector<DirectoryInputs> dirs;
  const Status s = ExpandInputs({logs, json}, &files, &dirs);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(logs + " holds histogram logs and " + json +
                             " only fio JSON outputs"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace fiohist
