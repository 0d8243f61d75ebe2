#include "output/documents.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "log/time_anchor.h"
#include "output/document_id.h"

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

// Integer counts of the fixture's histogram as push makes them.
IntegerBuckets Rounded(const ScopeResult& r) {
  BucketCarry carry;
  IntegerBuckets b;
  carry.Round(r, &b);
  return b;
}

TEST(Documents, HistogramFormIsTheOnlyCopyWithIntegerCounts) {
  Fixture f;
  DocumentBuilder b(f.info, RunMeta{"r", {}, {}});
  rapidjson::Document d;
  d.Parse(b.Buckets(f.r, Rounded(f.r)).c_str());
  ASSERT_TRUE(d.IsObject());
  EXPECT_FALSE(d.HasMember("bucket_runs"));
  const auto& counts = d["latency"]["counts"].GetArray();
  const auto& values = d["latency"]["values"].GetArray();
  ASSERT_EQ(counts.Size(), 2u);  // 0.0004 rounds to nothing (its carry waits)
  EXPECT_EQ(counts[0].GetInt64(), 10);
  EXPECT_EQ(counts[1].GetInt64(), 1);
  EXPECT_DOUBLE_EQ(values[0].GetDouble(), f.info.layout.MidNs(300) / 1000);
  EXPECT_EQ(d["samples"].GetDouble(), 11.0);
  // A real direction's bucket document also counts toward `all`.
  ASSERT_TRUE(d["direction"].IsArray());
  EXPECT_STREQ(d["direction"][0].GetString(), "write");
  EXPECT_STREQ(d["direction"][1].GetString(), "all");
}

TEST(Documents, SmallfileOpIsTheDirectionAndTheOp) {
  Fixture f;
  ASSERT_TRUE(f.info.directions.AssignOps({"create", "append", "read"}));
  DocumentBuilder b(f.info, RunMeta{"r", {}, {}});
  f.r.direction = Direction::kTrim;  // create's slot (append took write's)
  rapidjson::Document d;
  d.Parse(b.Percentiles(f.r).c_str());
  ASSERT_TRUE(d.IsObject());
  EXPECT_STREQ(d["direction"].GetString(), "create");
  EXPECT_STREQ(d["op"].GetString(), "create");
  d.Parse(b.Buckets(f.r, Rounded(f.r)).c_str());
  ASSERT_TRUE(d.IsObject());
  EXPECT_STREQ(d["direction"][0].GetString(), "create");
  EXPECT_STREQ(d["direction"][1].GetString(), "all");
  EXPECT_STREQ(d["op"].GetString(), "create");
  // Each op its own id; the sum of the ops is `all`, without `op`.
  ScopeResult append = f.r;
  append.direction = Direction::kWrite;
  EXPECT_NE(b.Id(DocKind::kPercentiles, f.r), b.Id(DocKind::kPercentiles, append));
  ScopeResult all = f.r;
  all.direction = Direction::kAll;
  d.Parse(b.Percentiles(all).c_str());
  EXPECT_STREQ(d["direction"].GetString(), "all");
  EXPECT_FALSE(d.HasMember("op"));
  // fio's directions carry no `op`.
  d.Parse(DocumentBuilder(Fixture().info, RunMeta{"r", {}, {}}).Percentiles(append).c_str());
  EXPECT_STREQ(d["direction"].GetString(), "write");
  EXPECT_FALSE(d.HasMember("op"));
}

TEST(Documents, CompactFormDeltaCodesTheIndices) {
  Fixture f;
  DocumentBuilder b(f.info, RunMeta{"r", {}, {}}, 1000.0, BucketForm::kCompact);
  rapidjson::Document d;
  const std::string doc = b.Buckets(f.r, Rounded(f.r));
  EXPECT_NE(doc.find("\"bucket_runs\":[300,1,1555,1],\"bucket_ios\":[10,1]}"),
            std::string::npos)
      << doc;
  d.Parse(doc.c_str());
  ASSERT_TRUE(d.IsObject());
  EXPECT_FALSE(d.HasMember("latency"));
}

