#include "output/bucket_decode.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cmath>
#include <map>
#include <memory>
#include <utility>

#include "output/bucket_carry.h"
#include "output/documents.h"
#include "output/hist_code.h"
#include "stats/pipeline.h"

namespace fiohist {
namespace {

// Builds both forms of every job bucket document of the shared logs as push does, decodes
// them, and compares their sums with the pipeline's exact cluster histograms, bucket by
// bucket: within one unit per job summed, and the whole run exact.
class RoundTrip : public ResultSink {
 public:
  Status Begin(const RunInfo& info) override {
    info_ = info;
    histogram_ = std::make_unique<DocumentBuilder>(info_, RunMeta{"r", {}, {}});
    compact_ = std::make_unique<DocumentBuilder>(info_, RunMeta{"r", {}, {}}, 1000.0,
                                                 BucketForm::kCompact);
    decoder_ = std::make_unique<BucketDecoder>(info_.layout);
    return Status();
  }
  Status Quantum(const ScopeResult& r) override {
    if (r.direction == Direction::kAll || !r.histogram) return Status();
    const auto key = std::make_pair(r.start_ms, static_cast<int>(r.direction));
    if (r.kind == ScopeKind::kCluster) {
      exact[key].Merge(*r.histogram);
      return Status();
    }
    if (r.kind != ScopeKind::kJob) return Status();
    jobs[r.host + "/" + r.job] = true;
    IntegerBuckets b;
    carry_.Round(r, &b);
    for (DocumentBuilder* builder : {histogram_.get(), compact_.get()}) {
      rapidjson::Document d;
      d.Parse(builder->Buckets(r, b).c_str());
      Histogram& into = builder == compact_.get() ? from_compact[key] : from_histogram[key];
      Status s = decoder_->Decode(d, &into);
      if (!s.ok()) return s;
    }
    return Status();
  }
  Status WholeRun(const ScopeResult&) override { return Status(); }
  Status End(const RunSummary&) override { return Status(); }

  std::map<std::pair<int64_t, int>, Histogram> exact, from_compact, from_histogram;
  std::map<std::string, bool> jobs;

