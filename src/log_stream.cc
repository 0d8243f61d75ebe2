#include "log_stream.h"

#include <algorithm>

namespace fiohist {
namespace {

constexpr int64_t kEpochThresholdMs = 100000000000LL;  // 1973: smaller stamps are relative
constexpr size_t kMaxSkippedExamples = 5;
// The longest span one record may cover. A real stall (no I/O completing) lasts seconds to
// hours; a longer jump is a damaged stamp, and would spread one record over millions of
// quanta of output.
constexpr int64_t kMaxSpanMs = 30LL * 24 * 3600 * 1000;

}  // namespace

Status ProbeLog(const std::string& path, int max_lines, bool skip_bad_lines, LogProbe* probe) {
  *probe = LogProbe();
  std::unique_ptr<LogReader> reader;
  Status s = LogReader::Open(path, &reader);
  if (!s.ok()) return s;
  LogRecord record;
  std::string what;
  int64_t last[kLogDirections] = {-1, -1, -1};
  std::vector<int64_t> gaps;
  std::string_view line;
  int seen = 0;
  while (seen < max_lines && reader->NextLine(&line)) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    bool good = ParseRecord(line, &record, &what);
    if (good && probe->empty && reader->last_line_unterminated()) {
      // A cut line can still parse (with fewer columns, which may even match a coarse
      // layout); with no complete line before it nothing tells, so it is not used.
      good = false;
      what = "a single line of " + std::to_string(record.columns) +
             " bucket counts cannot be told from a cut one";
    } else if (good && !probe->empty && record.columns != probe->columns) {
      good = false;
      what = "expected " + std::to_string(probe->columns) +
             " bucket counts (as on the first line), found " + std::to_string(record.columns);
    }
    if (!good) {
      if (reader->last_line_unterminated()) {
        what = "last line is incomplete (no newline at the end: fio killed mid-write?): " + what;
      }
      if (skip_bad_lines) continue;
      return Status::InputError(path, reader->line_number(), what);
    }
    if (probe->empty) {
      probe->empty = false;
      probe->columns = record.columns;
      probe->first_time_ms = record.time_ms;
      probe->epoch = record.time_ms >= kEpochThresholdMs;
    }
    int64_t& l = last[static_cast<int>(record.direction)];
    // A jump beyond kMaxSpanMs is a bad line for the stream; it says nothing of the interval.
    if (l >= 0 && record.time_ms > l && record.time_ms - l <= kMaxSpanMs) {
      gaps.push_back(record.time_ms - l);
    }
    l = record.time_ms;
    ++seen;
  }
  // With --skip-bad-lines the stream reports the damage (and uses what came before it).
  if (!reader->status().ok() && !skip_bad_lines) return reader->status();
  if (!gaps.empty()) {
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<long>(gaps.size() / 2), gaps.end());
    probe->typical_gap_ms = gaps[gaps.size() / 2];
  }
  return Status();
}

LogStream::LogStream(const LogSource& source, const StreamSetup& setup)
    : source_(source), setup_(setup), model_(setup.first_interval_ms, setup.floor_ms) {}

Status LogStream::BadLine(const std::string& what) {
  std::string message = what;
  if (reader_->last_line_unterminated()) {
    message = "last line is incomplete (no newline at the end: fio killed mid-write?): " + what;
  }
  if (!setup_.skip_bad_lines) {
    return Status::InputError(source_.path, reader_->line_number(), message);
  }
  ++report_.skipped_lines;
  if (report_.skipped_examples.size() < kMaxSkippedExamples) {
    report_.skipped_examples.push_back(source_.path + ":" +
                                       std::to_string(reader_->line_number()) + ": " + message);
  }
  return Status();
}

Status LogStream::ReadPeek(bool* have) {
  *have = false;
  std::string_view line;
  while (reader_->NextLine(&line)) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
      ++report_.blank_lines;
      continue;
    }
    if (!ParseRecordHead(line, &peek_time_, &peek_direction_)) {
      // The full parse says exactly what is wrong.
      std::string what;
      if (ParseRecord(line, &record_, &what)) what = "malformed time or direction";
      Status s = BadLine(what);
      if (!s.ok()) return s;
      continue;
    }
    peek_line_ = line;
    *have = true;
    return Status();
  }
  if (!reader_->status().ok()) {
    if (!setup_.skip_bad_lines) return reader_->status();
    ++report_.skipped_lines;
    if (report_.skipped_examples.size() < kMaxSkippedExamples) {
      report_.skipped_examples.push_back(reader_->status().message() + " (rest of file skipped)");
    }
  }
  return Status();
}

void LogStream::Close() { reader_.reset(); }

