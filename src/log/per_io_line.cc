#include "log/per_io_line.h"

#include "log/number_scan.h"

namespace fiohist {
namespace {

inline int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string FieldName(int column, const PerIoLayout* layout) {
  const std::string n = " (column " + std::to_string(column + 1) + ")";
  if (column == 0) return "time" + n;
  if (column == 1) return "latency" + n;
  if (layout && column == layout->direction_column) return "direction" + n;
  return "column " + std::to_string(column + 1);
}

}  // namespace

bool PerIoLayoutOf(int columns, bool two_values, PerIoLayout* layout, std::string* what) {
  PerIoLayout l;
  l.columns = columns;
  const int extra = two_values ? 1 : 0;
  // Without the second value: 4 (fio < 3.18), 5 (+offset, or +prio since 3.18), 6
  // (offset and prio), 7 (and issue time).
  const int base = columns - extra;
  if (columns > kPerIoMaxColumns || base < 4 || base > 7) {
    *what = "expected 4 to " + std::to_string(kPerIoMaxColumns) +
            " columns (time, latency, direction, block size[, offset], priority[, issue "
            "time]), found " +
            std::to_string(columns);
    return false;
  }
  l.direction_column = 2 + extra;
  if (base == 7) l.issue_column = 6 + extra;
  *layout = l;
  return true;
}

bool SplitPerIoLine(std::string_view line, uint64_t* fields, int* columns, std::string* what) {
  const char* p = line.data();
  const char* end = p + line.size();
  int n = 0;
  while (p < end && IsSpace(*p)) ++p;
  for (;;) {
    if (n == kPerIoMaxColumns) {
      *what = "expected at most " + std::to_string(kPerIoMaxColumns) +
              " columns (a per-I/O log line), found more";
      return false;
    }
    uint64_t v = 0;
    const char* at = p;
    if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
      // log_prio writes the priority as 0x%04x.
      p += 2;
      const char* digits = p;
      int h;
      while (p < end && (h = HexDigit(*p)) >= 0 && p - digits < 16) {
        v = v * 16 + static_cast<uint64_t>(h);
        ++p;
      }
      if (p == digits) {
        *what =
            "expected a hex number for " + FieldName(n, nullptr) + ", found " + Excerpt(at, end);
        return false;
      }
    } else {
      const int rc = ParseUnsigned(p, end, &v);
      if (rc != 0) {
        const std::string col = FieldName(n, nullptr);
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
    fields[n++] = v;
    while (p < end && IsSpace(*p)) ++p;
    if (p == end) break;
    if (*p != ',') {
      *what = "expected ',' after column " + std::to_string(n) + ", found " + Excerpt(p, end);
      return false;
    }
    ++p;
    while (p < end && IsSpace(*p)) ++p;
    if (p == end) {
      *what = "line ends with ',' (expected another number: truncated line?)";
      return false;
    }
  }
  *columns = n;
  return true;
}

bool ParsePerIoLine(std::string_view line, const PerIoLayout& layout, PerIoRecord* record,
                    std::string* what) {
  const char* p = line.data();
  const char* end = p + line.size();
  uint64_t fields[kPerIoMaxColumns];
  int n = 0;
  // Fast path: plain decimal fields separated by ", " as fio writes them. Where 8 bytes are
  // left, a field of up to 7 digits is read without a branch per digit (number_scan.h):
  // fields of irregular lengths make loop exits mispredict.
  for (;;) {
    uint64_t v = 0;
    const char* start = p;
    if (end - p >= 8) {
      int digits;
      v = ParseShortUnsigned(p, &digits);
      if (digits > 0) {
        p += digits;
      } else if (IsDigit(*p)) {
        v = EightDigits(p);  // 8 or more digits: the first 8, then a loop
        p += 8;
        while (p < end && IsDigit(*p) && p - start < 19) {
          v = v * 10 + static_cast<uint64_t>(*p - '0');
          ++p;
        }
      }
    } else {
      while (p < end && IsDigit(*p) && p - start < 19) {
        v = v * 10 + static_cast<uint64_t>(*p - '0');
        ++p;
      }
    }
    if (p == start || n == kPerIoMaxColumns) break;
    fields[n++] = v;
    if (p == end) break;
    if (end - p < 3 || p[0] != ',' || p[1] != ' ' || !IsDigit(p[2])) break;
    p += 2;
  }
  if (p != end || n != layout.columns) {
    // Anything else (hex priority, other spacing, errors) through the general split.
    if (!SplitPerIoLine(line, fields, &n, what)) return false;
    if (n != layout.columns) {
      *what = "expected " + std::to_string(layout.columns) +
              " columns (as on the first line), found " + std::to_string(n);
      return false;
    }
  }
  if (fields[0] > kMaxTimeMs) {
    *what = "time (column 1) is too large: " + std::to_string(fields[0]) +
            " (expected milliseconds since the job started or since 1970, at most 10^15)";
    return false;
  }
  const uint64_t d = fields[layout.direction_column];
  if (d > 2) {
    *what = "expected direction 0 (read), 1 (write) or 2 (trim) in " +
            FieldName(layout.direction_column, &layout) + ", found " + std::to_string(d);
    return false;
  }
  record->time_ms = static_cast<int64_t>(fields[0]);
  record->value = fields[1];
  record->direction = static_cast<Direction>(d);
  record->block_size = fields[layout.direction_column + 1];
  record->issue_time_ns =
      layout.issue_column >= 0 ? static_cast<int64_t>(fields[layout.issue_column]) : -1;
  return true;
}

}  // namespace fiohist