 private:
  RunInfo info_;
  std::unique_ptr<DocumentBuilder> histogram_, compact_;
  std::unique_ptr<BucketDecoder> decoder_;
  BucketCarry carry_{5000};
};

TEST(BucketDecode, JobDocumentsSumToTheClusterWithinOneUnitPerJob) {
  const std::string dir = std::string(FIOHIST_TEST_DATA) + "/fio-logs/epoch2/";
  PipelineOptions options;
  options.scopes = {true, false, true};
  RoundTrip sink;
  RunSummary summary;
  const std::vector<std::string> logs = {
      dir + "epoch2_clat_hist.1.log.hostX", dir + "epoch2_clat_hist.1.log.hostY",
      dir + "epoch2_clat_hist.2.log.hostX", dir + "epoch2_clat_hist.2.log.hostY"};
  Status s = RunPipeline(options, logs, &sink, &summary);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(sink.jobs.size(), 4u);
  const double bound = 4.0 / 5000;  // one unit per job summed
  std::map<int, Histogram> exact_run, compact_run;
  for (const auto& [key, exact] : sink.exact) {
    const Histogram& c = sink.from_compact[key];
    const Histogram& h = sink.from_histogram[key];
    for (int col = 0; col < Histogram::kMaxColumns; ++col) {
      EXPECT_LT(std::fabs(c.at(col) - exact.at(col)), bound) << key.first << " " << col;
      EXPECT_EQ(c.at(col), h.at(col)) << "both forms hold the same counts";
    }
    exact_run[key.second].Merge(exact);
    compact_run[key.second].Merge(c);
  }
  for (const auto& [direction, exact] : exact_run) {
    for (int col = 0; col < Histogram::kMaxColumns; ++col) {
      EXPECT_NEAR(compact_run[direction].at(col), exact.at(col), 1e-6) << col;
    }
  }
}

// Documents of fiohist before integer counts: exact doubles beside a scaled histogram.
TEST(BucketDecode, ReadsTheOldForm) {
  BucketLayout layout;
  BucketDecoder decoder(layout);
  rapidjson::Document d;
  d.Parse(R"({"layout":"fio3-g29-c0","bucket_index":[300,1855],"bucket_count":[10.25,0.0004],)"
          R"("latency":{"values":[1.0,2.0],"counts":[10250,1]},"latency_scale":1000})");
  Histogram h;
  ASSERT_TRUE(decoder.Decode(d, &h).ok());
  EXPECT_EQ(h.at(300), 10.25);
  EXPECT_EQ(h.at(1855), 0.0004);
  EXPECT_EQ(h.total(), 10.25 + 0.0004);
}

TEST(BucketDecode, HistogramFormMapsMidpointsBack) {
  BucketLayout layout;
  BucketDecoder decoder(layout);
  for (int c : {0, 1, 63, 64, 300, 1000, 1855}) {
    EXPECT_EQ(decoder.ColumnOfMidpoint(layout.MidNs(c) / 1000), c);
  }
  EXPECT_EQ(decoder.ColumnOfMidpoint(layout.LowerNs(300) / 1000), -1);
}

TEST(BucketDecode, BadDocumentsSayWhatWasExpected) {
  BucketDecoder decoder{BucketLayout()};
  Histogram h;
  rapidjson::Document d;
  d.Parse(R"({"bucket_runs":[0,3],"bucket_ios":[1,2]})");
  Status s = decoder.Decode(d, &h);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("bucket_runs"), std::string::npos) << s.message();
  d.Parse(R"({"latency":{"values":[1.23456],"counts":[1]}})");
  s = decoder.Decode(d, &h);
  EXPECT_NE(s.message().find("midpoint"), std::string::npos) << s.message();
  d.Parse(R"({"samples":1})");
  EXPECT_FALSE(decoder.Decode(d, &h).ok());
}

// One job's quantum as the record-form tests write it (direction: the caller's).
ScopeResult JobQuantumAt(int64_t start_ms) {
  ScopeResult r;
  r.start_ms = start_ms;
  r.end_ms = start_ms + 1000;
  r.kind = ScopeKind::kJob;
  r.host = "h";
  r.job = "j.1";
  return r;
}

// The record form reads back as written: spans on the time line, whole counts, columns.
TEST(BucketDecode, RecordFormRoundTrip) {
  RunInfo info;
  info.absolute = true;
  info.quantum_ms = 1000;
  DocumentBuilder b(info, RunMeta{"r", {}, {}}, 1000.0, BucketForm::kCompact);
  ScopeResult r = JobQuantumAt(1795305600000);
  r.direction = Direction::kWrite;
  PlacedRecord a, c;
  a.direction = c.direction = Direction::kWrite;
  a.span = {r.start_ms + 1, r.start_ms + 1001};
  a.counts = {{0, 3}, {1, 1}, {2, 7}, {300, 12345678901}, {1855, 1}};
  c.span = {r.start_ms + 999, r.start_ms + 7200000};  // a stall: hours long
  std::string doc;
  b.AppendRecords(r, {&a, &c}, &doc);
  rapidjson::Document d;
  d.Parse(doc.c_str());
  ASSERT_TRUE(d.IsObject()) << doc;
  EXPECT_TRUE(BucketDecoder::HasRecords(d));
  EXPECT_STREQ(d["records_end"].GetString(), "2026-11-22T02:00:00.000Z") << doc;
  BucketDecoder decoder{BucketLayout()};
  std::vector<PlacedRecord> back;
  ASSERT_TRUE(decoder.DecodeRecords(d, r.start_ms, Direction::kWrite, &back).ok());
  ASSERT_EQ(back.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const PlacedRecord& want = i == 0 ? a : c;
    EXPECT_EQ(back[i].direction, Direction::kWrite);
    EXPECT_EQ(back[i].span.start_ms, want.span.start_ms);
    EXPECT_EQ(back[i].span.end_ms, want.span.end_ms);
    EXPECT_EQ(back[i].counts, want.counts);
  }
  // A record form document is not read as a histogram.
  Histogram h;
  EXPECT_FALSE(decoder.Decode(d, &h).ok());
}

TEST(BucketDecode, BadRecordsSayWhatWasExpected) {
  BucketDecoder decoder{BucketLayout()};
  std::vector<PlacedRecord> out;
  rapidjson::Document d;
  for (const char* bad :
       {R"({"records":{}})", R"({"records":[{"span":[0,0],"runs":[],"ios":[]}]})",
        R"({"records":[{"span":[0,5],"runs":[0,2],"ios":[1]}]})",
        R"({"records":[{"span":[0,5],"runs":[1900,1],"ios":[1]}]})",
        R"({"records":[{"span":[0,5],"runs":[0,1],"ios":[0]}]})",
        R"({"records":[{"span":[0,5],"runs":[0,1],"ios":[1.5]}]})",
        R"({"records":[{"span":[0,5],"hist":3}]})", R"({"records":[{"span":[0,5],"hist":"0A"}]})",
        R"({"records":[{"span":[0,5],"hist":"10"}]})",
        R"({"records":[{"span":[0,5],"hist":"11."}]})",
        R"({"records":[{"span":[0,5],"hist":"11~2"}]})",
        R"({"records":[{"span":[0,5],"hist":"11~4"}]})",
        R"({"records":[{"span":[0,5],"hist":"1!"}]})",
        R"({"records":[{"span":[0,5],"hist":"1x~_zz1"}]})"}) {
    d.Parse(bad);
    const Status s = decoder.DecodeRecords(d, 0, Direction::kRead, &out);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find("expected"), std::string::npos) << bad << ": " << s.message();
  }
}

