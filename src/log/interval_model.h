// Where a log record's I/Os completed: fio's rule for writing histogram records.
#pragma once

#include <algorithm>
#include <cstdint>

#include "log/log_line.h"

namespace fiohist {

/// The longest span one record may cover. A real stall (no I/O completing) lasts seconds
/// to hours; a longer jump is a damaged stamp, and would spread one record over millions of
/// quanta of output. The probe and the stream both judge stamps by it.
constexpr int64_t kMaxSpanMs = 30LL * 24 * 3600 * 1000;

/// A time span (start, end] in milliseconds on the run's absolute time line.
struct TimeSpan {
  /// Exclusive start.
  int64_t start_ms = 0;
  /// Inclusive end: the record's stamp.
  int64_t end_ms = 0;
  /// Milliseconds covered (0 or less for an empty span).
  int64_t length() const { return end_ms - start_ms; }
};

/// Where one record's I/Os completed, as fio's rule tells (IntervalModel).
struct RecordPlacement {
  /// The time the record accounts for: (previous stamp, stamp]. Its quanta are covered
  /// (the job ran there, completing nothing outside `ios`), even those with no I/O.
  TimeSpan covers;
  /// Where the record's I/Os completed, spread uniformly: all of them, or all but the
  /// slowest one when `lone` is set.
  TimeSpan ios;
  /// The record's slowest I/O completed alone at its stamp (the completion that ended a
  /// pause, kept out of `ios`). Only when `ios` is not empty.
  bool lone = false;
  /// fio's deadline for the record, as estimated: its stamp for a record of normal length.
  int64_t deadline_ms = 0;
  /// True when the record ended a pause: its I/Os are not spread over all of `covers`.
  bool paused() const {
    return lone || ios.start_ms != covers.start_ms || ios.end_ms != covers.end_ms;
  }
  /// The millisecond of the lone I/O: (stamp - 1, stamp].
  TimeSpan lone_span() const { return TimeSpan{covers.end_ms - 1, covers.end_ms}; }
  /// The earliest instant the record adds I/Os or coverage to.
  int64_t start_ms() const { return std::min(covers.start_ms, ios.start_ms); }
};

/// Turns the stamps of one log file into where their I/Os completed, after fio's rule
/// (stat.c, add_clat_sample): per direction, fio keeps a reference that starts at the
/// direction's first completion; the first completion at or past reference +
/// log_hist_msec (the deadline) writes a record holding every completion since the last
/// record, itself included, and the reference then advances by exactly log_hist_msec.
/// So a record stamped past its deadline had no completion between the deadline and its
/// stamp except the one that wrote it, and after a long gap the next completions write
/// one record per missed deadline (records with one stamp, each holding new I/Os).
///
/// Deadlines are estimated from the stamps: the first record's deadline is its stamp (or,
/// when it came more than two intervals after the known job start, the start +
/// log_hist_msec); each next one
/// is the previous + log_hist_msec, or the record's stamp if that is earlier (fio's rule
/// makes the stamp at least the deadline, so the estimate only moves back to the truth).
/// A record at most a tenth of log_hist_msec (and at least kMinPauseMs) past its deadline
/// is of normal length: its
/// I/Os are spread over (previous stamp, stamp] as always. A later one is split: its I/Os
/// but the slowest over (previous stamp, deadline] (LogStream narrows that to the rate of
/// the record before, where the pause began), the slowest alone at its stamp (a stuck
/// I/O ends a stall; after an idle gap any one is as good), or, when the deadline is not
/// after the previous stamp (a catch-up record), the whole record at its stamp.
class IntervalModel {
 public:
  /// What Place() decided about a record.
  enum class Verdict { kPlaced, kBackwards };

  /// `interval_ms`: log_hist_msec (given or inferred); `floor_ms`: records never start
  /// before it (the job's start for relative logs, where fio's reference starts).
  /// `floor_is_job_start`: the floor is when the job started, known from an anchor (fio's
  /// JSON output, --start-time); only then may a first record be judged late.
  IntervalModel(int64_t interval_ms, int64_t floor_ms, bool floor_is_job_start = false)
      : interval_ms_(interval_ms),
        floor_ms_(floor_ms),
        slack_ms_(std::max(interval_ms / 10, kMinPauseMs)),
        floor_known_(floor_is_job_start) {}

  /// A record is late (it ended a pause) only when more than this past its deadline, or a
  /// tenth of log_hist_msec if more: fio itself lags on a loaded machine by tens of ms
  /// (82 ms past a deadline of a 250 ms log in tests/golden/data/epochstag).
  static constexpr int64_t kMinPauseMs = 100;

  /// Where a record stamped `time_ms` would go, without accepting it (its stamp must not
  /// go back: Place() judges that).
  RecordPlacement Plan(int64_t time_ms, Direction d, int64_t* deadline_ms = nullptr) const {
    const size_t i = static_cast<size_t>(d);
    RecordPlacement p;
    p.covers.end_ms = time_ms;
    int64_t deadline;
    if (last_[i] == kNone) {
      const int64_t start = time_ms - interval_ms_;
      p.covers.start_ms = start < floor_ms_ ? (time_ms < floor_ms_ ? time_ms : floor_ms_) : start;
      // A first record more than two intervals after the job's start ended a pause: fio's
      // reference began at the first completion, right after the start. (Between one and
      // two intervals it may as well be on time: a direction whose first I/O came late.)
      const bool late = floor_known_ && start - floor_ms_ > interval_ms_;
      deadline = late ? floor_ms_ + interval_ms_ : time_ms;
      if (late) p.covers.start_ms = floor_ms_;
    } else {
      p.covers.start_ms = last_[i];
      deadline = std::min(deadline_[i] + interval_ms_, time_ms);
      // A deadline not after the previous stamp calls for a catch-up record right after
      // it; one that comes later says the estimate is wrong (no catch-up records were
      // written): start again from this stamp.
      if (deadline <= last_[i] && time_ms - last_[i] > slack_ms_) deadline = time_ms;
    }
    if (deadline_ms) *deadline_ms = deadline;
    p.deadline_ms = deadline;
    p.ios = p.covers;
    if (time_ms - deadline > slack_ms_) {
      if (deadline > p.covers.start_ms) {
        p.ios.end_ms = deadline;
        p.lone = true;
      } else {
        p.ios = p.lone_span();  // a catch-up record: everything completed at its stamp
      }
    }
    return p;
  }

  /// Accepts the record stamped `time_ms`: sets `*placement` and returns kPlaced, or
  /// reports a stamp before the previous one of its direction (then nothing changes).
  /// A stamp equal to the previous one is a catch-up record (new I/Os), not a repeat.
  Verdict Place(int64_t time_ms, Direction d, RecordPlacement* placement) {
    const size_t i = static_cast<size_t>(d);
    if (last_[i] != kNone && time_ms < last_[i]) return Verdict::kBackwards;
    *placement = Plan(time_ms, d, &deadline_[i]);
    last_[i] = time_ms;
    return Verdict::kPlaced;
  }

  /// The last accepted stamp of direction `d`, or kNone.
  int64_t last(Direction d) const { return last_[static_cast<size_t>(d)]; }

  /// last() of a direction with no record yet.
  static constexpr int64_t kNone = INT64_MIN;

 private:
  int64_t interval_ms_;
  int64_t floor_ms_;
  int64_t slack_ms_;
  bool floor_known_;  // the floor is the job's start
  int64_t last_[kLogDirections] = {kNone, kNone, kNone};
  int64_t deadline_[kLogDirections] = {0, 0, 0};
};

}  // namespace fiohist
