#include "documents.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

namespace fiohist {
namespace {

struct Fixture {
  Fixture() {
    info.absolute = true;
    info.percentiles = DefaultPercentiles();
    h.Add(300, 10.25);
    h.Add(301, 0.0004);  // a tail sample that rounds to nothing at scale 1000
    h.Add(info.layout.top_column(), 1);
    r.start_ms = 1795306120000;
    r.end_ms = r.start_ms + 1000;
    r.kind = ScopeKind::kHost;
    r.host = "host\"A\n";
    r.direction = Direction::kWrite;
    r.logs = 2;
    r.histogram = &h;
    r.stats = ComputeStats(h, info.layout, info.percentiles.values);
  }
  RunInfo info;
  Histogram h;
  ScopeResult r;
};

TEST(Documents, PercentileDocumentFields) {
  Fixture f;
  DocumentBuilder b(f.info, RunMeta{"run \"1\"", {"t1"}, {{"disk", "nvme"}}});
  rapidjson::Document d;
  d.Parse(b.Percentiles(f.r).c_str());
  ASSERT_TRUE(d.IsObject());
  EXPECT_STREQ(d["@timestamp"].GetString(), "2026-11-22T00:08:40.000Z");
  EXPECT_STREQ(d["run"].GetString(), "run \"1\"");
  EXPECT_STREQ(d["host"].GetString(), "host\"A\n");  // escaped by the writer, round-trips
  EXPECT_STREQ(d["labels"]["disk"].GetString(), "nvme");
  EXPECT_STREQ(d["direction"].GetString(), "write");
  EXPECT_FALSE(d.HasMember("job"));
  EXPECT_TRUE(d["p99_99"].IsDouble());
  EXPECT_TRUE(d["clamped"].GetBool());
  EXPECT_DOUBLE_EQ(d["iops"].GetDouble(), f.r.stats.samples);
  bool max_flagged = false;
  for (const auto& v : d["lower_bound"].GetArray()) max_flagged |= std::string(v.GetString()) == "max";
  EXPECT_TRUE(max_flagged);
}

TEST(Documents, BucketDocumentRebuildsTheHistogramAndKeepsTailSamples) {
  Fixture f;
  DocumentBuilder b(f.info, RunMeta{"r", {}, {}});
  rapidjson::Document d;
  d.Parse(b.Buckets(f.r).c_str());
  ASSERT_TRUE(d.IsObject());
  const auto& idx = d["bucket_index"].GetArray();
  const auto& cnt = d["bucket_count"].GetArray();
  ASSERT_EQ(idx.Size(), 3u);
  Histogram rebuilt;
  for (rapidjson::SizeType i = 0; i < idx.Size(); ++i) rebuilt.Add(idx[i].GetInt(), cnt[i].GetDouble());
  f.h.ForEachNonZero([&](int c, double n) { EXPECT_EQ(rebuilt.at(c), n) << c; });
  const auto& counts = d["latency"]["counts"].GetArray();
  const auto& values = d["latency"]["values"].GetArray();
  EXPECT_EQ(counts[0].GetInt64(), 10250);
  EXPECT_EQ(counts[1].GetInt64(), 1);  // 0.4 at scale 1000 still counts
  EXPECT_LT(values[0].GetDouble(), values[1].GetDouble());
  EXPECT_EQ(d["latency_scale"].GetInt(), 1000);
}

TEST(Documents, IdsAreDeterministicAndDistinct) {
  Fixture f;
  DocumentBuilder a(f.info, RunMeta{"r1", {}, {}});
  DocumentBuilder a2(f.info, RunMeta{"r1", {"other-tag"}, {}});
  DocumentBuilder b(f.info, RunMeta{"r2", {}, {}});
  EXPECT_EQ(a.Id(DocKind::kPercentiles, f.r), a2.Id(DocKind::kPercentiles, f.r));
  EXPECT_NE(a.Id(DocKind::kPercentiles, f.r), a.Id(DocKind::kBuckets, f.r));
  EXPECT_NE(a.Id(DocKind::kPercentiles, f.r), b.Id(DocKind::kPercentiles, f.r));
  ScopeResult later = f.r;
  later.start_ms += 1000;
  EXPECT_NE(a.Id(DocKind::kPercentiles, f.r), a.Id(DocKind::kPercentiles, later));
  EXPECT_EQ(a.Id(DocKind::kPercentiles, f.r).size(), 32u);
}

}  // namespace
}  // namespace fiohist
