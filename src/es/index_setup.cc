#include "es/index_setup.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdlib>

#include "es/admin_json.h"
#include "es/change_point_index.h"

namespace fiohist {

namespace {

using rapidjson::Value;

}  // namespace

bool LacksHistogramType(const HttpResult& r) {
  return r.status == 400 && r.body.find("mapper_parsing_exception") != std::string::npos &&
         r.body.find("histogram") != std::string::npos;
}

bool ParseTemplateSettings(const std::string& body, IndexSettings* settings) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("index_templates") ||
      !doc["index_templates"].IsArray() || doc["index_templates"].Empty()) {
    return false;
  }
  const Value& t = doc["index_templates"][0];
  if (!t.IsObject() || !t.HasMember("index_template")) return false;
  const Value& it = t["index_template"];
  if (NumberOr(it, "version", 0) < 2 || !it.HasMember("template")) return false;
  const Value& tmpl = it["template"];
  if (!tmpl.IsObject() || !tmpl.HasMember("settings") || !tmpl["settings"].IsObject()) return false;
  const Value& top = tmpl["settings"];
  if (!top.HasMember("index") || !top["index"].IsObject()) return false;
  const Value& index = top["index"];
  *settings = IndexSettings();
  // Elasticsearch answers setting values as strings.
  const std::string shards = StringOr(index, "number_of_shards");
  if (!shards.empty()) settings->shards = std::atoi(shards.c_str());
  const std::string expand = StringOr(index, "auto_expand_replicas");
  const std::string replicas = StringOr(index, "number_of_replicas");
  if (expand == "0-1") {
    settings->replicas = "auto";
  } else if (!replicas.empty()) {
    settings->replicas = replicas;
  }
  return true;
}

std::string TemplateRefusedMessage(const std::string& name, const HttpResult& r) {
  std::string text =
      "the cluster refused index template " + name + " (" + DescribeHttpFailure(r) + "): ";
  if (r.status == 401 || r.status == 403) {
    return text +
           "the user needs the cluster privilege manage_index_templates and the index "
           "privileges create_index, write, read, delete_index on the prefix's indices "
           "(or run `fiohist setup` once as a user who has them)";
  }
  if (r.status == 400 || r.status == 404 || r.status == 405) {
    return text +
           "fiohist needs composable index templates (Elasticsearch 7.8 or later, "
           "OpenSearch 1.0 or later); upgrade the cluster, or check the templates "
           "given with --mappings";
  }
  return text + "check that the cluster is healthy, then run `fiohist setup` again";
}

Status IndexSetup::KeptSettings(DocKind kind, IndexSettings* settings) {
  *settings = IndexSettings();
  HttpResult r = client_->Request("GET", "/_index_template/" + IndexBaseName(prefix_, kind));
  if (!r.error.empty()) {
    return Status::Error("reading index template " + IndexBaseName(prefix_, kind) +
                         " failed: " + DescribeHttpFailure(r));
  }
  // None yet (404), or not readable (403, an old cluster): the file's defaults, and the PUT
  // that follows says what is wrong if anything is.
  if (!r.ok()) return Status();
  ParseTemplateSettings(r.body, settings);
  return Status();
}

Status IndexSetup::InstallTemplates(const std::string& mappings_dir, const IndexSettings& settings,
                                    TemplateReport* report) {
  *report = TemplateReport();
  // The files first, before any request: a missing or broken template is named as such, not
  // hidden behind a connection error.
  for (DocKind kind : kAllDocKinds) {
    std::string body;
    Status st =
        LoadIndexTemplate(mappings_dir, TemplateFileName(kind), prefix_, kind, settings, &body);
    if (!st.ok()) return st;
  }
  for (DocKind kind : {DocKind::kPercentiles, DocKind::kRun, DocKind::kStalls, DocKind::kBuckets}) {
    IndexSettings chosen = settings;
    if (chosen.empty()) {
      Status st = KeptSettings(kind, &chosen);
      if (!st.ok()) return st;
    }
    std::string body;
    Status st =
        LoadIndexTemplate(mappings_dir, TemplateFileName(kind), prefix_, kind, chosen, &body);
    if (!st.ok()) return st;
    std::string name = IndexBaseName(prefix_, kind);
    HttpResult r = client_->Request("PUT", "/_index_template/" + name, body);
    if (kind == DocKind::kBuckets && LacksHistogramType(r)) {
      // The cluster has no `histogram` field type (integ-test build, OpenSearch): the fallback
      // keeps `latency` in _source only.
      report->histogram_supported = false;
      st = LoadIndexTemplate(mappings_dir, TemplateFileName(kind, true), prefix_, kind, chosen,
                             &body);
      if (!st.ok()) return st;
      r = client_->Request("PUT", "/_index_template/" + name, body);
    }
    if (!r.ok()) {
      if (!r.error.empty()) {
        return Status::Error("installing index template " + name +
                             " failed: " + DescribeHttpFailure(r));
      }
      return Status::Error(TemplateRefusedMessage(name, r));
    }
    report->installed.push_back(name);
    st = AddMissingFields(kind, body, report);
    if (!st.ok()) return st;
  }
  // The change points' index (history --annotate): its replicas as asked, else the file's.
  Status st = InstallChangeTemplate(client_, mappings_dir, prefix_, settings);
  if (!st.ok()) return st;
  report->installed.push_back(ChangeIndexName(prefix_));
  return Status();
}

