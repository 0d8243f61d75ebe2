// One result of the pipeline: the statistics of one scope and direction over one quantum
// (or the whole run), and the scope kinds.
#pragma once

#include <cstdint>
#include <string>

#include "histogram/histogram.h"
#include "log/log_line.h"
#include "log/placed_record.h"
#include "stats/percentiles.h"

namespace fiohist {

/// Which logs a result adds up.
enum class ScopeKind : uint8_t { kCluster = 0, kHost = 1, kJob = 2 };

/// "cluster", "host" or "job".
const char* ScopeName(ScopeKind kind);

struct ScopeResult;

/// Sets `r`'s coverage and partial from `covered_ms` of log time of `logs` logs over a
/// span of `length_ms`. fio stamps are whole milliseconds (a log's first span starts 1 ms
/// after its job), so up to 1 ms per log uncovered is rounding, not a partial span.
void SetCoverage(int64_t covered_ms, int logs, int64_t length_ms, ScopeResult* r);

/// --place issue: sets `r`'s complete_to_ms, and partial where it is not INT64_MAX (the
/// logs end before I/Os issued in the span as slow as their slowest would have completed).
void SetCompleteTo(int64_t complete_to_ms, ScopeResult* r);

/// Copies what `from` is about into `to`: its span, scope, host, job, direction, logs,
/// coverage, partial and complete_to_ms, the fields every result of one place and time
/// shares; not its statistics, histogram or records.
void CopyPlace(const ScopeResult& from, ScopeResult* to);

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
  /// The widest resolution written for the run, though not the widest asked for: the ones
  /// above it would repeat its single window (ResolutionSink), so dashboards draw it at
  /// every larger interval too.
  bool widest = false;
  /// Where dashboards start drawing this resolution: the multiple of the quantum of the
  /// next finer resolution written for its scope (its documents' `zoom_gt_ms` is that
  /// span; 0: from interval 0, the finest stored for the scope); -1: the resolution before
  /// it in RunInfo::resolutions.
  int zoom_from = -1;
  /// The share of the span's time the scope's logs cover, averaged over them (0..1): below
  /// 1 where logs have not started or have ended, or where a log's last record covers only
  /// part of the quantum (fio does not log its last partial interval).
  double coverage = 1;
  /// Coverage is short of 1 by more than the stamps' rounding (1 ms per log), or the span
  /// holds a quantum that is: its counts are a sample of the time, not all of it.
  bool partial = false;
  /// The share of the span's I/Os (0..1) that the uniform-spread assumption (a record's
  /// I/Os spread evenly over its span) may have placed on the wrong side of the span's
  /// edges: each record crossing an edge counts the smaller side of its split
  /// (LogStream::straddled_ios). Whole runs: over all their quanta. Negative where not
  /// known (coarser resolutions, read-back, a live run's whole run).
  double straddled = -1;
  /// --place issue: the latency (ms) up to which every I/O issued in the span is in the
  /// logs, where some slower one may be missing (the run's last quanta: the logs end
  /// before it would have completed; `partial` is then set); INT64_MAX: none missing.
  int64_t complete_to_ms = INT64_MAX;
  LatencyStats stats;
  /// The summed histogram behind `stats` (valid during the sink call only).
  const Histogram* histogram = nullptr;
  /// Job results of a quantum with PipelineOptions::keep_records: the log's records (of
  /// every direction) whose spans start in it; null otherwise (valid during the sink call
  /// only).
  const std::vector<PlacedRecord>* records = nullptr;
  /// What the sink's Prepare() made of this result on a worker thread (empty: nothing).
  std::string prepared;
};

}  // namespace fiohist
