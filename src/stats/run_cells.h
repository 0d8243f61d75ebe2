// One run's latency histograms per time quantum and host: what run comparisons resample.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "histogram/bucket_layout.h"
#include "histogram/histogram.h"
#include "log/log_line.h"
#include "stats/result_sink.h"

namespace fiohist {

/// One run's histograms of one direction: cells[q][h] holds the I/Os host `hosts[h]`
/// completed in the q-th kept quantum (an empty histogram where it completed none). Only
/// full quanta are kept, in time order; `starts_ms[q]` is each one's start.
struct RunCells {
  std::string run;
  BucketLayout layout;
  int64_t quantum_ms = 1000;
  Direction direction = Direction::kAll;
  std::vector<std::string> hosts;
  std::vector<int64_t> starts_ms;
  std::vector<std::vector<Histogram>> cells;
  /// The start of the run's first quantum, kept or not.
  int64_t first_quantum_ms = 0;

  /// Kept quanta.
  size_t quanta() const { return cells.size(); }
  /// All I/Os of the kept quanta, every host.
  Histogram Whole() const;
};

/// One run: its cells per direction (any order).
struct RunData {
  std::string run;
  std::vector<RunCells> directions;
};

/// Which quanta of a run to compare: ramp-up and ramp-down cut off, or a window.
struct QuantumWindow {
  /// Leave out quanta starting less than this many ms after the run's first quantum.
  int64_t skip_start_ms = 0;
  /// Leave out quanta ending less than this many ms before the run's last quantum ends.
  int64_t skip_end_ms = 0;
  /// Keep only quanta starting in [from_ms, to_ms) (absolute or run time, as stored).
  int64_t from_ms = INT64_MIN;
  int64_t to_ms = INT64_MAX;
  /// from_ms and to_ms count from the run's first quantum: a baseline's window is the run's
  /// window at the same offsets, since runs compared ran at other times.
  bool relative = false;

  /// Whether --from or --to chose a window.
  bool windowed() const { return from_ms != INT64_MIN || to_ms != INT64_MAX; }
};

/// The window of a baseline of `run`: `window` moved to offsets from the start of `run`'s
/// first quantum (unchanged where it chooses no window).
QuantumWindow BaselineWindow(const QuantumWindow& window, const RunData& run);

/// Collects a pipeline's (or a read-back's) host and cluster results per quantum into
/// RunCells, one per direction that had I/Os. Needs the host and cluster scopes: the
/// cluster result says whether the quantum is partial (some log starts or ends inside
/// it), and partial quanta are left out, so a cut-short quantum's low count and tail
/// resting on few I/Os never enter a comparison.
class RunCellsSink : public ResultSink {
 public:
  RunCellsSink(std::string run, QuantumWindow window)
      : run_(std::move(run)), window_(window) {}
  Status Begin(const RunInfo& info) override;
  Status Quantum(const ScopeResult& r) override;
  Status WholeRun(const ScopeResult&) override { return Status(); }
  bool reads_whole_run(ScopeKind) const override { return false; }
  Status End(const RunSummary&) override { return Status(); }

  /// The collected cells of `direction` (read, write, trim; kAll only where no real
  /// direction was stored), windowed. Fails when no full quantum is left.
  Status Take(Direction direction, RunCells* cells) const;
  /// Directions with I/Os in a kept quantum.
  std::vector<Direction> directions() const;
  /// Every direction's cells into `run` (Take of each of directions()).
  Status TakeAll(RunData* run) const;
  /// Quanta seen, and how many of them were partial (left out).
  long long quanta_seen() const { return seen_; }
  long long quanta_partial() const { return partial_; }

 private:
  struct Slot {
    int64_t start_ms = 0, end_ms = 0;
    bool partial = false;
    std::map<std::pair<Direction, std::string>, Histogram> hosts;
  };
  std::string run_;
  QuantumWindow window_;
  BucketLayout layout_;
  int64_t quantum_ms_ = 1000;
  std::vector<Slot> quanta_;
  std::map<std::string, bool> hosts_;
  long long seen_ = 0, partial_ = 0;
};

}  // namespace fiohist
