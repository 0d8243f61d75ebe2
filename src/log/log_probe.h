// A look at the first lines of a log, taken before the run is laid out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "log/grid_phase.h"
#include "log/log_source.h"
#include "log/probed_records.h"

namespace fiohist {

/// Time stamps (ms) from here on (1973) are Unix epoch times; smaller ones are relative to
/// the job's start.
inline constexpr int64_t kEpochThresholdMs = 100000000000LL;

/// What the first lines of a log say about it, read before the run is laid out.
struct LogProbe {
  /// Count columns of the first well-formed line.
  int columns = 0;
  /// Stamps are Unix-epoch milliseconds (log_unix_epoch=1).
  bool epoch = false;
  /// Stamp of the first record.
  int64_t first_time_ms = 0;
  /// Median gap between two stamps of one direction (0: unknown), the estimate of
  /// log_hist_msec: fio keeps its lines on the log_hist_msec grid, so a late line (514 ms
  /// after the last) is followed by an early one (486 ms); the median is the interval.
  int64_t typical_gap_ms = 0;
  /// Each probed record's stamp (as in the log, before any anchor) and I/Os: where the
  /// quantum grid's phase is chosen from (grid_phase.h).
  std::vector<RecordEnd> stamps;
  /// True when the file holds no record at all.
  bool empty = true;
  /// Per-I/O logs (ProbePerIoLog): columns per line (4 or 5: fio before 3.18, whose
  /// values may be fio 2's microseconds); 0 for histogram logs.
  int per_io_columns = 0;
  /// The lines carry the line two before them (fio's client/server bug, carried_lines.h).
  bool carried_lines = false;
  /// The log's records kept for its stream (ProbeLog's `records`; the caller stores them).
  ProbedRecords probed;
};

/// Reads up to `max_lines` lines of `path`. Malformed lines are errors unless
/// `skip_bad_lines`; a file without any record is reported through `probe->empty`.
Status ProbeLog(const std::string& path, int max_lines, bool skip_bad_lines, LogProbe* probe);
/// The same for the log (or the one job's segment of it) of `source`. With `records`, a
/// log read whole (its end within `max_lines` records, every non-blank line a well-formed
/// record ending in '\n', no segment) leaves its records there (PutRecord's form) and its
/// trailing blank lines in `probe->probed`; any other log leaves `*records` empty.
Status ProbeLog(const LogSource& source, int max_lines, bool skip_bad_lines, LogProbe* probe,
                std::string* records = nullptr);

}  // namespace fiohist
