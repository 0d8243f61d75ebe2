// A per-I/O latency log (write_lat_log, log_avg_msec=0) as a stream of per-quantum
// histograms: every I/O counted in the quantum where it completed, in fio's buckets.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "histogram/bucket_layout.h"
#include "log/log_probe.h"
#include "log/log_reader.h"
#include "log/log_stream.h"
#include "log/per_io_line.h"
#include "log/record_stream.h"
#include "log/smallfile_line.h"

namespace fiohist {

/// fio's bucket of a latency of `value` histogram units (plat_val_to_idx of fio's stat.c:
/// values below 2^(bits+1) have a bucket each, then 2^bits buckets per power of two), in
/// the column of `layout` (coarsened), clamped into its last column as fio does. Inline and
/// branch-free, integers only: it runs once per I/O.
inline int ColumnOfValue(const BucketLayout& layout, uint64_t value) {
  // With e = max(msb - bits, 0), fio's index (e + 1) << bits plus the `bits` bits below the
  // msb is (value >> e) + (e << bits) (value >> e keeps the msb, as 1 << bits), and for
  // e = 0 (values below 2^(bits+1), each its own bucket) it is the value itself.
  const int msb = 63 - __builtin_clzll(value | 1);
  const int e = std::max(msb - layout.bits, 0);
  const uint64_t index = (value >> e) + (static_cast<uint64_t>(e) << layout.bits);
  const uint64_t fine = static_cast<uint64_t>(layout.groups) << layout.bits;
  return static_cast<int>(std::min(index, fine - 1)) >> layout.coarseness;
}

/// How far a line's completion time may go back from the previous line's before it is an
/// error. fio stamps each I/O at completion in the order it logs them, so a per-I/O log
/// never goes back (tested with fio 3.33 and 3.42); a millisecond of slack keeps clock
/// rounding from failing a file. More is a per_job_logs=0 file (the next job's times restart)
/// or a damaged one.
constexpr int64_t kPerIoBackwardsSlackMs = 1;

/// Reads the first `max_lines` lines of the per-I/O log at `path` into `probe` (columns 0:
/// the run's layout decides; no stamps: the I/Os have no intervals to align the grid with).
/// Fails, naming file and line, for an averaged log (log_avg_msec > 0: block size 0 on every
/// line), a log with no fio per-I/O layout, and bad lines unless `skip_bad_lines`.
Status ProbePerIoLog(const LogSource& source, int max_lines, bool skip_bad_lines, LogProbe* probe);

/// Streams one per-I/O log in time order. Each quantum's I/Os are counted per direction and
/// bucket, then handed out as one record spanning the quantum (weight 1 in it, 0 anywhere
/// else), so bucket documents, read-back and zoom work as for histogram logs; nothing is
/// spread over quantum edges (straddled_ios is 0). Memory: one read buffer and the counts of
/// the quantum being read.
class PerIoStream : public RecordStream {
 public:
  PerIoStream(const LogSource& source, const StreamSetup& setup);

  Status Prime() override;
  int64_t next_start_ms() const override { return next_start_ms_; }
  Status Feed(const QuantumGrid& grid, int64_t q, DirectionSums* out, DirectionFlags* touched,
              std::vector<PlacedRecord>* placed = nullptr) override;
  /// From the job's start (relative logs) or its first I/O's completion to its last one's.
  int64_t covered_ms(int64_t q) const override { return covered_q_ == q ? covered_ : 0; }
  std::array<double, kLogDirections> straddled_ios(int64_t) const override { return {}; }
  void set_addition_observer(AdditionObserver observer) override {
    observer_ = std::move(observer);
  }
  const LogSource& source() const override { return source_; }
  const LogReport& report() const override { return report_; }
  /// The column layout settled from the first line.
  const PerIoLayout& layout() const { return layout_; }
  /// The I/O last read ahead (valid while not done()): completion, latency, direction and
  /// issue time (IssueTimeNs) for views that place I/Os at their issue.
  const PerIoRecord& next_record() const { return peek_; }
  int64_t complete_to_ms(int64_t q) const override {
    return covered_q_ == q ? complete_to_ : kCompleteToAll;
  }

 private:
  // Sets covered_: the milliseconds of quantum (qs, qe] the job ran.
  void NoteCoverage(int64_t qs, int64_t qe);
  // Adds `counts_` (one direction's I/Os of quantum `span`, `ios` of them) to the sums, the
  // observer, the placed records and the report.
  void AddCounts(size_t d, const TimeSpan& span, uint64_t ios, DirectionSums* out,
                 DirectionFlags* touched, std::vector<PlacedRecord>* placed);
  // --place issue: Feed() with every I/O counted in the quantum where it was issued
  // (completion - latency, exact), read ahead until the I/Os still to come complete more
  // than the slowest bucket's latency past the quantum's end.
  Status FeedIssue(const QuantumGrid& grid, int64_t q, DirectionSums* out, DirectionFlags* touched,
                   std::vector<PlacedRecord>* placed);
  // Reads I/Os into issued_ while the next one completes before `until_ms`.
  Status ReadIssued(const QuantumGrid& grid, int64_t until_ms);
  // The latency of the peeked I/O in ns, and its column in the run's layout.
  int64_t PeekLatencyNs() const;
  int PeekColumn() const;
  // Reads the next good line into peek_ (have_peek_ false at the end).
  Status ReadPeek();
  // Feed()'s fast path, after the peeked I/O was counted: counts the buffered lines that
  // follow while they are as fio writes them (ScanPerIoLine), in time order and complete
  // before `qe` (`*ios` per direction). Returns true with peek_ holding the first line that
  // completes at or after `qe`; false where ReadPeek() must read the next line (near the
  // end of the buffered text, any other line, times going back).
  bool ScanRun(int64_t qs, int64_t qe, std::array<uint64_t, kLogDirections>* ios);
  Status BadLine(const std::string& what);

  LogSource source_;
  StreamSetup setup_;
  std::unique_ptr<LogReader> reader_;
  PerIoLayout layout_;
  SmallfileName smallfile_;  // source_.smallfile: thread, host, op and epoch of the name
  bool opened_ = false;
  bool have_peek_ = false;
  PerIoRecord peek_;
  int64_t peek_stamp_ = 0;  // peek_.time_ms on the run's time line
  int64_t last_stamp_ = INT64_MIN;
  int64_t first_stamp_ = INT64_MIN;
  int64_t next_start_ms_ = INT64_MIN;
  int64_t covered_q_ = INT64_MIN;
  int64_t covered_ = 0;
  LogReport report_;
  AdditionObserver observer_;
  // Per direction: the quantum's count per column, and the lowest and highest column
  // touched (gathered at the end of Feed into `counts_`).
  std::array<std::vector<uint32_t>, kLogDirections> dense_;
  std::array<int, kLogDirections> low_{INT32_MAX, INT32_MAX, INT32_MAX};
  std::array<int, kLogDirections> high_{-1, -1, -1};
  std::vector<std::pair<uint32_t, uint64_t>> counts_;
  // --place issue: per quantum, (direction << 16 | column) of each I/O issued there; the
  // read-ahead horizon (ms); the slowest latency read (ms); complete_to_ms of covered_q_.
  std::map<int64_t, std::vector<uint32_t>> issued_;
  int64_t horizon_ms_ = 0;
  double slowest_ms_ = 0;
  int64_t complete_to_ = kCompleteToAll;
};

}  // namespace fiohist