// The widest resolution a run writes is drawn at every larger interval, like the coarsest.
TEST(Documents, WidestResolutionHasNoUpperZoom) {
  Fixture f;
  f.info.resolutions = {1, 10, 60};
  DocumentBuilder b(f.info, RunMeta{"r", {}, {}});
  f.r.resolution = 10;
  const std::string plain = b.Percentiles(f.r);
  EXPECT_NE(plain.find("\"zoom_gt_ms\":1000,\"zoom_le_ms\":10000,"), std::string::npos) << plain;
  f.r.widest = true;
  const std::string widest = b.Percentiles(f.r);
  EXPECT_NE(widest.find("\"zoom_gt_ms\":1000,\"zoom_le_ms\":9007199254740992,"),
            std::string::npos)
      << widest;
  // The run document lists the resolutions written, where the summary names them.
  RunSummary summary;
  summary.resolutions = {1, 10};
  EXPECT_NE(b.Run(summary, {}).find("\"resolutions\":[1,10]"), std::string::npos);
  EXPECT_NE(b.Run(RunSummary(), {}).find("\"resolutions\":[1,10,60]"), std::string::npos);
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

// An accuracy window of 10 quanta: its span, length and verdict, never the resolution
// fields of a coarse document of 10 quanta (panels would draw it), and an id that depends
// on the run, scope, direction and start only.
TEST(Documents, AccuracyWindowDocument) {
  Fixture f;
  f.info.resolutions = {1, 10, 60};
  DocumentBuilder b(f.info, RunMeta{"r", {}, {}});
  ScopeResult w = f.r;
  w.kind = ScopeKind::kCluster;
  w.host.clear();
  w.end_ms = w.start_ms + 10000;
  w.resolution = 10;
  std::string text;
  b.AppendWindow(w, true, &text);
  rapidjson::Document d;
  d.Parse(text.c_str());
  ASSERT_TRUE(d.IsObject()) << text;
  EXPECT_EQ(d["window_quanta"].GetInt(), 10);
  EXPECT_TRUE(d["accurate"].GetBool());
  EXPECT_DOUBLE_EQ(d["quantum_s"].GetDouble(), 10.0);
  EXPECT_STREQ(d["end"].GetString(), "2026-11-22T00:08:50.000Z");
  EXPECT_FALSE(d.HasMember("resolution")) << text;
  EXPECT_FALSE(d.HasMember("zoom_gt_ms"));
  EXPECT_TRUE(d.HasMember("p99_low"));
  text.clear();
  b.AppendWindow(w, false, &text);
  EXPECT_NE(text.find("\"accurate\":false}"), std::string::npos) << text;

  ScopeResult longer = w;
  longer.end_ms += 5000;
  longer.resolution = 15;
  EXPECT_EQ(b.WindowId(w), b.WindowId(longer));  // a re-sent window overwrites
  EXPECT_EQ(b.WindowId(w), DocumentBuilder(f.info, RunMeta{"r", {"t"}, {}}).WindowId(w));
  EXPECT_NE(b.WindowId(w), DocumentBuilder(f.info, RunMeta{"r2", {}, {}}).WindowId(w));
  EXPECT_NE(b.WindowId(w), b.Id(DocKind::kPercentiles, w));
  ScopeResult other = w;
  other.direction = Direction::kRead;
  EXPECT_NE(b.WindowId(w), b.WindowId(other));
  other = w;
  other.start_ms += 1000;
  EXPECT_NE(b.WindowId(w), b.WindowId(other));
  EXPECT_EQ(b.WindowId(w).size(), 32u);
}

TEST(Documents, StringsAreEscapedAsRapidjsonDoes) {
  Fixture f;
  std::string every_byte;
  for (int c = 1; c < 256; ++c) every_byte += static_cast<char>(c);
  every_byte += std::string(1, '\0') + "end";
  f.r.host = every_byte;
  f.r.job = "job\t\"1\"";
  f.r.kind = ScopeKind::kJob;
  DocumentBuilder b(f.info, RunMeta{"r", {every_byte}, {{"k", every_byte}}});
  const std::string doc = b.Percentiles(f.r);
  for (const std::string& s : {every_byte, f.r.job}) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
    EXPECT_NE(doc.find(std::string(buf.GetString(), buf.GetSize())), std::string::npos);
  }
  rapidjson::Document d;
  d.Parse(doc.c_str(), doc.size());
  ASSERT_TRUE(d.IsObject());
  EXPECT_EQ(std::string(d["host"].GetString(), d["host"].GetStringLength()), every_byte);
  EXPECT_EQ(std::string(d["tags"][0].GetString(), d["tags"][0].GetStringLength()), every_byte);
}

