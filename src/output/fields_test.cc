#include "output/fields.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>

#include "output/csv_sink.h"
#include "output/documents.h"
#include "output/run_document.h"
#include "output/stall_document.h"
#include "stats/pipeline.h"

namespace fiohist {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The `properties` of a mappings/ template, name -> type ("object" where none is given).
std::map<std::string, std::string> MappedFields(const std::string& file) {
  rapidjson::Document d;
  d.Parse(ReadText(std::string(FIOHIST_SOURCE_DIR) + "/mappings/" + file).c_str());
  EXPECT_TRUE(d.IsObject()) << file;
  std::map<std::string, std::string> out;
  if (!d.IsObject()) return out;
  for (const auto& m : d["template"]["mappings"]["properties"].GetObject()) {
    out[m.name.GetString()] = m.value.HasMember("type") ? m.value["type"].GetString() : "object";
  }
  return out;
}

// The directions' objects of percentile documents (pctiles_version 2) in the pctiles
// template: each one's `properties`, name -> type.
std::map<std::string, std::map<std::string, std::string>> MappedDirectionFields() {
  rapidjson::Document d;
  d.Parse(ReadText(std::string(FIOHIST_SOURCE_DIR) + "/mappings/fiohist-pctiles.json").c_str());
  std::map<std::string, std::map<std::string, std::string>> out;
  if (!d.IsObject()) return out;
  for (const char* direction : {"read", "write", "trim", "all"}) {
    const auto& props = d["template"]["mappings"]["properties"];
    if (!props.HasMember(direction) || !props[direction].HasMember("properties")) continue;
    for (const auto& m : props[direction]["properties"].GetObject()) {
      out[direction][m.name.GetString()] = m.value["type"].GetString();
    }
  }
  return out;
}

// The names of the directions' objects, not fields of the top level.
bool IsDirectionObject(const std::string& name) {
  return name == "read" || name == "write" || name == "trim" || name == "all";
}

// p<digits>[_<digits>], like the percentiles' dynamic template (no std::regex: GCC 12's
// -Wmaybe-uninitialized trips over it in the sanitizer build).
bool IsPercentileName(const std::string& name) {
  if (name.size() < 2 || name[0] != 'p') return false;
  size_t i = 1;
  auto digits = [&] {
    const size_t from = i;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
    return i > from;
  };
  if (!digits()) return false;
  if (i == name.size()) return true;
  if (name[i++] != '_') return false;
  return digits() && i == name.size();
}

// A percentile's confidence bound: <percentile>_low or <percentile>_high.
bool IsBoundOfPercentile(const std::string& name) {
  for (const char* suffix : {kLowSuffix, kHighSuffix}) {
    const size_t n = std::strlen(suffix);
    if (name.size() > n && name.compare(name.size() - n, n, suffix) == 0 &&
        IsPercentileName(name.substr(0, name.size() - n))) {
      return true;
    }
  }
  return false;
}

// <read|write|trim>_<samples|iops|min|mean|max|percentile>: the run document's per-direction
// statistics.
bool IsDirectionStat(const std::string& key) {
  for (const char* d : {"read_", "write_", "trim_"}) {
    const size_t n = std::strlen(d);
    if (key.compare(0, n, d) != 0) continue;
    const std::string stat = key.substr(n);
    for (const char* s : {"samples", "iops", "min", "mean", "max"}) {
      if (stat == s) return true;
    }
    return IsPercentileName(stat) || IsBoundOfPercentile(stat);
  }
  return false;
}

// The table's fields at `place`, name -> mapping type. A percentile row stands for the
// default percentiles (mapped explicitly; a dynamic template maps any other).
std::map<std::string, std::string> TableFields(const std::vector<Field>& table, unsigned place) {
  std::map<std::string, std::string> out;
  for (const Field& f : table) {
    if (!(f.places & place)) continue;
    if (f.bounds) {
      for (const std::string& name : DefaultPercentiles().field_names) {
        out[name + kLowSuffix] = FieldTypeName(f.type);
        out[name + kHighSuffix] = FieldTypeName(f.type);
      }
      continue;
    }
    if (!f.percentiles) {
      out[f.name] = FieldTypeName(f.type);
      continue;
    }
    for (const std::string& name : DefaultPercentiles().field_names) {
      out[name] = FieldTypeName(f.type);
    }
  }
  return out;
}

void ExpectSameFields(const std::map<std::string, std::string>& table,
                      const std::map<std::string, std::string>& mapping, const std::string& file,
                      const std::map<std::string, std::string>& type_exceptions = {}) {
  for (const auto& [name, type] : table) {
    auto it = mapping.find(name);
    if (it == mapping.end()) {
      ADD_FAILURE() << "field '" << name << "' (fields.cc) has no mapping in " << file;
      continue;
    }
    auto exception = type_exceptions.find(name);
    EXPECT_EQ(it->second, exception != type_exceptions.end() ? exception->second : type)
        << "type of '" << name << "' in " << file;
  }
  for (const auto& [name, type] : mapping) {
    EXPECT_TRUE(table.count(name))
        << "mapping of '" << name << "' in " << file << " has no field in fields.cc";
  }
}

TEST(Fields, TableMatchesTheIndexTemplates) {
  std::map<std::string, std::string> pctiles = MappedFields("fiohist-pctiles.json");
  for (auto it = pctiles.begin(); it != pctiles.end();) {
    it = IsDirectionObject(it->first) ? pctiles.erase(it) : std::next(it);
  }
  ExpectSameFields(TableFields(ResultFields(), kInPctiles), pctiles, "fiohist-pctiles.json");
  // pctiles_version 2: each direction's object maps the fields that depend on the direction.
  const auto directions = MappedDirectionFields();
  EXPECT_EQ(directions.size(), 4u);
  for (const auto& [direction, fields] : directions) {
    ExpectSameFields(TableFields(ResultFields(), kPerDirection), fields,
                     "fiohist-pctiles.json (" + direction + ")");
  }
  ExpectSameFields(TableFields(ResultFields(), kInBuckets), MappedFields("fiohist-buckets.json"),
                   "fiohist-buckets.json");
  // Without the histogram type `latency` is an object kept in _source only.
  ExpectSameFields(TableFields(ResultFields(), kInBuckets),
                   MappedFields("fiohist-buckets-nohistogram.json"),
                   "fiohist-buckets-nohistogram.json", {{"latency", "object"}});
  ExpectSameFields(TableFields(RunFields(), kInRuns), MappedFields("fiohist-runs.json"),
                   "fiohist-runs.json");
  ExpectSameFields(TableFields(ChangePointFields(), kInChanges),
                   MappedFields("fiohist-changes.json"), "fiohist-changes.json");
  ExpectSameFields(TableFields(StallFields(), kInStalls), MappedFields("fiohist-stalls.json"),
                   "fiohist-stalls.json");
}

TEST(Fields, CsvHeaderComesFromTheTable) {
  EXPECT_EQ(CsvHeader({"p50", "p99.9"}),
            "start,start_ms,end_ms,elapsed_s,scope,host,job,direction,logs,samples,iops,min,mean,"
            "max,p50,p99.9,top_bucket,lower_bound,coverage,partial,straddled,p50_low,p50_high,"
            "p99.9_low,p99.9_high,few_ios\n");
}

// Every field and column of the table is named in the documentation users read: the CSV
// columns in docs/numbers.md ("What the numbers mean"), the documents' fields in
// docs/documents.md.
TEST(Fields, DocumentedInReadmeAndDocs) {
  const std::string readme = ReadText(std::string(FIOHIST_SOURCE_DIR) + "/docs/numbers.md");
  const std::string docs = ReadText(std::string(FIOHIST_SOURCE_DIR) + "/docs/documents.md");
  for (const Field& f : ResultFields()) {
    if (f.percentiles || f.bounds) continue;
    const std::string quoted = std::string("`") + f.name + "`";
    if (f.places & kInCsv) {
      EXPECT_NE(readme.find(quoted), std::string::npos) << f.name << ": docs/numbers.md";
    }
    if (f.places & (kInPctiles | kInBuckets)) {
      EXPECT_NE(docs.find(quoted), std::string::npos) << f.name << ": docs/documents.md";
    }
  }
  for (const Field& f : RunFields()) {
    if (f.percentiles || f.bounds) continue;
    EXPECT_NE(docs.find(std::string("`") + f.name + "`"), std::string::npos)
        << f.name << ": docs/documents.md (run documents)";
  }
  for (const Field& f : ChangePointFields()) {
    EXPECT_NE(docs.find(std::string("`") + f.name + "`"), std::string::npos)
        << f.name << ": docs/documents.md (change point documents)";
  }
  for (const Field& f : StallFields()) {
    EXPECT_NE(docs.find(std::string("`") + f.name + "`"), std::string::npos)
        << f.name << ": docs/documents.md (stall documents)";
  }
}

// Collects the documents of the shared logs and checks that every key they carry is a
// field of the table, and every field of the table occurs.
class KeyCollector : public ResultSink {
 public:
  Status Begin(const RunInfo& info) override {
    info_ = info;
    // job_anchors come only with relative logs of fio < 3.36 beside its JSON: one here.
    if (info_.job_anchors.empty()) info_.job_anchors.push_back({"h", "j", "a", FioJobAnchor()});
    builder_ = std::make_unique<DocumentBuilder>(info_, RunMeta{"r", {"t"}, {{"k", "v"}}});
    compact_ = std::make_unique<DocumentBuilder>(info_, RunMeta{"r", {"t"}, {{"k", "v"}}}, 1000.0,
                                                 BucketForm::kCompact);
    // A smallfile run's ops in slots of their own: `op` is written too.
    // (A member: the builder keeps a reference to its RunInfo.)
    ops_info_ = info_;
    EXPECT_TRUE(ops_info_.directions.AssignOps({"create", "read", "delete"}));
    ops_ = std::make_unique<DocumentBuilder>(ops_info_, RunMeta{"r", {"t"}, {{"k", "v"}}});
    return Status();
  }
  Status Quantum(const ScopeResult& r) override {
    Collect(builder_->Percentiles(r), &pctiles);
    // The document of r's window (pctiles_version 2), here with r's direction only.
    for (const DocumentBuilder* b : {builder_.get(), ops_.get()}) {
      DirectionParts parts;
      const size_t d = static_cast<size_t>(r.direction);
      parts.present[d] = true;
      b->AppendDirectionPart(r, &parts.text[d]);
      b->AddSla(r, &parts);
      std::string merged;
      b->AppendMergedPercentiles(r, parts, &merged);
      CollectMerged(merged);
    }
    if (r.kind == ScopeKind::kCluster) {  // a window's document (here of one quantum)
      std::string window;
      builder_->AppendWindow(r, false, &window);
      Collect(window, &pctiles);
    }
    IntegerBuckets b;
    carry_.Round(r, &b);
    // The bucket forms together write every bucket field: the histogram, the compact one
    // of rounded counts and the record form of job results.
    Collect(builder_->Buckets(r, b), &buckets);
    Collect(compact_->Buckets(r, b), &buckets);
    Collect(ops_->Percentiles(r), &pctiles);
    Collect(ops_->Buckets(r, b), &buckets);
    if (r.records && !r.records->empty()) {
      std::vector<const PlacedRecord*> mine;
      for (const PlacedRecord& rec : *r.records) mine.push_back(&rec);
      std::string doc;
      compact_->AppendRecords(r, mine, &doc);
      Collect(doc, &buckets);
      // A job document of every direction (bucket_version 3), here of r's direction.
      JobQuantumRecords parts;
      const size_t d = static_cast<size_t>(r.direction);
      if (d < parts.present.size()) {
        parts.present[d] = true;
        parts.samples[d] = r.stats.samples;
        parts.end_ms[d] = compact_->AppendRecordList(r, mine, &parts.records[d]);
        doc.clear();
        compact_->AppendJobRecords(r, parts, &doc);
        Collect(doc, &buckets);
        // A job document of a window of quanta (bucket_version 4), here of r's quantum.
        JobWindowRecords window;
        window.start_ms = r.start_ms;
        window.At(r.start_ms, r.end_ms, r.coverage).parts = parts;
        doc.clear();
        compact_->AppendJobWindow(r, window, &doc);
        Collect(doc, &buckets);
      }
    }
    return Status();
  }
  Status WholeRun(const ScopeResult& r) override {
    whole_.push_back(r);
    whole_.back().histogram = nullptr;
    return Status();
  }
  Status End(const RunSummary& summary) override {
    // The shared logs have no stall: one is added so that its field is written too.
    RunSummary with_stall = summary;
    if (with_stall.stalls.empty()) with_stall.stalls.push_back(Stall{"", 1000, 4000, 3, 3e9});
    Collect(builder_->Run(with_stall, whole_), &runs);
    // Too many job entries for the run document's summary: summary_omitted is written too.
    std::vector<ScopeResult> many = whole_;
    for (const ScopeResult& r : whole_) {
      if (r.kind != ScopeKind::kJob) continue;
      while (many.size() < whole_.size() + kRunSummaryMaxEntries) many.push_back(r);
      break;
    }
    Collect(builder_->Run(with_stall, many), &runs);
    // A cluster stall and a host's idle gap, with the run's meta.
    const RunMeta meta{"r", {"t"}, {{"k", "v"}}};
    Stall host_idle{"h", 2000, 5000, 1, 1e6};
    host_idle.idle = true;
    for (const Stall& st : {with_stall.stalls.front(), host_idle}) {
      Collect(StallDocument(st, meta, info_.absolute, 1000.0), &stalls);
    }
    return Status();
  }
  std::set<std::string> pctiles, buckets, runs, stalls;
  std::set<std::string> per_direction;  // keys of the directions' objects (pctiles_version 2)

