// fio's client/server histogram-log bug: line k of a direction carries line k-2 in it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "log/log_line.h"

namespace fiohist {

/// What fio (3.33, 3.42) gets wrong in the histogram logs its servers send back to the
/// client: line k of each direction holds its own interval's counts plus those of line
/// k-2 (tests/data/fio-3.42-client-server/README.md, checked against per-I/O logs).
extern const char kCarriedLinesBug[];

/// Tells such logs from fio's right ones by their first lines: in each direction, every
/// line is at least the line two before it in every bucket, and holds more I/Os. A real
/// log's intervals vary from one to the next, so a few of its lines never all pass.
class CarriedLinesCheck {
 public:
  /// Lines of a direction compared (k against k-2) before a verdict.
  static constexpr int kMinComparisons = 4;
  /// Looks at the next record (in file order).
  void Add(const LogRecord& record);
  /// True when some direction had kMinComparisons lines, all of them carrying, and no
  /// direction had a line that did not.
  bool Carried() const;

 private:
  std::array<std::vector<std::pair<uint32_t, uint64_t>>, kLogDirections> prev1_, prev2_;
  std::array<int, kLogDirections> lines_{};
  std::array<int, kLogDirections> carried_{};
  bool broken_ = false;
};

/// --repair-client-logs: gives each record its own interval's counts back, line k - line
/// k-2 of its direction (records must come in each direction's order). A bucket that would
/// go negative (fio's counts differ by a few I/Os) becomes 0, and those I/Os are counted.
class CarriedLinesRepair {
 public:
  /// Replaces `record`'s counts and total by the difference.
  void Repair(LogRecord* record);
  /// I/Os of buckets that went negative and were set to 0.
  uint64_t clamped_ios() const { return clamped_; }

 private:
  std::array<std::vector<std::pair<uint32_t, uint64_t>>, kLogDirections> raw1_, raw2_;
  std::vector<std::pair<uint32_t, uint64_t>> diff_;
  uint64_t clamped_ = 0;
};

}  // namespace fiohist
