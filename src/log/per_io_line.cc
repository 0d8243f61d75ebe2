#include "log/per_io_line.h"

#include "log/number_scan.h"

namespace fiohist {
namespace {

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

int HexColumnOf(std::string_view line, const PerIoLayout& layout) {
  int column = 0;
  size_t at = 0;
  for (;;) {
    const size_t text = line.find_first_not_of(" \t", at);
    if (text != std::string_view::npos && line.compare(text, 2, "0x") == 0) break;
    at = line.find(',', at);
    if (at == std::string_view::npos) return -1;
    ++at;
    ++column;
  }
  const int dc = layout.direction_column;
  if (column <= 1 || column == dc || column == dc + 1 || column == layout.issue_column) return -1;
  return column;
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
    // log_prio writes the priority as 0x%04x.
    const bool hex = end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    if (hex) p += 2;
    const char* at = p;
    uint64_t v = 0;
    const int rc = ParseUnsigned(p, end, &v, hex ? 16 : 10);
    if (rc != 0) {
      *what = hex && rc == 1 ? "expected a hex number for " + FieldName(n, nullptr) + ", found " +
                                   Excerpt(at - 2, end)
                             : NumberError(rc, at, end, FieldName(n, nullptr));
      return false;
    }
    fields[n++] = v;
    const int next = NextField(p, end, n, what);
    if (next < 0) return false;
    if (next == 0) break;
  }
  *columns = n;
  return true;
}

bool ParsePerIoLine(std::string_view line, const PerIoLayout& layout, PerIoRecord* record,
                    std::string* what) {
  // Lines as fio writes them are read by ScanPerIoLine() (per_io_scan.h); this is the
  // general reader, which also says what is wrong with a line.
  uint64_t fields[kPerIoMaxColumns];
  int n = 0;
  if (!SplitPerIoLine(line, fields, &n, what)) return false;
  if (n != layout.columns) {
    *what = "expected " + std::to_string(layout.columns) +
            " columns (as on the first line), found " + std::to_string(n);
    return false;
  }
  if (fields[0] > kMaxLogTimeMs) {
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
