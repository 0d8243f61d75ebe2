// libFuzzer target: the log line parser (ParseRecordHead, ParseRecord) on arbitrary bytes.
// Besides crashes it checks that the two parsers agree and that a parsed record is
// consistent with itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "log_line.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  int64_t head_time = 0;
  fiohist::Direction head_direction = fiohist::Direction::kAll;
  const bool head_ok = fiohist::ParseRecordHead(line, &head_time, &head_direction);

  fiohist::LogRecord record;
  std::string what;
  const bool ok = fiohist::ParseRecord(line, &record, &what);
  if (!ok) {
    // Every rejection says what was expected.
    if (what.empty()) std::abort();
    return 0;
  }
  // A full parse implies the head parse, with the same answer.
  if (!head_ok || head_time != record.time_ms || head_direction != record.direction) std::abort();
  if (record.time_ms < 0 || record.columns < 1) std::abort();
  if (static_cast<int>(record.direction) >= fiohist::kLogDirections) std::abort();
  uint64_t total = 0;
  int64_t previous = -1;
  for (const auto& [column, count] : record.counts) {
    if (count == 0 || static_cast<int64_t>(column) <= previous ||
        static_cast<int>(column) >= record.columns) {
      std::abort();
    }
    previous = column;
    total += count;
  }
  if (total != record.total) std::abort();
  // Parsing again into a used record gives the same result (no state leaks between lines).
  fiohist::LogRecord again = record;
  std::string what2;
  if (!fiohist::ParseRecord(line, &again, &what2) || again.counts != record.counts ||
      again.total != record.total || again.columns != record.columns) {
    std::abort();
  }
  return 0;
}
