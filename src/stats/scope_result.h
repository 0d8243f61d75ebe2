// One result of the pipeline: the statistics of one scope and direction over one quantum
// (or the whole run), and the scope kinds.
#pragma once

#include <cstdint>
#include <string>

#include "histogram/histogram.h"
#include "log/log_line.h"
#include "stats/percentiles.h"

namespace fiohist {

/// Which logs a result adds up.
enum class ScopeKind : uint8_t { kCluster = 0, kHost = 1, kJob = 2 };

/// "cluster", "host" or "job".
const char* ScopeName(ScopeKind kind);

/// The statistics of one scope and direction over one quantum (or the whole run).
struct ScopeResult {
  int64_t start_ms = 0;
  int64_t end_ms = 0;
  /// Seconds from the run's first quantum to `start_ms`.
  double elapsed_s = 0;
  ScopeKind kind = ScopeKind::kCluster;
  /// Host name (empty for the cluster scope).
  std::string host;
  /// Job name (empty unless job scope).
  std::string job;
  Direction direction = Direction::kAll;
  /// Logs that had a span overlapping the quantum.
  int logs = 0;
  /// The time span as a multiple of the run's quantum: 1 for a quantum, more for the
  /// coarser resolutions of ResolutionSink (their `logs` is the most of any quantum).
  int resolution = 1;
  LatencyStats stats;
  /// The summed histogram behind `stats` (valid during the sink call only).
  const Histogram* histogram = nullptr;
  /// What the sink's Prepare() made of this result on a worker thread (empty: nothing).
  std::string prepared;
};

}  // namespace fiohist
