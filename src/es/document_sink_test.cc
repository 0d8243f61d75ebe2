#include "es/document_sink.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "output/bucket_decode.h"
#include "output/bucket_form_chooser.h"
#include "output/stall_document.h"
#include "stats/collecting_sink.h"
#include "stats/pipeline.h"
#include "stats/record_regrid.h"
#include "stats/resolution_sink.h"

namespace fiohist {
namespace {

const std::string kSamples = FIOHIST_SOURCE_DIR "/samples/epoch2";

// The actions of a push of the sample logs (4 jobs on 2 hosts, epoch stamps) in `form`.
// `merge`: BucketOptions::merge_directions; `bucket_docs`, if given, the sink's count.
std::vector<BulkAction> Push(BucketForm form, size_t spill_min_logs = 256, int job_resolution = 1,
                             bool merge = false, uint64_t* bucket_docs = nullptr) {
  PipelineOptions o;
  o.spill_min_logs = spill_min_logs;
  o.scopes = {true, true, true};
  o.keep_records = true;
  o.find_fio_json = false;
  EXPECT_TRUE(MakePercentiles({50, 99, 99.9}, &o.percentiles).ok());
  std::vector<BulkAction> actions;
  BucketOptions buckets;
  buckets.form = form;
  buckets.merge_directions = merge;
  DocumentSink documents(
      "fiohist", RunMeta{"r", {}, {}},
      [&](BulkAction a) {
        actions.push_back(std::move(a));
        return Status();
      },
      buckets);
  ResolutionSink sink(&documents, {5, 10, 100}, job_resolution);
  RunSummary summary;
  std::vector<std::string> logs;
  for (const char* name : {"1.log.hostX", "1.log.hostY", "2.log.hostX", "2.log.hostY"}) {
    logs.push_back(kSamples + "/epoch2_clat_hist." + name + ".gz");
  }
  Status s = RunPipeline(o, logs, &sink, &summary);
  EXPECT_TRUE(s.ok()) << s.message();
  if (bucket_docs != nullptr) *bucket_docs = documents.bucket_docs();
  return actions;
}

// `push --out` then `load` sends what a direct push sends, to either kind of server: every
// document byte for byte (real logs: the carry's order, records straddling quanta).
TEST(DocumentSink, FilesLoadAsADirectPushWrites) {
  const std::vector<BulkAction> file = Push(BucketForm::kFile);
  for (BucketForm direct : {BucketForm::kHistogram, BucketForm::kCompact}) {
    const std::vector<BulkAction> want = Push(direct);
    ASSERT_EQ(file.size(), want.size());
    BucketFormChooser chooser(direct == BucketForm::kHistogram);
    size_t buckets = 0;
    for (size_t i = 0; i < file.size(); ++i) {
      BulkAction got = file[i];
      ASSERT_EQ(got.index, want[i].index);
      ASSERT_EQ(got.id, want[i].id);
      if (got.index.find("-buckets") != std::string::npos) {
        ++buckets;
        Status s = chooser.Choose(&got.source);
        ASSERT_TRUE(s.ok()) << s.message();
      }
      ASSERT_EQ(got.source, want[i].source) << "action " << i;
    }
    EXPECT_GT(buckets, 100u);
    // Job documents are rewritten for either server; compact ones only for the histogram.
    EXPECT_EQ(chooser.rewritten(), buckets);
  }
}

// With many logs (spilled) the job scope comes log by log after the other scopes: the
// same documents, in another order, bucket counts included (each job's carry runs over its
// quanta in time order either way, and is dropped when the job is done).
TEST(DocumentSink, JobsByLogWriteTheSameDocuments) {
  for (BucketForm form : {BucketForm::kFile, BucketForm::kHistogram, BucketForm::kCompact}) {
    auto sorted = [](std::vector<BulkAction> actions) {
      std::vector<std::string> out;
      for (const BulkAction& a : actions) out.push_back(a.index + " " + a.id + " " + a.source);
      std::sort(out.begin(), out.end());
      return out;
    };
    const int job_resolution = form == BucketForm::kHistogram ? 5 : 1;
    const std::vector<BulkAction> in_step = Push(form, 256, job_resolution);
    const std::vector<BulkAction> by_log = Push(form, 1, job_resolution);
    EXPECT_GT(in_step.size(), 200u);
    EXPECT_EQ(sorted(by_log), sorted(in_step)) << static_cast<int>(form);
    // Not the same order: the pipeline did take the job scope log by log.
    std::vector<std::string> a, b;
    for (const BulkAction& x : in_step) a.push_back(x.id);
    for (const BulkAction& x : by_log) b.push_back(x.id);
    EXPECT_NE(a, b);
  }
}

// One percentile document per scope, host, job, resolution and window (pctiles_version 2),
// holding every direction the pipeline and ResolutionSink computed for it: as many documents
// as windows, as many direction objects as results, no id twice (a document written twice
// would lose the directions of the first), whether the job scope comes in step or log by log.
TEST(DocumentSink, OnePercentileDocumentPerWindowHoldsEveryDirection) {
  // The results themselves, behind the same ResolutionSink.
  PipelineOptions o;
  o.scopes = {true, true, true};
  o.find_fio_json = false;
  EXPECT_TRUE(MakePercentiles({50, 99, 99.9}, &o.percentiles).ok());
  CollectingSink results;
  ResolutionSink resolutions(&results, {5, 10, 100}, 5);
  RunSummary summary;
  std::vector<std::string> logs;
  for (const char* name : {"1.log.hostX", "1.log.hostY", "2.log.hostX", "2.log.hostY"}) {
    logs.push_back(kSamples + "/epoch2_clat_hist." + name + ".gz");
  }
  ASSERT_TRUE(RunPipeline(o, logs, &resolutions, &summary).ok());
  std::set<std::string> windows;
  size_t directions = 0;
  for (const ScopeResult& r : results.quanta) {
    if (r.kind == ScopeKind::kJob && r.resolution < 5) continue;  // bucket documents only
    windows.insert(std::to_string(static_cast<int>(r.kind)) + r.host + "/" + r.job + "/" +
                   std::to_string(r.resolution) + "/" + std::to_string(r.start_ms));
    ++directions;
  }
  ASSERT_GT(directions, 2 * windows.size());  // read, write and all
  for (size_t spill : {size_t{256}, size_t{1}}) {
    std::set<std::string> ids;
    size_t docs = 0, objects = 0;
    for (const BulkAction& a : Push(BucketForm::kCompact, spill, 5)) {
      if (a.index.find("-pctiles") == std::string::npos) continue;
      ++docs;
      EXPECT_TRUE(ids.insert(a.id).second) << "id " << a.id << " twice";
      rapidjson::Document d;
      d.Parse(a.source.c_str());
      ASSERT_TRUE(d.IsObject()) << a.source;
      EXPECT_EQ(d["pctiles_version"].GetInt(), kPctilesVersion);
      EXPECT_FALSE(d.HasMember("direction")) << a.source;
      for (const auto& name : d["directions"].GetArray()) {
        ASSERT_TRUE(d.HasMember(name) && d[name].IsObject() && d[name].HasMember("samples"))
            << a.source;
        ++objects;
      }
    }
    EXPECT_EQ(docs, windows.size()) << "spill " << spill;
    EXPECT_EQ(objects, directions) << "spill " << spill;
  }
}

// Job percentiles from the run's job resolution on: no job quantum's percentile document,
// every bucket document still there, and the job's finest windows drawn from interval 0
// (the dashboards' job drill-down reads what exists); other scopes as before.
TEST(DocumentSink, JobPercentilesStartAtTheJobResolution) {
  const std::vector<BulkAction> all = Push(BucketForm::kHistogram);
  const std::vector<BulkAction> coarse = Push(BucketForm::kHistogram, 256, 5);
  auto count = [](const std::vector<BulkAction>& actions, const char* index, const char* text) {
    return std::count_if(actions.begin(), actions.end(), [&](const BulkAction& a) {
      return a.index.find(index) != std::string::npos && a.source.find(text) != std::string::npos;
    });
  };
  const char* kJobQuantum = "\"scope\":\"job\"";
  EXPECT_EQ(count(coarse, "-buckets", ""), count(all, "-buckets", ""));
  EXPECT_GT(count(coarse, "-buckets", ""), 100);
  for (const std::vector<BulkAction>* actions : {&all, &coarse}) {
    for (const BulkAction& a : *actions) {
      if (a.index.find("-pctiles") == std::string::npos) continue;
      const bool job = a.source.find(kJobQuantum) != std::string::npos;
      if (actions == &coarse && job) {
        EXPECT_EQ(a.source.find("\"resolution\":1,"), std::string::npos) << a.source;
        if (a.source.find("\"resolution\":5,") != std::string::npos) {
          EXPECT_NE(a.source.find("\"zoom_gt_ms\":0,\"zoom_le_ms\":5000,"), std::string::npos)
              << a.source;
        }
      } else if (a.source.find("\"resolution\":5,") != std::string::npos) {
        EXPECT_NE(a.source.find("\"zoom_gt_ms\":1000,\"zoom_le_ms\":5000,"), std::string::npos)
            << a.source;
      }
    }
  }
  EXPECT_GT(count(all, "-pctiles", "\"resolution\":1,"),
            count(coarse, "-pctiles", "\"resolution\":1,"));
  EXPECT_GT(count(coarse, "-pctiles", "\"zoom_gt_ms\":0,\"zoom_le_ms\":5000,"), 10);
  EXPECT_NE(coarse.back().source.find("\"job_resolution\":5"), std::string::npos);
}

// The pipeline computes only the samples of job quanta for a sink that does not read more
// (ResultSink::reads_job_quantum_stats): here, where job percentiles start above 1.
TEST(DocumentSink, ReadsJobQuantumStatsOnlyWhereItWritesTheirPercentiles) {
  DocumentSink documents("fiohist", RunMeta{"r", {}, {}}, [](BulkAction) { return Status(); });
  EXPECT_TRUE(documents.reads_job_quantum_stats());  // not yet known: the safe answer
  RunInfo info;
  info.resolutions = {1, 10};
  info.job_resolution = 1;
  ASSERT_TRUE(documents.Begin(info).ok());
  EXPECT_TRUE(documents.reads_job_quantum_stats());
  info.job_resolution = 10;
  ASSERT_TRUE(documents.Begin(info).ok());
  EXPECT_FALSE(documents.reads_job_quantum_stats());
}

}  // namespace
}  // namespace fiohist

