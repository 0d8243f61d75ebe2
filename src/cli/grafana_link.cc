#include "cli/grafana_link.h"

#include <cstdlib>

namespace fiohist {

std::string ResolveGrafanaUrl(const std::string& given) {
  if (!given.empty()) return given;
  const char* env = std::getenv("FIOHIST_GRAFANA_URL");
  return env != nullptr && *env != '\0' ? env : kDefaultGrafanaUrl;
}

std::string UrlEncode(const std::string& text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string GrafanaRunUrl(const std::string& base, const std::string& run, int64_t from_ms,
                          int64_t to_ms) {
  std::string url = base;
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url + "/d/fiohist-overview?var-run=" + UrlEncode(run) +
         "&from=" + std::to_string(from_ms) + "&to=" + std::to_string(to_ms);
}

}  // namespace fiohist
