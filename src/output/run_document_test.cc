#include "output/run_document.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>

namespace fiohist {
namespace {

// The meta fields every document carries: none without meta, else the run, tags and labels
// as JSON members (escaped) after a comma.
TEST(RunDocument, MetaJson) {
  EXPECT_EQ(RunMetaJson(RunMeta()), "");
  const std::string json = RunMetaJson(RunMeta{"r\"1", {"nightly", "bs4k"}, {{"k", "v"}}});
  ASSERT_EQ(json[0], ',');
  rapidjson::Document d;
  d.Parse(("{" + json.substr(1) + "}").c_str());
  ASSERT_TRUE(d.IsObject()) << json;
  EXPECT_STREQ(d["run"].GetString(), "r\"1");
  EXPECT_STREQ(d["tags"][1].GetString(), "bs4k");
  EXPECT_STREQ(d["labels"]["k"].GetString(), "v");
}

// The run document of a run without whole-run results still names its span and state.
TEST(RunDocument, SpanAndState) {
  RunInfo info;
  info.absolute = true;
  info.first_quantum_ms = 1795306120000;
  info.hosts = {"a", "b"};
  RunSummary summary;
  summary.end_ms = info.first_quantum_ms + 30000;
  summary.state = "finished";
  rapidjson::Document d;
  const std::string doc = RunDocument(info, RunMeta{"r", {}, {}}, 1000.0, summary, {});
  d.Parse(doc.c_str());
  ASSERT_TRUE(d.IsObject()) << doc;
  EXPECT_STREQ(d["run"].GetString(), "r");
  EXPECT_EQ(d["start_ms"].GetInt64(), info.first_quantum_ms);
  EXPECT_DOUBLE_EQ(d["duration_s"].GetDouble(), 30.0);
  EXPECT_STREQ(d["state"].GetString(), "finished");
  EXPECT_EQ(d["hosts"].Size(), 2u);
}

}  // namespace
}  // namespace fiohist
