// A log's records as its probe parsed them, kept in a temporary file when the probe read
// the whole log, so that the spill (stats/spilled_logs.h) reads them instead of inflating
// and parsing the log a second time.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/spill_file.h"
#include "log/log_line.h"

namespace fiohist {

/// Where a log's records lie in a temporary file (PutRecord's form, in file order): set
/// where the probe read the whole log and every non-blank line of it was a well-formed
/// record with a '\n' after it. A stream then reads these instead of the log, with the
/// same line numbers and blank-line count.
struct ProbedRecords {
  /// The file (owned by the run's layout), or null: read the log itself.
  const SpillFile* file = nullptr;
  uint64_t offset = 0;
  size_t length = 0;
  /// Blank lines after the last record.
  long long trailing_blank_lines = 0;
  /// The log's size on disk (what reading it would have added to InputBytesRead()).
  uint64_t file_bytes = 0;
  bool present() const { return file != nullptr; }
};

/// Appends a record's counts: how many, then (column step, count) varint pairs.
void PutCounts(const std::vector<std::pair<uint32_t, uint64_t>>& counts, std::string* out);
/// Reads counts written by PutCounts from [*p, end), advancing `*p`; false when damaged
/// (cut, or a column beyond any layout's).
bool GetCounts(const char** p, const char* end, std::vector<std::pair<uint32_t, uint64_t>>* counts);

/// Appends `record`, which came `line_step` lines after the previous one (or the file's
/// start): the step counts the blank lines before it.
void PutRecord(const LogRecord& record, long long line_step, std::string* out);
/// Reads a record written by PutRecord; false when damaged.
bool GetRecord(const char** p, const char* end, LogRecord* record, long long* line_step);

}  // namespace fiohist
