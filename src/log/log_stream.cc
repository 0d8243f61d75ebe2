#include "log/log_stream.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "base/progress_meter.h"
#include "log/stats_reset.h"

namespace fiohist {
namespace {

constexpr size_t kMaxSkippedExamples = 5;

}  // namespace

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
    report_.skipped_examples.push_back(source_.path + ":" + std::to_string(reader_->line_number()) +
                                       ": " + message);
  }
  return Status();
}

Status LogStream::StatsReset(int wrapped) {
  const long long line = reader_->line_number();
  const std::string message = StatsResetMessage(wrapped);
  if (!setup_.skip_bad_lines) return Status::InputError(source_.path, line, message);
  StatsResetTail tail;
  Status s = CountStatsResetTail(source_.path, line, &tail);
  if (!s.ok()) return s;
  char ios[64];
  std::snprintf(ios, sizeof ios, "%.0f", tail.ios);
  report_.skipped_lines += tail.lines;
  report_.skipped_examples.push_back(
      source_.path + ":" + std::to_string(line) + ": " + message + "; kept the records before "
      "it, left out " + std::to_string(tail.lines) + " lines from it on holding " + ios +
      " I/Os (the wrapped line undone against the sum of the lines before it, plus the lines "
      "after)");
  // The rest of the file is not read: nothing after the reset is an interval of the run.
  stopped_ = true;
  have_peek_ = false;
  for (size_t d = 0; d < kLogDirections; ++d) {
    ahead_done_[d] = true;
    ahead_[d].reset();
  }
  return Status();
}

