#include "es/bucket_reader.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <utility>

#include "es/index_templates.h"
#include "output/bucket_decode.h"
#include "stats/record_regrid.h"

namespace fiohist {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

// Every index a run's bucket documents may be in (time-partitioned ones too).
std::string BucketIndices(const std::string& prefix) {
  return IndexPattern(prefix, DocKind::kBuckets);
}

const char kSearchOptions[] = "ignore_unavailable=true&allow_no_indices=true";
// Hits a search returns: the server's default bound of a search's window
// (index.max_result_window), so that a page holds whole quanta of up to that many
// documents (a quantum of 4096 jobs in two directions is 8192).
constexpr int kPage = 10000;
// Hosts, and jobs per host, that read-back counts coverage against (terms buckets).
constexpr int kMaxSeries = 10000;

Status Search(HttpClient* client, const std::string& prefix, const std::string& body,
              const char* what, rapidjson::Document* doc) {
  HttpResult r = client->Request("POST", "/" + BucketIndices(prefix) + "/_search?" +
                                             kSearchOptions, body);
  if (!r.ok()) {
    return Status::Error(std::string(what) + ": " +
                         (r.error.empty() ? "HTTP " + std::to_string(r.status) + ": " +
                                                r.body.substr(0, 500)
                                          : r.error));
  }
  doc->Parse(r.body.c_str());
  if (doc->HasParseError() || !doc->IsObject() || !doc->HasMember("hits")) {
    return Status::Error(std::string(what) + ": the server's answer is not a search result");
  }
  return Status();
}

void Terms(Writer& w, const char* field, const std::vector<std::string>& values) {
  w.StartObject();
  w.Key("terms");
  w.StartObject();
  w.Key(field);
  w.StartArray();
  for (const std::string& v : values) w.String(v.c_str());
  w.EndArray();
  w.EndObject();
  w.EndObject();
}

// A range clause: `field` `op` (gte, gt, lt) the instant `ms`.
void Range(Writer& w, const char* field, const char* op, int64_t ms) {
  w.StartObject();
  w.Key("range");
  w.StartObject();
  w.Key(field);
  w.StartObject();
  w.Key("format");
  w.String("epoch_millis");
  w.Key(op);
  w.Int64(ms);
  w.EndObject();
  w.EndObject();
  w.EndObject();
}

// The bool query of `q`'s filters, plus scope and directions when given.
void BoolQuery(Writer& w, const BucketQuery& q, const std::string& scope,
               const std::vector<std::string>& directions,
               int64_t at_or_after = std::numeric_limits<int64_t>::min(),
               int64_t before = std::numeric_limits<int64_t>::max()) {
  w.StartObject();
  w.Key("bool");
  w.StartObject();
  w.Key("filter");
  w.StartArray();
  Terms(w, "run", {q.run});
  if (!scope.empty()) Terms(w, "scope", {scope});
  if (!directions.empty()) Terms(w, "direction", directions);
  if (!q.hosts.empty()) Terms(w, "host", q.hosts);
  if (!q.jobs.empty()) Terms(w, "job", q.jobs);
  if (q.to_ms != std::numeric_limits<int64_t>::max()) Range(w, "@timestamp", "lt", q.to_ms);
  // The part of the run a page reads.
  if (at_or_after != std::numeric_limits<int64_t>::min()) {
    Range(w, "@timestamp", "gte", at_or_after);
  }
  if (before != std::numeric_limits<int64_t>::max()) Range(w, "@timestamp", "lt", before);
  if (q.from_ms != std::numeric_limits<int64_t>::min()) {
    // Documents of the window, and record-form documents before it whose records reach
    // into it (a record's share of a quantum is stored where its span starts).
    w.StartObject();
    w.Key("bool");
    w.StartObject();
    w.Key("should");
    w.StartArray();
    Range(w, "@timestamp", "gte", q.from_ms);
    Range(w, "records_end", "gt", q.from_ms);
    w.EndArray();
    w.Key("minimum_should_match");
    w.Int(1);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndObject();
}

// `"query":` the bool filter of `q`, plus scope and directions when given, and the
// documents' start in [at_or_after, before).
void Filter(Writer& w, const BucketQuery& q, const std::string& scope,
            const std::vector<std::string>& directions,
            int64_t at_or_after = std::numeric_limits<int64_t>::min(),
            int64_t before = std::numeric_limits<int64_t>::max()) {
  w.Key("query");
  BoolQuery(w, q, scope, directions, at_or_after, before);
}

// A sort clause, ascending; `max`: an array sorts as its greatest value (["read","all"]
// as "read").
void SortBy(Writer& w, const char* field, bool max) {
  w.StartObject();
  w.Key(field);
  w.StartObject();
  w.Key("order");
  w.String("asc");
  if (max) {
    w.Key("mode");
    w.String("max");
  }
  w.EndObject();
  w.EndObject();
}

// The greatest string of `v` (a string, or an array of them), as the server's sort with
// mode max sees it; `missing` when there is none.
std::pair<bool, std::string> MaxString(const rapidjson::Value& src, const char* field) {
  auto it = src.FindMember(field);
  if (it == src.MemberEnd()) return {true, ""};
  const rapidjson::Value& v = it->value;
  if (v.IsString()) return {false, std::string(v.GetString(), v.GetStringLength())};
  std::pair<bool, std::string> out{true, ""};
  if (!v.IsArray()) return out;
  for (const auto& e : v.GetArray()) {
    if (!e.IsString()) continue;
    std::string s(e.GetString(), e.GetStringLength());
    if (out.first || s > out.second) out = {false, std::move(s)};
  }
  return out;
}

// A hit's place among the documents of its quantum: host, job, direction, as the server
// sorts keywords (bytes, unsigned; a missing value last).
std::array<std::pair<bool, std::string>, 3> SeriesKey(const rapidjson::Value& hit) {
  const rapidjson::Value& src = hit["_source"];
  return {MaxString(src, "host"), MaxString(src, "job"), MaxString(src, "direction")};
}

using HitHandler = std::function<Status(const rapidjson::Value&)>;

// The documents of the quantum starting at `t_ms` in host, job and direction order, paged
// with search_after sorted by those fields: for a quantum with more documents than a page.
Status ReadQuantum(HttpClient* client, const std::string& prefix, const BucketQuery& query,
                   const std::string& scope, const std::vector<std::string>& directions,
                   int64_t t_ms, const HitHandler& handle) {
  std::string after;  // the last hit's sort values (JSON), empty for the first page
  while (true) {
    rapidjson::StringBuffer body;
    Writer w(body);
    w.StartObject();
    w.Key("size");
    w.Int(kPage);
    w.Key("track_total_hits");
    w.Bool(false);
    Filter(w, query, scope, directions, t_ms, t_ms + 1);
    w.Key("sort");
    w.StartArray();
    SortBy(w, "@timestamp", false);
    if (scope != "cluster") SortBy(w, "host", false);
    if (scope == "job") SortBy(w, "job", false);
    SortBy(w, "direction", true);
    w.EndArray();
    if (!after.empty()) {
      w.Key("search_after");
      w.RawValue(after.c_str(), after.size(), rapidjson::kArrayType);
    }
    w.EndObject();
    rapidjson::Document page;
    Status s = Search(client, prefix, std::string(body.GetString(), body.GetSize()),
                      "reading the run's bucket documents", &page);
    if (!s.ok()) return s;
    const auto& hits = page["hits"]["hits"];
    if (!hits.IsArray() || hits.Empty()) return Status();
    for (const auto& hit : hits.GetArray()) {
      s = handle(hit);
      if (!s.ok()) return s;
    }
    if (hits.Size() < static_cast<rapidjson::SizeType>(kPage)) return Status();
    rapidjson::StringBuffer sb;
    Writer sw(sb);
    hits[hits.Size() - 1]["sort"].Accept(sw);
    after.assign(sb.GetString(), sb.GetSize());
  }
}

// The first string of `v` (a string, or an array of them: bucket documents of a real
// direction name it first, then "all").
std::string FirstString(const rapidjson::Value& v) {
  if (v.IsString()) return v.GetString();
  if (v.IsArray() && !v.Empty() && v[0].IsString()) return v[0].GetString();
  return "";
}

}  // namespace

Status BucketReader::Read(const BucketQuery& query,
                          const std::function<Status(const BucketRunFacts&)>& begin,
                          const std::function<Status(const StoredQuantum&)>& each) {
  documents_ = 0;
  // Which scopes and directions the run stored.
  rapidjson::StringBuffer buf;
  {
    Writer w(buf);
    w.StartObject();
    w.Key("size");
    w.Int(0);
    Filter(w, query, "", {});
    w.Key("aggs");
    w.StartObject();
    for (const char* f : {"scope", "direction", "op"}) {
      w.Key(f);
      w.StartObject();
      w.Key("terms");
      w.StartObject();
      w.Key("field");
      w.String(f);
      w.Key("size");
      w.Int(10);
      w.EndObject();
      w.EndObject();
    }
    // The run's jobs over its whole span (not only the query's window): coverage is a share
    // of all of them, as from the logs.
    w.Key("series");
    w.StartObject();
    w.Key("global");
    w.StartObject();
    w.EndObject();
    w.Key("aggs");
    w.StartObject();
    w.Key("run");
    w.StartObject();
    w.Key("filter");
    BucketQuery whole = query;
    whole.from_ms = std::numeric_limits<int64_t>::min();
    whole.to_ms = std::numeric_limits<int64_t>::max();
    BoolQuery(w, whole, "job", {});
    w.Key("aggs");
    w.StartObject();
    w.Key("host");
    w.StartObject();
    w.Key("terms");
    w.StartObject();
    w.Key("field");
    w.String("host");
    w.Key("size");
    w.Int(kMaxSeries);
    w.EndObject();
    w.Key("aggs");
    w.StartObject();
    w.Key("job");
    w.StartObject();
    w.Key("terms");
    w.StartObject();
    w.Key("field");
    w.String("job");
    w.Key("size");
    w.Int(kMaxSeries);
    w.EndObject();
    w.EndObject();
    w.EndObject();
    w.EndObject();
    w.EndObject();
    w.EndObject();
    w.EndObject();
    w.EndObject();
    w.EndObject();
    w.EndObject();
  }
  rapidjson::Document d;
  Status s = Search(client_, prefix_, std::string(buf.GetString(), buf.GetSize()),
                    "reading the run's bucket documents", &d);
  if (!s.ok()) return s;
  bool has[3] = {}, real = false;
  if (d.HasMember("aggregations")) {
    for (const auto& b : d["aggregations"]["scope"]["buckets"].GetArray()) {
      for (int k = 0; k < 3; ++k) {
        if (std::string(b["key"].GetString()) == ScopeName(static_cast<ScopeKind>(k))) {
          has[k] = true;
        }
      }
    }
  }
  BucketRunFacts run;
  // A smallfile run's ops, each the direction of its documents: their slots as the push
  // gave them (DirectionNames::AssignOps of the same ops).
  if (d.HasMember("aggregations") && d["aggregations"].HasMember("op")) {
    std::vector<std::string> ops;
    for (const auto& b : d["aggregations"]["op"]["buckets"].GetArray()) {
      ops.push_back(b["key"].GetString());
    }
    if (!run.directions.AssignOps(ops)) {
      return Status::Error("the run's bucket documents hold " + std::to_string(ops.size()) +
                           " smallfile ops; a run has at most " + std::to_string(kLogDirections));
    }
  }
  if (d.HasMember("aggregations")) {
    for (const auto& b : d["aggregations"]["direction"]["buckets"].GetArray()) {
      Direction dir = Direction::kAll;
      real |= run.directions.Find(b["key"].GetString(), &dir) && dir != Direction::kAll;
    }
  }
  run.scope = has[2] ? "job" : has[1] ? "host" : has[0] ? "cluster" : "";
  if (has[2] && d.HasMember("aggregations") && d["aggregations"].HasMember("series")) {
    for (const auto& h : d["aggregations"]["series"]["run"]["host"]["buckets"].GetArray()) {
      for (const auto& j : h["job"]["buckets"].GetArray()) {
        run.series_logs[{h["key"].GetString(), j["key"].GetString()}] = 1;
      }
    }
  }
  if (run.scope.empty()) {
    return Status::Error("no bucket documents match in " + BucketIndices(prefix_));
  }
  std::vector<std::string> directions = {"all"};
  if (real) {
    directions.clear();
    for (int i = 0; i < kLogDirections; ++i) {
      directions.emplace_back(run.directions.Name(static_cast<Direction>(i)));
    }
  }
  if (progress_ != nullptr) {
    // The progress line's total: the documents the pages below will hold.
    rapidjson::StringBuffer count_body;
    Writer w(count_body);
    w.StartObject();
    w.Key("size");
    w.Int(0);
    w.Key("track_total_hits");
    w.Bool(true);
    Filter(w, query, run.scope, directions);
    w.EndObject();
    rapidjson::Document counted;
    s = Search(client_, prefix_, std::string(count_body.GetString(), count_body.GetSize()),
               "counting the run's bucket documents", &counted);
    if (!s.ok()) return s;
    const rapidjson::Value& hits = counted["hits"];
    if (hits.HasMember("total") && hits["total"].IsObject() && hits["total"].HasMember("value") &&
        hits["total"]["value"].IsUint64()) {
      progress_->total.store(hits["total"]["value"].GetUint64());
    }
  }

  std::unique_ptr<BucketDecoder> decoder;
  std::unique_ptr<RecordRegrid> regrid;  // record-form documents' records, placed again
  std::vector<PlacedRecord> records;     // reused
  StoredQuantum q;
  // One document, in time, host, job and direction order, or one quantum of a window
  // document (kWindowBucketVersion; `part`, starting at `start_ms`, null for a window without
  // quanta): `flush_ms`, the start of the documents still to come, says which quanta of the
  // regrid are complete; `count`: the document's first part.
  auto handle_part = [&](const rapidjson::Value& hit, int64_t flush_ms, int64_t start_ms,
                         bool window, const rapidjson::Value* part, bool count) -> Status {
    Status s;
    const auto& src = hit["_source"];
    const std::string where = "bucket document " + std::string(hit["_id"].GetString());
    if (!decoder) {
      BucketLayout layout;
      s = ParseLayoutName(src.HasMember("layout") ? FirstString(src["layout"]) : "", &layout);
      if (!s.ok()) return Status::Error(where + ": " + s.message());
      run.layout = layout.Name();
      run.quantum_ms = src.HasMember("quantum_s") && src["quantum_s"].IsNumber()
                           ? std::llround(src["quantum_s"].GetDouble() * 1000)
                           : 0;
      run.absolute = src.HasMember("@timestamp") && src["@timestamp"].IsString();
      // Stored quanta start on the run's grid: the first one's phase is its origin.
      if (run.quantum_ms > 0) {
        const int64_t phase = hit["sort"][0].GetInt64() % run.quantum_ms;
        run.grid_origin_ms = phase < 0 ? phase + run.quantum_ms : phase;
      }
      decoder = std::make_unique<BucketDecoder>(layout);
      s = begin(run);
      if (!s.ok()) return s;
    }
    q.start_ms = start_ms;
    const double quantum_s =
        src.HasMember("quantum_s") && src["quantum_s"].IsNumber() ? src["quantum_s"].GetDouble()
                                                                  : 0;
    q.end_ms = q.start_ms + std::llround(quantum_s * 1000);
    q.host = src.HasMember("host") ? FirstString(src["host"]) : "";
    q.job = src.HasMember("job") ? FirstString(src["job"]) : "";
    const std::string dir = src.HasMember("direction") ? FirstString(src["direction"]) : "";
    if (!run.directions.Find(dir, &q.direction)) q.direction = Direction::kAll;
    q.logs = src.HasMember("logs") && src["logs"].IsInt() ? src["logs"].GetInt() : 1;
    q.coverage = src.HasMember("coverage") && src["coverage"].IsNumber()
                     ? src["coverage"].GetDouble()
                     : 1.0;
    // Quanta before this document, and this quantum's series sorted before this one, are
    // complete: no later record starts before it or belongs to them.
    if (regrid) {
      s = regrid->FlushBefore(flush_ms, q.host, q.job, each);
      if (!s.ok()) return s;
    }
    if (count) {
      ++documents_;
      if (progress_ != nullptr) progress_->documents.fetch_add(1, std::memory_order_relaxed);
    }
    if (window || BucketDecoder::HasRecords(src)) {
      if (!regrid) {
        if (run.quantum_ms <= 0) return Status::Error(where + ": expected quantum_s > 0");
        regrid = std::make_unique<RecordRegrid>(QuantumGrid(q.start_ms, run.quantum_ms),
                                                query.from_ms, query.to_ms);
      }
      if (window && part == nullptr) return Status();
      records.clear();
      // bucket_version 3: one document of the job's quantum holds each of its directions;
      // 4: each quantum of a window document does.
      s = window || BucketDecoder::HasRecordsByDirection(src)
              ? decoder->DecodeRecordsByDirection(window ? *part : src, q.start_ms, run.directions,
                                                  &records)
              : decoder->DecodeRecords(src, q.start_ms, q.direction, &records);
      if (!s.ok()) return Status::Error(where + ": " + s.message());
      if (window && q.start_ms < query.from_ms) {
        // A quantum of a window that starts before the query's: only records reaching into
        // it count, as per-quantum documents were read (records_end > from).
        int64_t end_ms = q.start_ms;
        for (const PlacedRecord& rec : records) end_ms = std::max(end_ms, rec.span.end_ms);
        if (end_ms <= query.from_ms) return Status();
      }
      for (const PlacedRecord& rec : records) regrid->Add(q.host, q.job, rec);
      return Status();
    }
    q.histogram.Clear();
    s = decoder->Decode(src, &q.histogram);
    if (!s.ok()) return Status::Error(where + ": " + s.message());
    return each(q);
  };
  // A document's parts: itself, or a window document's quanta (within the query's time).
  struct Part {
    int64_t start_ms;
    const rapidjson::Value* hit;
    bool window;
    const rapidjson::Value* quantum;  // of a window document; null for none
    bool first;                       // the document's first part
  };
  std::vector<std::pair<int64_t, const rapidjson::Value*>> quanta;  // reused
  const auto parts_of = [&](const rapidjson::Value& hit, std::vector<Part>* out) -> Status {
    const int64_t t = hit["sort"][0].GetInt64();
    const auto& src = hit["_source"];
    if (!BucketDecoder::HasQuanta(src)) {
      out->push_back(Part{t, &hit, false, nullptr, true});
      return Status();
    }
    quanta.clear();
    Status s = BucketDecoder::WindowQuanta(src, t, &quanta);
    if (!s.ok()) {
      return Status::Error("bucket document " + std::string(hit["_id"].GetString()) + ": " +
                           s.message());
    }
    bool first = true;
    for (const auto& [start_ms, quantum] : quanta) {
      if (start_ms >= query.to_ms) break;
      out->push_back(Part{start_ms, &hit, true, quantum, first});
      first = false;
    }
    if (first) out->push_back(Part{t, &hit, true, nullptr, true});
    return Status();
  };
  // One document on its own (documents of one time paged through ReadQuantum): a window
  // document's quanta one after another, the regrid's quanta complete before its start.
  std::vector<Part> doc_parts;  // reused
  auto handle = [&](const rapidjson::Value& hit) -> Status {
    doc_parts.clear();
    Status s = parts_of(hit, &doc_parts);
    for (const Part& p : doc_parts) {
      if (!s.ok()) break;
      s = handle_part(*p.hit, hit["sort"][0].GetInt64(), p.start_ms, p.window, p.quantum, p.first);
    }
    return s;
  };
  // The server sorts by time only: a sort on the keyword fields costs it seconds a page
  // (Elasticsearch 8.19, 250 k documents: 5-10 s for 1000 hits against 0.2 s by time).
  // So pages hold whole quanta sorted by time, and the documents of a quantum are put in
  // host, job and direction order here. A page ends inside a quantum unless it is the
  // last: that quantum is read again at the start of the next page. A quantum with more
  // documents than a page is paged through sorted by all four fields.
  const auto sort_values = [](const rapidjson::Value& hit) { return hit["sort"][0].GetInt64(); };
  int64_t after = std::numeric_limits<int64_t>::min();  // quanta before it are read
  while (true) {
    rapidjson::StringBuffer body;
    Writer w(body);
    w.StartObject();
    w.Key("size");
    w.Int(kPage);
    w.Key("track_total_hits");
    w.Bool(false);
    Filter(w, query, run.scope, directions, after, std::numeric_limits<int64_t>::max());
    w.Key("sort");
    w.StartArray();
    SortBy(w, "@timestamp", false);
    w.EndArray();
    w.EndObject();
    // A Document per page: RapidJSON's pool allocator keeps every page parsed into the
    // same Document until it is destroyed, so one reused for the whole run grows with it.
    rapidjson::Document page;
    s = Search(client_, prefix_, std::string(body.GetString(), body.GetSize()),
               "reading the run's bucket documents", &page);
    if (!s.ok()) return s;
    const auto& hits = page["hits"]["hits"];
    if (!hits.IsArray() || hits.Empty()) break;
    const bool full = hits.Size() >= static_cast<rapidjson::SizeType>(kPage);
    const int64_t last = sort_values(hits[hits.Size() - 1]);
    if (full && sort_values(hits[0]) == last) {
      // One quantum fills the page.
      s = ReadQuantum(client_, prefix_, query, run.scope, directions, last, handle);
      if (!s.ok()) return s;
      after = last + 1;
      continue;
    }
    std::vector<const rapidjson::Value*> order;
    order.reserve(hits.Size());
    for (const auto& hit : hits.GetArray()) {
      if (full && sort_values(hit) == last) break;  // read again with the next page
      order.push_back(&hit);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](const rapidjson::Value* a, const rapidjson::Value* b) {
                       const int64_t ta = sort_values(*a), tb = sort_values(*b);
                       return ta != tb ? ta < tb : SeriesKey(*a) < SeriesKey(*b);
                     });
    // Window documents (kWindowBucketVersion) of a time are all in the page: their quanta
    // go quantum by quantum in host and job order, as per-quantum documents came, so the
    // regrid holds about one quantum of every job, not a window of them.
    std::vector<Part> parts;
    for (const rapidjson::Value* hit : order) {
      s = parts_of(*hit, &parts);
      if (!s.ok()) return s;
    }
    std::stable_sort(parts.begin(), parts.end(),
                     [](const Part& a, const Part& b) { return a.start_ms < b.start_ms; });
    for (const Part& p : parts) {
      s = handle_part(*p.hit, p.start_ms, p.start_ms, p.window, p.quantum, p.first);
      if (!s.ok()) return s;
    }
    if (!full) break;
    after = last;
  }
  return regrid ? regrid->Finish(each) : Status();
}

}  // namespace fiohist
