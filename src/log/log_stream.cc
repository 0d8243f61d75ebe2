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
    : source_(source),
      setup_(setup),
      model_(setup.first_interval_ms, setup.floor_ms, setup.floor_is_job_start) {}

Status LogStream::BadLine(const std::string& what) {
  std::string message = what;
  if (LastLineUnterminated()) {
    message = "last line is incomplete (no newline at the end: fio killed mid-write?): " + what;
  }
  if (!setup_.skip_bad_lines) {
    return Status::InputError(source_.path, LineNumber(), message);
  }
  ++report_.skipped_lines;
  if (report_.skipped_examples.size() < kMaxSkippedExamples) {
    report_.skipped_examples.push_back(source_.path + ":" + std::to_string(LineNumber()) + ": " +
                                       message);
  }
  return Status();
}

Status LogStream::StatsReset(int wrapped) {
  const long long line = LineNumber();
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

Status LogStream::ReadProbedPeek(bool* have) {
  if (probed_at_ == probed_bytes_.size()) {
    report_.blank_lines += setup_.probed.trailing_blank_lines;
    probed_line_ += setup_.probed.trailing_blank_lines;
    return Status();
  }
  const char* p = probed_bytes_.data() + probed_at_;
  const char* end = probed_bytes_.data() + probed_bytes_.size();
  long long step;
  if (!GetRecord(&p, end, &record_, &step) || step < 1) {
    return Status::Error("temporary data of " + source_.path + " read back damaged (in " +
                         SpillFile::Directory() + ")");
  }
  probed_at_ = static_cast<size_t>(p - probed_bytes_.data());
  report_.blank_lines += step - 1;  // every other line the probe passed over was blank
  probed_line_ += step;
  peek_time_ = record_.time_ms;
  peek_direction_ = record_.direction;
  *have = true;
  return Status();
}

Status LogStream::ReadPeek(bool* have) {
  *have = false;
  if (stopped_) return Status();
  if (probed_) return ReadProbedPeek(have);
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
  if (probed_) std::string().swap(probed_bytes_);
  for (auto& r : ahead_) r.reset();
}

void LogStream::Accept(const LogRecord& as_read, const RecordPlacement& placement,
                       bool unterminated, const QuantumGrid& grid, int64_t q, DirectionSums* out,
                       DirectionFlags* touched) {
  const LogRecord* use = &as_read;
  if (setup_.repair_carried_lines) {
    repaired_ = as_read;
    repair_.Repair(&repaired_);
    report_.repair_clamped_ios = static_cast<double>(repair_.clamped_ios());
    use = &repaired_;
  }
  const LogRecord& record = *use;
  const size_t d = static_cast<size_t>(record.direction);
  ++report_.records;
  // Only a line that is used counts as an unterminated-but-used last line.
  if (unterminated) report_.unterminated_last_line = true;
  report_.total_ios += static_cast<double>(record.total);
  report_.has_direction[d] = true;
  const double total = static_cast<double>(record.total);
  if (!placement.paused()) {
    if (placement.covers.length() > 0)
      rate_[d] = total / static_cast<double>(placement.covers.length());
    AddPart(record.direction, record.counts, total, placement.covers, kIos | kCover, grid, q, out,
            touched);
    CountLateStuck(record, placement);
    return;
  }
  NotePause(record, placement);
  // A record that ended a pause: it covers its whole span, its I/Os completed where fio's
  // rule says (interval_model.h).
  static const std::vector<std::pair<uint32_t, uint64_t>> kNoCounts;
  AddPart(record.direction, kNoCounts, 0, placement.covers, kCover, grid, q, out, touched);
  if (!placement.lone || record.counts.empty()) {
    AddPart(record.direction, record.counts, total, placement.ios, kIos, grid, q, out, touched);
    return;
  }
  const uint32_t slowest = record.counts.back().first;
  lone_counts_.assign(1, {slowest, 1});
  if (record.total > 1) {
    rest_counts_.assign(record.counts.begin(), record.counts.end());
    if (--rest_counts_.back().second == 0) rest_counts_.pop_back();
    // At the rate of the record before (NotePause's estimate of where the pause began), not
    // spread to the deadline: a pause that began just after the previous record would
    // otherwise leak I/Os into the quanta it covers.
    TimeSpan rest = placement.ios;
    const int64_t paused_from = report_.pauses.back().start_ms;
    if (paused_from > rest.start_ms && paused_from < rest.end_ms) rest.end_ms = paused_from;
    AddPart(record.direction, rest_counts_, total - 1, rest, kIos, grid, q, out, touched);
  }
  AddPart(record.direction, lone_counts_, 1, placement.lone_span(), kIos, grid, q, out, touched);
}

void LogStream::NotePause(const LogRecord& record, const RecordPlacement& placement) {
  const size_t d = static_cast<size_t>(record.direction);
  if (!placement.lone && stuck_pause_[d] >= 0) {
    // A catch-up record: more I/Os that completed at the end of the pause its direction just
    // ended; the stuck ones among them counted as in the records after it.
    CountLateStuck(record, placement);
    return;
  }
  Pause p;
  p.direction = record.direction;
  p.end_ms = placement.covers.end_ms;
  const int64_t bound = placement.lone ? placement.ios.end_ms : placement.covers.start_ms;
  p.start_ms = bound;
  if (placement.lone && rate_[d] > 0) {
    const double ms = static_cast<double>(record.total - 1) / rate_[d];
    p.start_ms = std::min<int64_t>(bound, placement.ios.start_ms + static_cast<int64_t>(ms));
  }
  report_.pauses.push_back(p);
  stuck_pause_[d] = static_cast<long>(report_.pauses.size()) - 1;
  if (placement.lone && !record.counts.empty()) {
    // The completion that ended the pause (the record's slowest I/O, at its stamp).
    lone_counts_.assign(1, {record.counts.back().first, 1});
    CountStuck(record.direction, lone_counts_, p.end_ms);
  } else {
    CountStuck(record.direction, record.counts, p.end_ms);
  }
}

void LogStream::CountLateStuck(const LogRecord& record, const RecordPlacement& placement) {
  const size_t d = static_cast<size_t>(record.direction);
  if (stuck_pause_[d] < 0) return;
  // A record of normal length completed its I/Os in (previous stamp, stamp]: the earliest
  // is the least latency a stuck one can have; a catch-up record's completed at its stamp.
  const int64_t completed_from =
      placement.paused() ? placement.covers.end_ms : placement.covers.start_ms;
  if (CountStuck(record.direction, record.counts, completed_from) == 0 && !placement.paused()) {
    stuck_pause_[d] = -1;  // the stuck I/Os are all out
  }
}

double LogStream::CountStuck(Direction direction,
                             const std::vector<std::pair<uint32_t, uint64_t>>& counts,
                             int64_t completed_from_ms) {
  const size_t d = static_cast<size_t>(direction);
  Pause& p = report_.pauses[static_cast<size_t>(stuck_pause_[d])];
  // fio's timing model (docs/stalls.md): nothing of the direction completed in the pause,
  // from p.start_ms to p.end_ms. An I/O stuck in it was in flight for most of it: issued
  // before its middle, so its latency is more than (completion - middle), at least
  // (completed_from - middle). An I/O issued in the pause's second half (or after) is one
  // that came after the thaw or just before it. fio's buckets are 1/64 of their latency
  // wide: a bucket whose upper edge passes the bound counts whole.
  const double middle_ms = (static_cast<double>(p.start_ms) + static_cast<double>(p.end_ms)) / 2;
  const double bound_ns = 1e6 * (static_cast<double>(completed_from_ms) - middle_ms);
  const BucketLayout& layout = setup_.layout;
  double stuck = 0;
  for (const auto& [column, n] : counts) {
    const int c = static_cast<int>(column);
    if (layout.columns() > 0 && c != layout.top_column() && layout.UpperNs(c) <= bound_ns) {
      continue;
    }
    stuck += static_cast<double>(n);
    p.slowest_column = std::max(p.slowest_column, column);
  }
  p.stuck_ios += stuck;
  return stuck;
}

void LogStream::AddPart(Direction direction,
                        const std::vector<std::pair<uint32_t, uint64_t>>& counts, double total,
                        TimeSpan span, int what, const QuantumGrid& grid, int64_t q,
                        DirectionSums* out, DirectionFlags* touched) {
  const int64_t qs = grid.Start(q);
  const int64_t qe = grid.End(q);
  // (t, t] would carry no time: give it the millisecond before its stamp.
  if (span.length() <= 0) span.start_ms = span.end_ms - 1;
  if (span.start_ms < qs) {
    // The look-ahead makes this unreachable for well-formed logs; should a span still
    // start in a finished quantum, keep every I/O, placed from the first one still open.
    const double late =
        std::min(1.0, static_cast<double>(qs - span.start_ms) / static_cast<double>(span.length()));
    report_.late_ios += total * late;
    span.start_ms = qs;
    if (span.end_ms <= qs) span.end_ms = qs + 1;
  }
  const size_t d = static_cast<size_t>(direction);
  const double w = grid.Weight(span, q);
  if (w > 0 && !counts.empty()) {
    if (out) (*out)[d].AddWeighted(counts, w);
    if (observer_) observer_(direction, counts, w);
  }
  if (w > 0 && w < 1) straddled_[d] += std::min(w, 1 - w) * total;
  (*touched)[d] = true;
  // Stored records (the record form of bucket documents) carry the I/O parts, and a part
  // that only covers (a paused record's span) as a record without counts: read-back then
  // covers the quanta of a stall as the logs do (RecordRegrid).
  if (placed_ && (what & kIos)) placed_->push_back(PlacedRecord{direction, span, counts});
  if (placed_ && what == kCover) placed_->push_back(PlacedRecord{direction, span, {}});
  if (what & kCover) {
    covered_[d] += std::max<int64_t>(0, std::min(span.end_ms, qe) - std::max(span.start_ms, qs));
  }
  if (span.end_ms > qe) {
    if (pending_used_ == pending_.size()) pending_.emplace_back();
    Pending& p = pending_[pending_used_++];
    p.span = span;
    p.direction = direction;
    p.counts.assign(counts.begin(), counts.end());
    p.total = total;
    p.what = what;
  }
}

Status LogStream::LookAhead(Direction d, const QuantumGrid& grid, int64_t q, DirectionSums* out,
                            DirectionFlags* touched) {
  const size_t i = static_cast<size_t>(d);
  std::unique_ptr<LogReader>& r = ahead_[i];
  if (!r) {
    Status s = LogReader::Open(source_.path, &r);
    if (!s.ok()) return s;
    // Probed records have no byte offset in the log: skipped by lines as for gzip.
    if (!probed_) r->SkipTo(reader_->bytes_read(), reader_->line_number());
    r->set_end(source_.segment_end);
  }
  std::string_view line;
  // A gzip look-ahead starts at the top; skip to the main reader's position.
  while (r->line_number() < LineNumber() && r->NextLine(&line)) {
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
    // A stamp equal to the last one is a catch-up record: placed like any other.
    const bool good = stamp >= last && stamp - last <= kMaxSpanMs &&
                      ParseRecord(line, &ahead_record_, &what) &&
                      ahead_record_.columns == setup_.columns;
    if (!good) {
      // The main reader reports this line; without --skip-bad-lines that ends the run.
      if (setup_.skip_bad_lines) continue;
      return Status();
    }
    RecordPlacement placement;
    model_.Place(stamp, d, &placement);
    ahead_prev_[i] = last;
    ahead_line_[i] = r->line_number();
    Accept(ahead_record_, placement, r->last_line_unterminated(), grid, q, out, touched);
    return Status();
  }
  ahead_done_[i] = true;  // no more lines of this direction
  r.reset();
  return Status();
}

Status LogStream::Prime() {
  if (opened_) return Status();
  opened_ = true;
  Status s;
  if (setup_.probed.present()) {
    // The probe read the whole log: its records, not the log, without a second inflate
    // and parse (a few dozen KB per log, read from the temporary file; the buffer goes
    // when the stream is done).
    s = setup_.probed.file->ReadAt(setup_.probed.offset, setup_.probed.length, &probed_bytes_);
    if (!s.ok()) return s;
    probed_ = true;
    InputBytesRead() += setup_.probed.file_bytes;
  } else {
    s = OpenLogSource(source_, &reader_);
    if (!s.ok()) return s;
    reader_->CountReadsInto(&InputBytesRead());  // the one reader that reads the whole file
  }
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
    const int64_t stamp = peek_time_ + setup_.offset_ms;
    next = std::min(next, model_.Plan(stamp, peek_direction_).start_ms());
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
      if (!p.counts.empty()) {
        if (out) (*out)[d].AddWeighted(p.counts, w);
        if (observer_) observer_(p.direction, p.counts, w);
      }
      (*touched)[d] = true;
      // It began in an earlier quantum: w < 1.
      straddled_[static_cast<size_t>(d)] += std::min(w, 1 - w) * p.total;
      if (p.what & kCover) {
        covered_[static_cast<size_t>(d)] +=
            std::min(p.span.end_ms, qe) - std::max(p.span.start_ms, qs);
      }
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
    const long long line = LineNumber();
    Status s;
    if (ahead_line_[pd] != 0 && line <= ahead_line_[pd]) {
      s = SettleLookedAhead(line);
    } else if (model_.Plan(stamp, peek_direction_).start_ms() >= qe) {
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

Status LogStream::SettleLookedAhead(long long line) {
  const size_t pd = static_cast<size_t>(peek_direction_);
  if (line == ahead_line_[pd]) {
    ahead_line_[pd] = 0;  // placed already
    return Status();
  }
  std::string what;
  if (!probed_ && !ParseRecord(peek_line_, &record_, &what)) return BadLine(what);
  return BadLine("time stamp out of order: " + std::to_string(record_.time_ms) + " ms between " +
                 DirectionName(peek_direction_) + " records at " +
                 std::to_string(ahead_prev_[pd] - setup_.offset_ms) + " and " +
                 std::to_string(model_.last(peek_direction_) - setup_.offset_ms) + " ms");
}

Status LogStream::PlaceLine(int64_t stamp, const QuantumGrid& grid, int64_t q, DirectionSums* out,
                            DirectionFlags* touched) {
  std::string what;
  if (!probed_ && !ParseRecord(peek_line_, &record_, &what)) {  // probed: record_ is read
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
  RecordPlacement placement;
  switch (model_.Place(stamp, d, &placement)) {
    case IntervalModel::Verdict::kBackwards:
      return BadLine("time goes backwards: " + std::to_string(record_.time_ms) +
                     " ms is before the previous " + DirectionName(d) + " record at " +
                     std::to_string(model_.last(d) - setup_.offset_ms) + " ms");
    case IntervalModel::Verdict::kPlaced:
      Accept(record_, placement, LastLineUnterminated(), grid, q, out, touched);
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
