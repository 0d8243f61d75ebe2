// Parsing one line of fio's per-I/O latency log (write_lat_log with log_avg_msec=0).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "log/log_line.h"

namespace fiohist {

/// The most columns a per-I/O line has: time, value, second value (log_window_value=both),
/// direction, block size, offset (log_offset), priority, issue time (log_issue_time).
constexpr int kPerIoMaxColumns = 8;

/// Where the fields of a per-I/O log's lines are, from their column count (fio's HOWTO, "Log
/// File Formats"): `time, value, ddir, bs[, offset], prio[, issue_time]`, prio since 3.18,
/// a second value after the first with log_window_value=both (3.37).
struct PerIoLayout {
  /// Columns on every line (4 to 8).
  int columns = 0;
  /// Column (0-based) of the direction: 2, or 3 with two values.
  int direction_column = 2;
  /// Column of log_issue_time's issue time (ns since the job's epoch), or -1.
  int issue_column = -1;
  /// Column written as `0x%04x` (log_prio's priority) on the first line, or -1: the fast
  /// path (per_io_scan.h) then accepts hex there (the priority is not kept).
  int hex_column = -1;
};

/// The column of `line` (split by ',') whose text starts with `0x`, when it is not one the
/// record keeps (time, value, direction, block size, issue time) in `layout`; else -1.
int HexColumnOf(std::string_view line, const PerIoLayout& layout);

/// Settles the layout of a log whose lines have `columns` columns; `two_values`: column 3
/// is a second value (its number is above 2, no direction). False for no fio layout.
bool PerIoLayoutOf(int columns, bool two_values, PerIoLayout* layout, std::string* what);

/// One I/O.
struct PerIoRecord {
  /// Completion time: ms since the job's epoch (or Unix epoch with log_unix_epoch).
  int64_t time_ms = 0;
  /// Latency in the log's unit (ns since fio 2.99, us before).
  uint64_t value = 0;
  Direction direction = Direction::kRead;
  uint64_t block_size = 0;
  /// Issue time in ns since the job's epoch (log_issue_time), or -1 when the log has none.
  int64_t issue_time_ns = -1;
};

/// The instant the I/O was issued, in ns: log_issue_time's column where the log has it
/// (relative to the job's epoch, never shifted to wall clock), else completion - latency on
/// the completion's clock. `unit_ns`: ns per unit of `value`.
inline int64_t IssueTimeNs(const PerIoRecord& r, int64_t unit_ns) {
  if (r.issue_time_ns >= 0) return r.issue_time_ns;
  return r.time_ms * 1000000 - static_cast<int64_t>(r.value) * unit_ns;
}

/// Parses every field of `line` as a number (decimal, or `0x` hex as log_prio writes the
/// priority) into `fields` (at most kPerIoMaxColumns), sets `*columns`. On failure returns
/// false and sets `*what` to what was expected and found.
bool SplitPerIoLine(std::string_view line, uint64_t* fields, int* columns, std::string* what);

/// Parses `line` of a log laid out as `layout` into `*record`. On failure returns false and
/// sets `*what` (without file and line; the caller adds them): another column count,
/// negative or non-numeric values, directions other than 0/1/2, times above 10^15 ms.
bool ParsePerIoLine(std::string_view line, const PerIoLayout& layout, PerIoRecord* record,
                    std::string* what);

}  // namespace fiohist
