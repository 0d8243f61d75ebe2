#include "log/input_kind.h"

#include <fstream>

#include "log/client_stats.h"

namespace fiohist {
namespace {

// Enough for the global options of hundreds of servers before `client_stats`.
constexpr std::streamsize kProbeBytes = 1 << 20;

bool IsJsonBlank(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// fio's client prefixes each text line of a server with "<host> " (`<vm> w: (g=0): ...`).
// A file that starts so is a client/server output even when it was cut before its JSON
// document or before `client_stats`: its reader then says where it ends and what was
// expected, where the log reader could only say that the first line has no time stamp.
bool StartsWithServerText(const std::string& head, size_t first) {
  if (head[first] != '<') return false;
  const size_t close = head.find("> ", first);
  const size_t nl = head.find('\n', first);
  return close != std::string::npos && (nl == std::string::npos || close < nl);
}

}  // namespace

const char* InputKindName(InputKind kind) {
  switch (kind) {
    case InputKind::kHistLog:
      return "histogram log";
    case InputKind::kFioJson:
      return "fio json+ output";
    case InputKind::kClientServer:
      return "fio client/server output";
  }
  return "?";
}

InputKind DetectInputKind(const std::string& path) {
  if (path == "-") return InputKind::kHistLog;
  std::ifstream in(path, std::ios::binary);
  if (!in) return InputKind::kHistLog;
  // A log is told by its first bytes; only JSON (or text before it) is read further, so
  // thousands of logs cost one small read each.
  std::string head(4096, '\0');
  in.read(&head[0], static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  size_t first = 0;
  while (first < head.size() && IsJsonBlank(head[first])) ++first;
  if (first == head.size()) return InputKind::kHistLog;
  const char c = head[first];
  // A log line starts with its stamp; gzip with 0x1f.
  if ((c >= '0' && c <= '9') || c == '-' || c == '\x1f') return InputKind::kHistLog;
  if (in) {
    std::string rest(static_cast<size_t>(kProbeBytes) - head.size(), '\0');
    in.read(&rest[0], static_cast<std::streamsize>(rest.size()));
    rest.resize(static_cast<size_t>(in.gcount()));
    head += rest;
  }
  // The document starts at the first line beginning with '{' (fio's client prints the
  // servers' text lines before it).
  const bool server_text = StartsWithServerText(head, first);
  size_t brace = c == '{' ? first : head.find("\n{");
  if (brace == std::string::npos) {
    return server_text ? InputKind::kClientServer : InputKind::kHistLog;
  }
  if (head[brace] == '\n') ++brace;
  if (IsClientStatsText(head.substr(brace)) || server_text) return InputKind::kClientServer;
  return c == '{' ? InputKind::kFioJson : InputKind::kHistLog;
}

}  // namespace fiohist
