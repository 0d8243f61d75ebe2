// What reading one log came to: the counters behind the end-of-run report.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "log/log_line.h"

namespace fiohist {

/// A span in which one direction of a log completed no I/O, as the record that ended it
/// tells (fio wrote it at the first completion past its deadline: interval_model.h).
struct Pause {
  Direction direction = Direction::kRead;
  /// Estimated: the record's other I/Os completed at the rate of the record before it, from
  /// its start on (never past the record's deadline, where fio's rule puts the last bound).
  int64_t start_ms = 0;
  /// The stamp of the completion that ended it.
  int64_t end_ms = 0;
  /// I/Os stuck in it: of the I/Os that completed at its end or after it (the one that wrote
  /// the record, the catch-up records fio wrote right after it, one per deadline missed, and
  /// the records after those), the ones whose latency says they were issued before its
  /// middle (LogStream::CountStuck). 0 after an idle gap: nothing was in flight.
  double stuck_ios = 0;
  /// The highest bucket column of those I/Os (0 without any).
  uint32_t slowest_column = 0;
};

/// Per-file counters for the end-of-run report: nothing is dropped silently. Its own header
/// because every output reads it, and none of them needs the stream that fills it.
struct LogReport {
  /// Records placed on the time line.
  long long records = 0;
  /// Records that repeated the previous stamp of their direction (dropped). fio writes such
  /// records after a pause (one per deadline missed, each with new I/Os): LogStream keeps
  /// them all; only the compat mode drops them.
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
  /// Spans of no completion, per direction in time order, longer than a tenth of
  /// log_hist_msec past a record's deadline (stalls, idle gaps and hiccups alike).
  std::vector<Pause> pauses;
};

}  // namespace fiohist
