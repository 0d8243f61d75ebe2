#include "es/run_catalog.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <map>

#include "es/admin_json.h"
#include "es/index_templates.h"

namespace fiohist {

namespace {

using rapidjson::Value;

// The query {"query":{"term":{"run": RUN}}} plus optional top-level members.
void WriteRunQuery(rapidjson::Writer<rapidjson::StringBuffer>* w, const std::string& run) {
  w->Key("query");
  w->StartObject();
  w->Key("term");
  w->StartObject();
  w->Key("run");
  w->String(run.data(), static_cast<rapidjson::SizeType>(run.size()));
  w->EndObject();
  w->EndObject();
}

}  // namespace

bool LacksEndpoint(const HttpResult& r) {
  if (r.status != 400 && r.status != 404 && r.status != 405) return false;
  return r.body.find("no handler found") != std::string::npos ||
         r.body.find("Incorrect HTTP method") != std::string::npos;
}

Status ParseDeleteByQuery(const std::string& body, size_t max_errors, DeleteReport* report) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("deleted")) {
    return Status::Error("_delete_by_query: unexpected response");
  }
  report->used_delete_by_query = true;
  report->deleted = static_cast<uint64_t>(NumberOr(doc, "deleted", 0));
  report->failed = 0;
  if (doc.HasMember("failures") && doc["failures"].IsArray()) {
    report->failed = doc["failures"].Size();
    for (const Value& f : doc["failures"].GetArray()) {
      if (report->errors.size() >= max_errors) break;
      BulkItemError e;
      e.index = StringOr(f, "index");
      e.id = StringOr(f, "id");
      e.status = static_cast<long>(NumberOr(f, "status", 0));
      if (f.HasMember("cause")) {
        e.reason = StringOr(f["cause"], "type");
        std::string reason = StringOr(f["cause"], "reason");
        if (!reason.empty()) e.reason += (e.reason.empty() ? "" : ": ") + reason;
      }
      report->errors.push_back(std::move(e));
    }
  }
  return Status();
}

std::string RunTermQuery(const std::string& run) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  WriteRunQuery(&w, run);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