namespace fiohist {
namespace {

// The recorded fsfreeze run (tests/data/stalls/stall): one stall document per stall of the
// summary (its host's and the cluster's), into the stalls index of the run's month, before
// the run document, which keeps its `stalls` summary; pushed twice, the same ids.
TEST(DocumentSink, WritesAStallDocumentPerStall) {
  const std::string dir = FIOHIST_TEST_DATA "/stalls/stall/";
  auto push = [&](RunSummary* summary) {
    PipelineOptions o;
    o.scopes = {true, true, false};
    o.find_fio_json = false;
    std::vector<BulkAction> actions;
    DocumentSink documents("fiohist", RunMeta{"frozen", {}, {}}, [&](BulkAction a) {
      actions.push_back(std::move(a));
      return Status();
    });
    Status s = RunPipeline(o, {dir + "stall_clat_hist.1.log.gz", dir + "stall_clat_hist.2.log.gz"},
                           &documents, summary);
    EXPECT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(documents.stall_docs(), summary->stalls.size());
    return actions;
  };
  RunSummary summary;
  const std::vector<BulkAction> actions = push(&summary);
  ASSERT_EQ(summary.stalls.size(), 2u);  // host localhost, cluster
  std::vector<BulkAction> stalls;
  for (const BulkAction& a : actions) {
    if (a.index.find("-stalls-") != std::string::npos) stalls.push_back(a);
  }
  ASSERT_EQ(stalls.size(), 2u);
  EXPECT_EQ(stalls[0].index, "fiohist-stalls-2026.11");
  EXPECT_EQ(actions.back().index, "fiohist-runs-2026.11");
  EXPECT_NE(actions.back().source.find("\"stalls\":[{"), std::string::npos);
  for (size_t i = 0; i < stalls.size(); ++i) {
    EXPECT_EQ(stalls[i].id, StallId("frozen", summary.stalls[i]));
    EXPECT_NE(stalls[i].source.find("\"text\":\"stall 3.1 s: 2 I/Os stuck, slowest 3.09 s\""),
              std::string::npos)
        << stalls[i].source;
  }
  RunSummary again;
  const std::vector<BulkAction> twice = push(&again);
  std::vector<std::string> ids;
  for (const BulkAction& a : twice) {
    if (a.index.find("-stalls-") != std::string::npos) ids.push_back(a.id);
  }
  EXPECT_EQ(ids, (std::vector<std::string>{stalls[0].id, stalls[1].id}));
}

}  // namespace
}  // namespace fiohist

