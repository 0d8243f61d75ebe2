#include "es/server_probe.h"

#include <rapidjson/document.h>

#include "es/admin_json.h"
#include "es/index_templates.h"

namespace fiohist {

namespace {

using rapidjson::Value;

}  // namespace

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

void ProbeServer(HttpClient* client, ServerInfo* info) {
  *info = ServerInfo();
  HttpResult r = client->Request("GET", "/");
  if (r.ok() && ParseServerRoot(r.body, info)) return;
  r = client->Request("GET", "/_nodes/_local?filter_path=nodes.*.version,nodes.*.build_flavor");
  if (r.ok()) ParseNodesInfo(r.body, info);
}

}  // namespace fiohist
