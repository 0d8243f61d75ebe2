// The interface every input kind read in step with the quanta offers the pipeline.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "base/status.h"
#include "histogram/histogram.h"
#include "log/log_line.h"
#include "log/log_report.h"
#include "log/log_source.h"
#include "log/placed_record.h"
#include "log/quantum_grid.h"

namespace fiohist {

struct StreamSetup;

/// One input file as a stream of per-quantum contributions (histogram logs: LogStream;
/// per-I/O logs: PerIoStream). Quanta are fed in order; what a file contributes to each
/// is a histogram per direction.
class RecordStream {
 public:
  /// A quantum's histogram per direction, which Feed() adds to.
  using DirectionSums = std::array<Histogram, kLogDirections>;
  /// Per direction: whether any record of it touched the quantum.
  using DirectionFlags = std::array<bool, kLogDirections>;
  /// Told of every addition Feed() makes to its `out`: `weight` times `counts` into
  /// direction `d`'s histogram. The additions of one Feed(), made again in order on
  /// cleared histograms, rebuild its `out` bit for bit (what SpilledLogs keeps of a log).
  using AdditionObserver = std::function<void(
      Direction d, const std::vector<std::pair<uint32_t, uint64_t>>& counts, double weight)>;

  virtual ~RecordStream() = default;

  /// Opens the file and reads up to the first record.
  virtual Status Prime() = 0;
  /// Earliest instant for which this file may still contribute (INT64_MAX when done).
  /// Valid once Feed() has run at least once or after Prime().
  virtual int64_t next_start_ms() const = 0;
  /// Adds this file's share of quantum `q` to `out[direction]` and sets `touched[d]` for
  /// every direction it contributed to. With `placed`, appends the records whose spans
  /// start in the quantum (bucket documents).
  virtual Status Feed(const QuantumGrid& grid, int64_t q, DirectionSums* out,
                      DirectionFlags* touched, std::vector<PlacedRecord>* placed = nullptr) = 0;
  /// The time of quantum `q` (as last fed) the file covers (the job ran); 0 when the last
  /// Feed() was of another quantum.
  virtual int64_t covered_ms(int64_t q) const = 0;
  /// Per direction: the I/Os of quantum `q` (as last fed) that may lie on the wrong side of
  /// one of its edges (zeros for input that places each I/O exactly).
  virtual std::array<double, kLogDirections> straddled_ios(int64_t q) const = 0;
  /// --place issue: the latency (ms) up to which the I/Os issued in quantum `q` (as last
  /// fed) are all in the file, where the file ends before an I/O as slow as its slowest one
  /// issued in `q` would have completed (the quantum is partial); kCompleteToAll otherwise,
  /// and always when placing I/Os at completion.
  virtual int64_t complete_to_ms(int64_t q) const {
    (void)q;
    return kCompleteToAll;
  }
  /// complete_to_ms() of a quantum that lacks no I/O.
  static constexpr int64_t kCompleteToAll = INT64_MAX;
  /// Sets the observer of Feed()'s additions (none by default).
  virtual void set_addition_observer(AdditionObserver observer) = 0;
  /// True when Feed() may be given no `out` (null): the additions then go to the observer
  /// alone, which is all SpilledLogs keeps of them.
  virtual bool feeds_without_sums() const { return false; }
  /// The file and its host and job.
  virtual const LogSource& source() const = 0;
  /// What reading the file came to so far (complete once done()).
  virtual const LogReport& report() const = 0;
  /// True once the whole file was read and everything handed out.
  bool done() const { return next_start_ms() == INT64_MAX; }
};

/// The stream that reads `source` as its kind says (LogSource::format).
std::unique_ptr<RecordStream> MakeRecordStream(const LogSource& source, const StreamSetup& setup);

}  // namespace fiohist