namespace fiohist {
namespace {

bool IsBuckets(const BulkAction& a) { return a.index.find("-buckets") != std::string::npos; }

// Milliseconds since the epoch of a document's ISO @timestamp ("2026-11-22T10:00:01.000Z").
int64_t IsoMs(const std::string& t) {
  std::tm tm{};
  int ms = 0;
  EXPECT_EQ(std::sscanf(t.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                        &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms),
            7)
      << t;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm)) * 1000 + ms;
}

// The record form of a direct push (bucket_version 4): one document per job and window of
// 10 quanta on the grid of the 10x resolution (clipped to the run), each quantum holding what
// the per-direction documents of the quantum held (records, samples, coverage).
TEST(DocumentSink, RecordFormGathersAJobsWindowOfQuanta) {
  uint64_t counted = 0;
  const std::vector<BulkAction> per_direction = Push(BucketForm::kCompact);
  const std::vector<BulkAction> merged = Push(BucketForm::kCompact, 256, 1, true, &counted);
  // Per direction: (host, job, start) -> direction -> the document.
  std::map<std::tuple<std::string, std::string, int64_t>,
           std::map<std::string, rapidjson::Document>>
      want;
  size_t want_pctiles = 0;
  int64_t run_start = INT64_MAX, run_end = 0;
  for (const BulkAction& a : per_direction) {
    if (!IsBuckets(a)) {
      want_pctiles += a.index.find("-pctiles") != std::string::npos;
      continue;
    }
    rapidjson::Document d;
    d.Parse(a.source.c_str());
    ASSERT_TRUE(d.IsObject());
    ASSERT_STREQ(d["scope"].GetString(), "job");
    const int64_t t = IsoMs(d["@timestamp"].GetString());
    run_start = std::min(run_start, t);
    run_end = std::max(run_end, t + 1000);
    want[{d["host"].GetString(), d["job"].GetString(), t}][d["direction"][0].GetString()] =
        std::move(d);
  }
  size_t got_buckets = 0, got_pctiles = 0, got_quanta = 0, without_records = 0, both = 0;
  size_t clipped_start = 0, clipped_end = 0, with_coverage = 0;
  std::set<std::string> ids;
  for (const BulkAction& a : merged) {
    if (!IsBuckets(a)) {
      got_pctiles += a.index.find("-pctiles") != std::string::npos;
      continue;
    }
    ++got_buckets;
    EXPECT_TRUE(ids.insert(a.id).second) << a.id;
    rapidjson::Document d;
    d.Parse(a.source.c_str());
    ASSERT_TRUE(d.IsObject()) << a.source;
    const int64_t window = IsoMs(d["@timestamp"].GetString());
    // On the 10-quantum grid from the quanta's origin, or the run's start.
    const int64_t origin = run_start % 1000;
    EXPECT_TRUE((window - origin) % 10000 == 0 || window == run_start) << a.source;
    clipped_start += (window - origin) % 10000 != 0;
    ASSERT_TRUE(d["quanta"].IsArray()) << a.source;
    ASSERT_FALSE(d["quanta"].Empty());
    EXPECT_FALSE(d.HasMember("records"));
    double samples = 0;
    std::string records_end;
    std::set<std::string> directions;
    int64_t last = -1;
    for (const auto& q : d["quanta"].GetArray()) {
      ++got_quanta;
      const int64_t offset = q["offset_ms"].GetInt64();
      EXPECT_GT(offset, last);
      last = offset;
      const int64_t t = window + offset;
      EXPECT_LT(t, ((window - origin) / 10000 + 1) * 10000 + origin) << "inside the window";
      clipped_end += t + 1000 == run_end && offset < 9000;
      const auto key =
          std::make_tuple(std::string(d["host"].GetString()), std::string(d["job"].GetString()), t);
      ASSERT_TRUE(want.count(key)) << t;
      const auto& dirs = want[key];
      ASSERT_TRUE(q["records"].IsObject());
      EXPECT_EQ(q["records"].MemberCount(), dirs.size());
      double quantum_samples = 0;
      for (const auto& [dir, one] : dirs) {
        directions.insert(dir);
        ASSERT_TRUE(q["records"].HasMember(dir.c_str()));
        EXPECT_TRUE(q["records"][dir.c_str()] == one["records"]) << t << " " << dir;
        EXPECT_EQ(q["samples_by_direction"][dir.c_str()].GetDouble(), one["samples"].GetDouble());
        quantum_samples += one["samples"].GetDouble();
        records_end = std::max(records_end, std::string(one["records_end"].GetString()));
        EXPECT_EQ(q.HasMember("coverage"), one.HasMember("coverage"));
        if (one.HasMember("coverage")) {
          EXPECT_EQ(q["coverage"].GetDouble(), one["coverage"].GetDouble());
          ++with_coverage;
        }
        without_records += one["records"].Empty() && one["samples"].GetDouble() > 0;
      }
      EXPECT_DOUBLE_EQ(q["samples"].GetDouble(), quantum_samples);
      samples += quantum_samples;
      both += dirs.size() > 1;
    }
    ASSERT_EQ(d["direction"].Size(), directions.size() + 1) << a.source;
    EXPECT_STREQ(d["direction"][d["direction"].Size() - 1].GetString(), "all");
    EXPECT_NEAR(d["samples"].GetDouble(), samples, 1e-9 * samples);
    EXPECT_EQ(records_end, d["records_end"].GetString());
  }
  EXPECT_EQ(got_quanta, want.size());
  EXPECT_LT(got_buckets * 5, want.size());  // ~10 quanta a document
  EXPECT_EQ(counted, got_buckets);
  EXPECT_GT(both, 50u);            // the sample jobs read and write
  EXPECT_GT(without_records, 0u);  // a direction with I/Os but no record starting there
  EXPECT_GT(with_coverage, 0u);
  EXPECT_GT(clipped_start + clipped_end, 0u);
  EXPECT_EQ(got_pctiles, want_pctiles);
  EXPECT_NE(merged.back().source.find("\"bucket_version\":4"), std::string::npos);
  EXPECT_NE(per_direction.back().source.find("\"bucket_version\":2"), std::string::npos);
  // Jobs read log by log: the same documents.
  auto sorted = [](const std::vector<BulkAction>& actions) {
    std::vector<std::string> out;
    for (const BulkAction& a : actions) out.push_back(a.index + " " + a.id + " " + a.source);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(sorted(Push(BucketForm::kCompact, 1, 1, true)), sorted(merged));
  // Files and the histogram form stay per direction (and say 2).
  for (BucketForm form : {BucketForm::kFile, BucketForm::kHistogram}) {
    const std::vector<BulkAction> kept = Push(form, 256, 1, true);
    EXPECT_EQ(sorted(kept), sorted(Push(form))) << static_cast<int>(form);
  }
}

// The records of a run's stored quanta, placed on the grid again (RecordRegrid) from
// per-direction documents (bucket_version 2) or from window documents (4) read as
// BucketReader reads them: the same quanta, bit for bit, over the whole run and over a time
// window that starts and ends inside document windows.
TEST(DocumentSink, WindowDocumentsReadBackAsTheirQuanta) {
  const std::vector<BulkAction> per_direction = Push(BucketForm::kCompact);
  const std::vector<BulkAction> windows = Push(BucketForm::kCompact, 256, 1, true);
  const BucketDecoder decoder{BucketLayout()};
  const DirectionNames names;
  struct Doc {
    int64_t t;
    std::string host, job, dir;
    std::shared_ptr<rapidjson::Document> d;
  };
  auto docs_of = [&](const std::vector<BulkAction>& actions) {
    std::vector<Doc> out;
    for (const BulkAction& a : actions) {
      if (!IsBuckets(a)) continue;
      auto d = std::make_shared<rapidjson::Document>();
      d->Parse(a.source.c_str());
      const std::string dir = (*d)["direction"][0].GetString();
      out.push_back(Doc{IsoMs((*d)["@timestamp"].GetString()), (*d)["host"].GetString(),
                        (*d)["job"].GetString(), dir, d});
    }
    // The server's order, and BucketReader's within a time: host, job, direction.
    std::sort(out.begin(), out.end(), [](const Doc& a, const Doc& b) {
      return std::tie(a.t, a.host, a.job, a.dir) < std::tie(b.t, b.host, b.job, b.dir);
    });
    return out;
  };
  const std::vector<Doc> v2 = docs_of(per_direction), v4 = docs_of(windows);
  ASSERT_FALSE(v2.empty());
  const int64_t run_start = v2.front().t;
  using Quanta = std::vector<std::string>;
  auto emit = [](Quanta* out) {
    return [out](const StoredQuantum& q) {
      std::string line = std::to_string(q.start_ms) + " " + q.host + " " + q.job + " " +
                         std::to_string(static_cast<int>(q.direction)) + " " +
                         std::to_string(q.coverage);
      q.histogram.ForEachNonZero([&](int c, double n) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " %d:%a", c, n);
        line += buf;
      });
      out->push_back(line);
      return Status();
    };
  };
  // [from, to): the whole run, then from the 3rd quantum (inside the first window) to the
  // 13th's end (inside the second).
  for (const auto& [from, to] : std::vector<std::pair<int64_t, int64_t>>{
           {INT64_MIN, INT64_MAX}, {run_start + 3000, run_start + 13000}}) {
    Quanta want, got;
    RecordRegrid a(QuantumGrid(run_start, 1000), from, to),
        b(QuantumGrid(run_start, 1000), from, to);
    for (const Doc& doc : v2) {
      if (doc.t >= to) continue;
      std::vector<PlacedRecord> records;
      Direction d = Direction::kAll;
      ASSERT_TRUE(names.Find(doc.dir, &d));
      ASSERT_TRUE(decoder.DecodeRecords(*doc.d, doc.t, d, &records).ok());
      int64_t end = doc.t;
      for (const PlacedRecord& r : records) end = std::max(end, r.span.end_ms);
      if (doc.t < from && end <= from) continue;  // the server's records_end > from
      ASSERT_TRUE(a.FlushBefore(doc.t, doc.host, doc.job, emit(&want)).ok());
      for (const PlacedRecord& r : records) a.Add(doc.host, doc.job, r);
    }
    ASSERT_TRUE(a.Finish(emit(&want)).ok());
    // Window documents: their quanta in time, host and job order (BucketReader's parts).
    struct Part {
      int64_t t;
      const Doc* doc;
      const rapidjson::Value* q;
    };
    std::vector<Part> parts;
    for (const Doc& doc : v4) {
      if (doc.t >= to) continue;
      if (from != INT64_MIN) {
        EXPECT_TRUE((*doc.d)["records_end"].IsString());
        if (doc.t < from && IsoMs((*doc.d)["records_end"].GetString()) <= from) continue;
      }
      std::vector<std::pair<int64_t, const rapidjson::Value*>> quanta;
      ASSERT_TRUE(BucketDecoder::WindowQuanta(*doc.d, doc.t, &quanta).ok());
      for (const auto& [t, q] : quanta) {
        if (t < to) parts.push_back(Part{t, &doc, q});
      }
    }
    std::stable_sort(parts.begin(), parts.end(),
                     [](const Part& x, const Part& y) { return x.t < y.t; });
    for (const Part& p : parts) {
      std::vector<PlacedRecord> records;
      ASSERT_TRUE(decoder.DecodeRecordsByDirection(*p.q, p.t, names, &records).ok());
      int64_t end = p.t;
      for (const PlacedRecord& r : records) end = std::max(end, r.span.end_ms);
      if (p.t < from && end <= from) continue;
      ASSERT_TRUE(b.FlushBefore(p.t, p.doc->host, p.doc->job, emit(&got)).ok());
      for (const PlacedRecord& r : records) b.Add(p.doc->host, p.doc->job, r);
    }
    ASSERT_TRUE(b.Finish(emit(&got)).ok());
    EXPECT_FALSE(want.empty());
    EXPECT_EQ(got, want) << "from " << from;
  }
}

