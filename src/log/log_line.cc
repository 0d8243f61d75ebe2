#include "log/log_line.h"

#include <cstring>

#include "log/number_scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fiohist {
namespace {

// fio writes zero counts as "0, ". Returns how many such columns start at `p` (at most 10),
// looking at 32 bytes, which must be readable. Most of a line is runs of them, so this is
// where parsing spends its time: a few vector compares instead of a loop per column.
inline int LoneZerosAhead(const char* p) {
#if defined(__SSE2__)
  // "0, " repeated from p: bytes 0-15 and 16-31 (the second half starts one byte into it).
  const __m128i first =
      _mm_setr_epi8('0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0');
  const __m128i second =
      _mm_setr_epi8(',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',');
  const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
  const uint32_t equal =
      static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(a, first))) |
      (static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(b, second))) << 16);
  const int matched = equal == UINT32_MAX ? 32 : __builtin_ctz(~equal);
  return matched / 3;
#else
  // Portable: "0, 0, 0, 0, 0, 0, 0, 0, " as three words.
  static const char kPattern[] = "0, 0, 0, 0, 0, 0, 0, 0, ";
  int matched = 0;
  for (int w = 0; w < 3; ++w) {
    uint64_t have, want;
    std::memcpy(&have, p + 8 * w, 8);
    std::memcpy(&want, kPattern + 8 * w, 8);
    const uint64_t diff = have ^ want;
    if (diff != 0) {
      // Little- or big-endian: find the first differing byte portably.
      int i = 0;
      while (p[8 * w + i] == kPattern[8 * w + i]) ++i;
      matched += i;
      return matched / 3;
    }
    matched += 8;
  }
  return matched / 3;
#endif
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
  for (;;) {
    uint64_t v = 0;
    if (field >= 3 && end - p >= 32) {
      // Bucket columns as fio writes them ("0, " or up to 8 digits and ", "); anything
      // else, and the last 32 bytes, go through the general loop below, which also
      // explains errors.
      while (end - p >= 32) {
        const int zeros = LoneZerosAhead(p);
        if (zeros > 0) {
          column += zeros;
          field += zeros;
          p += 3 * zeros;
          continue;
        }
        int digits;
        const uint64_t count = ParseShortUnsigned(p, &digits);
        if (digits == 0 || p[digits] != ',' || p[digits + 1] != ' ') break;
        if (total + count < total) break;  // the general loop reports the overflow
        if (count != 0) {
          record->counts.emplace_back(static_cast<uint32_t>(column), count);
          total += count;
        }
        ++column;
        ++field;
        p += digits + 2;
      }
      // The run may end with more spacing than fio writes ("0,  7").
      while (p < end && IsSpace(*p)) ++p;
      if (p == end) {
        *what = "line ends with ',' (expected another number: truncated line?)";
        return false;
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