Status IndexSetup::AddMissingFields(DocKind kind, const std::string& template_body,
                                    TemplateReport* report) {
  rapidjson::Document t;
  t.Parse(template_body.c_str());
  if (t.HasParseError() || !t.IsObject() || !t.HasMember("template") ||
      !t["template"].HasMember("mappings") || !t["template"]["mappings"].HasMember("properties")) {
    return Status();  // a user's template without properties: nothing to add
  }
  const rapidjson::Value& props = t["template"]["mappings"]["properties"];
  HttpResult r = client_->Request(
      "GET", "/" + IndexPattern(prefix_, kind) + "/_mapping?" + kMultiIndexOptions);
  if (!r.ok()) return Status();  // none yet, or not readable: the push says what is wrong
  rapidjson::Document have;
  have.Parse(r.body.c_str());
  if (have.HasParseError() || !have.IsObject()) return Status();
  for (auto it = have.MemberBegin(); it != have.MemberEnd(); ++it) {
    const rapidjson::Value& m = it->value;
    if (!m.IsObject() || !m.HasMember("mappings")) continue;
    const rapidjson::Value* existing =
        m["mappings"].HasMember("properties") ? &m["mappings"]["properties"] : nullptr;
    // Fields this fiohist writes that the index (made by an earlier one, from an earlier
    // template) lacks: mapped now, before a document maps them dynamically as stored-only.
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    w.Key("properties");
    w.StartObject();
    int missing = 0;
    for (auto f = props.MemberBegin(); f != props.MemberEnd(); ++f) {
      if (existing && existing->HasMember(f->name)) continue;
      f->name.Accept(w);
      f->value.Accept(w);
      ++missing;
    }
    w.EndObject();
    w.EndObject();
    if (missing == 0) continue;
    const std::string index = it->name.GetString();
    HttpResult p = client_->Request("PUT", "/" + index + "/_mapping",
                                    std::string(buf.GetString(), buf.GetSize()));
    if (!p.ok()) {
      return Status::Error("adding this fiohist's " + std::to_string(missing) +
                           " new field(s) to index " + index +
                           " failed: " + DescribeHttpFailure(p));
    }
    report->updated.push_back(index);
  }
  return Status();
}

Status IndexSetup::CreateRunIndices(int64_t run_start_ms, TemplateReport* report, int min_shards) {
  for (DocKind kind : kAllDocKinds) {
    std::string name = IndexName(prefix_, kind, run_start_ms);
    std::string body = "{}";
    if (min_shards > 1 && kind != DocKind::kRun && kind != DocKind::kStalls) {
      // More primaries than the template's: every data node indexes (a runs or stalls index
      // holds a few small documents per run and keeps the template's).
      IndexSettings kept;
      Status st = KeptSettings(kind, &kept);
      if (!st.ok()) return st;
      if (kept.shards < min_shards) {
        body = R"({"settings":{"index":{"number_of_shards":)" + std::to_string(min_shards) + "}}}";
      }
    }
    HttpResult r = client_->Request("PUT", "/" + name, body);
    if (r.ok()) {
      report->created.push_back(name);
      if (body != "{}") report->spread.push_back(name);
    } else if (!(r.status == 400 &&
                 r.body.find("resource_already_exists_exception") != std::string::npos)) {
      return Status::Error("creating index " + name + " failed: " + DescribeHttpFailure(r));
    }
  }
  return Status();
}

Status IndexSetup::BucketsTemplateHasHistogram(bool* histogram) {
  const std::string name = IndexBaseName(prefix_, DocKind::kBuckets);
  HttpResult r = client_->Request("GET", "/_index_template/" + name);
  *histogram = false;
  if (r.status == 404) return Status();  // no template: the compact form fits any mapping
  if (!r.ok()) {
    return Status::Error("reading index template " + name + " failed: " + DescribeHttpFailure(r));
  }
  rapidjson::Document d;
  d.Parse(r.body.c_str());
  const char* path[] = {"index_template", "template", "mappings", "properties", "latency", "type"};
  const rapidjson::Value* v = nullptr;
  if (!d.HasParseError() && d.IsObject() && d.HasMember("index_templates") &&
      d["index_templates"].IsArray() && !d["index_templates"].Empty()) {
    v = &d["index_templates"][0];
    for (const char* key : path) {
      if (!v->IsObject() || !v->HasMember(key)) {
        v = nullptr;
        break;
      }
      v = &(*v)[key];
    }
  }
  *histogram = v != nullptr && v->IsString() && std::string(v->GetString()) == "histogram";
  return Status();
}

}  // namespace fiohist
