#include "es/admin_json.h"

#include <cmath>
#include <cstdint>

#include "log/time_anchor.h"

namespace fiohist {

Status ParseJson(const HttpResult& result, const char* what, rapidjson::Document* doc) {
  doc->Parse(result.body.data(), result.body.size());
  if (doc->HasParseError() || !doc->IsObject()) {
    return Status::Error(std::string(what) + ": the response is not a JSON object");
  }
  return Status();
}

double NumberOr(const rapidjson::Value& obj, const char* key, double fallback) {
  if (obj.IsObject() && obj.HasMember(key) && obj[key].IsNumber()) return obj[key].GetDouble();
  return fallback;
}

std::string StringOr(const rapidjson::Value& obj, const char* key) {
  if (obj.IsObject() && obj.HasMember(key) && obj[key].IsString()) return obj[key].GetString();
  return "";
}

// Not `value_as_string`: over indices where the field is mapped in some and absent in others
// (bucket documents have no `end`), the server does not apply the date format.
std::string AggTime(const rapidjson::Value& agg) {
  const double ms = NumberOr(agg, "value", std::nan(""));
  return std::isfinite(ms) ? FormatIsoTime(static_cast<int64_t>(ms)) : std::string();
}

}  // namespace fiohist
