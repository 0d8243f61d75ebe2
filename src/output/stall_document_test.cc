#include "output/stall_document.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <set>
#include <string>

#include "output/fields.h"

namespace fiohist {
namespace {

// The recorded fsfreeze run's cluster stall (docs/stalls.md): 3.066 s, 12 stuck I/Os, the
// slowest in the bucket up to 3,087 ms.
Stall ClusterStall() {
  Stall st;
  st.start_ms = 1795817243529;  // 2026-11-27T22:07:23.529Z
  st.end_ms = 1795817246595;
  st.stuck_ios = 12;
  st.slowest_ns = 3.087e9;
  return st;
}

rapidjson::Document Parse(const std::string& json) {
  rapidjson::Document d;
  d.Parse(json.c_str());
  EXPECT_TRUE(d.IsObject()) << json;
  return d;
}

TEST(StallDocument, TextIsTheReportsName) {
  EXPECT_EQ(StallText(ClusterStall()), "stall 3.1 s: 12 I/Os stuck, slowest 3.09 s");
  Stall hiccup = ClusterStall();
  hiccup.end_ms = hiccup.start_ms + 583;
  hiccup.stuck_ios = 1.6;  // fractional shares of records round to whole I/Os
  hiccup.slowest_ns = 587.2e6;
  EXPECT_EQ(StallText(hiccup), "stall 0.6 s: 2 I/Os stuck, slowest 587 ms");
  hiccup.slowest_ns = 12.5e6;
  EXPECT_EQ(StallText(hiccup), "stall 0.6 s: 2 I/Os stuck, slowest 12.5 ms");
  hiccup.slowest_ns = 850;
  EXPECT_EQ(StallText(hiccup), "stall 0.6 s: 2 I/Os stuck, slowest 850 ns");
  Stall idle = ClusterStall();
  idle.idle = true;
  idle.end_ms = idle.start_ms + 2499;
  EXPECT_EQ(StallText(idle), "idle 2.5 s");
}

TEST(StallDocument, ClusterStallAsGrafanaReadsIt) {
  const RunMeta meta{"frozen", {"nightly"}, {{"rack", "r1"}}};
  rapidjson::Document d = Parse(StallDocument(ClusterStall(), meta, true, 1000.0));
  EXPECT_STREQ(d["run"].GetString(), "frozen");
  EXPECT_STREQ(d["tags"][0].GetString(), "nightly");
  EXPECT_STREQ(d["labels"]["rack"].GetString(), "r1");
  EXPECT_STREQ(d["kind"].GetString(), "stall");
  EXPECT_STREQ(d["scope"].GetString(), "cluster");
  EXPECT_FALSE(d.HasMember("host"));
  // The annotation's time, end, text and tags.
  EXPECT_STREQ(d["@timestamp"].GetString(), "2026-11-27T22:07:23.529Z");
  EXPECT_STREQ(d["end"].GetString(), "2026-11-27T22:07:26.595Z");
  EXPECT_STREQ(d["text"].GetString(), "stall 3.1 s: 12 I/Os stuck, slowest 3.09 s");
  ASSERT_EQ(d["annotation_tags"].Size(), 2u);
  EXPECT_STREQ(d["annotation_tags"][0].GetString(), "stall");
  EXPECT_STREQ(d["annotation_tags"][1].GetString(), "cluster");
  EXPECT_EQ(d["start_ms"].GetInt64(), 1795817243529);
  EXPECT_EQ(d["end_ms"].GetInt64(), 1795817246595);
  EXPECT_DOUBLE_EQ(d["duration_s"].GetDouble(), 3.066);
  EXPECT_DOUBLE_EQ(d["stuck_ios"].GetDouble(), 12);
  EXPECT_DOUBLE_EQ(d["stuck_max"].GetDouble(), 3087000);  // us
}

TEST(StallDocument, HostIdleGapOfARelativeRun) {
  Stall st = ClusterStall();
  st.host = "node7";
  st.idle = true;
  st.start_ms = 1000;
  st.end_ms = 3500;
  rapidjson::Document d = Parse(StallDocument(st, RunMeta{"r", {}, {}}, false, 1e6));
  EXPECT_FALSE(d.HasMember("tags"));
  EXPECT_FALSE(d.HasMember("labels"));
  EXPECT_STREQ(d["kind"].GetString(), "idle");
  EXPECT_STREQ(d["scope"].GetString(), "host");
  EXPECT_STREQ(d["host"].GetString(), "node7");
  // Unanchored: epoch ms, as every date of such a run.
  EXPECT_EQ(d["@timestamp"].GetInt64(), 1000);
  EXPECT_EQ(d["end"].GetInt64(), 3500);
  EXPECT_DOUBLE_EQ(d["stuck_max"].GetDouble(), 3087);  // ms
  EXPECT_STREQ(d["text"].GetString(), "idle 2.5 s");
  ASSERT_EQ(d["annotation_tags"].Size(), 3u);
  EXPECT_STREQ(d["annotation_tags"][2].GetString(), "node7");
  // Every key is a field of the table, in its order.
  std::vector<std::string> order;
  for (const Field& f : StallFields()) order.push_back(f.name);
  size_t at = 0;
  for (const auto& m : d.GetObject()) {
    const std::string key = m.name.GetString();
    while (at < order.size() && order[at] != key) ++at;
    EXPECT_LT(at, order.size()) << key << " out of StallFields()' order";
  }
}

TEST(StallDocument, IdsAreDeterministicAndDistinct) {
  const Stall cluster = ClusterStall();
  Stall host = cluster;
  host.host = "a";
  Stall later = cluster;
  later.end_ms += 1;
  Stall moved_start = cluster;
  moved_start.start_ms -= 40;  // an estimate: the same stall
  EXPECT_EQ(StallId("r", cluster), StallId("r", cluster));
  EXPECT_EQ(StallId("r", cluster), StallId("r", moved_start));
  EXPECT_EQ(StallId("r", cluster).size(), 32u);
  const std::set<std::string> ids = {StallId("r", cluster), StallId("r", host), StallId("r", later),
                                     StallId("r2", cluster)};
  EXPECT_EQ(ids.size(), 4u);
}

}  // namespace
}  // namespace fiohist
