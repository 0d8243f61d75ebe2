#include "es/push_tuning.h"

#include <rapidjson/document.h>

#include <algorithm>

#include "es/admin_json.h"

namespace fiohist {

bool ParseDataNodes(const std::string& body, int* data_nodes) {
  rapidjson::Document d;
  d.Parse(body.data(), body.size());
  if (d.HasParseError() || !d.IsObject() || !d.HasMember("number_of_data_nodes") ||
      !d["number_of_data_nodes"].IsInt()) {
    return false;
  }
  *data_nodes = d["number_of_data_nodes"].GetInt();
  return *data_nodes >= 1;
}

Status CountDataNodes(HttpClient* client, int* data_nodes) {
  *data_nodes = 1;
  HttpResult r = client->Request("GET", "/_cluster/health?filter_path=number_of_data_nodes");
  if (!r.ok()) {
    return Status::Error("reading the cluster's health failed: " + DescribeHttpFailure(r));
  }
  if (!ParseDataNodes(r.body, data_nodes)) *data_nodes = 1;
  return Status();
}

int ShardsForNodes(int data_nodes) { return std::clamp(data_nodes, 1, kMaxShardsFromNodes); }

std::vector<std::pair<std::string, std::string>> ParseRefreshIntervals(const std::string& body) {
  std::vector<std::pair<std::string, std::string>> out;
  rapidjson::Document d;
  d.Parse(body.data(), body.size());
  if (d.HasParseError() || !d.IsObject()) return out;
  for (const auto& index : d.GetObject()) {
    std::string value;
    if (index.value.IsObject() && index.value.HasMember("settings") &&
        index.value["settings"].IsObject()) {
      value = StringOr(index.value["settings"], "index.refresh_interval");  // flat_settings
    }
    out.emplace_back(index.name.GetString(), value);
  }
  return out;
}

namespace {

std::string RefreshBody(const std::string& value) {
  return value.empty() ? R"({"index":{"refresh_interval":null}})"
                       : R"({"index":{"refresh_interval":")" + value + "\"}}";
}

}  // namespace

Status RefreshPause::Pause(const std::vector<std::string>& indices,
                           const std::string& template_interval) {
  if (indices.empty()) return Status();
  std::string list;
  for (const std::string& i : indices) list += (list.empty() ? "" : ",") + i;
  HttpResult r =
      client_->Request("GET", "/" + list + "/_settings/index.refresh_interval?flat_settings=true");
  if (!r.ok()) {
    return Status::Error("reading refresh_interval failed (" + DescribeHttpFailure(r) +
                         "): indexing with periodic refreshes");
  }
  std::vector<std::pair<std::string, std::string>> found = ParseRefreshIntervals(r.body);
  for (auto& [index, value] : found) {
    if (value == kRefreshOff) {
      // Left by a push that could not restore it (killed): the template's value is the one.
      found_paused_.push_back(index);
      value = template_interval;
    }
  }
  r = client_->Request("PUT", "/" + list + "/_settings", RefreshBody(kRefreshOff));
  if (!r.ok()) {
    return Status::Error("turning refresh off failed (" + DescribeHttpFailure(r) +
                         "): indexing with periodic refreshes");
  }
  saved_.insert(saved_.end(), found.begin(), found.end());
  return Status();
}

Status RefreshPause::Restore() {
  Status first;
  for (const auto& [index, value] : saved_) {
    HttpResult r = client_->Request("PUT", "/" + index + "/_settings", RefreshBody(value));
    if (!r.ok() && first.ok()) {
      first = Status::Error("restoring refresh_interval of " + index + " failed (" +
                            DescribeHttpFailure(r) + "): the next push restores it");
    }
  }
  saved_.clear();
  return first;
}

std::string TemplateRefreshInterval(HttpClient* client, const std::string& name) {
  HttpResult r = client->Request("GET", "/_index_template/" + name);
  if (!r.ok()) return "";
  rapidjson::Document d;
  d.Parse(r.body.data(), r.body.size());
  const char* path[] = {"index_template", "template", "settings", "index"};
  if (d.HasParseError() || !d.IsObject() || !d.HasMember("index_templates") ||
      !d["index_templates"].IsArray() || d["index_templates"].Empty()) {
    return "";
  }
  const rapidjson::Value* v = &d["index_templates"][0];
  for (const char* key : path) {
    if (!v->IsObject() || !v->HasMember(key)) return "";
    v = &(*v)[key];
  }
  const std::string value = StringOr(*v, "refresh_interval");
  return value == kRefreshOff ? "" : value;
}

}  // namespace fiohist