TEST(Documents, TimesAreFormatIsoTimeText) {
  Fixture f;
  DocumentBuilder b(f.info, RunMeta{"r", {}, {}});
  for (int64_t ms : {int64_t{0}, int64_t{-1}, int64_t{-86400001}, int64_t{951782400000},
                     int64_t{253402300799999}, int64_t{253402300800000}, int64_t{-62167219200000},
                     int64_t{-62167219200001}, int64_t{1795306120123}}) {
    f.r.start_ms = ms;
    f.r.end_ms = ms + 1000;
    const std::string doc = b.Percentiles(f.r);
    EXPECT_EQ(doc.rfind("{\"@timestamp\":\"" + FormatIsoTime(ms) + "\",\"end\":\"" +
                            FormatIsoTime(ms + 1000) + "\",",
                        0),
              0u)
        << ms << " " << doc;
  }
  std::mt19937_64 g(3);
  for (int i = 0; i < 20000; ++i) {
    const int64_t ms = static_cast<int64_t>(g() % 400000000000000ULL) - 100000000000000;
    f.r.start_ms = ms;
    ASSERT_EQ(b.Percentiles(f.r).find("\"" + FormatIsoTime(ms) + "\""), 14u) << ms;
  }
}

TEST(Documents, IdIsTheHashOfTheDocumentedKey) {
  Fixture f;
  f.r.job = "job\x01";
  DocumentBuilder b(f.info, RunMeta{"run\x1f" "7", {}, {}});
  // Percentile and bucket documents (bucket_version 2): the series' hash, then the quantum's
  // start in hex; a percentile document's series has its resolution too.
  char start[17];
  std::snprintf(start, sizeof start, "%016llx", static_cast<unsigned long long>(f.r.start_ms));
  for (DocKind kind : {DocKind::kPercentiles, DocKind::kBuckets}) {
    const std::string id = b.Id(kind, f.r);
    ASSERT_EQ(id.size(), 32u);
    EXPECT_EQ(id.substr(16), start);
    ScopeResult later = f.r, other = f.r;
    later.start_ms += 1000;
    other.job += "x";
    EXPECT_EQ(b.Id(kind, later).substr(0, 16), id.substr(0, 16));
    EXPECT_NE(b.Id(kind, later), id);
    EXPECT_NE(b.Id(kind, other).substr(0, 16), id.substr(0, 16));
    EXPECT_NE(DocumentBuilder(f.info, RunMeta{"run", {}, {}}).Id(kind, f.r), id);
  }
  ScopeResult coarser = f.r;
  coarser.resolution = 10;
  EXPECT_NE(b.Id(DocKind::kPercentiles, coarser), b.Id(DocKind::kPercentiles, f.r));
  EXPECT_NE(b.Id(DocKind::kPercentiles, f.r), b.Id(DocKind::kBuckets, f.r));
  EXPECT_EQ(HashHex128("runs\x1frun\x1f" "7"), b.RunId());
}

TEST(Documents, AppendFunctionsAppendWhatTheOthersReturn) {
  Fixture f;
  DocumentBuilder b(f.info, RunMeta{"r", {"t"}, {}});
  std::string out = "before";
  b.AppendPercentiles(f.r, &out);
  const IntegerBuckets ints = Rounded(f.r);
  b.AppendBuckets(f.r, ints, &out);
  b.AppendId(DocKind::kBuckets, f.r, &out);
  EXPECT_EQ(out, "before" + b.Percentiles(f.r) + b.Buckets(f.r, ints) +
                     b.Id(DocKind::kBuckets, f.r));
}

TEST(Documents, BucketDocumentWithoutBucketsAndOddQuantum) {
  Fixture f;
  f.r.histogram = nullptr;
  f.r.end_ms = f.r.start_ms + 250;  // not info.quantum_ms
  DocumentBuilder b(f.info, RunMeta{}, 1.0);
  const std::string doc = b.Buckets(f.r, IntegerBuckets());
  EXPECT_NE(doc.find("\"quantum_s\":0.25,"), std::string::npos) << doc;
  EXPECT_NE(doc.find("\"latency\":{\"values\":[],\"counts\":[]}}"), std::string::npos) << doc;
  rapidjson::Document d;
  d.Parse(doc.c_str());
  EXPECT_TRUE(d.IsObject());
  EXPECT_FALSE(d.HasMember("run"));
}

