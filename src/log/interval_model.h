// What time span a log record covers: fio stamps the END of each interval.
#pragma once

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

/// Turns the stamps of one log file into the spans they cover. Record k of a direction
/// covers (t[k-1], t[k]]; the first covers (t[0] - first_interval, t[0]]. A stall (no
/// line for a while) thus becomes one long span. A record that repeats the previous
/// stamp of its direction is a duplicate; one with an earlier stamp goes backwards.
class IntervalModel {
 public:
  /// What Place() decided about a record.
  enum class Verdict { kSpan, kDuplicate, kBackwards };

  /// `first_interval_ms`: log_hist_msec (given or inferred) for the first record of each
  /// direction; `floor_ms`: spans never start before it (the job's start for relative logs).
  IntervalModel(int64_t first_interval_ms, int64_t floor_ms)
      : first_interval_ms_(first_interval_ms), floor_ms_(floor_ms) {}

  /// The start of the span a record stamped `time_ms` would cover, without accepting it.
  int64_t StartOf(int64_t time_ms, Direction d) const {
    const int64_t last = last_[static_cast<int>(d)];
    if (last != kNone) return last;
    const int64_t start = time_ms - first_interval_ms_;
    return start < floor_ms_ ? (time_ms < floor_ms_ ? time_ms : floor_ms_) : start;
  }

  /// Accepts the record stamped `time_ms`: sets `*span` and returns kSpan, or reports a
  /// duplicate or backwards stamp (then nothing changes).
  Verdict Place(int64_t time_ms, Direction d, TimeSpan* span) {
    int64_t& last = last_[static_cast<int>(d)];
    if (last != kNone) {
      if (time_ms == last) return Verdict::kDuplicate;
      if (time_ms < last) return Verdict::kBackwards;
    }
    span->start_ms = StartOf(time_ms, d);
    span->end_ms = time_ms;
    last = time_ms;
    return Verdict::kSpan;
  }

  /// The last accepted stamp of direction `d`, or kNone.
  int64_t last(Direction d) const { return last_[static_cast<int>(d)]; }

  /// last() of a direction with no record yet.
  static constexpr int64_t kNone = INT64_MIN;

 private:
  int64_t first_interval_ms_;
  int64_t floor_ms_;
  int64_t last_[kLogDirections] = {kNone, kNone, kNone};
};

}  // namespace fiohist
