// Where the quantum grid starts: chosen from the records' own stamps so that as few I/Os
// as possible are split between quanta, or fixed (whole seconds, or an origin given).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "log/log_line.h"

namespace fiohist {

/// How the grid's origin is chosen (--grid).
struct GridChoice {
  enum class Mode {
    /// From the records: the I/O-weighted circular median of their end phases (default).
    kLogs,
    /// Origin 0: quanta on multiples of the quantum in absolute time (whole seconds).
    kEpoch,
    /// The phase of `origin_ms` (quanta at origin_ms + k x quantum).
    kOrigin,
  };
  Mode mode = Mode::kLogs;
  /// The origin of kOrigin (Unix-epoch ms, or ms of the logs' time line when relative).
  int64_t origin_ms = 0;
};

/// Parses --grid: "logs", "epoch", or an origin (ISO 8601 time or Unix epoch number, as
/// --start-time). The error names the option and what was expected.
Status ParseGridChoice(const std::string& text, GridChoice* choice);

/// The name the run document and the summary give the choice: "logs", "epoch", "origin".
const char* GridModeName(GridChoice::Mode mode);

/// One record's end on the run's time line and the I/Os it holds.
struct RecordEnd {
  int64_t end_ms = 0;
  double ios = 0;
  /// The record's direction (for the stamp rules of interval_model.h).
  Direction direction = Direction::kRead;
};

/// The period of record-end phases that matters on a grid of `quantum_ms`: the records of
/// a log end log_hist_msec apart, so where the quantum is n intervals (within 2 %: an
/// inferred interval may read 999 ms) phases count modulo quantum / n; otherwise (a longer
/// interval, one that does not divide the quantum, or unknown: 0) modulo the quantum.
int64_t PhasePeriod(int64_t quantum_ms, int64_t log_hist_msec);

/// The phase in [0, period) that minimizes the I/O-weighted circular distance to the
/// record ends' phases (end_ms mod period): the weighted circular median (a 1-median on
/// the circle, e.g. Mardia & Jupp, Directional Statistics, 2000, sec. 2.2.2; it is one of
/// the data points). A record ending d ms from the nearest edge has about d / its length
/// of its I/Os placed in the neighbouring quantum, so this minimizes the I/Os split by
/// the uniform-spread assumption. Records without I/Os weigh as one I/O. Ties go to the
/// smaller phase; no records: 0.
int64_t CircularMedianPhase(const std::vector<RecordEnd>& ends, int64_t period);

/// One log's record ends on the run's time line, and its host.
struct LogRecordEnds {
  std::string host;
  std::vector<RecordEnd> ends;
};

/// The grid a run uses, and the hosts whose records end far from its edges.
struct GridPlan {
  /// Quanta are [origin + k * quantum, origin + (k + 1) * quantum); in [0, quantum).
  int64_t origin_ms = 0;
  /// PhasePeriod() of the run.
  int64_t period_ms = 0;
  /// One line per host whose records end far from the grid's edges (more than
  /// kFarFromEdge of the period), saying how far and what to do about it.
  std::vector<std::string> notes;
};

/// A host's records ending further than this share of the phase period from the grid's
/// edges are named in the summary: that share of each straddling record's I/Os is placed
/// by the uniform-spread assumption.
constexpr double kFarFromEdge = 0.05;

/// Chooses the origin per `choice` (kLogs: CircularMedianPhase of all logs' record ends)
/// and notes the hosts whose own median phase lies far from the grid's edges.
GridPlan PlanGrid(const GridChoice& choice, int64_t quantum_ms, int64_t log_hist_msec,
                  const std::vector<LogRecordEnds>& logs);

/// The circular distance of `phase` from `from` modulo `period`, signed: positive when
/// `phase` lies after `from` (within half a period).
int64_t PhaseOffset(int64_t phase, int64_t from, int64_t period);

}  // namespace fiohist