// The record form's text coding: first bucket, counts, '.' for one empty bucket, '~k' for k.
TEST(BucketDecode, HistCodeIsDenseAndExact) {
  const std::vector<std::pair<uint32_t, uint64_t>> counts = {
      {0, 3}, {1, 1}, {3, 31}, {5, 32}, {6, 1000}, {40, 1}, {1855, 12345678901}};
  char buf[256];
  char* end = PutHistCode(
      buf, counts.size(), [&](size_t i) { return counts[i].first; },
      [&](size_t i) { return counts[i].second; });
  const std::string text(buf, end);
  EXPECT_EQ(text, "031.v.B0_8~B11~BYmLPzYHBl") << text;
  std::vector<std::pair<uint32_t, uint64_t>> back;
  ASSERT_TRUE(DecodeHistCode(text, 1856, [&](int c, uint64_t n) {
                back.emplace_back(static_cast<uint32_t>(c), n);
              }).ok());
  EXPECT_EQ(back, counts);
  EXPECT_FALSE(DecodeHistCode(text, 1855, [](int, uint64_t) {}).ok());  // beyond the layout
  EXPECT_EQ(PutHistCode(
                buf, 0, [](size_t) { return 0u; }, [](size_t) { return 1u; }),
            buf);
  EXPECT_TRUE(DecodeHistCode("", 1856, [](int, uint64_t) { ADD_FAILURE(); }).ok());
}

// Runs pushed before bucket_version 2 (records as runs/ios arrays) read back as before.
TEST(BucketDecode, RecordsOfBucketVersionOneStillRead) {
  rapidjson::Document d;
  d.Parse(R"({"records":[{"span":[2,998],"runs":[563,1,29,2],"ios":[4,1,7]},)"
          R"({"span":[0,1000],"hist":"Rj1.2"}]})");
  ASSERT_TRUE(d.IsObject());
  BucketDecoder decoder{BucketLayout()};
  std::vector<PlacedRecord> back;
  ASSERT_TRUE(decoder.DecodeRecords(d, 1000, Direction::kRead, &back).ok());
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].span.start_ms, 1002);
  EXPECT_EQ(back[0].span.end_ms, 2000);
  using Counts = std::vector<std::pair<uint32_t, uint64_t>>;
  EXPECT_EQ(back[0].counts, (Counts{{563, 4}, {592, 1}, {593, 7}}));
  EXPECT_EQ(back[1].counts, (Counts{{563, 1}, {565, 2}}));
}