Status LogStream::Prime(const QuantumGrid& grid) {
  if (opened_) return Status();
  opened_ = true;
  Status s = LogReader::Open(source_.path, &reader_);
  if (!s.ok()) return s;
  s = ReadPeek(&have_peek_);
  if (!s.ok()) return s;
  if (!have_peek_) {
    eof_ = true;
    Close();
  }
  (void)grid;
  UpdateNextStart();
  return Status();
}

void LogStream::UpdateNextStart() {
  int64_t next = INT64_MAX;
  for (const Pending& p : pending_) next = std::min(next, p.span.start_ms);
  if (have_peek_) {
    next = std::min(next, model_.StartOf(peek_time_ + setup_.offset_ms, peek_direction_));
  }
  next_start_ms_ = next;
}

Status LogStream::Feed(const QuantumGrid& grid, int64_t q,
                       std::array<Histogram, kLogDirections>* out,
                       std::array<bool, kLogDirections>* touched) {
  if (!opened_) {
    Status s = Prime(grid);
    if (!s.ok()) return s;
  }
  const int64_t qs = grid.Start(q);
  const int64_t qe = grid.End(q);

  // Spans read earlier that reach into this quantum.
  size_t keep = 0;
  for (size_t i = 0; i < pending_.size(); ++i) {
    Pending& p = pending_[i];
    const double w = grid.Weight(p.span, q);
    const int d = static_cast<int>(p.direction);
    if (w > 0) {
      (*out)[d].AddWeighted(p.counts, w);
      (*touched)[d] = true;
    }
    if (p.span.end_ms > qe) {
      if (keep != i) pending_[keep] = std::move(p);
      ++keep;
    }
  }
  pending_.resize(keep);

  std::string what;
  while (have_peek_) {
    const int64_t stamp = peek_time_ + setup_.offset_ms;
    if (model_.StartOf(stamp, peek_direction_) >= qe) break;
    if (!ParseRecord(peek_line_, &record_, &what)) {
      Status s = BadLine(what);
      if (!s.ok()) return s;
    } else if (record_.columns != setup_.columns) {
      Status s = BadLine("expected " + std::to_string(setup_.columns) +
                         " bucket counts (the layout of this run), found " +
                         std::to_string(record_.columns));
      if (!s.ok()) return s;
    } else if (model_.last(record_.direction) != IntervalModel::kNone &&
               stamp - model_.last(record_.direction) > kMaxSpanMs) {
      Status s = BadLine("time jumps forward by " +
                         std::to_string(stamp - model_.last(record_.direction)) +
                         " ms (more than 30 days: a damaged time stamp?) from the previous " +
                         DirectionName(record_.direction) + " record at " +
                         std::to_string(model_.last(record_.direction) - setup_.offset_ms) +
                         " ms");
      if (!s.ok()) return s;
    } else {
      TimeSpan span;
      switch (model_.Place(stamp, record_.direction, &span)) {
        case IntervalModel::Verdict::kDuplicate:
          ++report_.duplicates;
          break;
        case IntervalModel::Verdict::kBackwards: {
          Status s = BadLine("time goes backwards: " + std::to_string(record_.time_ms) +
                             " ms is before the previous " + DirectionName(record_.direction) +
                             " record at " +
                             std::to_string(model_.last(record_.direction) - setup_.offset_ms) +
                             " ms");
          if (!s.ok()) return s;
          break;
        }
        case IntervalModel::Verdict::kSpan: {
          // (t, t] would carry no time: give it the millisecond before its stamp.
          if (span.length() <= 0) span.start_ms = span.end_ms - 1;
          if (span.start_ms < qs) {
            // Only a direction that stalled for longer than the streaming window lands
            // here; keep every I/O, placed from the first quantum still open.
            const double late = std::min(1.0, static_cast<double>(qs - span.start_ms) /
                                                  static_cast<double>(span.length()));
            report_.late_ios += static_cast<double>(record_.total) * late;
            span.start_ms = qs;
            if (span.end_ms <= qs) span.end_ms = qs + 1;
          }
          const int d = static_cast<int>(record_.direction);
          ++report_.records;
          // Only a line that is used counts as an unterminated-but-used last line.
          if (reader_->last_line_unterminated()) report_.unterminated_last_line = true;
          report_.total_ios += static_cast<double>(record_.total);
          report_.has_direction[static_cast<size_t>(d)] = true;
          const double w = grid.Weight(span, q);
          if (w > 0) (*out)[d].AddWeighted(record_.counts, w);
          (*touched)[d] = true;
          if (span.end_ms > qe) pending_.push_back({span, record_.direction, record_.counts});
          break;
        }
      }
    }
    Status s = ReadPeek(&have_peek_);
    if (!s.ok()) return s;
  }
  if (!have_peek_ && !eof_) {
    eof_ = true;
    Close();
  }
  UpdateNextStart();
  // Pending spans continue right after this quantum.
  if (!pending_.empty() && next_start_ms_ < qe) next_start_ms_ = qe;
  return Status();
}

}  // namespace fiohist
