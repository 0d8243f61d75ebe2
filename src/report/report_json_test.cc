#include "report/report_json.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <set>

#include "stats/pipeline.h"
#include "stats/resolution_sink.h"

namespace fiohist {
namespace {

ReportData Sample() {
  const std::string dir = FIOHIST_SOURCE_DIR "/samples/epoch2/";
  PipelineOptions o;
  o.scopes = {true, true, false};
  EXPECT_TRUE(ParseSlaThresholds({"p99=100us"}, "--sla", &o.sla).ok());
  AddSlaPercentiles(o.sla, &o.percentiles);
  ReportSink report;
  ResolutionSink sink(&report, {10});
  RunSummary summary;
  EXPECT_TRUE(RunPipeline(o,
                          {dir + "epoch2_clat_hist.1.log.hostX.gz",
                           dir + "epoch2_clat_hist.1.log.hostY.gz"},
                          &sink, &summary)
                  .ok());
  return report.data();
}

// The JSON parses, holds every series with parallel arrays, and names the charts.
TEST(ReportJson, SeriesAsParallelArraysAndTheChartList) {
  const ReportData d = Sample();
  ReportSource src;
  src.run = "sample </script> run";
  const std::string json = ReportJson(d, src);
  EXPECT_EQ(json.find("</"), std::string::npos);  // safe inside <script>
  rapidjson::Document doc;
  ASSERT_FALSE(doc.Parse(json.c_str()).HasParseError());
  const auto& main = doc["main"];
  EXPECT_STREQ(main["run"].GetString(), "sample </script> run");
  EXPECT_EQ(main["series"].Size(), d.series.size());
  for (const auto& s : main["series"].GetArray()) {
    const rapidjson::SizeType n = s["t"].Size();
    EXPECT_EQ(s["n"].Size(), n);
    for (const auto& p : s["p"].GetArray()) EXPECT_EQ(p.Size(), n);
  }
  EXPECT_EQ(main["sla"].Size(), 1u);
  EXPECT_EQ(main["breaches"].Size(), d.breaches.size());
  EXPECT_GT(d.breaches.size(), 0u);
  EXPECT_EQ(main["heat_rows_ns"].Size(), d.heat_row_edges_ns.size());
  std::vector<std::string> ids;
  for (const auto& c : doc["charts"].GetArray()) ids.push_back(c["id"].GetString());
  EXPECT_EQ(ids, (std::vector<std::string>{"latency-read", "latency-write", "latency-all", "iops",
                                           "heat-read", "heat-write", "hosts"}));
  EXPECT_FALSE(doc.HasMember("baseline"));
}

// A run with a stall: the stalls' numbers in the page data (report.js shades them).
TEST(ReportJson, StallsWithTheirNumbers) {
  const std::string dir = FIOHIST_TEST_DATA "/stalls/stall/";
  PipelineOptions o;
  o.scopes = {true, true, false};
  ReportSink report;
  RunSummary summary;
  ASSERT_TRUE(RunPipeline(o, {dir + "stall_clat_hist.1.log.gz", dir + "stall_clat_hist.2.log.gz"},
                          &report, &summary)
                  .ok());
  rapidjson::Document doc;
  ASSERT_FALSE(doc.Parse(ReportJson(report.data(), ReportSource()).c_str()).HasParseError());
  const auto& stalls = doc["main"]["stalls"];
  ASSERT_EQ(stalls.Size(), 2u);  // the host's and the cluster's
  const auto& cluster = stalls[1];
  EXPECT_STREQ(cluster["host"].GetString(), "");
  EXPECT_FALSE(cluster["idle"].GetBool());
  EXPECT_EQ(cluster["start_ms"].GetInt64(), 1795817243529);  // as the per-I/O logs say
  EXPECT_EQ(cluster["end_ms"].GetInt64(), 1795817246595);
  EXPECT_EQ(cluster["stuck_ios"].GetDouble(), 2);  // the per-I/O truth: 2 in flight through it
  EXPECT_GT(cluster["stuck_max_ns"].GetDouble(), 3e9);
  // Without a stall: no such field.
  EXPECT_FALSE(ReportJson(Sample(), ReportSource()).find("\"stalls\"") != std::string::npos);
}

// Both placements (the page's toggle): the other one's series, heatmaps, whole run, hosts
// and breaches, its partial last quanta with their complete_to; or why there is none.
TEST(ReportJson, OtherPlacementAndItsPartialLastQuanta) {
  const std::string dir = FIOHIST_TEST_DATA "/stalls/stall/";
  const std::vector<std::string> logs = {dir + "stall_clat_hist.1.log.gz",
                                         dir + "stall_clat_hist.2.log.gz"};
  PipelineOptions o;
  o.scopes = {true, true, false};
  ReportSink completion, issue;
  RunSummary summary;
  ASSERT_TRUE(RunPipeline(o, logs, &completion, &summary).ok());
  o.place_issue = true;
  ASSERT_TRUE(RunPipeline(o, logs, &issue, &summary).ok());
  ReportOtherPlacement other;
  other.placement = "issue";
  other.data = &issue.data();
  rapidjson::Document doc;
  ASSERT_FALSE(
      doc.Parse(ReportJson(completion.data(), ReportSource(), nullptr, nullptr, nullptr, "", &other)
                    .c_str())
          .HasParseError());
  EXPECT_FALSE(doc["main"].HasMember("placement"));  // completion: absent, as before
  const auto& o2 = doc["other_placement"];
  EXPECT_STREQ(o2["placement"].GetString(), "issue");
  EXPECT_EQ(o2["series"].Size(), issue.data().series.size());
  for (const char* key : {"heat", "whole", "hosts", "breaches", "missing_quanta"}) {
    EXPECT_TRUE(o2.HasMember(key)) << key;
  }
  EXPECT_FALSE(o2.HasMember("stalls"));  // the run's, in `main`
  // The cluster's quanta: no complete_to where I/Os completed; the issue view's last quanta
  // are partial, complete up to a latency that falls towards the logs' end.
  for (const auto& s : doc["main"]["series"].GetArray()) EXPECT_FALSE(s.HasMember("cto"));
  const rapidjson::Value* all = nullptr;
  for (const auto& s : o2["series"].GetArray()) {
    if (std::string(s["host"].GetString()).empty() && std::string(s["dir"].GetString()) == "all" &&
        s["res"].GetInt() == 1) {
      all = &s;
    }
  }
  ASSERT_NE(all, nullptr);
  ASSERT_TRUE(all->HasMember("cto"));
  const auto& cto = (*all)["cto"];
  ASSERT_GE(cto.Size(), 2u);
  std::set<uint64_t> partial;
  for (const auto& i : (*all)["partial"].GetArray()) partial.insert(i.GetUint64());
  int64_t previous = INT64_MAX;
  for (const auto& c : cto.GetArray()) {
    EXPECT_EQ(partial.count(c[0].GetUint64()), 1u);
    EXPECT_LE(c[1].GetInt64(), previous);
    previous = c[1].GetInt64();
  }
  EXPECT_EQ(cto[0][1].GetInt64(), 2999);  // docs/stalls.md: from :25.990, 2,999 ms
  // Refused (a status stream): the reason instead of the data.
  ReportOtherPlacement refused;
  refused.placement = "issue";
  refused.refused = "the input is fio JSON output";
  ASSERT_FALSE(doc.Parse(ReportJson(completion.data(), ReportSource(), nullptr, nullptr, nullptr,
                                    "", &refused)
                             .c_str())
                   .HasParseError());
  EXPECT_STREQ(doc["other_placement"]["refused"].GetString(), "the input is fio JSON output");
  EXPECT_FALSE(doc["other_placement"].HasMember("series"));
}

// With a baseline: its run in the same form, and an overlay per direction both have.
TEST(ReportJson, BaselineAndOverlays) {
  const ReportData d = Sample();
  ReportSource a, b;
  a.run = "new";
  b.run = "old";
  const std::string json = ReportJson(d, a, &d, &b);
  rapidjson::Document doc;
  ASSERT_FALSE(doc.Parse(json.c_str()).HasParseError());
  EXPECT_STREQ(doc["baseline"]["run"].GetString(), "old");
  int overlays = 0;
  for (const auto& c : doc["charts"].GetArray()) {
    if (std::string(c["kind"].GetString()) != "overlay") continue;
    ++overlays;
    EXPECT_EQ(c["percentiles"].Size(), 3u);  // p50, p99, p99.9
  }
  EXPECT_EQ(overlays, 3);
  EXPECT_FALSE(doc.HasMember("verdicts"));
  // Runs that could not be compared: the page says why instead of a table.
  const std::string not_compared = ReportJson(d, a, &d, &b, nullptr, "too few quanta");
  ASSERT_FALSE(doc.Parse(not_compared.c_str()).HasParseError());
  EXPECT_STREQ(doc["verdicts"]["error"].GetString(), "too few quanta");
}

}  // namespace
}  // namespace fiohist
