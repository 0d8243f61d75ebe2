#include "es/index_templates.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/path.h"

namespace fiohist {

using rapidjson::Value;

namespace {

// Days since 1970-01-01 of the first day of `year`-`month` (proleptic Gregorian; the civil
// calendar algorithm of H. Hinnant, days_from_civil), C++17 having no std::chrono calendar.
int64_t DaysFromCivil(int year, unsigned month) {
  const int64_t y = static_cast<int64_t>(year) - (month <= 2 ? 1 : 0);
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t mp = (month + 9) % 12;
  const int64_t doy = (153 * mp + 2) / 5;  // day 1 of the month
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// The inverse for year and month: the month holding day `days` since 1970-01-01.
void CivilFromDays(int64_t days, int* year, unsigned* month) {
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *month = static_cast<unsigned>(mp < 10 ? mp + 3 : mp - 9);
  *year = static_cast<int>(yoe + era * 400 + (*month <= 2 ? 1 : 0));
}

}  // namespace

Status ValidateIndexPrefix(const std::string& prefix) {
  if (prefix.empty() || prefix.size() > 100) {
    return Status::Error("index prefix must be 1 to 100 characters");
  }
  for (char c : prefix) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) {
      return Status::Error("index prefix '" + prefix +
                           "' may only hold lowercase letters, digits, '.', '_' and '-'");
    }
  }
  char first = prefix[0];
  if (!((first >= 'a' && first <= 'z') || (first >= '0' && first <= '9'))) {
    return Status::Error("index prefix '" + prefix + "' must start with a letter or digit");
  }
  return Status();
}

std::string IndexBaseName(const std::string& prefix, DocKind kind) {
  return prefix + "-" + DocKindName(kind);
}

std::string IndexName(const std::string& prefix, DocKind kind, int64_t run_start_ms) {
  // Floor division: a (pathological) start before 1970 still names its own month.
  int64_t days = run_start_ms / 86400000;
  if (run_start_ms % 86400000 < 0) --days;
  int year = 0;
  unsigned month = 0;
  CivilFromDays(days, &year, &month);
  char suffix[24];
  std::snprintf(suffix, sizeof suffix, "-%04d.%02u", year, month);
  return IndexBaseName(prefix, kind) + suffix;
}

std::string IndexPattern(const std::string& prefix, DocKind kind) {
  const std::string base = IndexBaseName(prefix, kind);
  return base + "," + base + "-*";
}

std::string AllIndexPatterns(const std::string& prefix) {
  std::string all;
  for (DocKind kind : kAllDocKinds) all += (all.empty() ? "" : ",") + IndexPattern(prefix, kind);
  return all;
}

bool ParseIndexName(const std::string& prefix, const std::string& index, IndexNameParts* parts) {
  for (DocKind kind : kAllDocKinds) {
    const std::string base = IndexBaseName(prefix, kind);
    if (index.compare(0, base.size(), base) != 0) continue;
    const std::string rest = index.substr(base.size());
    *parts = IndexNameParts();
    parts->kind = kind;
    if (rest.empty()) return true;
    // "-YYYY.MM"
    if (rest.size() != 8 || rest[0] != '-' || rest[5] != '.') return false;
    for (size_t i : {1, 2, 3, 4, 6, 7}) {
      if (rest[i] < '0' || rest[i] > '9') return false;
    }
    parts->year = std::stoi(rest.substr(1, 4));
    parts->month = std::stoi(rest.substr(6, 2));
    if (parts->month < 1 || parts->month > 12) return false;
    parts->monthly = true;
    return true;
  }
  return false;
}

int64_t MonthEndMs(int year, int month) {
  if (month == 12) return DaysFromCivil(year + 1, 1) * 86400000;
  return DaysFromCivil(year, static_cast<unsigned>(month) + 1) * 86400000;
}

std::string TemplateFileName(DocKind kind, bool without_histogram) {
  std::string name = std::string("fiohist-") + DocKindName(kind);
  if (without_histogram) name += "-nohistogram";
  return name + ".json";
}

std::string RewriteIndexPrefix(const std::string& index, const std::string& prefix) {
  for (DocKind kind : kAllDocKinds) {
    const std::string infix = std::string("-") + DocKindName(kind);
    // "<any>-<kind>" or "<any>-<kind>-YYYY.MM": the month stays.
    size_t at = index.size() >= infix.size() + 8 ? index.size() - infix.size() - 8 : 0;
    if (at > 0 && index.compare(at, infix.size(), infix) == 0 && index[at + infix.size()] == '-') {
      IndexNameParts parts;
      const std::string tail = index.substr(at + infix.size());
      if (ParseIndexName("x", "x" + infix + tail, &parts) && parts.monthly) {
        return IndexBaseName(prefix, kind) + tail;
      }
    }
    if (index.size() > infix.size() &&
        index.compare(index.size() - infix.size(), infix.size(), infix) == 0) {
      return IndexBaseName(prefix, kind);
    }
  }
  return index;
}

