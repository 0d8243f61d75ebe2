// Compatibility mode: fio's tools/hist/fio-histo-log-pctiles.py, reproduced.
//
// The reference's model, kept on purpose because it defines its numbers: a record covers
// [its stamp, the next stamp of its direction looked up at most 3 records ahead) or runs to
// the end of the last quantum; only the window where all logs overlap is reported; read and
// write are summed; percentiles interpolate inside buckets (p=100 stops at 99.9999%).
// Its crashes are not kept: records before the window are skipped instead of wrapping to
// the last quanta, zero-length records are dropped, bad options give clear errors.
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace fiohist {

namespace compat {

/// The reference tool's options, with its defaults.
struct PctilesOptions {
  /// fio that wrote the logs: 3 (nanosecond buckets) or 2 (microseconds, 19 groups).
  int fio_version = 3;
  /// Bucket groups of the histogram (fio's FIO_IO_U_PLAT_NR / 2^bits).
  int bucket_groups = 29;
  /// log2 of the buckets per group.
  int bucket_bits = 6;
  /// Wanted percentiles in the order given (the header follows this order).
  std::vector<double> percentiles = {0.0, 50.0, 95.0, 99.0, 100.0};
  /// Quantum length in whole seconds.
  int64_t time_quantum_s = 1;
  /// -1: not given (then epoch logs start one record interval before their first stamp).
  int64_t log_hist_msec = -1;
  /// Unit of the printed latencies: "usec" or "msec".
  std::string output_unit = "usec";
  /// Log files in command-line order (a name given twice counts once, as in the reference).
  std::vector<std::string> files;
  /// -h/--help was given: print the usage and nothing else.
  bool help = false;
};

/// Parses the reference's argparse syntax (`--percentiles 50 99 -- LOGS`, `--opt=value`,
/// unique prefixes such as `--time`) and checks the values. Bad usage is an error.
Status ParsePctilesArgs(int argc, const char* const* argv, PctilesOptions* options);

/// The reference's quantum count: ((floor(end/1000) - floor(start/1000)) + Q) div Q with Q the
/// quantum in seconds; the grid's quanta start at `start_ms` itself.
int64_t QuantumCount(int64_t quantum_s, int64_t start_ms, int64_t end_ms);

/// Where record `k` of one log ends: the stamp of the next record of the same direction
/// among records k+1..k+3 (the reference looks no further), else `grid_end_ms` (the end of
/// the last quantum, on whole seconds). `times`/`directions` are the log's kept records.
int64_t RecordEnd(const std::vector<int64_t>& times, const std::vector<uint8_t>& directions,
                  size_t k, int64_t grid_end_ms);

/// Non-zero summed counts of one quantum, (bucket, weighted count) in bucket order.
using SparseRow = std::vector<std::pair<uint32_t, double>>;

/// The time grid of one run: `count` quanta of `quantum_ms` from `start_ms`.
struct GridSpec {
  /// Start of the first quantum: the start of the window where all logs have data.
  int64_t start_ms = 0;
  /// Quantum length.
  int64_t quantum_ms = 1000;
  /// Number of quanta.
  int64_t count = 0;
  /// End of the last quantum as the reference computes it (whole seconds, in ms).
  int64_t end_ms = 0;
  /// Buckets per record (bucket groups * 2^bits).
  int buckets = 1856;
};

/// Spreads one log's records over the grid the way the reference does, then adds the log's
/// quanta to the run totals. Quanta no later record can reach are flushed early, so memory
/// stays at a few rows per log. The per-log sums are kept apart from the totals
/// because the reference adds them in that order (for byte-identical float sums). Rows are
/// sparse, so a record spread over a long gap costs little per quantum.
class LogAligner {
 public:
  /// Adds into `totals` (one row per quantum of `grid`, not owned), which outlives it.
  LogAligner(const GridSpec& grid, std::vector<SparseRow>* totals);

  /// Adds a record stamped `time_ms` that ends at `end_ms`: each quantum it overlaps gets
  /// count * overlap / (end - start). Shares before the grid start and after its last
  /// quantum are dropped. Returns false (adding nothing) for a zero-length record.
  bool Add(int64_t time_ms, int64_t end_ms,
           const std::vector<std::pair<uint32_t, uint64_t>>& counts);
  /// Moves the quanta that end at or before `time_ms` (no later record reaches them) into
  /// the totals.
  void FlushBefore(int64_t time_ms);
  /// Moves everything left into the totals.
  void FlushAll();

 private:
  // Moves the quanta before index `stop` into the totals.
  void Flush(int64_t stop);

  GridSpec grid_;
  std::vector<SparseRow>* totals_;
  /// This log's sums for quanta [window_first_, window_first_ + window_.size()).
  std::deque<SparseRow> window_;
  SparseRow scratch_;
  int64_t window_first_ = 0;
};

/// Bucket edges [lower, upper) in the reference's unit: usec for fio 3 (ns / 1000),
/// the raw unit (usec) for fio 2.
std::vector<std::pair<double, double>> BucketEdges(int fio_version, int groups, int bits);

/// The reference's percentile walk over one quantum: for each wanted p in the given order,
/// the first non-empty bucket whose running percentage exceeds p (p = 100: reaches
/// 99.9999), interpolated linearly in the bucket. Returns (p, value) sorted by p, one per
/// distinct p; empty when the row has no samples.
std::vector<std::pair<double, double>> Percentiles(
    const SparseRow& row, const std::vector<double>& wanted,
    const std::vector<std::pair<double, double>>& edges);

/// The CSV header line: "msec-since-start, samples, min, median, 95.0, max, ".
std::string HeaderLine(const std::vector<double>& wanted);

/// One CSV row: "%8d, %8d, " then the values (Python float repr, divided by `divisor`)
/// joined by ", ", or one ", " per wanted percentile for an empty quantum.
std::string RowLine(int64_t msec_since_start, const SparseRow& row,
                    const std::vector<double>& wanted,
                    const std::vector<std::pair<double, double>>& edges, double divisor);

/// What the reference's two passes make of a run's logs, ready to be printed.
struct PctilesResult {
  /// Start of the window where all logs have data (Unix-epoch ms, or 0 for relative logs).
  int64_t window_start_ms = 0;
  /// The quanta laid over that window.
  GridSpec grid;
  /// Summed counts per quantum of `grid`.
  std::vector<SparseRow> totals;
  /// Records dropped for covering no time (a repeated stamp): worth a warning.
  long long zero_length = 0;
  /// Records with no record of their direction within 3 lines, run to the end of the last
  /// quantum (where the reference asserts): worth a warning.
  long long no_successor = 0;
};

/// Pass 1 checks every log of `options.files` and finds the window where all of them have
/// data; pass 2 reads them again and spreads their records over its grid. Bad input,
/// logs that never overlap and windows too long to hold are errors.
Status ComputePctiles(const PctilesOptions& options, PctilesResult* result);

/// Writes the reference's text of `result` to `out`: parameter lines, header, one CSV row
/// per quantum. Fails when `out` cannot be written.
Status WritePctiles(const PctilesOptions& options, const PctilesResult& result, std::FILE* out);

/// time.ctime(seconds) in the local time zone: "Sun Nov 22 00:08:42 2026".
std::string CTime(int64_t seconds);

}  // namespace compat
}  // namespace fiohist
