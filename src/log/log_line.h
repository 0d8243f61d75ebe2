// Parsing one histogram log line: "time, direction, bs, c0, c1, ..., cN-1".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fiohist {

/// The largest time stamp (ms) a log line may carry: larger ones are no fio time (10^15 ms
/// is the year 33658) and would overflow the time grid once quanta and offsets are added.
inline constexpr uint64_t kMaxTimeMs = 1000000000000000ULL;

/// I/O direction as fio writes it in column 2, plus the sum of all three.
enum class Direction : uint8_t { kRead = 0, kWrite = 1, kTrim = 2, kAll = 3 };

/// Number of directions a log line can carry (read, write, trim).
constexpr int kLogDirections = 3;

/// Every direction, the three real ones and their sum, in enum order.
constexpr std::array<Direction, 4> kAllDirections = {Direction::kRead, Direction::kWrite,
                                                     Direction::kTrim, Direction::kAll};

/// "read", "write", "trim" or "all".
const char* DirectionName(Direction d);

/// One parsed log line. Counts are kept sparse: most of fio's 1856 columns are zero.
struct LogRecord {
  int64_t time_ms = 0;
  Direction direction = Direction::kRead;
  uint64_t block_size = 0;
  /// Number of count columns on the line.
  int columns = 0;
  /// (column, count) for every non-zero count, in column order.
  std::vector<std::pair<uint32_t, uint64_t>> counts;
  /// Sum of all counts (saturates; overflow is reported as an error instead).
  uint64_t total = 0;
};

/// Parses only the time and direction of `line` (for deciding whether to read it yet).
/// Returns false when they are not well-formed (the full parse then says why).
bool ParseRecordHead(std::string_view line, int64_t* time_ms, Direction* direction);

/// Parses a whole line into `*record`. On failure returns false and sets `*what` to what
/// was expected and what was found (without file and line; the caller adds them).
/// Accepts "," with any spaces or tabs around it; rejects negative numbers, non-numbers,
/// times above 10^15 ms (no fio stamp; they would overflow the time grid), counts that
/// overflow 64 bits, directions other than 0/1/2 and lines with no counts.
bool ParseRecord(std::string_view line, LogRecord* record, std::string* what);

}  // namespace fiohist