Status ParseIndexSettings(bool shards_given, int64_t shards, const std::string& replicas,
                          IndexSettings* out) {
  *out = IndexSettings();
  if (shards_given) {
    if (shards < 1 || shards > 1024) {
      return Status::Error("--shards: expected a number of primary shards from 1 to 1024, got " +
                           std::to_string(shards));
    }
    out->shards = static_cast<int>(shards);
  }
  if (replicas.empty()) return Status();
  if (replicas == "auto") {
    out->replicas = replicas;
    return Status();
  }
  bool digits = replicas.size() <= 2;
  for (char c : replicas) digits = digits && c >= '0' && c <= '9';
  if (!digits || std::stoi(replicas) > 16) {
    return Status::Error("--replicas: expected 'auto' (one replica when the cluster has a second "
                         "node, none on one node) or a number of replicas from 0 to 16, got '" +
                         replicas + "'");
  }
  out->replicas = std::to_string(std::stoi(replicas));
  return Status();
}

std::string DefaultMappingsDir() {
  const char* env = std::getenv("FIOHIST_MAPPINGS_DIR");
  if (env != nullptr && env[0] != '\0') return env;
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n <= 0) return FIOHIST_SOURCE_MAPPINGS_DIR;
  exe[n] = '\0';
  const std::string self(exe);
  // Run from the build tree: the source tree's templates, as edited. Installed: only the
  // copy installed beside the binary, so nothing depends on the source tree.
  const std::string build = std::string(FIOHIST_BUILD_DIR) + "/";
  if (self.compare(0, build.size(), build) == 0) return FIOHIST_SOURCE_MAPPINGS_DIR;
  return std::filesystem::path(DirName(self) + "/" + FIOHIST_MAPPINGS_FROM_BIN)
      .lexically_normal()
      .string();
}

Status LoadIndexTemplate(const std::string& dir, const std::string& file, const std::string& prefix,
                         DocKind kind, const IndexSettings& settings, std::string* body) {
  // A runs or stalls index holds a few small documents per run: one shard.
  return LoadTemplateFor(dir, file, IndexBaseName(prefix, kind), true,
                         kind != DocKind::kRun && kind != DocKind::kStalls, settings, body);
}

Status LoadTemplateFor(const std::string& dir, const std::string& file, const std::string& base,
                       bool monthly, bool takes_shards, const IndexSettings& settings,
                       std::string* body) {
  std::string path = (dir.empty() ? DefaultMappingsDir() : dir) + "/" + file;
  std::ifstream in(path);
  if (!in) {
    return Status::Error("cannot read index template " + path +
                         " (use --mappings DIR or FIOHIST_MAPPINGS_DIR)");
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string json = text.str();
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    return Status::InputError(path, 0, "not a JSON object");
  }
  if (!doc.HasMember("template") && !doc.HasMember("composed_of")) {
    return Status::InputError(path, 0, "not an index template (no \"template\" member)");
  }
  rapidjson::Document::AllocatorType& alloc = doc.GetAllocator();
  rapidjson::Value patterns(rapidjson::kArrayType);
  // The single index of before partitioning and the monthly ones; "<base>-*" and not
  // "<base>*", so the patterns of two prefixes never overlap (Elasticsearch refuses templates
  // of equal priority whose patterns do).
  patterns.PushBack(rapidjson::Value(base.c_str(), alloc), alloc);
  if (monthly) patterns.PushBack(rapidjson::Value((base + "-*").c_str(), alloc), alloc);
  if (doc.HasMember("index_patterns")) {
    doc["index_patterns"] = patterns;
  } else {
    doc.AddMember("index_patterns", patterns, alloc);
  }
  if (!settings.empty()) {
    if (!doc["template"].IsObject()) {
      return Status::InputError(path, 0, "\"template\" is not an object");
    }
    rapidjson::Value& tmpl = doc["template"];
    if (!tmpl.HasMember("settings")) tmpl.AddMember("settings", Value(rapidjson::kObjectType), alloc);
    rapidjson::Value& top = tmpl["settings"];
    if (!top.HasMember("index")) top.AddMember("index", Value(rapidjson::kObjectType), alloc);
    rapidjson::Value& index = top["index"];
    auto set = [&](const char* key, rapidjson::Value value) {
      index.RemoveMember(key);
      index.AddMember(rapidjson::Value(key, alloc), value, alloc);
    };
    if (settings.shards > 0 && takes_shards) {
      set("number_of_shards", rapidjson::Value(settings.shards));
    }
    if (settings.replicas == "auto") {
      index.RemoveMember("number_of_replicas");
      set("auto_expand_replicas", rapidjson::Value("0-1", alloc));
    } else if (!settings.replicas.empty()) {
      set("auto_expand_replicas", rapidjson::Value("false", alloc));
      set("number_of_replicas", rapidjson::Value(std::stoi(settings.replicas)));
    }
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  doc.Accept(writer);
  body->assign(buffer.GetString(), buffer.GetSize());
  return Status();
}

}  // namespace fiohist
