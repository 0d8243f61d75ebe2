#include "output/bucket_form_chooser.h"

#include <gtest/gtest.h>

#include "output/bucket_carry.h"
#include "output/documents.h"

namespace fiohist {
namespace {

// A job's quantum with fractional counts in several runs of buckets (and fio's clamped last
// one), two records, and labels named like the bucket fields (the chooser must find the
// bucket document's own fields, not these).
struct Fixture {
  Fixture() {
    info.absolute = true;
    info.percentiles = DefaultPercentiles();
    h.Add(300, 10.25);
    h.Add(301, 3.5);
    h.Add(302, 0.75);
    h.Add(310, 2.0004);
    h.Add(info.layout.top_column(), 1);
    r.start_ms = 1795306120000;
    r.end_ms = r.start_ms + 1000;
    r.kind = ScopeKind::kJob;
    r.host = "hostA";
    r.job = "job.1";
    r.direction = Direction::kRead;
    r.logs = 1;
    r.coverage = 0.75;
    r.histogram = &h;
    r.stats = ComputeStats(h, info.layout, info.percentiles.values);
    a.direction = Direction::kRead;
    a.span = {r.start_ms - 1, r.start_ms + 999};
    a.counts = {{300, 9}, {301, 4}, {310, 2}};
    b.direction = Direction::kRead;
    b.span = {r.start_ms + 999, r.start_ms + 1999};
    b.counts = {{300, 2}, {302, 1}, {static_cast<uint32_t>(info.layout.top_column()), 1}};
    records = {&a, &b};
    BucketCarry carry(5000);
    carry.Round(r, &ints);
  }
  RunInfo info;
  RunMeta meta{"run", {"t"}, {{"latency", "x"}, {"samples", "1,2"}, {"bucket_runs", "[1]"}}};
  Histogram h;
  ScopeResult r;
  PlacedRecord a, b;
  std::vector<const PlacedRecord*> records;
  IntegerBuckets ints;
};

std::string Chosen(bool histogram, std::string doc) {
  BucketFormChooser chooser(histogram);
  Status s = chooser.Choose(&doc);
  EXPECT_TRUE(s.ok()) << s.message();
  return doc;
}

TEST(BucketFormChooser, FileRecordDocumentBecomesWhatADirectPushWrites) {
  Fixture f;
  DocumentBuilder histogram(f.info, f.meta, 1000.0, BucketForm::kHistogram);
  DocumentBuilder compact(f.info, f.meta, 1000.0, BucketForm::kCompact);
  DocumentBuilder file(f.info, f.meta, 1000.0, BucketForm::kFile);
  std::string file_doc, record_doc;
  file.AppendRecords(f.r, f.records, &file_doc, &f.ints);
  compact.AppendRecords(f.r, f.records, &record_doc);
  ASSERT_NE(file_doc.find("\"records\""), std::string::npos);
  ASSERT_NE(file_doc.find("\"bucket_runs\""), std::string::npos);
  // A server with the `histogram` type: the histogram form, samples from the counts.
  EXPECT_EQ(Chosen(true, file_doc), histogram.Buckets(f.r, f.ints));
  // Without it: the record form, exact.
  EXPECT_EQ(Chosen(false, file_doc), record_doc);
}

TEST(BucketFormChooser, ScaledCompactDocumentBecomesTheHistogramForm) {
  Fixture f;
  f.r.kind = ScopeKind::kHost;  // host and cluster documents, live runs: scaled counts only
  f.r.job.clear();
  DocumentBuilder histogram(f.info, f.meta, 1000.0, BucketForm::kHistogram);
  DocumentBuilder file(f.info, f.meta, 1000.0, BucketForm::kFile);
  const std::string doc = file.Buckets(f.r, f.ints);
  EXPECT_EQ(Chosen(true, doc), histogram.Buckets(f.r, f.ints));
  EXPECT_EQ(Chosen(false, doc), doc);
  // Whole I/Os (no latency_scale) and an empty quantum alike.
  f.ints = IntegerBuckets();
  f.r.coverage = 1;
  EXPECT_EQ(Chosen(true, file.Buckets(f.r, f.ints)), histogram.Buckets(f.r, f.ints));
  std::string empty_file, empty_records;
  file.AppendRecords(f.r, {}, &empty_file, &f.ints);
  DocumentBuilder(f.info, f.meta, 1000.0, BucketForm::kCompact)
      .AppendRecords(f.r, {}, &empty_records);
  EXPECT_EQ(Chosen(false, empty_file), empty_records);
  EXPECT_EQ(Chosen(true, empty_file), histogram.Buckets(f.r, f.ints));
}

TEST(BucketFormChooser, OtherFormsPassUnchanged) {
  Fixture f;
  const std::string h = DocumentBuilder(f.info, f.meta).Buckets(f.r, f.ints);
  std::string records;
  DocumentBuilder(f.info, f.meta, 1000.0, BucketForm::kCompact)
      .AppendRecords(f.r, f.records, &records);
  for (bool histogram : {true, false}) {
    EXPECT_EQ(Chosen(histogram, h), h);
    EXPECT_EQ(Chosen(histogram, records), records);
  }
}

TEST(BucketFormChooser, BrokenCountsAreErrors) {
  Fixture f;
  const std::string doc =
      DocumentBuilder(f.info, f.meta, 1000.0, BucketForm::kFile).Buckets(f.r, f.ints);
  const size_t at = doc.find("\"bucket_runs\":[") + 15;
  std::string beyond = doc;
  beyond.insert(at, "99999,1,");
  beyond.insert(beyond.find("\"bucket_ios\":[") + 14, "1,");
  BucketFormChooser chooser(true);
  Status s = chooser.Choose(&beyond);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("outside the layout"), std::string::npos) << s.message();
  std::string fewer = doc;
  fewer.insert(fewer.find("\"bucket_ios\":[") + 14, "1,");
  s = chooser.Choose(&fewer);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("bucket_ios has"), std::string::npos) << s.message();
  std::string text = doc;
  text.insert(at, "x");
  EXPECT_FALSE(chooser.Choose(&text).ok());
}

}  // namespace
}  // namespace fiohist
