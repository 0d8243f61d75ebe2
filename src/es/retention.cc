#include "es/retention.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "es/admin_json.h"
#include "es/index_templates.h"

namespace fiohist {

namespace {

using rapidjson::Value;

}  // namespace

Status Retention::ListIndices(std::vector<std::string>* indices) {
  indices->clear();
  HttpResult r =
      client_->Request("GET", "/" + AllIndexPatterns(prefix_) +
                                  "/_settings/index.number_of_shards?" + kMultiIndexOptions);
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

Status Retention::LatestEnd(const std::string& indices, double* end_ms, uint64_t* docs) {
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

Status Retention::Plan(int64_t cutoff_ms, RetentionPlan* plan) {
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
    month_start[key] =
        parts.month == 1 ? MonthEndMs(parts.year - 1, 12) : MonthEndMs(parts.year, parts.month - 1);
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
  const std::string aggs = std::string(R"({"size":0,"query":)") + kNotCoarse +
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

Status Retention::Apply(const RetentionPlan& plan, const BulkOptions& bulk_options,
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
      return Status::Error("month " + month +
                           " received documents ending after the cutoff "
                           "since the plan was made: not dropped");
    }
    HttpResult r = client_->Request("DELETE", "/" + joined + "?ignore_unavailable=true");
    if (!r.ok()) return Status::Error("dropping " + joined + " failed: " + DescribeHttpFailure(r));
  }
  RunCatalog catalog(client_, prefix_);
  for (const StoredRun& run : plan.delete_runs) {
    DeleteReport report;
    Status st = catalog.DeleteRun(run.run, bulk_options, &report);
    *deleted += report.deleted;
    if (!st.ok()) return st;
    if (report.failed > 0 || report.remaining > 0) {
      return Status::Error("run " + run.run + ": " + std::to_string(report.remaining) +
                           " documents remain after deleting");
    }
  }
  return Status();
}

}  // namespace fiohist