 private:
  // A merged percentile document: its top-level keys but the directions' objects (the
  // names in `directions`), whose keys go to per_direction.
  void CollectMerged(const std::string& json) {
    rapidjson::Document d;
    d.Parse(json.c_str());
    ASSERT_TRUE(d.IsObject()) << json;
    ASSERT_TRUE(d.HasMember("directions") && d["directions"].IsArray()) << json;
    std::set<std::string> names;
    for (const auto& n : d["directions"].GetArray()) names.insert(n.GetString());
    for (const auto& m : d.GetObject()) {
      const std::string key = m.name.GetString();
      if (!names.count(key)) {
        pctiles.insert(key);
        continue;
      }
      ASSERT_TRUE(m.value.IsObject()) << json;
      for (const auto& f : m.value.GetObject()) per_direction.insert(f.name.GetString());
    }
  }
  static void Collect(const std::string& json, std::set<std::string>* keys) {
    rapidjson::Document d;
    d.Parse(json.c_str());
    ASSERT_TRUE(d.IsObject()) << json;
    for (const auto& m : d.GetObject()) keys->insert(m.name.GetString());
  }
  RunInfo info_;
  RunInfo ops_info_;  // info_ with a smallfile run's ops (ops_)
  std::unique_ptr<DocumentBuilder> builder_, compact_, ops_;
  BucketCarry carry_{5000};
  std::vector<ScopeResult> whole_;
};

void ExpectKeysAreFields(const std::set<std::string>& keys, const std::vector<Field>& table,
                         unsigned place, bool direction_stats, const char* what) {
  const auto fields = TableFields(table, place);
  for (const std::string& key : keys) {
    const bool known = fields.count(key) || IsPercentileName(key) || IsBoundOfPercentile(key) ||
                       (direction_stats && IsDirectionStat(key));
    EXPECT_TRUE(known) << what << " document key '" << key << "' is not in fields.cc";
  }
  for (const auto& [name, type] : fields) {
    EXPECT_TRUE(keys.count(name)) << what << " field '" << name << "' never written";
  }
}

TEST(Fields, DocumentsCarryExactlyTheTableFields) {
  const std::string dir = std::string(FIOHIST_TEST_DATA) + "/fio-logs/epoch2/";
  PipelineOptions options;
  options.scopes = {true, true, true};
  // Thresholds, so the SLA fields are written too (p50 of 1 us: every quantum breaches).
  ASSERT_TRUE(ParseSlaThresholds({"p50=1us", "read.p99.5=1s"}, "--sla", &options.sla).ok());
  options.keep_records = true;
  KeyCollector sink;
  RunSummary summary;
  const std::vector<std::string> logs = {dir + "epoch2_clat_hist.1.log.hostX",
                                         dir + "epoch2_clat_hist.2.log.hostY"};
  ASSERT_TRUE(RunPipeline(options, logs, &sink, &summary).ok());
  // The fields of --place issue (the logs end: the last quanta carry complete_to).
  PipelineOptions issue = options;
  issue.place_issue = true;
  issue.keep_records = false;
  KeyCollector issue_sink;
  RunSummary issue_summary;
  ASSERT_TRUE(RunPipeline(issue, logs, &issue_sink, &issue_summary).ok());
  sink.pctiles.insert(issue_sink.pctiles.begin(), issue_sink.pctiles.end());
  sink.runs.insert(issue_sink.runs.begin(), issue_sink.runs.end());
  sink.per_direction.insert(issue_sink.per_direction.begin(), issue_sink.per_direction.end());
  ExpectKeysAreFields(sink.pctiles, ResultFields(), kInPctiles, false, "percentile");
  ExpectKeysAreFields(sink.per_direction, ResultFields(), kPerDirection, false,
                      "percentile document direction");
  ExpectKeysAreFields(sink.buckets, ResultFields(), kInBuckets, false, "bucket");
  ExpectKeysAreFields(sink.runs, RunFields(), kInRuns, true, "run");
  ExpectKeysAreFields(sink.stalls, StallFields(), kInStalls, false, "stall");
}

// The byte budgets hold for the longest texts every value can have.
TEST(Fields, BudgetsHoldForExtremeValues) {
  RunInfo info;
  info.absolute = true;
  info.percentiles = DefaultPercentiles();
  Histogram h;
  for (int c = 0; c < info.layout.top_column(); c += 7) h.Add(c, 1.2345678901234567e-300);
  ScopeResult r;
  r.start_ms = 253402300799000;  // 9999-12-31T23:59:59Z
  r.end_ms = r.start_ms + 1;
  r.elapsed_s = -2.2250738585072014e-308;
  r.kind = ScopeKind::kJob;
  r.host = std::string(300, '\x01');
  r.job = std::string(300, '"');
  r.logs = std::numeric_limits<int>::min();
  r.histogram = &h;
  r.stats.samples = -1.7976931348623157e+308;
  r.stats.min_ns = r.stats.mean_ns = r.stats.max_ns = -2.2250738585072014e-308;
  r.stats.percentile_ns.assign(info.percentiles.values.size(), -1.2345678901234567e-300);
  r.stats.lower_bound.assign(info.percentiles.values.size(), true);
  r.stats.max_lower_bound = true;
  r.stats.top_bucket = -1.7976931348623157e+308;
  r.stats.percentile_low_ns.assign(info.percentiles.values.size(), -1.2345678901234567e-300);
  r.stats.percentile_high_ns.assign(info.percentiles.values.size(), -1.2345678901234567e-300);
  r.stats.few_ios.assign(info.percentiles.values.size(), true);
  DocumentBuilder b(info, RunMeta{std::string(100, '\\'), {"t"}, {{"k", "v"}}}, 1e-300);
  // Done() stops the process when a budget was too small; the parse proves the text whole.
  rapidjson::Document d;
  d.Parse(b.Percentiles(r).c_str());
  EXPECT_TRUE(d.IsObject());
  IntegerBuckets ints;
  for (int c = 0; c < info.layout.top_column(); c += 7) {
    ints.columns.push_back(c);
    ints.counts.push_back(std::numeric_limits<int64_t>::min());
  }
  d.Parse(b.Buckets(r, ints).c_str());
  EXPECT_TRUE(d.IsObject());
  DocumentBuilder compact(info, RunMeta{std::string(100, '\\'), {"t"}, {{"k", "v"}}}, 1e-300,
                          BucketForm::kCompact);
  d.Parse(compact.Buckets(r, ints).c_str());
  EXPECT_TRUE(d.IsObject());
  // The record form: spans and counts at their longest, and records without counts.
  PlacedRecord full, empty;
  full.span = {std::numeric_limits<int64_t>::min() / 2, std::numeric_limits<int64_t>::max() / 2};
  for (int c = 0; c < info.layout.top_column(); c += 2) {
    full.counts.emplace_back(static_cast<uint32_t>(c), std::numeric_limits<uint64_t>::max());
  }
  empty.span = full.span;
  std::string records;
  compact.AppendRecords(r, {&full, &empty}, &records);
  d.Parse(records.c_str());
  EXPECT_TRUE(d.IsObject());
  records.clear();
  compact.AppendRecords(r, std::vector<const PlacedRecord*>(50, &empty), &records);
  d.Parse(records.c_str());
  EXPECT_TRUE(d.IsObject());
  // A job document of every direction (bucket_version 3), of a smallfile run's long op
  // names: each direction's records at their longest.
  RunInfo ops_info = info;
  ASSERT_TRUE(ops_info.directions.AssignOps(
      {std::string(200, '"') + "a", std::string(200, '\\') + "b", std::string(200, '\x01')}));
  DocumentBuilder ops(ops_info, RunMeta{std::string(100, '\\'), {"t"}, {{"k", "v"}}}, 1e-300,
                      BucketForm::kCompact);
  JobQuantumRecords parts;
  for (size_t i = 0; i < parts.present.size(); ++i) {
    parts.present[i] = true;
    parts.samples[i] = -1.7976931348623157e+308;
    parts.end_ms[i] = ops.AppendRecordList(r, {&full, &empty}, &parts.records[i]);
  }
  records.clear();
  ops.AppendJobRecords(r, parts, &records);
  d.Parse(records.c_str());
  ASSERT_TRUE(d.IsObject());
  EXPECT_EQ(d["records"].MemberCount(), 3u);
  // A cluster document breaching every one of many SLA thresholds.
  ASSERT_TRUE(ParseSlaThresholds({"p50=1ns", "read.p90=1ns", "p99.99=1ns", "p95=1ns"}, "--sla",
                                 &info.sla)
                  .ok());
  r.kind = ScopeKind::kCluster;
  r.stats.samples = 1;
  r.stats.percentile_ns.assign(info.percentiles.values.size(), 1e300);
  // Both bounds of every percentile at their longest (few_ios would drop the upper ones).
  r.stats.few_ios.assign(info.percentiles.values.size(), false);
  DocumentBuilder with_sla(info, RunMeta{std::string(100, '\\'), {"t"}, {{"k", "v"}}}, 1e-300);
  d.Parse(with_sla.Percentiles(r).c_str());
  ASSERT_TRUE(d.IsObject());
  EXPECT_TRUE(d["sla_breach"].GetBool());
  EXPECT_EQ(d["sla_breached"].Size(), 3u);
}

}  // namespace
}  // namespace fiohist