Status LogStream::ReadPeek(bool* have) {
  *have = false;
  if (stopped_) return Status();
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

void LogStream::Close() {
  reader_.reset();
  for (auto& r : ahead_) r.reset();
}

void LogStream::Accept(const LogRecord& as_read, TimeSpan span, bool unterminated,
                       const QuantumGrid& grid, int64_t q, DirectionSums* out,
                       DirectionFlags* touched) {
  const LogRecord* use = &as_read;
  if (setup_.repair_carried_lines) {
    repaired_ = as_read;
    repair_.Repair(&repaired_);
    report_.repair_clamped_ios = static_cast<double>(repair_.clamped_ios());
    use = &repaired_;
  }
  const LogRecord& record = *use;
  const int64_t qs = grid.Start(q);
  const int64_t qe = grid.End(q);
  // (t, t] would carry no time: give it the millisecond before its stamp.
  if (span.length() <= 0) span.start_ms = span.end_ms - 1;
  if (span.start_ms < qs) {
    // The look-ahead makes this unreachable for well-formed logs; should a span still
    // start in a finished quantum, keep every I/O, placed from the first one still open.
    const double late =
        std::min(1.0, static_cast<double>(qs - span.start_ms) / static_cast<double>(span.length()));
    report_.late_ios += static_cast<double>(record.total) * late;
    span.start_ms = qs;
    if (span.end_ms <= qs) span.end_ms = qs + 1;
  }
  const size_t d = static_cast<size_t>(record.direction);
  ++report_.records;
  // Only a line that is used counts as an unterminated-but-used last line.
  if (unterminated) report_.unterminated_last_line = true;
  report_.total_ios += static_cast<double>(record.total);
  report_.has_direction[d] = true;
  const double w = grid.Weight(span, q);
  if (w > 0) {
    (*out)[d].AddWeighted(record.counts, w);
    if (observer_) observer_(record.direction, record.counts, w);
  }
  if (w > 0 && w < 1) straddled_[d] += std::min(w, 1 - w) * static_cast<double>(record.total);
  (*touched)[d] = true;
  if (placed_) placed_->push_back(PlacedRecord{record.direction, span, record.counts});
  covered_[d] += std::max<int64_t>(0, std::min(span.end_ms, qe) - std::max(span.start_ms, qs));
  if (span.end_ms > qe) {
    if (pending_used_ == pending_.size()) pending_.emplace_back();
    Pending& p = pending_[pending_used_++];
    p.span = span;
    p.direction = record.direction;
    p.counts.assign(record.counts.begin(), record.counts.end());
    p.total = static_cast<double>(record.total);
  }
}

Status LogStream::LookAhead(Direction d, const QuantumGrid& grid, int64_t q, DirectionSums* out,
                            DirectionFlags* touched) {
  const size_t i = static_cast<size_t>(d);
  std::unique_ptr<LogReader>& r = ahead_[i];
  if (!r) {
    Status s = LogReader::Open(source_.path, &r);
    if (!s.ok()) return s;
    r->SkipTo(reader_->bytes_read(), reader_->line_number());
    r->set_end(source_.segment_end);
  }
  std::string_view line;
  // A gzip look-ahead starts at the top; skip to the main reader's position.
  while (r->line_number() < reader_->line_number() && r->NextLine(&line)) {
  }
  const int64_t last = model_.last(d);
  std::string what;
  while (r->NextLine(&line)) {
    int64_t t;
    Direction dir;
    if (!ParseRecordHead(line, &t, &dir)) continue;  // the main reader judges it
    const int64_t stamp = t + setup_.offset_ms;
    int wrapped = 0;
    if (stamp < model_.last(dir) && IsStatsResetLine(line, true, &wrapped)) {
      break;  // fio's statistics reset: nothing after it is read (the main reader reports it)
    }
    if (dir != d) continue;
    if (stamp == last) continue;  // a duplicate: the main reader counts it
    const bool good = stamp > last && stamp - last <= kMaxSpanMs &&
                      ParseRecord(line, &ahead_record_, &what) &&
                      ahead_record_.columns == setup_.columns;
    if (!good) {
      // The main reader reports this line; without --skip-bad-lines that ends the run.
      if (setup_.skip_bad_lines) continue;
      return Status();
    }
    TimeSpan span;
    model_.Place(stamp, d, &span);
    ahead_prev_[i] = last;
    ahead_line_[i] = r->line_number();
    Accept(ahead_record_, span, r->last_line_unterminated(), grid, q, out, touched);
    return Status();
  }
  ahead_done_[i] = true;  // no more lines of this direction
  r.reset();
  return Status();
}

Status LogStream::Prime() {
  if (opened_) return Status();
  opened_ = true;
  Status s = OpenLogSource(source_, &reader_);
  if (!s.ok()) return s;
  reader_->CountReadsInto(&InputBytesRead());  // the one reader that reads the whole file
  s = ReadPeek(&have_peek_);
  if (!s.ok()) return s;
  if (!have_peek_) {
    eof_ = true;
    Close();
  }
  UpdateNextStart();
  return Status();
}

void LogStream::UpdateNextStart() {
  int64_t next = INT64_MAX;
  for (size_t i = 0; i < pending_used_; ++i) next = std::min(next, pending_[i].span.start_ms);
  if (have_peek_) {
    next = std::min(next, model_.StartOf(peek_time_ + setup_.offset_ms, peek_direction_));
  }
  next_start_ms_ = next;
}

void LogStream::FeedPending(const QuantumGrid& grid, int64_t q, DirectionSums* out,
                            DirectionFlags* touched) {
  const int64_t qs = grid.Start(q), qe = grid.End(q);
  size_t keep = 0;
  for (size_t i = 0; i < pending_used_; ++i) {
    Pending& p = pending_[i];
    const double w = grid.Weight(p.span, q);
    const int d = static_cast<int>(p.direction);
    if (w > 0) {
      (*out)[d].AddWeighted(p.counts, w);
      if (observer_) observer_(p.direction, p.counts, w);
      (*touched)[d] = true;
      // It began in an earlier quantum: w < 1.
      straddled_[static_cast<size_t>(d)] += std::min(w, 1 - w) * p.total;
      covered_[static_cast<size_t>(d)] +=
          std::min(p.span.end_ms, qe) - std::max(p.span.start_ms, qs);
    }
    if (p.span.end_ms > qe) {
      if (keep != i) std::swap(pending_[keep], p);
      ++keep;
    }
  }
  pending_used_ = keep;
}

Status LogStream::FeedLines(const QuantumGrid& grid, int64_t q, DirectionSums* out,
                            DirectionFlags* touched) {
  const int64_t qe = grid.End(q);
  while (have_peek_) {
    const int64_t stamp = peek_time_ + setup_.offset_ms;
    const size_t pd = static_cast<size_t>(peek_direction_);
    const long long line = reader_->line_number();
    Status s;
    if (ahead_line_[pd] != 0 && line <= ahead_line_[pd]) {
      s = SettleLookedAhead(stamp, line);
    } else if (model_.StartOf(stamp, peek_direction_) >= qe) {
      break;
    } else {
      s = PlaceLine(stamp, grid, q, out, touched);
    }
    if (!s.ok()) return s;
    s = ReadPeek(&have_peek_);
    if (!s.ok()) return s;
  }
  return Status();
}

Status LogStream::SettleLookedAhead(int64_t stamp, long long line) {
  const size_t pd = static_cast<size_t>(peek_direction_);
  if (line == ahead_line_[pd]) {
    ahead_line_[pd] = 0;  // placed already
    return Status();
  }
  std::string what;
  if (!ParseRecord(peek_line_, &record_, &what)) return BadLine(what);
  if (stamp == ahead_prev_[pd]) {
    ++report_.duplicates;
    return Status();
  }
  return BadLine("time stamp out of order: " + std::to_string(record_.time_ms) + " ms between " +
                 DirectionName(peek_direction_) + " records at " +
                 std::to_string(ahead_prev_[pd] - setup_.offset_ms) + " and " +
                 std::to_string(model_.last(peek_direction_) - setup_.offset_ms) + " ms");
}

Status LogStream::PlaceLine(int64_t stamp, const QuantumGrid& grid, int64_t q, DirectionSums* out,
                            DirectionFlags* touched) {
  std::string what;
  if (!ParseRecord(peek_line_, &record_, &what)) {
    int wrapped = 0;
    const int64_t last = model_.last(peek_direction_);
    const bool went_back = last != IntervalModel::kNone && peek_time_ + setup_.offset_ms < last;
    if (IsStatsResetLine(peek_line_, went_back, &wrapped)) return StatsReset(wrapped);
    return BadLine(what);
  }
  if (record_.columns != setup_.columns) {
    return BadLine("expected " + std::to_string(setup_.columns) +
                   " bucket counts (the layout of this run), found " +
                   std::to_string(record_.columns));
  }
  const Direction d = record_.direction;
  if (model_.last(d) != IntervalModel::kNone && stamp - model_.last(d) > kMaxSpanMs) {
    return BadLine("time jumps forward by " + std::to_string(stamp - model_.last(d)) +
                   " ms (more than 30 days: a damaged time stamp?) from the previous " +
                   DirectionName(d) + " record at " +
                   std::to_string(model_.last(d) - setup_.offset_ms) + " ms");
  }
  TimeSpan span;
  switch (model_.Place(stamp, d, &span)) {
    case IntervalModel::Verdict::kDuplicate:
      ++report_.duplicates;
      break;
    case IntervalModel::Verdict::kBackwards:
      return BadLine("time goes backwards: " + std::to_string(record_.time_ms) +
                     " ms is before the previous " + DirectionName(d) + " record at " +
                     std::to_string(model_.last(d) - setup_.offset_ms) + " ms");
    case IntervalModel::Verdict::kSpan:
      Accept(record_, span, reader_->last_line_unterminated(), grid, q, out, touched);
      break;
  }
  return Status();
}

Status LogStream::LookAheadStalled(const QuantumGrid& grid, int64_t q, DirectionSums* out,
                                   DirectionFlags* touched) {
  const int64_t qe = grid.End(q);
  for (int d = 0; d < kLogDirections; ++d) {
    const size_t i = static_cast<size_t>(d);
    const int64_t last = model_.last(static_cast<Direction>(d));
    if (last == IntervalModel::kNone || last >= qe || ahead_done_[i] || ahead_line_[i] != 0) {
      continue;
    }
    Status s = LookAhead(static_cast<Direction>(d), grid, q, out, touched);
    if (!s.ok()) return s;
  }
  return Status();
}

Status LogStream::Feed(const QuantumGrid& grid, int64_t q, DirectionSums* out,
                       DirectionFlags* touched, std::vector<PlacedRecord>* placed) {
  placed_ = placed;
  if (!opened_) {
    Status s = Prime();
    if (!s.ok()) return s;
  }
  covered_ = {};
  straddled_ = {};
  covered_q_ = q;
  FeedPending(grid, q, out, touched);
  Status s = FeedLines(grid, q, out, touched);
  if (!s.ok()) return s;
  if (have_peek_) {
    s = LookAheadStalled(grid, q, out, touched);
    if (!s.ok()) return s;
  }
  if (!have_peek_ && !eof_) {
    eof_ = true;
    Close();
  }
  UpdateNextStart();
  // Pending spans continue right after this quantum.
  const int64_t qe = grid.End(q);
  if (pending_used_ > 0 && next_start_ms_ < qe) next_start_ms_ = qe;
  return Status();
}

}  // namespace fiohist
