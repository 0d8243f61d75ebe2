#include "output/change_point_document.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cmath>
#include <set>
#include <string>

#include "output/fields.h"
#include "stats/percentiles.h"

namespace fiohist {
namespace {

ChangePointRecord Sample() {
  ChangePointRecord c;
  c.tag = "nightly";
  c.metric = "p99";
  c.direction = "read";
  c.run = "bs16k";
  c.run_before = "aa4";
  c.start_ms = 1764064800000;  // 2025-11-25T10:00:00Z
  c.unit = "us";
  c.before = 100;
  c.after = 150;
  c.p_value = 0.004;
  c.runs = 8;
  c.analysed_at_ms = 1764068400000;
  return c;
}

TEST(ChangePointDocument, CarriesExactlyTheTableFields) {
  rapidjson::Document d;
  d.Parse(ChangePointDocument(Sample()).c_str());
  ASSERT_TRUE(d.IsObject());
  std::set<std::string> keys, table;
  for (const auto& m : d.GetObject()) keys.insert(m.name.GetString());
  for (const Field& f : ChangePointFields()) table.insert(f.name);
  // History points only: the baseline, the run's end, and the values with their bounds.
  for (const char* f : {"baseline", "end_ms"}) table.erase(f);
  for (const char* metric : {"p50", "p99", "p99.9", "iops"}) {
    for (const char* suffix : {"", "_low", "_high"}) {
      table.erase(FieldNameOf(metric) + suffix);
    }
  }
  EXPECT_EQ(keys, table);
  EXPECT_STREQ(d["kind"].GetString(), "change");
  EXPECT_STREQ(d["@timestamp"].GetString(), "2025-11-25T10:00:00.000Z");
  EXPECT_EQ(d["start_ms"].GetInt64(), 1764064800000);
  EXPECT_DOUBLE_EQ(d["ratio"].GetDouble(), 1.5);
  EXPECT_STREQ(d["run_before"].GetString(), "aa4");
  ASSERT_TRUE(d["labels"].IsArray());
  EXPECT_STREQ(d["labels"][2].GetString(), "rise");
  EXPECT_NE(std::string(d["text"].GetString()).find("x1.500"), std::string::npos);
}

TEST(ChangePointDocument, IdNamesTagDirectionMetricAndRun) {
  EXPECT_EQ(ChangePointId(Sample()), "nightly/read/p99/bs16k");
  // Another analysis time or level is the same change point: the same id.
  ChangePointRecord later = Sample();
  later.after = 170;
  later.analysed_at_ms += 1000;
  EXPECT_EQ(ChangePointId(later), ChangePointId(Sample()));
}

TEST(ChangePointDocument, IdsOfDistinctRecordsDiffer) {
  // '/' inside a part cannot make two records meet.
  ChangePointRecord a = Sample(), b = Sample();
  a.tag = "x/read";
  a.direction = "p99";
  a.metric = "bs16k";
  b.tag = "x";
  b.direction = "read/p99";
  b.metric = "bs16k";
  EXPECT_NE(ChangePointId(a), ChangePointId(b));
  // Long names stay within Elasticsearch's 512 bytes and apart.
  ChangePointRecord c = Sample(), e = Sample();
  c.run = std::string(600, 'r') + "1";
  e.run = std::string(600, 'r') + "2";
  EXPECT_LE(ChangePointId(c).size(), 512u);
  EXPECT_NE(ChangePointId(c), ChangePointId(e));
}

TEST(ChangePointDocument, AFallIsLabelledSo) {
  ChangePointRecord c = Sample();
  c.after = 50;
  rapidjson::Document d;
  d.Parse(ChangePointDocument(c).c_str());
  EXPECT_STREQ(d["labels"][2].GetString(), "fall");
}

// A run of the history names its baseline; the tag's first run has none. Every key is a
// field of the table (so of the mapping).
TEST(ChangePointDocument, HistoryPointNamesItsBaseline) {
  HistoryPointRecord p;
  p.tag = "nightly";
  p.run = "bs16k";
  p.direction = "read";
  p.baseline = "aa4";
  p.start_ms = 1764064800000;
  p.end_ms = 1764064803000;
  p.runs = 8;
  std::set<std::string> table;
  for (const Field& f : ChangePointFields()) table.insert(f.name);
  rapidjson::Document d;
  d.Parse(HistoryPointDocument(p).c_str());
  ASSERT_TRUE(d.IsObject());
  for (const auto& m : d.GetObject()) {
    EXPECT_TRUE(table.count(m.name.GetString())) << m.name.GetString();
  }
  EXPECT_STREQ(d["kind"].GetString(), "point");
  EXPECT_STREQ(d["baseline"].GetString(), "aa4");
  EXPECT_STREQ(d["direction"].GetString(), "read");
  EXPECT_EQ(d["end_ms"].GetInt64(), 1764064803000);
  EXPECT_STREQ(d["@timestamp"].GetString(), "2025-11-25T10:00:00.000Z");
  EXPECT_EQ(HistoryPointId(p), "nightly/bs16k/read");
  p.baseline.clear();
  d.Parse(HistoryPointDocument(p).c_str());
  EXPECT_FALSE(d.HasMember("baseline"));
  // Never a change point's id (those have four parts).
  ChangePointRecord c;
  c.tag = "nightly";
  c.run = "bs16k";
  c.direction = "read";
  EXPECT_NE(ChangePointId(c), HistoryPointId(p));
}

// The values of history's default metrics are written with their intervals, each to a
// field of the table; a metric the index does not map (p90) and a bound that does not
// exist are left out, never written as something else.
TEST(ChangePointDocument, HistoryPointCarriesTheBootstrapIntervals) {
  HistoryPointRecord p;
  p.tag = "nightly";
  p.run = "r";
  p.direction = "write";
  for (const char* metric : {"p50", "p99", "p99.9", "p90", "iops"}) {
    p.values.push_back({FieldNameOf(metric), 10, 8, 12.5});
  }
  p.values.back().high = NAN;  // iops: no upper bound
  rapidjson::Document d;
  d.Parse(HistoryPointDocument(p).c_str());
  ASSERT_TRUE(d.IsObject());
  for (const char* f : {"p50", "p99", "p99_9"}) {
    const std::string name = f;
    ASSERT_TRUE(d.HasMember(name.c_str()) && d.HasMember((name + "_low").c_str()) &&
                d.HasMember((name + "_high").c_str()))
        << name;
    EXPECT_EQ(d[(name + "_low").c_str()].GetDouble(), 8);
    EXPECT_EQ(d[(name + "_high").c_str()].GetDouble(), 12.5);
  }
  EXPECT_TRUE(d.HasMember("iops") && d.HasMember("iops_low"));
  EXPECT_FALSE(d.HasMember("iops_high"));
  EXPECT_FALSE(d.HasMember("p90"));
  EXPECT_EQ(FieldNameOf("p99.99"), "p99_99");
}

}  // namespace
}  // namespace fiohist
