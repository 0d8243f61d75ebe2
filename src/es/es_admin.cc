#include "es/es_admin.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <map>

#include "es/index_templates.h"

namespace fiohist {

namespace {

using rapidjson::Value;

const char kMultiIndexOptions[] = "ignore_unavailable=true&allow_no_indices=true";

Status ParseJson(const HttpResult& result, const char* what, rapidjson::Document* doc) {
  doc->Parse(result.body.data(), result.body.size());
  if (doc->HasParseError() || !doc->IsObject()) {
    return Status::Error(std::string(what) + ": the response is not a JSON object");
  }
  return Status();
}

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

double NumberOr(const Value& obj, const char* key, double fallback) {
  if (obj.IsObject() && obj.HasMember(key) && obj[key].IsNumber()) return obj[key].GetDouble();
  return fallback;
}

std::string StringOr(const Value& obj, const char* key) {
  if (obj.IsObject() && obj.HasMember(key) && obj[key].IsString()) return obj[key].GetString();
  return "";
}

}  // namespace

bool LacksEndpoint(const HttpResult& r) {
  if (r.status != 400 && r.status != 404 && r.status != 405) return false;
  return r.body.find("no handler found") != std::string::npos ||
         r.body.find("Incorrect HTTP method") != std::string::npos;
}

bool LacksHistogramType(const HttpResult& r) {
  return r.status == 400 && r.body.find("mapper_parsing_exception") != std::string::npos &&
         r.body.find("histogram") != std::string::npos;
}

bool ParseServerRoot(const std::string& body, ServerInfo* info) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("version")) return false;
  const Value& v = doc["version"];
  const std::string number = StringOr(v, "number");
  if (number.empty()) return false;
  info->product = StringOr(v, "distribution") == "opensearch" ? "OpenSearch" : "Elasticsearch";
  info->version = number;
  info->source = "GET /";
  return true;
}

bool ParseNodesInfo(const std::string& body, ServerInfo* info) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("nodes") ||
      !doc["nodes"].IsObject()) {
    return false;
  }
  for (auto it = doc["nodes"].MemberBegin(); it != doc["nodes"].MemberEnd(); ++it) {
    const std::string version = StringOr(it->value, "version");
    if (version.empty()) continue;
    info->product = it->value.HasMember("build_flavor") ? "Elasticsearch" : "OpenSearch";
    info->version = version;
    info->source = "GET /_nodes/_local";
    return true;
  }
  return false;
}

std::string DescribeServerDecisions(const ServerInfo& info, const TemplateReport& report) {
  std::string line = "server: ";
  if (info.product.empty()) {
    line += "unknown (neither GET / nor GET /_nodes/_local named it)";
  } else {
    line += info.product + " " + info.version + " (" + info.source + ")";
  }
  if (report.histogram_supported) {
    line += ", `histogram` field type present: bucket documents carry `latency`";
  } else {
    line += ", no `histogram` field type: bucket documents mapped without it (" +
            TemplateFileName(DocKind::kBuckets, true) + ")";
  }
  return line;
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

Status EsAdmin::InstallTemplates(const std::string& mappings_dir, TemplateReport* report) {
  *report = TemplateReport();
  for (DocKind kind : {DocKind::kPercentiles, DocKind::kRun, DocKind::kBuckets}) {
    std::string body;
    Status st = LoadIndexTemplate(mappings_dir, TemplateFileName(kind), prefix_, kind, &body);
    if (!st.ok()) return st;
    std::string name = IndexName(prefix_, kind);
    HttpResult r = client_->Request("PUT", "/_index_template/" + name, body);
    if (kind == DocKind::kBuckets && LacksHistogramType(r)) {
      // The cluster has no `histogram` field type (integ-test build, OpenSearch): the fallback
      // keeps `latency` in _source only.
      report->histogram_supported = false;
      st = LoadIndexTemplate(mappings_dir, TemplateFileName(kind, true), prefix_, kind, &body);
      if (!st.ok()) return st;
      r = client_->Request("PUT", "/_index_template/" + name, body);
    }
    if (!r.ok()) {
      return Status::Error("installing index template " + name +
                           " failed: " + DescribeHttpFailure(r));
    }
    report->installed.push_back(name);
  }
  for (DocKind kind : {DocKind::kPercentiles, DocKind::kBuckets, DocKind::kRun}) {
    std::string name = IndexName(prefix_, kind);
    HttpResult r = client_->Request("PUT", "/" + name, "{}");
    if (r.ok()) {
      report->created.push_back(name);
    } else if (!(r.status == 400 &&
                 r.body.find("resource_already_exists_exception") != std::string::npos)) {
      return Status::Error("creating index " + name + " failed: " + DescribeHttpFailure(r));
    }
  }
  return Status();
}

void EsAdmin::ProbeServer(ServerInfo* info) {
  *info = ServerInfo();
  HttpResult r = client_->Request("GET", "/");
  if (r.ok() && ParseServerRoot(r.body, info)) return;
  r = client_->Request("GET", "/_nodes/_local?filter_path=nodes.*.version,nodes.*.build_flavor");
  if (r.ok()) ParseNodesInfo(r.body, info);
}

Status EsAdmin::ListRuns(std::vector<StoredRun>* runs) {
  runs->clear();
  // Per run over all three indices: document count, earliest start, latest end (formatted
  // here: the mappings' first date format is epoch_millis).
  const char kAggs[] =
      R"({"size":0,"aggs":{"runs":{"terms":{"field":"run","size":10000},)"
      R"("aggs":{"start":{"min":{"field":"@timestamp","format":"strict_date_time"}},)"
      R"("end":{"max":{"field":"end","format":"strict_date_time"}}}}}})";
  HttpResult r = client_->Request(
      "POST", "/" + AllIndexNames(prefix_) + "/_search?" + kMultiIndexOptions, kAggs);
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
      info.start = StringOr(b["start"], "value_as_string");
      info.end = StringOr(b["end"], "value_as_string");
      double start_ms = NumberOr(b["start"], "value", 0);
      double end_ms = NumberOr(b["end"], "value", 0);
      if (end_ms > start_ms) info.duration_s = (end_ms - start_ms) / 1000.0;
      spans[info.run] = {start_ms, end_ms};
      by_name[info.run] = std::move(info);
    }
  }
  // Hosts and duration come from the run documents.
  HttpResult rr = client_->Request(
      "POST", "/" + IndexName(prefix_, DocKind::kRun) + "/_search?" + kMultiIndexOptions,
      R"({"size":10000,"_source":["run","hosts","duration_s"]})");
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
      "POST", "/" + AllIndexNames(prefix_) + "/_count?" + kMultiIndexOptions, RunTermQuery(run));
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
                       "/" + AllIndexNames(prefix_) +
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
      "POST", "/" + AllIndexNames(prefix_) + "/_search?scroll=2m&" + kMultiIndexOptions,
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
