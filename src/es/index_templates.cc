#include "es/index_templates.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/path.h"

namespace fiohist {

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

std::string IndexName(const std::string& prefix, DocKind kind) {
  return prefix + "-" + DocKindName(kind);
}

std::string AllIndexNames(const std::string& prefix) {
  return IndexName(prefix, DocKind::kPercentiles) + "," + IndexName(prefix, DocKind::kBuckets) +
         "," + IndexName(prefix, DocKind::kRun);
}

std::string TemplateFileName(DocKind kind, bool without_histogram) {
  std::string name = std::string("fiohist-") + DocKindName(kind);
  if (without_histogram) name += "-nohistogram";
  return name + ".json";
}

std::string RewriteIndexPrefix(const std::string& index, const std::string& prefix) {
  for (DocKind kind : {DocKind::kPercentiles, DocKind::kBuckets, DocKind::kRun}) {
    std::string suffix = std::string("-") + DocKindName(kind);
    if (index.size() > suffix.size() &&
        index.compare(index.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return IndexName(prefix, kind);
    }
  }
  return index;
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
                         DocKind kind, std::string* body) {
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
  std::string name = IndexName(prefix, kind);
  patterns.PushBack(rapidjson::Value(name.c_str(), alloc), alloc);
  if (doc.HasMember("index_patterns")) {
    doc["index_patterns"] = patterns;
  } else {
    doc.AddMember("index_patterns", patterns, alloc);
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  doc.Accept(writer);
  body->assign(buffer.GetString(), buffer.GetSize());
  return Status();
}

}  // namespace fiohist
