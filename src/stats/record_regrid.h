// Stored fio records placed back on the push quantum grid: the logs' own per-quantum
// histograms, rebuilt from bucket documents of the record form.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>

#include "base/status.h"
#include "histogram/histogram.h"
#include "log/placed_record.h"
#include "log/quantum_grid.h"
#include "stats/histogram_replay.h"

namespace fiohist {

/// Places records on `grid` with the weights LogStream gave them (QuantumGrid::Weight of
/// the same span, added in the same order: earlier spans first), so each series' quantum
/// histogram is the one the logs gave, bit for bit, and hands them out as StoredQuantum
/// (logs 1, coverage from the spans; a record without counts covers time with no I/O)
/// once no later record can reach them. Records must come by span start, as the record
/// form's documents do in time order.
class RecordRegrid {
 public:
  /// Hands out only quanta that start in [from_ms, to_ms).
  RecordRegrid(QuantumGrid grid, int64_t from_ms, int64_t to_ms)
      : grid_(grid), from_ms_(from_ms), to_ms_(to_ms) {}
  /// Adds a record of the series (host, job).
  void Add(const std::string& host, const std::string& job, const PlacedRecord& record);
  /// Hands out every quantum that ends by `t_ms` (records still to come start at or after
  /// it) in time, host, job and direction order.
  Status FlushBefore(int64_t t_ms, const std::function<Status(const StoredQuantum&)>& each) {
    return FlushBefore(t_ms, "", "", each);
  }
  /// The same, and also the quantum starting at `t_ms` of every series before (host, job):
  /// reading documents sorted by time, host and job, those are complete as well, so only
  /// the next quantum's share of each series stays held.
  Status FlushBefore(int64_t t_ms, const std::string& host, const std::string& job,
                     const std::function<Status(const StoredQuantum&)>& each);
  /// Hands out everything left.
  Status Finish(const std::function<Status(const StoredQuantum&)>& each) {
    return FlushBefore(INT64_MAX, each);
  }

 private:
  // One series' share of one quantum, per direction.
  struct Cell {
    Histogram direction[kLogDirections];
    bool touched[kLogDirections] = {};
    int64_t covered_ms[kLogDirections] = {};
  };
  using Key = std::tuple<int64_t, std::string, std::string>;  // (quantum start, host, job)

  QuantumGrid grid_;
  int64_t from_ms_, to_ms_;
  std::map<Key, Cell> cells_;
  StoredQuantum out_;  // reused
  // The last record without counts (a span covered with no I/O) and its series.
  TimeSpan cover_{INT64_MIN, INT64_MIN};
  size_t cover_direction_ = kLogDirections;
  std::string cover_host_, cover_job_;
};

}  // namespace fiohist
