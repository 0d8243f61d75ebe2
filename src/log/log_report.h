// What reading one log came to: the counters behind the end-of-run report.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "log/log_line.h"

namespace fiohist {

/// Per-file counters for the end-of-run report: nothing is dropped silently. Its own header
/// because every output reads it, and none of them needs the stream that fills it.
struct LogReport {
  /// Records placed on the time line.
  long long records = 0;
  /// Records that repeated the previous stamp of their direction (dropped).
  long long duplicates = 0;
  /// Malformed lines skipped under --skip-bad-lines.
  long long skipped_lines = 0;
  /// Lines holding only blanks.
  long long blank_lines = 0;
  /// I/Os of records whose span began in a quantum already finished (a direction that
  /// stalled longer than the streaming window): they were placed from the first open one.
  double late_ios = 0;
  /// Sum of all counts: 0 means fio ran with clat_percentiles=0 (all buckets zero).
  double total_ios = 0;
  /// The last line had no newline but was complete and went into the results (a cut one
  /// is a skipped line instead).
  bool unterminated_last_line = false;
  /// First few skipped-line messages, for the report.
  std::vector<std::string> skipped_examples;
  /// --repair-client-logs: I/Os of buckets where line k held fewer than line k-2 (set to 0).
  double repair_clamped_ios = 0;
  /// Directions this log has records for.
  std::array<bool, kLogDirections> has_direction{};
};

}  // namespace fiohist