// SLA fields: cluster documents of a run with thresholds only, the run document's
// thresholds, count and state; documents of a run without thresholds stay as they were.
TEST(Documents, SlaFieldsOnClusterDocumentsAndTheRun) {
  Fixture f;
  const std::string before = DocumentBuilder(f.info, RunMeta{"r", {}, {}}).Percentiles(f.r);
  ASSERT_TRUE(
      ParseSlaThresholds({"write.p50=500ns", "p99=1s", "write.p99.99=20s"}, "--sla", &f.info.sla)
          .ok());
  DocumentBuilder b(f.info, RunMeta{"r", {}, {}});
  EXPECT_EQ(b.Percentiles(f.r), before);  // host scope: no SLA fields
  f.r.kind = ScopeKind::kCluster;
  f.r.host.clear();
  rapidjson::Document d;
  const std::string doc = b.Percentiles(f.r);
  d.Parse(doc.c_str());
  ASSERT_TRUE(d.IsObject()) << doc;
  // p50 of bucket 300 (~0.86 us) is above 500 ns; p99.99 lies in the clamped bucket, whose lower
  // bound (~17 s) is below 20 s: not a certain breach.
  EXPECT_TRUE(d["sla_breach"].GetBool());
  ASSERT_EQ(d["sla_breached"].Size(), 1u);
  EXPECT_STREQ(d["sla_breached"][0].GetString(), "write.p50<=500ns");
  f.r.direction = Direction::kRead;  // no threshold of its own
  d.Parse(b.Percentiles(f.r).c_str());
  EXPECT_FALSE(d["sla_breach"].GetBool());
  EXPECT_EQ(d["sla_breached"].Size(), 0u);

  RunSummary summary;
  summary.sla_breaches = 7;
  d.Parse(b.Run(summary, {}).c_str());
  ASSERT_TRUE(d.IsObject());
  EXPECT_STREQ(d["state"].GetString(), "finished");
  EXPECT_EQ(d["sla_breaches"].GetInt(), 7);
  ASSERT_EQ(d["sla"].Size(), 3u);
  EXPECT_STREQ(d["sla"][1].GetString(), "p99<=1s");
  summary.state = "running";
  RunInfo plain;
  d.Parse(DocumentBuilder(plain, RunMeta{"r", {}, {}}).Run(summary, {}).c_str());
  EXPECT_STREQ(d["state"].GetString(), "running");
  EXPECT_FALSE(d.HasMember("sla"));
  EXPECT_FALSE(d.HasMember("sla_breaches"));
}

}  // namespace
}  // namespace fiohist

