// One log file as a stream of per-quantum contributions: reader -> intervals -> grid.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "histogram/bucket_layout.h"
#include "histogram/histogram.h"
#include "log/carried_lines.h"
#include "log/interval_model.h"
#include "log/log_line.h"
#include "log/log_reader.h"
#include "log/log_report.h"
#include "log/log_source.h"
#include "log/placed_record.h"
#include "log/probed_records.h"
#include "log/quantum_grid.h"
#include "log/record_stream.h"

namespace fiohist {

/// How a log's stamps map to the run's time line and what its lines must look like.
struct StreamSetup {
  /// Count columns every line must have (the run's layout).
  int columns = 0;
  /// Added to every stamp (anchor of relative logs; 0 for epoch logs).
  int64_t offset_ms = 0;
  /// Length of each direction's first span (log_hist_msec).
  int64_t first_interval_ms = 1000;
  /// Spans never start before this instant (the job start of relative logs).
  int64_t floor_ms = INT64_MIN / 2;
  /// floor_ms is the job's start as an anchor gave it (fio's JSON, --start-time): a first
  /// record long after it ended a pause (interval_model.h).
  bool floor_is_job_start = false;
  /// Bad lines are counted and skipped instead of ending the run (--skip-bad-lines).
  bool skip_bad_lines = false;
  /// Per-I/O logs: the run's bucket layout their latencies are binned into, and ns per unit
  /// of their values (1000 for fio 2's microseconds).
  BucketLayout layout;
  int64_t value_unit_ns = 1;
  /// --repair-client-logs: each record is line k - line k-2 of its direction (fio's
  /// client/server bug, carried_lines.h).
  bool repair_carried_lines = false;
  /// --place issue: each I/O is placed where it was issued (completion - latency) instead of
  /// where it completed (issue_stream.h), on the run's grid below.
  bool place_issue = false;
  /// The run's grid (place_issue only: the issue streams read ahead on it).
  int64_t grid_origin_ms = 0;
  int64_t grid_quantum_ms = 1000;
  /// The log's records as its probe kept them (none: the log is read).
  ProbedRecords probed;
};

/// Streams one log in time order, handing out what it contributes to each quantum.
/// Memory is one read buffer plus the records still spanning future quanta.
///
/// fio writes a direction's line when an I/O of that direction completes after
/// log_hist_msec, so when writes stall while reads go on, the write line that closes the
/// stall comes late in the file, after many read lines. Its span starts at the previous
/// write stamp, in quanta that must not be finished without it. So before a quantum is
/// handed out, every direction whose next span starts inside it has its next line found by
/// a look-ahead reader of its own (pre-read once; the main reader skips it later). Each
/// look-ahead reader only moves forward, so a file is read at most once more per direction,
/// and only where a direction stalls or stops early.
class LogStream : public RecordStream {
 public:
  /// Opens nothing: Prime() or the first Feed() does, so a file that cannot be opened
  /// is a Status of theirs.
  LogStream(const LogSource& source, const StreamSetup& setup);

  /// Earliest instant for which this log may still contribute (INT64_MAX when done).
  /// Valid once Feed() has run at least once or after Prime().
  int64_t next_start_ms() const override { return next_start_ms_; }
  /// Opens the file and reads up to the first record.
  Status Prime() override;

  /// Adds this log's share of quantum `q` to `out[direction]` (`out` null: to the addition
  /// observer alone) and sets `touched[d]` for every direction with a span overlapping the
  /// quantum. Quanta must come in order. With
  /// `placed`, appends every record whose span starts in the quantum (bucket documents).
  Status Feed(const QuantumGrid& grid, int64_t q, DirectionSums* out, DirectionFlags* touched,
              std::vector<PlacedRecord>* placed = nullptr) override;

  /// The time of quantum `q` (as last fed) that this log's spans cover: the most of any
  /// direction (a direction's spans do not overlap; where one stalls, the spans of the
  /// others still say the job ran). 0 when the last Feed() was of another quantum.
  int64_t covered_ms(int64_t q) const override {
    return covered_q_ != q ? 0 : std::max({covered_[0], covered_[1], covered_[2]});
  }

