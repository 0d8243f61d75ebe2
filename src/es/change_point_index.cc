#include "es/change_point_index.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <utility>

namespace fiohist {
namespace {

const char kChangeSearchOptions[] = "ignore_unavailable=true&allow_no_indices=true";

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

std::string Pattern(const std::string& prefix) { return ChangeIndexName(prefix); }

void Strings(JsonWriter& w, const std::vector<std::string>& values) {
  w.StartArray();
  for (const std::string& v : values) w.String(v);
  w.EndArray();
}

// Reads a bulk answer: an error naming the first failed item.
Status CheckBulk(const HttpResult& r, const char* what) {
  if (!r.ok()) return Status::Error(std::string(what) + " failed: " + DescribeHttpFailure(r));
  rapidjson::Document d;
  d.Parse(r.body.c_str());
  if (d.HasParseError() || !d.IsObject()) {
    return Status::Error(std::string(what) + ": the answer is not JSON");
  }
  if (!d.HasMember("errors") || !d["errors"].IsTrue()) return Status();
  for (const auto& item : d["items"].GetArray()) {
    for (auto m = item.MemberBegin(); m != item.MemberEnd(); ++m) {
      const rapidjson::Value& v = m->value;
      if (!v.HasMember("error") || (v.HasMember("status") && v["status"].GetInt() == 404)) continue;
      rapidjson::StringBuffer b;
      rapidjson::Writer<rapidjson::StringBuffer> ew(b);
      v["error"].Accept(ew);
      return Status::Error(std::string(what) + ": document " +
                           (v.HasMember("_id") ? v["_id"].GetString() : "?") + ": " +
                           b.GetString());
    }
  }
  return Status();
}

// Deletes (or with `dry_run` counts) the change points matching `query` (a query object).
Status DeleteMatching(HttpClient* client, const std::string& prefix, const std::string& query,
                      bool dry_run, uint64_t* deleted) {
  *deleted = 0;
  // A prefix's change points are few (a handful per tag and year): one page holds them.
  HttpResult r = client->Request(
      "POST", "/" + Pattern(prefix) + "/_search?" + kChangeSearchOptions,
      R"({"size":10000,"_source":false,"query":)" + query + "}");
  if (!r.ok()) {
    return Status::Error("searching change points failed: " + DescribeHttpFailure(r));
  }
  rapidjson::Document d;
  d.Parse(r.body.c_str());
  if (d.HasParseError() || !d.IsObject() || !d.HasMember("hits")) {
    return Status::Error("searching change points: the answer is not a search result");
  }
  rapidjson::StringBuffer bulk;
  for (const auto& hit : d["hits"]["hits"].GetArray()) {
    JsonWriter w(bulk);
    w.StartObject();
    w.Key("delete");
    w.StartObject();
    w.Key("_index");
    w.String(hit["_index"].GetString());
    w.Key("_id");
    w.String(hit["_id"].GetString());
    w.EndObject();
    w.EndObject();
    bulk.Put('\n');
    ++*deleted;
  }
  if (dry_run || *deleted == 0) return Status();
  return CheckBulk(client->Request("POST", "/_bulk?refresh=true",
                                   std::string(bulk.GetString(), bulk.GetSize()),
                                   "application/x-ndjson"),
                   "deleting change points");
}

// Indexes `docs` (id, document) into the index by id, refreshed; `what` names the failure.
Status IndexDocuments(HttpClient* client, const std::string& prefix,
                      const std::vector<std::pair<std::string, std::string>>& docs,
                      const char* what) {
  if (docs.empty()) return Status();
  rapidjson::StringBuffer bulk;
  for (const auto& [id, doc] : docs) {
    JsonWriter w(bulk);
    w.StartObject();
    w.Key("index");
    w.StartObject();
    w.Key("_index");
    w.String(ChangeIndexName(prefix));
    w.Key("_id");
    w.String(id);
    w.EndObject();
    w.EndObject();
    bulk.Put('\n');
    for (char ch : doc) bulk.Put(ch);
    bulk.Put('\n');
  }
  return CheckBulk(client->Request("POST", "/_bulk?refresh=true",
                                   std::string(bulk.GetString(), bulk.GetSize()),
                                   "application/x-ndjson"),
                   what);
}

}  // namespace

std::string ChangeIndexName(const std::string& prefix) { return prefix + "-changes"; }

Status InstallChangeTemplate(HttpClient* client, const std::string& mappings_dir,
                             const std::string& prefix, const IndexSettings& settings) {
  std::string body;
  // The one index only: no pattern with a wildcard that another prefix's names could meet
  // (Elasticsearch refuses templates of equal priority whose patterns overlap).
  Status st = LoadTemplateFor(mappings_dir, kChangeTemplateFile, ChangeIndexName(prefix), false,
                              false, settings, &body);
  if (!st.ok()) return st;
  const std::string name = ChangeIndexName(prefix);
  HttpResult r = client->Request("PUT", "/_index_template/" + name, body);
  if (!r.ok()) {
    return Status::Error("installing index template " + name +
                         " failed: " + DescribeHttpFailure(r));
  }
  // An index made by an older template lacks its newer fields (`kind`, `baseline`), and its
  // mapping is not dynamic: give it the template's fields (adding fields is allowed; those
  // it has are unchanged).
  rapidjson::Document t;
  t.Parse(body.c_str());
  if (t.HasParseError() || !t.IsObject() || !t.HasMember("template") ||
      !t["template"].HasMember("mappings")) {
    return Status::Error("index template " + name + ": no mappings in " + kChangeTemplateFile);
  }
  rapidjson::StringBuffer mapping;
  rapidjson::Writer<rapidjson::StringBuffer> w(mapping);
  w.StartObject();
  w.Key("properties");
  t["template"]["mappings"]["properties"].Accept(w);
  w.EndObject();
  r = client->Request("PUT", "/" + name + "/_mapping",
                      std::string(mapping.GetString(), mapping.GetSize()));
  if (!r.ok() && r.status != 404) {
    return Status::Error("adding the fields of template " + name + " to index " + name +
                         " failed: " + DescribeHttpFailure(r));
  }
  return Status();
}

Status WriteHistoryPoints(HttpClient* client, const std::string& prefix,
                          const std::vector<HistoryPointRecord>& points) {
  std::vector<std::pair<std::string, std::string>> docs;
  for (const HistoryPointRecord& p : points) {
    docs.emplace_back(HistoryPointId(p), HistoryPointDocument(p));
  }
  return IndexDocuments(client, prefix, docs, "writing history points");
}

Status WriteChangePoints(HttpClient* client, const std::string& prefix, const std::string& tag,
                         const std::vector<std::string>& analysed_runs,
                         const std::vector<std::string>& metrics,
                         const std::vector<ChangePointRecord>& changes, ChangeWriteReport* report) {
  *report = ChangeWriteReport();
  std::vector<std::pair<std::string, std::string>> docs;
  std::vector<std::string> ids;
  for (const ChangePointRecord& c : changes) {
    ids.push_back(ChangePointId(c));
    docs.emplace_back(ids.back(), ChangePointDocument(c));
  }
  Status st = IndexDocuments(client, prefix, docs, "writing change points");
  if (!st.ok()) return st;
  report->written = changes.size();
  // The tag's change points of these runs and metrics that this analysis did not write.
  rapidjson::StringBuffer q;
  JsonWriter w(q);
  w.StartObject();
  w.Key("bool");
  w.StartObject();
  w.Key("filter");
  w.StartArray();
  w.StartObject();
  w.Key("term");
  w.StartObject();
  w.Key("tag");
  w.String(tag);
  w.EndObject();
  w.EndObject();
  w.StartObject();
  w.Key("terms");
  w.StartObject();
  w.Key("run");
  Strings(w, analysed_runs);
  w.EndObject();
  w.EndObject();
  w.StartObject();
  w.Key("terms");
  w.StartObject();
  w.Key("metric");
  Strings(w, metrics);
  w.EndObject();
  w.EndObject();
  w.EndArray();
  w.Key("must_not");
  w.StartObject();
  w.Key("ids");
  w.StartObject();
  w.Key("values");
  Strings(w, ids);
  w.EndObject();
  w.EndObject();
  w.EndObject();
  w.EndObject();
  return DeleteMatching(client, prefix, std::string(q.GetString(), q.GetSize()), false,
                        &report->removed);
}

Status DeleteChangePointsOfRun(HttpClient* client, const std::string& prefix,
                               const std::string& run, uint64_t* deleted) {
  rapidjson::StringBuffer q;
  JsonWriter w(q);
  w.StartObject();
  w.Key("term");
  w.StartObject();
  w.Key("run");
  w.String(run);
  w.EndObject();
  w.EndObject();
  return DeleteMatching(client, prefix, std::string(q.GetString(), q.GetSize()), false, deleted);
}

Status DeleteChangePointsBefore(HttpClient* client, const std::string& prefix, int64_t cutoff_ms,
                                bool dry_run, uint64_t* deleted) {
  return DeleteMatching(client, prefix,
                        R"({"range":{"start_ms":{"lt":)" + std::to_string(cutoff_ms) + "}}}",
                        dry_run, deleted);
}

}  // namespace fiohist
