// A log record as it was placed on the time line: what bucket documents store exactly.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "log/interval_model.h"
#include "log/log_line.h"

namespace fiohist {

/// One fio record after the stamp rules (its span, clamped where it started in a finished
/// quantum) with its integer counts. Placing it on a grid with QuantumGrid::Weight gives
/// exactly the shares LogStream gave it, so a reader holding these records rebuilds the
/// logs' per-quantum histograms bit for bit. A record without counts marks time the job
/// covered with no I/O (a record that ended a pause covers its whole span, its I/Os only
/// part of it): the I/O parts that follow it inside its span add no coverage of their own.
struct PlacedRecord {
  Direction direction = Direction::kRead;
  TimeSpan span;
  /// (column, count) for every non-zero count, in column order.
  std::vector<std::pair<uint32_t, uint64_t>> counts;
};

}  // namespace fiohist