namespace fiohist {
namespace {

// bucket_version 3: a job's records of one quantum in one document, by direction: the
// directions it holds and `all`, the sum of their samples, each one's samples and records
// (a direction without a record starting in the quantum keeps its samples and `[]`), the
// latest end, the job's coverage; its id the series without direction.
TEST(Documents, JobDocumentHoldsEveryDirection) {
  Fixture f;
  f.info.quantum_ms = 1000;
  DocumentBuilder b(f.info, RunMeta{"r", {}, {}}, 1000.0, BucketForm::kCompact);
  ScopeResult r = f.r;
  r.kind = ScopeKind::kJob;
  r.host = "h";
  r.job = "j.1";
  r.direction = Direction::kRead;
  r.coverage = 0.5;
  PlacedRecord a, c;
  a.direction = Direction::kRead;
  a.span = {r.start_ms - 200, r.start_ms + 300};
  a.counts = {{300, 2}, {302, 1}};
  c.direction = Direction::kRead;
  c.span = {r.start_ms + 300, r.start_ms + 1300};
  c.counts = {{10, 5}};
  JobQuantumRecords parts;
  parts.present[0] = parts.present[1] = true;
  parts.samples[0] = 8;
  parts.samples[1] = 2.5;
  parts.end_ms[0] = b.AppendRecordList(r, {&a, &c}, &parts.records[0]);
  parts.end_ms[1] = b.AppendRecordList(r, {}, &parts.records[1]);
  EXPECT_EQ(parts.end_ms[0], r.start_ms + 1300);
  EXPECT_EQ(parts.end_ms[1], r.start_ms);
  EXPECT_EQ(parts.records[1], "[]");
  std::string doc;
  b.AppendJobRecords(r, parts, &doc);
  rapidjson::Document d;
  d.Parse(doc.c_str());
  ASSERT_TRUE(d.IsObject()) << doc;
  ASSERT_TRUE(d["direction"].IsArray());
  ASSERT_EQ(d["direction"].Size(), 3u);
  EXPECT_STREQ(d["direction"][0].GetString(), "read");
  EXPECT_STREQ(d["direction"][1].GetString(), "write");
  EXPECT_STREQ(d["direction"][2].GetString(), "all");
  EXPECT_FALSE(d.HasMember("op"));
  EXPECT_EQ(d["samples"].GetDouble(), 10.5);
  EXPECT_EQ(d["samples_by_direction"]["read"].GetDouble(), 8);
  EXPECT_EQ(d["samples_by_direction"]["write"].GetDouble(), 2.5);
  EXPECT_STREQ(d["records_end"].GetString(), FormatIsoTime(r.start_ms + 1300).c_str());
  ASSERT_EQ(d["records"]["read"].Size(), 2u);
  EXPECT_EQ(d["records"]["read"][0]["span"][0].GetInt64(), -200);
  EXPECT_EQ(d["records"]["read"][1]["span"][1].GetInt64(), 1000);
  EXPECT_EQ(d["records"]["write"].Size(), 0u);
  EXPECT_EQ(d["coverage"].GetDouble(), 0.5);
  // The records' text is the per-direction document's `records`.
  std::string one;
  b.AppendRecords(r, {&a, &c}, &one);
  EXPECT_NE(one.find("\"records\":" + parts.records[0] + ","), std::string::npos) << one;
  // Its id: the series without direction, then the quantum; every quantum of the job shares
  // the first half, no per-direction document has it.
  std::string id, later_id;
  b.AppendJobId(r, &id);
  ScopeResult later = r;
  later.start_ms += 1000;
  b.AppendJobId(later, &later_id);
  ASSERT_EQ(id.size(), 32u);
  EXPECT_EQ(id.substr(0, 16), later_id.substr(0, 16));
  EXPECT_NE(id, later_id);
  for (Direction dir : {Direction::kRead, Direction::kWrite, Direction::kTrim, Direction::kAll}) {
    ScopeResult x = r;
    x.direction = dir;
    EXPECT_NE(b.Id(DocKind::kBuckets, x).substr(0, 16), id.substr(0, 16));
  }
  // The run document says the version it is given.
  RunSummary summary;
  d.Parse(b.Run(summary, {}, kMergedBucketVersion).c_str());
  EXPECT_EQ(d["bucket_version"].GetInt(), 3);
  d.Parse(b.Run(summary, {}).c_str());
  EXPECT_EQ(d["bucket_version"].GetInt(), 2);
}

// A smallfile run's ops: the document names the ops it holds as directions and as `op`,
// records keyed by op, in slot order.
TEST(Documents, SmallfileJobDocumentNamesItsOps) {
  Fixture f;
  ASSERT_TRUE(f.info.directions.AssignOps({"create", "append", "read"}));
  DocumentBuilder b(f.info, RunMeta{"r", {}, {}}, 1000.0, BucketForm::kCompact);
  ScopeResult r = f.r;
  r.kind = ScopeKind::kJob;
  r.job = "j";
  JobQuantumRecords parts;
  for (Direction dir : {Direction::kWrite, Direction::kTrim}) {  // append, create
    const size_t i = static_cast<size_t>(dir);
    parts.present[i] = true;
    parts.samples[i] = 1;
    parts.end_ms[i] = b.AppendRecordList(r, {}, &parts.records[i]);
  }
  std::string doc;
  b.AppendJobRecords(r, parts, &doc);
  rapidjson::Document d;
  d.Parse(doc.c_str());
  ASSERT_TRUE(d.IsObject()) << doc;
  ASSERT_EQ(d["direction"].Size(), 3u);
  EXPECT_STREQ(d["direction"][0].GetString(), "append");
  EXPECT_STREQ(d["direction"][1].GetString(), "create");
  EXPECT_STREQ(d["direction"][2].GetString(), "all");
  ASSERT_TRUE(d["op"].IsArray());
  ASSERT_EQ(d["op"].Size(), 2u);
  EXPECT_STREQ(d["op"][0].GetString(), "append");
  EXPECT_STREQ(d["op"][1].GetString(), "create");
  EXPECT_TRUE(d["records"].HasMember("append"));
  EXPECT_TRUE(d["records"].HasMember("create"));
  EXPECT_EQ(d["samples_by_direction"]["create"].GetDouble(), 1);
  EXPECT_FALSE(d.HasMember("coverage"));
  // One op: `op` a string, as in a per-direction document.
  parts.present[static_cast<size_t>(Direction::kWrite)] = false;
  doc.clear();
  b.AppendJobRecords(r, parts, &doc);
  d.Parse(doc.c_str());
  ASSERT_TRUE(d.IsObject()) << doc;
  ASSERT_EQ(d["direction"].Size(), 2u);
  ASSERT_TRUE(d["op"].IsString()) << doc;
  EXPECT_STREQ(d["op"].GetString(), "create");
}

}  // namespace
}  // namespace fiohist