  /// Per direction: the I/Os of quantum `q` (as last fed) that the uniform-spread
  /// assumption may have put on the wrong side of one of its edges: each record crossing
  /// an edge adds the smaller of its share in the quantum and its share outside, times
  /// its I/Os (a record split 20/80 adds 20 % of its I/Os to both quanta; one ending 2 ms
  /// past the edge adds 0.2 %). Zeros when the last Feed() was of another quantum.
  std::array<double, kLogDirections> straddled_ios(int64_t q) const override {
    return covered_q_ != q ? std::array<double, kLogDirections>{} : straddled_;
  }

  /// Sets the observer of Feed()'s additions (none by default).
  void set_addition_observer(AdditionObserver observer) override {
    observer_ = std::move(observer);
  }
  /// Feed()'s `out` may be null.
  bool feeds_without_sums() const override { return true; }

  /// The file and its host and job.
  const LogSource& source() const override { return source_; }
  /// What reading the file came to so far (complete once done()).
  const LogReport& report() const override { return report_; }

 private:
  // A record whose span reaches into later quanta.
  struct Pending {
    TimeSpan span;
    Direction direction;
    std::vector<std::pair<uint32_t, uint64_t>> counts;
    double total = 0;  // I/Os of the record
    int what = 0;      // kIos | kCover
  };
  // What a part of a record adds to the quanta it overlaps: its I/Os, its coverage.
  static constexpr int kIos = 1, kCover = 2;
  // Reads the next line worth looking at into peek_*; false at end of input.
  Status ReadPeek(bool* have);
  // Feed's steps, in order. Adds the share of quantum q of spans read in earlier quanta.
  void FeedPending(const QuantumGrid& grid, int64_t q, DirectionSums* out, DirectionFlags* touched);
  // Reads and places the main reader's lines whose spans start before q's end.
  Status FeedLines(const QuantumGrid& grid, int64_t q, DirectionSums* out, DirectionFlags* touched);
  // Before q is handed out: finds the next line of every direction whose next span starts
  // inside it (a stalled direction, whose closing line comes later in the file).
  Status LookAheadStalled(const QuantumGrid& grid, int64_t q, DirectionSums* out,
                          DirectionFlags* touched);
  // The peeked line at `line`, which a look-ahead reader has been past: the line it placed
  // (now skipped) or one it passed over (a bad line, reported here, in file order).
  Status SettleLookedAhead(long long line);
  // Parses the peeked line stamped `stamp` (with the offset), checks it against the run's
  // layout and its direction's last stamp, and places it.
  Status PlaceLine(int64_t stamp, const QuantumGrid& grid, int64_t q, DirectionSums* out,
                   DirectionFlags* touched);
  // Counts a record placed as `placement` says and adds its share of quantum q (and later
  // ones).
  void Accept(const LogRecord& record, const RecordPlacement& placement, bool unterminated,
              const QuantumGrid& grid, int64_t q, DirectionSums* out, DirectionFlags* touched);
  // Notes the pause a record placed as `placement` ended (or, for a catch-up record, adds
  // its stuck I/Os to the last pause of its direction) in report_.pauses.
  void NotePause(const LogRecord& record, const RecordPlacement& placement);
  // A catch-up record, or one of normal length, after a pause of its direction: counts its
  // stuck I/Os into the pause (CountStuck), until a record of normal length holds none.
  void CountLateStuck(const LogRecord& record, const RecordPlacement& placement);
  // Adds to the open pause of `direction` the I/Os of `counts` (completed at or after
  // `completed_from_ms`) whose latency says they were in flight for most of it (issued
  // before its middle); returns how many.
  double CountStuck(Direction direction, const std::vector<std::pair<uint32_t, uint64_t>>& counts,
                    int64_t completed_from_ms);
  // Adds `counts` spread over `span` (`what`: its I/Os, its coverage) to quantum q, and
  // keeps it pending for later quanta.
  void AddPart(Direction direction, const std::vector<std::pair<uint32_t, uint64_t>>& counts,
               double total, TimeSpan span, int what, const QuantumGrid& grid, int64_t q,
               DirectionSums* out, DirectionFlags* touched);
  // Finds and places the next line of direction `d` ahead of the main reader.
  Status LookAhead(Direction d, const QuantumGrid& grid, int64_t q, DirectionSums* out,
                   DirectionFlags* touched);
  // Handles a malformed line: error, or skip and count.
  Status BadLine(const std::string& what);
  // The peeked line is fio's latency_target reset (stats_reset.h): error, or under
  // --skip-bad-lines the end of the file, with what it leaves out counted.
  Status StatsReset(int wrapped);
  // Sets next_start_ms_ from the pending spans and the peeked line.
  void UpdateNextStart();
  // Drops the readers (their buffers) once the file is done.
  void Close();
  // The main reader's line number and whether its last line lacked its '\n' (the probed
  // records' when reading them).
  long long LineNumber() const { return probed_ ? probed_line_ : reader_->line_number(); }
  bool LastLineUnterminated() const { return !probed_ && reader_->last_line_unterminated(); }
  // ReadPeek from the probed records: record_ is the peeked line's record.
  Status ReadProbedPeek(bool* have);

