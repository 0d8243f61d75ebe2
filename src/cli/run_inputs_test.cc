#include "cli/run_inputs.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace fiohist
