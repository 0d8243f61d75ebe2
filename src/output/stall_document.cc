#include "output/stall_document.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstdio>

#include "log/time_anchor.h"
#include "output/document_id.h"
#include "output/fields.h"
#include "output/json_text.h"

namespace fiohist {
namespace {

using StallWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// `name`, checked against StallFields() (CheckedFieldName).
const char* StallKey(const char* name) { return CheckedFieldName(StallFields(), name, "stall"); }

void StallString(StallWriter& w, const char* key, const std::string& v) {
  w.Key(StallKey(key));
  w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
}

void StallNumber(StallWriter& w, const char* key, double v) {
  w.Key(StallKey(key));
  if (!std::isfinite(v)) {
    w.Null();
    return;
  }
  char buf[json_text::kMaxDouble];
  const char* end = json_text::PutDouble(buf, v);
  w.RawValue(buf, static_cast<size_t>(end - buf), rapidjson::kNumberType);
}

void StallTime(StallWriter& w, const char* key, int64_t ms, bool absolute) {
  if (absolute) {
    StallString(w, key, FormatIsoTime(ms));
  } else {
    w.Key(StallKey(key));
    w.Int64(ms);
  }
}

// A latency as the report writes it (report.js fmtNs): three significant digits at most,
// in s, ms, µs or ns.
std::string LatencyText(double ns) {
  const double a = std::fabs(ns);
  const double div = a >= 1e9 ? 1e9 : a >= 1e6 ? 1e6 : a >= 1e3 ? 1e3 : 1;
  const char* unit = a >= 1e9 ? "s" : a >= 1e6 ? "ms" : a >= 1e3 ? "\xc2\xb5s" : "ns";
  const double v = ns / div;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f %s", v >= 100 ? 0 : v >= 10 ? 1 : 2, v, unit);
  return buf;
}

}  // namespace

std::string StallText(const Stall& stall) {
  char head[64];
  std::snprintf(head, sizeof head, "%s %.1f s", stall.idle ? "idle" : "stall", stall.seconds());
  if (stall.idle) return head;
  char stuck[64];
  std::snprintf(stuck, sizeof stuck, ": %.0f I/Os stuck, slowest ", std::round(stall.stuck_ios));
  return head + std::string(stuck) + LatencyText(stall.slowest_ns);
}

std::string StallId(const std::string& run, const Stall& stall) {
  IdHash h;
  h.Feed(DocKindName(DocKind::kStalls));
  h.Sep();
  h.Feed(run);
  h.Sep();
  h.Feed(stall.host.empty() ? "cluster" : "host");
  h.Sep();
  h.Feed(stall.host);
  h.Sep();
  h.Feed(std::to_string(stall.end_ms));
  char hex[32];
  h.Hex(hex);
  return std::string(hex, sizeof hex);
}

std::string StallDocument(const Stall& stall, const RunMeta& meta, bool absolute,
                          double ns_per_unit) {
  const std::string kind = stall.idle ? "idle" : "stall";
  const std::string scope = stall.host.empty() ? "cluster" : "host";
  rapidjson::StringBuffer buf;
  StallWriter f(buf);
  f.StartObject();
  StallString(f, "kind", kind);
  StallString(f, "scope", scope);
  if (!stall.host.empty()) StallString(f, "host", stall.host);
  StallTime(f, "@timestamp", stall.start_ms, absolute);
  StallTime(f, "end", stall.end_ms, absolute);
  f.Key(StallKey("start_ms"));
  f.Int64(stall.start_ms);
  f.Key(StallKey("end_ms"));
  f.Int64(stall.end_ms);
  StallNumber(f, "duration_s", stall.seconds());
  StallNumber(f, "stuck_ios", stall.stuck_ios);
  StallNumber(f, "stuck_max", stall.slowest_ns / ns_per_unit);
  StallString(f, "text", StallText(stall));
  f.Key(StallKey("annotation_tags"));
  f.StartArray();
  f.String(kind.c_str());
  f.String(scope.c_str());
  if (!stall.host.empty()) f.String(stall.host.c_str());
  f.EndArray();
  f.EndObject();
  // The run's meta fields first, as every document of the run carries them (RunMetaJson:
  // ",\"run\":..." or ""), then the stall's own.
  const std::string meta_json = RunMetaJson(meta);
  std::string doc = "{";
  if (!meta_json.empty()) doc += meta_json.substr(1) + ",";
  doc.append(buf.GetString() + 1, buf.GetSize() - 1);
  return doc;
}

}  // namespace fiohist