  LogSource source_;
  StreamSetup setup_;
  std::unique_ptr<LogReader> reader_;
  // Reading the probed records (setup_.probed) instead of the log: their bytes, the next
  // one's place in them, and the line last read.
  bool probed_ = false;
  std::string probed_bytes_;
  size_t probed_at_ = 0;
  long long probed_line_ = 0;
  IntervalModel model_;
  LogRecord record_;
  // --repair-client-logs: the differences, and the record Accept() repaired.
  CarriedLinesRepair repair_;
  LogRecord repaired_;
  // pending_[0, pending_used_) are live; the rest keep their storage for the next ones (a
  // record straddles quanta almost every time: no allocation per record).
  std::vector<Pending> pending_;
  size_t pending_used_ = 0;
  bool opened_ = false;
  bool eof_ = false;
  // A statistics reset ended the file early (--skip-bad-lines).
  bool stopped_ = false;
  bool have_peek_ = false;
  std::string_view peek_line_;
  int64_t peek_time_ = 0;
  Direction peek_direction_ = Direction::kRead;
  int64_t next_start_ms_ = INT64_MIN;
  LogReport report_;
  // Look-ahead state per direction: its reader, the line it pre-read (0: none) and the
  // stamp before that line, and whether the direction has no more lines.
  std::array<std::unique_ptr<LogReader>, kLogDirections> ahead_;
  std::array<long long, kLogDirections> ahead_line_{};
  std::array<int64_t, kLogDirections> ahead_prev_{};
  std::array<bool, kLogDirections> ahead_done_{};
  LogRecord ahead_record_;
  // Per direction: I/Os per ms of the last record of normal length (a pause's start).
  std::array<double, kLogDirections> rate_{};
  // Per direction: the pause (index into report_.pauses) whose stuck I/Os the records after
  // it may still hold (CountLateStuck), or -1.
  std::array<long, kLogDirections> stuck_pause_ = {-1, -1, -1};
  // A split record's parts (Accept), kept for their storage.
  std::vector<std::pair<uint32_t, uint64_t>> rest_counts_, lone_counts_;
  // Per direction: the time of quantum covered_q_ its spans cover (Feed() resets it).
  std::array<int64_t, kLogDirections> covered_{};
  int64_t covered_q_ = INT64_MIN;
  // Per direction: the I/Os of quantum covered_q_ from records crossing its edges.
  std::array<double, kLogDirections> straddled_{};
  // Where Accept() appends the records it places during the current Feed() (or nowhere).
  std::vector<PlacedRecord>* placed_ = nullptr;
  AdditionObserver observer_;
};

}  // namespace fiohist
