#include "log/smallfile_line.h"

#include "base/path.h"
#include "log/number_scan.h"

namespace fiohist {
namespace {

bool Strip(std::string* s, const std::string& suffix) {
  if (s->size() < suffix.size() || s->compare(s->size() - suffix.size(), suffix.size(), suffix)) {
    return false;
  }
  s->resize(s->size() - suffix.size());
  return true;
}

// Seconds with a fraction ("12.000345") as ns; false when not such a number.
bool ParseSeconds(const char*& p, const char* end, int64_t* ns) {
  uint64_t whole = 0;
  // Up to 10^10 s (year 2286): an epoch, in ns, still fits in 63 bits.
  if (ParseUnsigned(p, end, &whole) != 0 || whole > 10000000000ULL) return false;
  uint64_t frac = 0;
  int digits = 0;
  if (p < end && *p == '.') {
    ++p;
    while (p < end && IsDigit(*p)) {
      if (digits < 9) {
        frac = frac * 10 + static_cast<uint64_t>(*p - '0');
        ++digits;
      }
      ++p;
    }
  }
  for (; digits < 9; ++digits) frac *= 10;
  *ns = static_cast<int64_t>(whole * 1000000000ULL + frac);
  return true;
}

}  // namespace

bool ParseSmallfileName(const std::string& path, SmallfileName* name) {
  std::string n = BaseName(path);
  Strip(&n, ".gz");
  if (!Strip(&n, ".csv") || n.rfind("rsptimes_", 0) != 0) return false;
  n = n.substr(9);
  const size_t first = n.find('_');
  const size_t last = n.rfind('_');
  if (first == std::string::npos || last == first) return false;
  const size_t op_at = n.rfind('_', last - 1);
  if (op_at == std::string::npos || op_at <= first) return false;
  name->thread = n.substr(0, first);
  name->host = n.substr(first + 1, op_at - first - 1);
  name->op = n.substr(op_at + 1, last - op_at - 1);
  const std::string epoch = n.substr(last + 1);
  const char* p = epoch.data();
  int64_t ns = 0;
  if (name->host.empty() || name->op.empty() || !ParseSeconds(p, p + epoch.size(), &ns) ||
      p != epoch.data() + epoch.size()) {
    return false;
  }
  name->epoch_ms = ns / 1000000;
  name->slot = SmallfileOpDirection(name->op);
  return true;
}

Direction SmallfileOpDirection(std::string_view op) {
  for (const char* r : {"read", "ls-l", "stat", "readdir", "getattr", "listxattr", "swift-get"}) {
    if (op == r) return Direction::kRead;
  }
  for (const char* r : {"delete", "rmdir", "cleanup", "delete-renamed"}) {
    if (op == r) return Direction::kTrim;
  }
  return Direction::kWrite;
}

bool ParseSmallfileLine(std::string_view line, const SmallfileName& name, PerIoRecord* record,
                        std::string* what) {
  const char* p = line.data();
  const char* end = p + line.size();
  while (p < end && IsSpace(*p)) ++p;
  const char* op = p;
  while (p < end && *p != ',' && !IsSpace(*p)) ++p;
  const std::string_view op_text(op, static_cast<size_t>(p - op));
  if (op_text != name.op) {
    *what =
        "expected the op '" + name.op + "' of the file name in column 1, found " + Excerpt(op, end);
    return false;
  }
  int64_t times[2];
  for (int i = 0; i < 2; ++i) {
    while (p < end && IsSpace(*p)) ++p;
    if (p == end || *p != ',') {
      *what = "expected 'op, start_s, response_s', found only " + std::to_string(i + 1) +
              " column" + (i == 0 ? "" : "s");
      return false;
    }
    ++p;
    while (p < end && IsSpace(*p)) ++p;
    const char* at = p;
    if (!ParseSeconds(p, end, &times[i])) {
      *what = std::string("expected a non-negative number of seconds for ") +
              (i == 0 ? "the start (column 2)" : "the response time (column 3)") + ", found " +
              Excerpt(at, end);
      return false;
    }
  }
  while (p < end && IsSpace(*p)) ++p;
  if (p != end) {
    *what = "expected 3 columns (op, start_s, response_s), found more: " + Excerpt(p, end);
    return false;
  }
  record->time_ms = name.epoch_ms + (times[0] + times[1]) / 1000000;
  record->value = static_cast<uint64_t>(times[1]);
  record->direction = name.slot;
  record->block_size = 0;
  record->issue_time_ns = name.epoch_ms * 1000000 + times[0];
  return true;
}

}  // namespace fiohist
