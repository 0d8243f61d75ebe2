// Thousands of logs in bounded memory: each log's shares of the quanta, made one log at a
// time into temporary files, then read back in step.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/spill_file.h"
#include "base/status.h"
#include "base/worker_pool.h"
#include "log/log_report.h"
#include "log/log_source.h"
#include "log/log_stream.h"
#include "log/placed_record.h"
#include "log/quantum_grid.h"
#include "stats/merge.h"

namespace fiohist {

/// The pipeline's logs read ahead, one at a time per worker, into anonymous temporary
/// files (SpillFile): for each quantum a log contributes to, the additions LogStream::Feed
/// made to its histograms (a record's integer counts and a weight: LogStream's
/// AdditionObserver), its flags, covered time and straddled I/Os (and the records it
/// placed, for bucket documents), as varints. Replaying the additions rebuilds the
/// histograms bit for bit. Read back in step, a log
/// then costs a cursor (a few dozen bytes) instead of its reader, inflate state and
/// buffers (about 110 KB for a gzip log), which is what lets thousands of logs be read at
/// once. A log is fed the same quanta it would be fed in step: quantum q when its next span
/// starts before q's end, which depends on the log alone.
class SpilledLogs {
 public:
  /// What to spill besides each quantum's shares.
  struct Options {
    /// The records placed in each quantum (PipelineOptions::keep_records, job scope).
    bool keep_records = false;
  };

  /// Reads every log to its end on `pool`, spilling as it goes. Returns the first error
  /// met (a log's, in the order logs were read, or the temporary file's); the caller then
  /// reads the logs in step instead, which reports a log's error exactly as it always has.
  Status Write(const std::vector<LogSource>& logs, const std::vector<StreamSetup>& setups,
               const QuantumGrid& grid, const Options& options, WorkerPool* pool);

  /// Earliest instant log `i` may still contribute to (LogStream::next_start_ms()).
  int64_t next_start_ms(size_t i) const { return cursors_[i].next_start_ms; }
  /// Sets `*share` (cleared first; `logs` left 0) to log `i`'s share of quantum `q`, and
  /// `*placed` (when given) to the records placed in it. `q` must be the quantum the log
  /// is fed next: next_start_ms(i) < the end of q. Each log reads a few quanta ahead at
  /// once (a share of a fixed budget), kept until the log is read to its end.
  Status Read(size_t i, int64_t q, ScopeHistograms* share, std::vector<PlacedRecord>* placed);
  /// Each spilled quantum ends with the on-disk length of the log's next one, in this
  /// many bytes (0 after the last).
  static constexpr size_t kNextLength = sizeof(uint32_t);
  /// Where a log's spilled quanta are read from: one cursor per log for the run's reading
  /// in step (private), more for reading a log again on its own (Restart, ReadNext).
  struct Position {
    int file = 0;  // index in files_
    uint64_t offset = 0;
    uint32_t length = 0;  // on-disk length of the quantum at offset; 0: past the last
    /// True past the log's last quantum (a quantum on disk is longer than the length
    /// of the next one that ends it).
    bool done() const { return length <= kNextLength; }
  };
  /// The start of log `i`'s spilled quanta, for reading it again (any number of times,
  /// while the run reads it in step too).
  Position Restart(size_t i) const;
  /// Reads the quantum at `*at` into `*share` (cleared first; `logs` left 0) and
  /// `*placed` (when given and spilled), sets `*q` to its index and moves `*at` to the
  /// next one. `*at` must not be done().
  Status ReadNext(Position* at, int64_t* q, ScopeHistograms* share,
                  std::vector<PlacedRecord>* placed, std::string* scratch) const;
  /// Sets `*whole` to log `i`'s sum over the run, summed as the in-step pipeline sums it
  /// (quanta in order, those with a touched direction), from its spilled quanta again.
  Status ReadWhole(size_t i, ScopeHistograms* whole, std::string* scratch) const;
  /// What reading log `i` came to.
  const LogReport& report(size_t i) const { return cursors_[i].report; }

 private:
  // Where a log's next quantum is: each spilled quantum ends with the on-disk length of
  // the next one (0 after the last), so a log's position is an offset and a length.
  struct Cursor {
    Position at;
    int64_t next_start_ms = INT64_MAX;
    Position first;  // where the log's first quantum is
    LogReport report;
    // The bytes read at ahead_offset: this quantum and the next ones of the log, so that
    // reading in step is a system call per few quanta, not per quantum.
    std::string ahead;
    uint64_t ahead_offset = 0;
  };
  // Decodes the quantum at `at` (its bytes at `data`) into `*share` (and `*placed`) and
  // moves `at` to the next one; `*q` is the quantum expected (INT64_MIN: any; set to the
  // one read), `*next_start` set to the log's next start after it.
  Status Decode(const char* data, Position* at, int64_t* q, int64_t* next_start,
                bool placed_spilled, ScopeHistograms* share,
                std::vector<PlacedRecord>* placed) const;
  // Reads log `i` on `worker`'s file; a failure is the log's error.
  Status WriteLog(size_t i, const LogSource& log, const StreamSetup& setup,
                  const QuantumGrid& grid, const Options& options, int worker);

  std::vector<std::unique_ptr<SpillFile>> files_;  // one per worker
  std::vector<Cursor> cursors_;                   // one per log
  bool keep_records_ = false;
  size_t ahead_bytes_ = 0;  // read ahead per log in step: kReadAheadBudget spread over the logs
};

}  // namespace fiohist
