#include "es/es_admin.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstdio>
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

Status EsAdmin::ListIndices(std::vector<std::string>* indices) {
  indices->clear();
  HttpResult r = client_->Request("GET", "/" + AllIndexPatterns(prefix_) +
                                             "/_settings/index.number_of_shards?" +
                                             kMultiIndexOptions);
  if (!r.ok()) return Status::Error("listing indices failed: " + DescribeHttpFailure(r));
  rapidjson::Document doc;
  Status st = ParseJson(r, "listing indices", &doc);
  if (!st.ok()) return st;
  for (auto it = doc.MemberBegin(); it != doc.MemberEnd(); ++it) {
    indices->push_back(it->name.GetString());
  }
  std::sort(indices->begin(), indices->end());
  return Status();
}

Status EsAdmin::LatestEnd(const std::string& indices, double* end_ms, uint64_t* docs) {
  HttpResult r = client_->Request(
      "POST", "/" + indices + "/_search?" + kMultiIndexOptions,
      std::string(R"({"size":0,"track_total_hits":true,"query":)") + kNotCoarse +
          R"(,"aggs":{"end":{"max":{"field":"end"}},"start":{"max":{"field":"@timestamp"}}}})");
  if (!r.ok()) return Status::Error("searching " + indices + " failed: " + DescribeHttpFailure(r));
  rapidjson::Document doc;
  Status st = ParseJson(r, "searching", &doc);
  if (!st.ok()) return st;
  *docs = 0;
  if (doc.HasMember("hits") && doc["hits"].HasMember("total")) {
    *docs = static_cast<uint64_t>(NumberOr(doc["hits"]["total"], "value", 0));
  }
  *end_ms = 0;
  if (doc.HasMember("aggregations")) {
    // A document without `end` counts by its @timestamp.
    *end_ms = std::max(NumberOr(doc["aggregations"]["end"], "value", 0),
                       NumberOr(doc["aggregations"]["start"], "value", 0));
  }
  return Status();
}

Status EsAdmin::PlanRetention(int64_t cutoff_ms, RetentionPlan* plan) {
  *plan = RetentionPlan();
  plan->cutoff_ms = cutoff_ms;
  std::vector<std::string> indices;
  Status st = ListIndices(&indices);
  if (!st.ok()) return st;
  // Months by their indices; a month whose end is past the cutoff, or with a document ending
  // after it, is searched run by run instead, as are the single indices of before partitioning.
  std::map<std::string, std::vector<std::string>> months;
  std::map<std::string, int64_t> month_start, month_end;
  std::vector<std::string> by_run;
  for (const std::string& index : indices) {
    IndexNameParts parts;
    if (!ParseIndexName(prefix_, index, &parts)) continue;
    if (!parts.monthly) {
      by_run.push_back(index);
      continue;
    }
    char key[16];
    std::snprintf(key, sizeof key, "%04d.%02d", parts.year, parts.month);
    months[key].push_back(index);
    month_end[key] = MonthEndMs(parts.year, parts.month);
    month_start[key] = parts.month == 1 ? MonthEndMs(parts.year - 1, 12)
                                        : MonthEndMs(parts.year, parts.month - 1);
  }
  for (const auto& [month, names] : months) {
    std::string joined;
    for (const std::string& n : names) joined += (joined.empty() ? "" : ",") + n;
    if (month_end[month] <= cutoff_ms) {
      double end_ms = 0;
      uint64_t docs = 0;
      st = LatestEnd(joined, &end_ms, &docs);
      if (!st.ok()) return st;
      if (end_ms < static_cast<double>(cutoff_ms)) {
        plan->drop_months.push_back(month);
        plan->drop_indices.insert(plan->drop_indices.end(), names.begin(), names.end());
        continue;
      }
    }
    // A month starting at or after the cutoff holds no run that ended before it.
    if (month_start[month] < cutoff_ms) by_run.insert(by_run.end(), names.begin(), names.end());
  }
  if (by_run.empty()) return Status();
  std::string joined;
  for (const std::string& n : by_run) joined += (joined.empty() ? "" : ",") + n;
  const std::string aggs =
      std::string(R"({"size":0,"query":)") + kNotCoarse +
      R"(,"aggs":{"runs":{"terms":{"field":"run","size":10000},)"
      R"("aggs":{"start":{"min":{"field":"@timestamp"}},)"
      R"("end":{"max":{"field":"end"}}}}}})";
  HttpResult r = client_->Request("POST", "/" + joined + "/_search?" + kMultiIndexOptions, aggs);
  if (!r.ok()) return Status::Error("listing runs failed: " + DescribeHttpFailure(r));
  rapidjson::Document doc;
  st = ParseJson(r, "listing runs", &doc);
  if (!st.ok()) return st;
  if (!doc.HasMember("aggregations") || !doc["aggregations"].HasMember("runs")) return Status();
  for (const Value& b : doc["aggregations"]["runs"]["buckets"].GetArray()) {
    if (!b.HasMember("key") || !b["key"].IsString()) continue;
    const double end_ms = NumberOr(b["end"], "value", 0);
    if (!(end_ms < static_cast<double>(cutoff_ms))) continue;
    StoredRun run;
    run.run = b["key"].GetString();
    run.documents = b["doc_count"].GetUint64();
    run.start = AggTime(b["start"]);
    run.end = AggTime(b["end"]);
    plan->delete_runs.push_back(std::move(run));
  }
  return Status();
}

Status EsAdmin::ApplyRetention(const RetentionPlan& plan, const BulkOptions& bulk_options,
                               uint64_t* deleted) {
  *deleted = 0;
  // Month by month, checking again just before dropping: a run pushed into an old month since
  // the plan was made keeps its month.
  std::map<std::string, std::vector<std::string>> by_month;
  for (const std::string& index : plan.drop_indices) {
    IndexNameParts parts;
    if (!ParseIndexName(prefix_, index, &parts) || !parts.monthly) continue;
    char key[16];
    std::snprintf(key, sizeof key, "%04d.%02d", parts.year, parts.month);
    by_month[key].push_back(index);
  }
  for (const auto& [month, names] : by_month) {
    std::string joined;
    for (const std::string& n : names) joined += (joined.empty() ? "" : ",") + n;
    double end_ms = 0;
    uint64_t docs = 0;
    Status st = LatestEnd(joined, &end_ms, &docs);
    if (!st.ok()) return st;
    if (!(end_ms < static_cast<double>(plan.cutoff_ms))) {
      return Status::Error("month " + month + " received documents ending after the cutoff "
                           "since the plan was made: not dropped");
    }
    HttpResult r = client_->Request("DELETE", "/" + joined + "?ignore_unavailable=true");
    if (!r.ok()) return Status::Error("dropping " + joined + " failed: " + DescribeHttpFailure(r));
  }
  for (const StoredRun& run : plan.delete_runs) {
    DeleteReport report;
    Status st = DeleteRun(run.run, bulk_options, &report);
    *deleted += report.deleted;
    if (!st.ok()) return st;
    if (report.failed > 0 || report.remaining > 0) {
      return Status::Error("run " + run.run + ": " + std::to_string(report.remaining) +
                           " documents remain after deleting");
    }
  }
  return Status();
}

Status EsAdmin::ListRuns(std::vector<StoredRun>* runs) {
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
      R"("grid","grid_origin_ms"]})");
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

Status EsAdmin::CountRunDocuments(const std::string& run, uint64_t* count) {
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

Status EsAdmin::DeleteRun(const std::string& run, const BulkOptions& bulk_options,
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

Status EsAdmin::DeleteRunByScroll(const std::string& run, const BulkOptions& bulk_options,
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
