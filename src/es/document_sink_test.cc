#include "es/document_sink.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <map>
#include <set>

#include "output/bucket_form_chooser.h"
#include "output/stall_document.h"
#include "stats/collecting_sink.h"
#include "stats/pipeline.h"
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

// bucket_version 3 (merge_directions, the record form of a direct push): one bucket
// document per job and quantum in place of one per job, quantum and direction, holding
// exactly what those held (each direction's records and samples, coverage), the percentile
// documents unchanged, the count what was sent, the run document saying 3; jobs read log
// by log give the same documents. Files (kFile) keep one per direction.
TEST(DocumentSink, RecordFormMergesAJobsDirectionsOfAQuantum) {
  uint64_t counted = 0;
  const std::vector<BulkAction> per_direction = Push(BucketForm::kCompact);
  const std::vector<BulkAction> merged = Push(BucketForm::kCompact, 256, 1, true, &counted);
  // Per direction: (host, job, start) -> direction -> the document.
  std::map<std::string, std::map<std::string, rapidjson::Document>> want;
  size_t want_pctiles = 0;
  for (const BulkAction& a : per_direction) {
    if (!IsBuckets(a)) {
      want_pctiles += a.index.find("-pctiles") != std::string::npos;
      continue;
    }
    rapidjson::Document d;
    d.Parse(a.source.c_str());
    ASSERT_TRUE(d.IsObject());
    ASSERT_STREQ(d["scope"].GetString(), "job");
    want[std::string(d["host"].GetString()) + "/" + d["job"].GetString() + "/" +
         d["@timestamp"].GetString()][d["direction"][0].GetString()] = std::move(d);
  }
  size_t got_buckets = 0, got_pctiles = 0, without_records = 0, both = 0;
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
    const std::string key = std::string(d["host"].GetString()) + "/" + d["job"].GetString() + "/" +
                            d["@timestamp"].GetString();
    ASSERT_TRUE(want.count(key)) << key;
    const auto& dirs = want[key];
    ASSERT_TRUE(d["records"].IsObject()) << a.source;
    EXPECT_EQ(d["records"].MemberCount(), dirs.size()) << a.source;
    ASSERT_EQ(d["direction"].Size(), dirs.size() + 1) << a.source;
    EXPECT_STREQ(d["direction"][d["direction"].Size() - 1].GetString(), "all");
    double samples = 0;
    std::string records_end;
    rapidjson::SizeType i = 0;
    for (const auto& [dir, one] : dirs) {  // read before write: name order is slot order
      EXPECT_STREQ(d["direction"][i++].GetString(), dir.c_str());
      ASSERT_TRUE(d["records"].HasMember(dir.c_str())) << a.source;
      EXPECT_TRUE(d["records"][dir.c_str()] == one["records"]) << key << " " << dir;
      EXPECT_EQ(d["samples_by_direction"][dir.c_str()].GetDouble(), one["samples"].GetDouble());
      samples += one["samples"].GetDouble();
      records_end = std::max(records_end, std::string(one["records_end"].GetString()));
      EXPECT_EQ(d.HasMember("coverage"), one.HasMember("coverage"));
      if (one.HasMember("coverage")) {
        EXPECT_EQ(d["coverage"].GetDouble(), one["coverage"].GetDouble());
      }
      without_records += one["records"].Empty() && one["samples"].GetDouble() > 0;
    }
    both += dirs.size() > 1;
    EXPECT_DOUBLE_EQ(d["samples"].GetDouble(), samples);
    EXPECT_EQ(records_end, d["records_end"].GetString());
  }
  EXPECT_EQ(got_buckets, want.size());
  EXPECT_EQ(counted, got_buckets);
  EXPECT_GT(both, 50u);            // the sample jobs read and write
  EXPECT_GT(without_records, 0u);  // a direction with I/Os but no record starting there
  EXPECT_EQ(got_pctiles, want_pctiles);
  EXPECT_NE(merged.back().source.find("\"bucket_version\":3"), std::string::npos);
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

// Results handed in by hand: a job without `all` (--directions read,write) is closed by the
// next series' result, JobDone or End; only real directions with records are gathered; a
// direction with samples and no record keeps them.
TEST(DocumentSink, MergedDocumentClosesWithoutAll) {
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
  info.first_quantum_ms = 1795305600000;
  info.percentiles = DefaultPercentiles();
  ASSERT_TRUE(documents.Begin(info).ok());
  std::vector<PlacedRecord> records(1);
  records[0].direction = Direction::kRead;
  records[0].span = {info.first_quantum_ms + 10, info.first_quantum_ms + 510};
  records[0].counts = {{300, 4}};
  Histogram h;
  h.Add(300, 4);
  ScopeResult r;
  r.kind = ScopeKind::kJob;
  r.host = "h";
  r.job = "j";
  r.start_ms = info.first_quantum_ms;
  r.end_ms = r.start_ms + 1000;
  r.histogram = &h;
  r.records = &records;
  r.stats.samples = 4;
  auto buckets_sent = [&] { return std::count_if(actions.begin(), actions.end(), IsBuckets); };
  r.direction = Direction::kRead;
  ASSERT_TRUE(documents.Quantum(r).ok());
  r.direction = Direction::kWrite;  // I/Os of an earlier record, none starting here
  r.stats.samples = 1.5;
  ASSERT_TRUE(documents.Quantum(r).ok());
  EXPECT_EQ(buckets_sent(), 0);
  ScopeResult other = r;  // the next job
  other.job = "k";
  other.direction = Direction::kRead;
  other.stats.samples = 4;
  ASSERT_TRUE(documents.Quantum(other).ok());
  ASSERT_EQ(buckets_sent(), 1);
  rapidjson::Document d;
  const BulkAction* first = nullptr;
  for (const BulkAction& a : actions) {
    if (IsBuckets(a)) first = &a;
  }
  d.Parse(first->source.c_str());
  ASSERT_TRUE(d.IsObject()) << first->source;
  EXPECT_EQ(d["samples"].GetDouble(), 5.5);
  EXPECT_EQ(d["samples_by_direction"]["write"].GetDouble(), 1.5);
  EXPECT_EQ(d["records"]["write"].Size(), 0u);
  EXPECT_EQ(d["records"]["read"].Size(), 1u);
  ASSERT_TRUE(documents.JobDone("h", "k").ok());
  EXPECT_EQ(buckets_sent(), 2);
  EXPECT_EQ(documents.bucket_docs(), 2u);
  ASSERT_TRUE(documents.End(RunSummary()).ok());
  EXPECT_EQ(documents.bucket_docs(), 2u);
  EXPECT_NE(actions.back().source.find("\"bucket_version\":3"), std::string::npos);
}

}  // namespace
}  // namespace fiohist
