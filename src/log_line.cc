#include "log_line.h"

#include <cstring>

namespace fiohist {
namespace {

// Larger stamps are no fio time (10^15 ms is the year 33658) and would overflow the time
// grid once quanta and offsets are added.
constexpr uint64_t kMaxTimeMs = 1000000000000000ULL;

inline bool IsSpace(char c) { return c == ' ' || c == '\t'; }
inline bool IsDigit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

// Short excerpt of the text at `p` for error messages.
std::string Excerpt(const char* p, const char* end) {
  const char* stop = p;
  while (stop < end && *stop != ',' && stop - p < 20) ++stop;
  std::string s(p, stop);
  for (char& c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return s.empty() ? std::string("end of line") : "'" + s + "'";
}

// Parses an unsigned integer at *p; returns 0 ok, 1 not a number, 2 overflow.
inline int ParseUnsigned(const char*& p, const char* end, uint64_t* value) {
  const char* start = p;
  uint64_t v = 0;
  while (p < end && IsDigit(*p)) {
    const uint64_t d = static_cast<uint64_t>(*p - '0');
    if (v > (UINT64_MAX - d) / 10) return 2;
    v = v * 10 + d;
    ++p;
  }
  if (p == start) return 1;
  *value = v;
  return 0;
}

const char* ColumnName(int field) {
  switch (field) {
    case 0:
      return "time (column 1)";
    case 1:
      return "direction (column 2)";
    case 2:
      return "block size (column 3)";
    default:
      return nullptr;
  }
}

}  // namespace

const char* DirectionName(Direction d) {
  switch (d) {
    case Direction::kRead:
      return "read";
    case Direction::kWrite:
      return "write";
    case Direction::kTrim:
      return "trim";
    case Direction::kAll:
      return "all";
  }
  return "?";
}

bool ParseRecordHead(std::string_view line, int64_t* time_ms, Direction* direction) {
  const char* p = line.data();
  const char* end = p + line.size();
  while (p < end && IsSpace(*p)) ++p;
  uint64_t t = 0, d = 0;
  if (ParseUnsigned(p, end, &t) != 0 || t > kMaxTimeMs) return false;
  while (p < end && IsSpace(*p)) ++p;
  if (p == end || *p != ',') return false;
  ++p;
  while (p < end && IsSpace(*p)) ++p;
  if (ParseUnsigned(p, end, &d) != 0 || d > 2) return false;
  *time_ms = static_cast<int64_t>(t);
  *direction = static_cast<Direction>(d);
  return true;
}

bool ParseRecord(std::string_view line, LogRecord* record, std::string* what) {
  const char* p = line.data();
  const char* end = p + line.size();
  record->counts.clear();
  record->total = 0;
  uint64_t head[3] = {0, 0, 0};
  int field = 0;
  int column = 0;
  uint64_t total = 0;
  while (p < end && IsSpace(*p)) ++p;
  // "0, 0, 0," as one little-endian word: most bucket columns are zeros written by fio
  // as "0, ", so skipping three at a time makes the common case a compare and a jump.
  uint64_t three_zeros;
  std::memcpy(&three_zeros, "0, 0, 0,", 8);
  for (;;) {
    uint64_t v = 0;
    if (field >= 3) {
      uint64_t word;
      while (end - p >= 9 && (std::memcpy(&word, p, 8), word == three_zeros) && p[8] == ' ') {
        column += 3;
        field += 3;
        p += 9;
      }
    }
    if (p < end && *p == '0' && (p + 1 == end || !IsDigit(p[1]))) {
      // Fast path: most columns are a lone zero.
      ++p;
    } else {
      const char* at = p;
      const int rc = ParseUnsigned(p, end, &v);
      if (rc != 0) {
        const char* name = ColumnName(field);
        std::string col = name ? name : "bucket count (column " + std::to_string(field + 1) + ")";
        if (rc == 2) {
          *what = col + " does not fit in 64 bits";
        } else if (at < end && *at == '-') {
          *what = "expected a non-negative integer for " + col + ", found a negative number " +
                  Excerpt(at, end);
        } else {
          *what = "expected an integer for " + col + ", found " + Excerpt(at, end);
        }
        return false;
      }
    }
    if (field < 3) {
      head[field] = v;
    } else {
      if (v != 0) {
        record->counts.emplace_back(static_cast<uint32_t>(column), v);
        if (total + v < total) {
          *what = "the counts of this line add up to more than 64 bits";
          return false;
        }
        total += v;
      }
      ++column;
    }
    ++field;
    while (p < end && IsSpace(*p)) ++p;
    if (p == end) break;
    if (*p != ',') {
      *what = "expected ',' after column " + std::to_string(field) + ", found " + Excerpt(p, end);
      return false;
    }
    ++p;
    while (p < end && IsSpace(*p)) ++p;
    if (p == end) {
      // fio does not end lines with a comma; a trailing comma means a cut line.
      *what = "line ends with ',' (expected another number: truncated line?)";
      return false;
    }
  }
  if (field < 4) {
    *what = "expected time, direction, block size and bucket counts, found only " +
            std::to_string(field) + " column" + (field == 1 ? "" : "s");
    return false;
  }
  if (head[0] > kMaxTimeMs) {
    *what = "time (column 1) is too large: " + std::to_string(head[0]) +
            " (expected milliseconds since the job started or since 1970, at most 10^15)";
    return false;
  }
  if (head[1] > 2) {
    *what = "expected direction 0 (read), 1 (write) or 2 (trim) in column 2, found " +
            std::to_string(head[1]);
    return false;
  }
  record->time_ms = static_cast<int64_t>(head[0]);
  record->direction = static_cast<Direction>(head[1]);
  record->block_size = head[2];
  record->columns = column;
  record->total = total;
  return true;
}

}  // namespace fiohist