Status RunCatalog::ListRuns(std::vector<StoredRun>* runs) {
  runs->clear();
  // Per run over all three indices: document count, earliest start, latest end (formatted
  // here: the mappings' first date format is epoch_millis).
  // The span from the documents of the push quantum: coarser resolutions' windows are
  // aligned to their width, not to the run. The count is of every document.
  const std::string aggs =
      std::string(R"({"size":0,"aggs":{"runs":{"terms":{"field":"run","size":10000},)") +
      R"("aggs":{"fine":{"filter":)" + kNotCoarse +
      R"(,"aggs":{"start":{"min":{"field":"@timestamp"}},)"
      R"("end":{"max":{"field":"end"}}}}}}}})";
  HttpResult r = client_->Request(
      "POST", "/" + AllIndexPatterns(prefix_) + "/_search?" + kMultiIndexOptions, aggs);
  if (!r.ok()) return Status::Error("listing runs failed: " + DescribeHttpFailure(r));
  rapidjson::Document doc;
  Status st = ParseJson(r, "listing runs", &doc);
  if (!st.ok()) return st;
  std::map<std::string, StoredRun> by_name;
  std::map<std::string, std::pair<double, double>> spans;
  if (doc.HasMember("aggregations") && doc["aggregations"].HasMember("runs")) {
    for (const Value& b : doc["aggregations"]["runs"]["buckets"].GetArray()) {
      if (!b.HasMember("key") || !b["key"].IsString()) continue;
      StoredRun info;
      info.run = b["key"].GetString();
      info.documents = b["doc_count"].GetUint64();
      if (!b.HasMember("fine") || !b["fine"].IsObject() || !b["fine"].HasMember("start") ||
          !b["fine"].HasMember("end")) {
        continue;
      }
      const Value& fine = b["fine"];
      info.start = AggTime(fine["start"]);
      info.end = AggTime(fine["end"]);
      double start_ms = NumberOr(fine["start"], "value", 0);
      double end_ms = NumberOr(fine["end"], "value", 0);
      if (end_ms > start_ms) info.duration_s = (end_ms - start_ms) / 1000.0;
      spans[info.run] = {start_ms, end_ms};
      info.start_ms = start_ms;
      by_name[info.run] = std::move(info);
    }
  }
  // Hosts, duration, state, percentiles and grid come from the run documents.
  HttpResult rr = client_->Request(
      "POST", "/" + IndexPattern(prefix_, DocKind::kRun) + "/_search?" + kMultiIndexOptions,
      R"({"size":10000,"_source":["run","hosts","duration_s","tags","state","p50","p99",)"
      R"("grid","grid_origin_ms","placement"]})");
  if (!rr.ok()) return Status::Error("listing runs failed: " + DescribeHttpFailure(rr));
  rapidjson::Document runs_doc;
  st = ParseJson(rr, "listing runs", &runs_doc);
  if (!st.ok()) return st;
  if (runs_doc.HasMember("hits")) {
    for (const Value& hit : runs_doc["hits"]["hits"].GetArray()) {
      if (!hit.HasMember("_source")) continue;
      const Value& src = hit["_source"];
      std::string name = StringOr(src, "run");
      auto it = by_name.find(name);
      if (it == by_name.end()) continue;
      it->second.has_run_document = true;
      it->second.duration_s = NumberOr(src, "duration_s", it->second.duration_s);
      it->second.state = StringOr(src, "state");
      it->second.p50_us = NumberOr(src, "p50", it->second.p50_us);
      it->second.p99_us = NumberOr(src, "p99", it->second.p99_us);
      it->second.grid = StringOr(src, "grid");
      it->second.placement = StringOr(src, "placement");
      it->second.grid_origin_ms = NumberOr(src, "grid_origin_ms", it->second.grid_origin_ms);
      if (src.HasMember("tags") && src["tags"].IsArray()) {
        for (const Value& t : src["tags"].GetArray()) {
          if (t.IsString()) it->second.tags.push_back(t.GetString());
        }
      } else if (src.HasMember("tags") && src["tags"].IsString()) {
        it->second.tags.push_back(src["tags"].GetString());
      }
      if (src.HasMember("hosts") && src["hosts"].IsArray()) {
        for (const Value& h : src["hosts"].GetArray()) {
          if (h.IsString()) it->second.hosts.push_back(h.GetString());
        }
      }
    }
  }
  for (auto& [name, info] : by_name) runs->push_back(std::move(info));
  std::stable_sort(runs->begin(), runs->end(), [&spans](const StoredRun& a, const StoredRun& b) {
    return spans[a.run].first < spans[b.run].first;
  });
  return Status();
}

Status RunCatalog::RunPlacement(const std::string& run, std::string* placement) {
  std::vector<StoredRun> stored;
  Status s = ListRuns(&stored);
  if (!s.ok()) return s;
  *placement = "completion";
  for (const StoredRun& r : stored) {
    if (r.run == run && !r.placement.empty()) *placement = r.placement;
  }
  return Status();
}

Status RunCatalog::CountRunDocuments(const std::string& run, uint64_t* count) {
  HttpResult r = client_->Request(
      "POST", "/" + AllIndexPatterns(prefix_) + "/_count?" + kMultiIndexOptions, RunTermQuery(run));
  if (!r.ok()) return Status::Error("counting documents failed: " + DescribeHttpFailure(r));
  rapidjson::Document doc;
  Status st = ParseJson(r, "counting documents", &doc);
  if (!st.ok()) return st;
  if (!doc.HasMember("count") || !doc["count"].IsUint64()) {
    return Status::Error("counting documents: no count in the response");
  }
  *count = doc["count"].GetUint64();
  return Status();
}

Status RunCatalog::RunBucketVersion(const std::string& run, int* version) {
  return RunVersionField(run, "bucket_version", version);
}

Status RunCatalog::RunPctilesVersion(const std::string& run, int* version) {
  return RunVersionField(run, "pctiles_version", version);
}

Status RunCatalog::RunVersionField(const std::string& run, const char* field, int* version) {
  *version = 0;
  HttpResult r = client_->Request("POST",
                                  "/" + IndexPattern(prefix_, DocKind::kRun) +
                                      "/_search?size=1&_source=" + field + "&" + kMultiIndexOptions,
                                  RunTermQuery(run));
  if (!r.ok()) return Status::Error("looking up run " + run + " failed: " + DescribeHttpFailure(r));
  rapidjson::Document doc;
  Status st = ParseJson(r, "looking up a run", &doc);
  if (!st.ok()) return st;
  if (!doc.HasMember("hits") || !doc["hits"].HasMember("hits") || !doc["hits"]["hits"].IsArray() ||
      doc["hits"]["hits"].Empty()) {
    return Status();
  }
  const rapidjson::Value& hit = doc["hits"]["hits"][0];
  *version = 1;
  if (hit.HasMember("_source") && hit["_source"].IsObject() && hit["_source"].HasMember(field) &&
      hit["_source"][field].IsInt()) {
    *version = hit["_source"][field].GetInt();
  }
  return Status();
}

