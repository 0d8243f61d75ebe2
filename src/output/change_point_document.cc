#include "output/change_point_document.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstdio>
#include <set>

#include "log/time_anchor.h"
#include "output/fields.h"

namespace fiohist {
namespace {

std::string EscapePart(const std::string& part) {
  std::string out;
  for (char c : part) {
    if (c == '%') {
      out += "%25";
    } else if (c == '/') {
      out += "%2F";
    } else {
      out += c;
    }
  }
  return out;
}

// Elasticsearch ids are at most 512 bytes: a longer one is cut and given a hash.
std::string CapId(const std::string& id) {
  if (id.size() <= 512) return id;
  // std::hash is not stable across builds: FNV-1a 64, a fixed function of the bytes.
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : id) h = (h ^ ch) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  return id.substr(0, 512 - 17) + "#" + hex;
}

}  // namespace

std::string ChangePointId(const ChangePointRecord& c) {
  return CapId(EscapePart(c.tag) + "/" + EscapePart(c.direction) + "/" + EscapePart(c.metric) +
               "/" + EscapePart(c.run));
}

std::string HistoryPointId(const HistoryPointRecord& p) {
  return CapId(EscapePart(p.tag) + "/" + EscapePart(p.run) + "/" + EscapePart(p.direction));
}

std::string HistoryPointDocument(const HistoryPointRecord& p) {
  static const std::set<std::string> mapped = [] {
    std::set<std::string> names;
    for (const Field& f : ChangePointFields()) names.insert(f.name);
    return names;
  }();
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("kind");
  w.String("point");
  w.Key("@timestamp");
  w.String(FormatIsoTime(p.start_ms));
  w.Key("start_ms");
  w.Int64(p.start_ms);
  if (p.end_ms > 0) {
    w.Key("end_ms");
    w.Int64(p.end_ms);
  }
  w.Key("tag");
  w.String(p.tag);
  w.Key("run");
  w.String(p.run);
  w.Key("direction");
  w.String(p.direction);
  if (!p.baseline.empty()) {
    w.Key("baseline");
    w.String(p.baseline);
  }
  w.Key("runs");
  w.Int(p.runs);
  w.Key("analysed_at");
  w.String(FormatIsoTime(p.analysed_at_ms));
  for (const HistoryPointRecord::Value& v : p.values) {
    const std::pair<const char*, double> parts[] = {{"", v.value}, {"_low", v.low},
                                                    {"_high", v.high}};
    for (const auto& [suffix, x] : parts) {
      const std::string name = v.field + suffix;
      if (!mapped.count(name) || !std::isfinite(x)) continue;
      w.Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
      w.Double(x);
    }
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string ChangePointDocument(const ChangePointRecord& c) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  auto number = [&w](double v) { std::isfinite(v) ? w.Double(v) : w.Null(); };
  const double ratio = c.before > 0 ? c.after / c.before : NAN;
  w.StartObject();
  w.Key("kind");
  w.String("change");
  w.Key("@timestamp");
  w.String(FormatIsoTime(c.start_ms));
  w.Key("start_ms");
  w.Int64(c.start_ms);
  w.Key("tag");
  w.String(c.tag);
  w.Key("metric");
  w.String(c.metric);
  w.Key("direction");
  w.String(c.direction);
  w.Key("run");
  w.String(c.run);
  w.Key("run_before");
  w.String(c.run_before);
  w.Key("unit");
  w.String(c.unit);
  w.Key("before");
  number(c.before);
  w.Key("after");
  number(c.after);
  w.Key("ratio");
  number(ratio);
  w.Key("p_value");
  number(c.p_value);
  w.Key("runs");
  w.Int(c.runs);
  w.Key("analysed_at");
  w.String(FormatIsoTime(c.analysed_at_ms));
  char text[512];
  std::snprintf(text, sizeof(text), "%s %s %s x%.3f: %.4g -> %.4g %s from run %s (p = %.3g)",
                c.tag.c_str(), c.direction.c_str(), c.metric.c_str(), ratio, c.before, c.after,
                c.unit.c_str(), c.run.c_str(), c.p_value);
  w.Key("text");
  w.String(text);
  w.Key("labels");
  w.StartArray();
  w.String(c.direction);
  w.String(c.metric);
  w.String(ratio > 1 ? "rise" : "fall");
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace fiohist