// bucket_version 3: a job document of every direction reads back as the per-direction
// documents did: each direction's records with its direction, in slot order whatever the
// members' order; a smallfile run's ops by their names; a name that is no slot is an error.
TEST(BucketDecode, RecordsByDirectionRoundTrip) {
  RunInfo info;
  info.absolute = true;
  info.quantum_ms = 1000;
  DocumentBuilder b(info, RunMeta{"r", {}, {}}, 1000.0, BucketForm::kCompact);
  ScopeResult r = JobQuantumAt(1795305600000);
  PlacedRecord rd, wr;
  rd.direction = Direction::kRead;
  rd.span = {r.start_ms + 1, r.start_ms + 501};
  rd.counts = {{0, 3}, {300, 12345678901}};
  wr.direction = Direction::kWrite;
  wr.span = {r.start_ms + 2, r.start_ms + 502};
  wr.counts = {{7, 1}};
  JobQuantumRecords parts;
  parts.present = {true, true, false};
  parts.samples = {12345678904.0, 1.0, 0.0};
  parts.end_ms[0] = b.AppendRecordList(r, {&rd}, &parts.records[0]);
  parts.end_ms[1] = b.AppendRecordList(r, {&wr}, &parts.records[1]);
  std::string doc;
  b.AppendJobRecords(r, parts, &doc);
  rapidjson::Document d;
  d.Parse(doc.c_str());
  ASSERT_TRUE(d.IsObject()) << doc;
  EXPECT_TRUE(BucketDecoder::HasRecords(d));
  EXPECT_TRUE(BucketDecoder::HasRecordsByDirection(d));
  BucketDecoder decoder{BucketLayout()};
  DirectionNames names;
  std::vector<PlacedRecord> back;
  ASSERT_TRUE(decoder.DecodeRecordsByDirection(d, r.start_ms, names, &back).ok());
  ASSERT_EQ(back.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const PlacedRecord& want = i == 0 ? rd : wr;
    EXPECT_EQ(back[i].direction, want.direction);
    EXPECT_EQ(back[i].span.start_ms, want.span.start_ms);
    EXPECT_EQ(back[i].span.end_ms, want.span.end_ms);
    EXPECT_EQ(back[i].counts, want.counts);
  }
  // Members in another order: still slot order.
  d.Parse(
      R"({"records":{"write":[{"span":[2,500],"hist":"7"}],"read":[{"span":[1,500],"hist":"3"}]}})");
  back.clear();
  ASSERT_TRUE(decoder.DecodeRecordsByDirection(d, 0, names, &back).ok());
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].direction, Direction::kRead);
  EXPECT_EQ(back[1].direction, Direction::kWrite);
  // A per-direction document is not of this shape, nor is one of this shape an array.
  d.Parse(R"({"records":[]})");
  EXPECT_FALSE(BucketDecoder::HasRecordsByDirection(d));
  // A smallfile run's ops.
  DirectionNames ops;
  ASSERT_TRUE(ops.AssignOps({"create", "append", "read"}));
  d.Parse(R"({"records":{"create":[{"span":[0,5],"hist":"1"}],"append":[]}})");
  back.clear();
  ASSERT_TRUE(decoder.DecodeRecordsByDirection(d, 0, ops, &back).ok());
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].direction, Direction::kTrim);
  for (const char* bad :
       {R"({"records":{"all":[]}})", R"({"records":{"stat":[]}})", R"({"records":{"read":{}}})",
        R"({"records":[]})", R"({"records":{"read":[{"span":[0,0],"hist":"1"}]}})"}) {
    d.Parse(bad);
    back.clear();
    const Status s = decoder.DecodeRecordsByDirection(d, 0, names, &back);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find("expected"), std::string::npos) << bad << ": " << s.message();
  }
}

}  // namespace
}  // namespace fiohist
