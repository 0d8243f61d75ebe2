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
  /// is fed next: next_start_ms(i) < the end of q. `scratch` holds the bytes read.
  Status Read(size_t i, int64_t q, ScopeHistograms* share, std::vector<PlacedRecord>* placed,
              std::string* scratch);
  /// Sets `*whole` to log `i`'s sum over the run, summed as the in-step pipeline sums it
  /// (quanta in order, those with a touched direction), from its spilled quanta again.
  Status ReadWhole(size_t i, ScopeHistograms* whole, std::string* scratch) const;
  /// What reading log `i` came to.
  const LogReport& report(size_t i) const { return cursors_[i].report; }

 private:
  // Where a log's next quantum is: each spilled quantum ends with the on-disk length of
  // the next one (0 after the last), so a log's position is an offset and a length.
  struct Cursor {
    int file = 0;  // index in files_
    uint64_t offset = 0;
    uint32_t length = 0;
    int64_t next_start_ms = INT64_MAX;
    uint64_t first_offset = 0;  // where the log's first quantum is
    uint32_t first_length = 0;
    LogReport report;
  };
  // Decodes the quantum at `c` (read into `scratch`) into `*share` (and `*placed`) and
  // moves `c` to the next one; `q` is the quantum expected (INT64_MIN: any).
  Status ReadAt(Cursor* c, int64_t q, bool placed_spilled, ScopeHistograms* share,
                std::vector<PlacedRecord>* placed, std::string* scratch) const;
  // Reads log `i` on `worker`'s file; a failure is the log's error.
  Status WriteLog(size_t i, const LogSource& log, const StreamSetup& setup,
                  const QuantumGrid& grid, const Options& options, int worker);

  std::vector<std::unique_ptr<SpillFile>> files_;  // one per worker
  std::vector<Cursor> cursors_;                   // one per log
  bool keep_records_ = false;
};

}  // namespace fiohist
