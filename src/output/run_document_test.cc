#include "output/run_document.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>
#include <vector>

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

// Each job placed on its fio's timeline: its anchor and bound as numbers and names (the
// summary's "anchor of" facts), and no `how` text; absent for other anchors.
TEST(RunDocument, JobAnchors) {
  RunInfo info;
  info.absolute = true;
  RunSummary summary;
  rapidjson::Document d;
  d.Parse(RunDocument(info, RunMeta(), 1000.0, summary, {}).c_str());
  EXPECT_FALSE(d.HasMember("job_anchors"));
  FioJobAnchor a;
  a.start_ms = 1795816745838;
  a.early_ms = 5;
  a.late_ms = 150;
  a.how = "group 1 of 2, startdelay 1 s";
  info.job_anchors.push_back({"hostA", "h_clat_hist.2", "b", a});
  const std::string doc = RunDocument(info, RunMeta(), 1000.0, summary, {});
  d.Parse(doc.c_str());
  ASSERT_TRUE(d.IsObject()) << doc;
  ASSERT_EQ(d["job_anchors"].Size(), 1u);
  const auto& j = d["job_anchors"][0];
  EXPECT_STREQ(j["job"].GetString(), "hostA/h_clat_hist.2");
  EXPECT_STREQ(j["fio_job"].GetString(), "b");
  EXPECT_STREQ(j["start"].GetString(), "2026-11-27T21:59:05.838Z");
  EXPECT_EQ(j["early_ms"].GetInt64(), 5);
  EXPECT_EQ(j["late_ms"].GetInt64(), 150);
  EXPECT_EQ(j.MemberCount(), 5u);
  EXPECT_EQ(doc.find("startdelay"), std::string::npos);
}

// A run of many logs: the cluster's entries always, the hosts' while they fit, the jobs'
// left out whole and counted, so the document stays small whatever the number of logs.
TEST(RunDocument, SummaryCappedByScope) {
  RunInfo info;
  info.absolute = true;
  RunSummary summary;
  std::vector<ScopeResult> whole_run;
  auto add = [&whole_run](ScopeKind kind, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      ScopeResult r;
      r.kind = kind;
      if (kind != ScopeKind::kCluster) r.host = "h" + std::to_string(i);
      if (kind == ScopeKind::kJob) r.job = "j";
      whole_run.push_back(r);
    }
  };
  add(ScopeKind::kCluster, 3);
  add(ScopeKind::kHost, 100);
  add(ScopeKind::kJob, kRunSummaryMaxEntries);
  rapidjson::Document d;
  d.Parse(RunDocument(info, RunMeta(), 1000.0, summary, whole_run).c_str());
  ASSERT_TRUE(d.IsObject());
  EXPECT_EQ(d["summary"].Size(), 103u);
  EXPECT_EQ(d["summary_omitted"]["host"].GetInt64(), 0);
  EXPECT_EQ(d["summary_omitted"]["job"].GetInt64(), static_cast<int64_t>(kRunSummaryMaxEntries));
  // Everything fits: every entry listed, no summary_omitted.
  whole_run.resize(3 + 100 + 10);
  d.Parse(RunDocument(info, RunMeta(), 1000.0, summary, whole_run).c_str());
  EXPECT_EQ(d["summary"].Size(), 113u);
  EXPECT_FALSE(d.HasMember("summary_omitted"));
}

}  // namespace
}  // namespace fiohist