Status RunCatalog::DeleteRun(const std::string& run, const BulkOptions& bulk_options,
                             DeleteReport* report) {
  *report = DeleteReport();
  if (run.empty()) return Status::Error("no run name given");
  HttpResult r =
      client_->Request("POST",
                       "/" + AllIndexPatterns(prefix_) +
                           "/_delete_by_query?refresh=true&conflicts=proceed&" + kMultiIndexOptions,
                       RunTermQuery(run));
  if (LacksEndpoint(r)) return DeleteRunByScroll(run, bulk_options, report);
  if (!r.ok()) return Status::Error("deleting run " + run + " failed: " + DescribeHttpFailure(r));
  Status st = ParseDeleteByQuery(r.body, bulk_options.max_kept_errors, report);
  if (!st.ok()) return st;
  return CountRunDocuments(run, &report->remaining);
}

Status RunCatalog::DeleteRunByScroll(const std::string& run, const BulkOptions& bulk_options,
                                     DeleteReport* report) {
  report->used_delete_by_query = false;
  // A scroll is a point-in-time snapshot, so deleting while paging through it is safe.
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("size");
  w.Int(1000);
  w.Key("_source");
  w.Bool(false);
  w.Key("sort");
  w.StartArray();
  w.String("_doc");
  w.EndArray();
  WriteRunQuery(&w, run);
  w.EndObject();
  HttpResult r = client_->Request(
      "POST", "/" + AllIndexPatterns(prefix_) + "/_search?scroll=2m&" + kMultiIndexOptions,
      std::string(buffer.GetString(), buffer.GetSize()));
  BulkIndexer bulk(client_, bulk_options);
  std::string scroll_id;
  Status result;
  while (true) {
    if (!r.ok()) {
      result = Status::Error("searching the documents of run " + run +
                             " failed: " + DescribeHttpFailure(r));
      break;
    }
    rapidjson::Document doc;
    result = ParseJson(r, "scroll", &doc);
    if (!result.ok()) break;
    if (doc.HasMember("_scroll_id") && doc["_scroll_id"].IsString()) {
      scroll_id = doc["_scroll_id"].GetString();
    }
    if (!doc.HasMember("hits") || doc["hits"]["hits"].Empty()) break;
    for (const Value& hit : doc["hits"]["hits"].GetArray()) {
      BulkAction action;
      action.op = BulkAction::Op::kDelete;
      action.index = StringOr(hit, "_index");
      action.id = StringOr(hit, "_id");
      Status st = bulk.Add(std::move(action));
      if (!st.ok()) {
        result = st;
        break;
      }
    }
    if (!result.ok() || scroll_id.empty()) break;
    rapidjson::StringBuffer next;
    rapidjson::Writer<rapidjson::StringBuffer> nw(next);
    nw.StartObject();
    nw.Key("scroll");
    nw.String("2m");
    nw.Key("scroll_id");
    nw.String(scroll_id.c_str());
    nw.EndObject();
    r = client_->Request("POST", "/_search/scroll", std::string(next.GetString(), next.GetSize()));
  }
  if (!scroll_id.empty()) {
    rapidjson::StringBuffer clear;
    rapidjson::Writer<rapidjson::StringBuffer> cw(clear);
    cw.StartObject();
    cw.Key("scroll_id");
    cw.String(scroll_id.c_str());
    cw.EndObject();
    client_->Request("DELETE", "/_search/scroll", std::string(clear.GetString(), clear.GetSize()));
  }
  Status finished = bulk.Finish();
  if (result.ok()) result = finished;
  const BulkStats& stats = bulk.stats();
  report->deleted = stats.deleted;
  report->failed = stats.failed;
  report->retried = stats.retried;
  report->errors = stats.errors;
  if (!result.ok()) return result;
  return CountRunDocuments(run, &report->remaining);
}

}  // namespace fiohist