// Results handed in by hand: a window of a job is closed by the job's next window, a cluster
// result past it, JobDone or End; only real directions with records are gathered; a
// direction with samples and no record keeps them; a quantum without a result is left out;
// the run's first window is clipped to its start.
TEST(DocumentSink, WindowDocumentClosesAsItsJobMovesOn) {
  std::vector<BulkAction> actions;
  BucketOptions buckets;
  buckets.form = BucketForm::kCompact;
  buckets.merge_directions = true;
  DocumentSink documents(
      "fiohist", RunMeta{"r", {}, {}},
      [&](BulkAction a) {
        actions.push_back(std::move(a));
        return Status();
      },
      buckets);
  RunInfo info;
  info.absolute = true;
  info.quantum_ms = 1000;
  info.first_quantum_ms = 1795305607000;  // 3 quanta before a window of the 10 s grid ends
  info.percentiles = DefaultPercentiles();
  ASSERT_TRUE(documents.Begin(info).ok());
  const int64_t t0 = info.first_quantum_ms;
  std::vector<PlacedRecord> records(1);
  records[0].direction = Direction::kRead;
  records[0].span = {t0 + 10, t0 + 510};
  records[0].counts = {{300, 4}};
  std::vector<PlacedRecord> none;
  Histogram h;
  h.Add(300, 4);
  ScopeResult r;
  r.kind = ScopeKind::kJob;
  r.host = "h";
  r.job = "j";
  r.start_ms = t0;
  r.end_ms = r.start_ms + 1000;
  r.histogram = &h;
  r.records = &records;
  r.stats.samples = 4;
  auto buckets_sent = [&] { return std::count_if(actions.begin(), actions.end(), IsBuckets); };
  r.direction = Direction::kRead;
  ASSERT_TRUE(documents.Quantum(r).ok());
  r.direction = Direction::kWrite;  // I/Os of an earlier record, none starting here
  r.stats.samples = 1.5;
  r.records = &none;
  ASSERT_TRUE(documents.Quantum(r).ok());
  ScopeResult other = r;  // the next job, in the same quantum
  other.job = "k";
  other.direction = Direction::kRead;
  other.stats.samples = 4;
  ASSERT_TRUE(documents.Quantum(other).ok());
  // Job j skips t0 + 1 s; its t0 + 2 s has a write of its own.
  r.start_ms = t0 + 2000;
  r.end_ms = r.start_ms + 1000;
  r.coverage = 0.5;
  std::vector<PlacedRecord> late(1);
  late[0].direction = Direction::kWrite;
  late[0].span = {t0 + 2100, t0 + 2900};
  late[0].counts = {{310, 2}};
  r.records = &late;
  r.stats.samples = 2;
  ASSERT_TRUE(documents.Quantum(r).ok());
  EXPECT_EQ(buckets_sent(), 0);
  // A cluster result of the next window: both jobs' windows are complete.
  ScopeResult cluster;
  cluster.kind = ScopeKind::kCluster;
  cluster.direction = Direction::kRead;
  cluster.start_ms = t0 + 3000;
  cluster.end_ms = cluster.start_ms + 1000;
  cluster.histogram = &h;
  ASSERT_TRUE(documents.Quantum(cluster).ok());
  ASSERT_EQ(buckets_sent(), 2);
  const BulkAction* first = nullptr;
  for (const BulkAction& a : actions) {
    if (IsBuckets(a) && first == nullptr) first = &a;
  }
  rapidjson::Document d;
  d.Parse(first->source.c_str());
  ASSERT_TRUE(d.IsObject()) << first->source;
  EXPECT_EQ(IsoMs(d["@timestamp"].GetString()), t0) << "clipped to the run's start";
  EXPECT_EQ(d["samples"].GetDouble(), 7.5);
  EXPECT_EQ(IsoMs(d["records_end"].GetString()), t0 + 2900);
  ASSERT_EQ(d["quanta"].Size(), 2u) << first->source;
  const auto& q0 = d["quanta"][0];
  EXPECT_EQ(q0["offset_ms"].GetInt64(), 0);
  EXPECT_EQ(q0["samples"].GetDouble(), 5.5);
  EXPECT_EQ(q0["samples_by_direction"]["write"].GetDouble(), 1.5);
  EXPECT_EQ(q0["records"]["write"].Size(), 0u);
  EXPECT_EQ(q0["records"]["read"].Size(), 1u);
  EXPECT_FALSE(q0.HasMember("coverage"));
  const auto& q2 = d["quanta"][1];
  EXPECT_EQ(q2["offset_ms"].GetInt64(), 2000);
  EXPECT_EQ(q2["coverage"].GetDouble(), 0.5);
  EXPECT_FALSE(q2["records"].HasMember("read"));
  // Read back: the quanta's records where their spans are.
  const BucketDecoder decoder{BucketLayout()};
  std::vector<std::pair<int64_t, const rapidjson::Value*>> quanta;
  ASSERT_TRUE(BucketDecoder::WindowQuanta(d, t0, &quanta).ok());
  ASSERT_EQ(quanta.size(), 2u);
  EXPECT_EQ(quanta[1].first, t0 + 2000);
  std::vector<PlacedRecord> back;
  for (const auto& [t, q] : quanta) {
    ASSERT_TRUE(decoder.DecodeRecordsByDirection(*q, t, DirectionNames(), &back).ok());
  }
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].span.start_ms, records[0].span.start_ms);
  EXPECT_EQ(back[0].span.end_ms, records[0].span.end_ms);
  EXPECT_EQ(back[0].counts, records[0].counts);
  EXPECT_EQ(back[1].direction, Direction::kWrite);
  EXPECT_EQ(back[1].span.start_ms, late[0].span.start_ms);
  EXPECT_EQ(back[1].counts, late[0].counts);
  // A window of its own at t0 + 3 s for job j, closed by its next window; job k's by JobDone.
  r.start_ms = t0 + 3000;
  r.end_ms = r.start_ms + 1000;
  r.records = &late;
  ASSERT_TRUE(documents.Quantum(r).ok());
  other.start_ms = t0 + 3000;
  other.end_ms = other.start_ms + 1000;
  ASSERT_TRUE(documents.Quantum(other).ok());
  r.start_ms = t0 + 13000;
  r.end_ms = r.start_ms + 1000;
  ASSERT_TRUE(documents.Quantum(r).ok());
  EXPECT_EQ(buckets_sent(), 3);
  ASSERT_TRUE(documents.JobDone("h", "k").ok());
  EXPECT_EQ(buckets_sent(), 4);
  ASSERT_TRUE(documents.End(RunSummary()).ok());
  EXPECT_EQ(documents.bucket_docs(), 5u);
  std::set<std::string> ids;
  for (const BulkAction& a : actions) {
    if (IsBuckets(a)) {
      EXPECT_TRUE(ids.insert(a.id).second);
    }
  }
  EXPECT_NE(actions.back().source.find("\"bucket_version\":4"), std::string::npos);
}

}  // namespace
}  // namespace fiohist
