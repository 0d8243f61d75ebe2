#include "log/per_io_stream.h"

#include <algorithm>
#include <cmath>

#include "log/issue_stream.h"

#include "log/per_io_scan.h"

namespace fiohist {
namespace {

// fio's per-I/O lines with log_window_value=both have a second value where the direction
// would be: a latency above 2 (no direction) there tells them apart.
bool LooksTwoValued(const uint64_t* fields, int columns) {
  return columns >= 5 && fields[2] > 2 && fields[3] <= 2;
}

}  // namespace

Status ProbePerIoLog(const LogSource& source, int max_lines, bool skip_bad_lines, LogProbe* probe) {
  const std::string& path = source.path;
  *probe = LogProbe();
  std::unique_ptr<LogReader> reader;
  Status s = OpenLogSource(source, &reader);
  if (!s.ok()) return s;
  std::string_view line;
  std::string what;
  uint64_t fields[kPerIoMaxColumns];
  int columns = 0, seen = 0, averaged = 0;
  PerIoLayout layout;
  SmallfileName smallfile;
  if (source.smallfile && !ParseSmallfileName(path, &smallfile)) {
    return Status::InputError(path, 0, "expected a name rsptimes_NN_HOST_OP_EPOCH.csv");
  }
  while (seen < max_lines && reader->NextLine(&line)) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    if (source.smallfile) {
      PerIoRecord record;
      if (!ParseSmallfileLine(line, smallfile, &record, &what)) {
        if (skip_bad_lines) continue;
        return Status::InputError(path, reader->line_number(), "smallfile response times: " + what);
      }
      if (probe->empty) {
        probe->empty = false;
        probe->first_time_ms = record.time_ms;
        probe->epoch = true;
      }
      ++seen;
      continue;
    }
    int n = 0;
    bool good = SplitPerIoLine(line, fields, &n, &what);
    if (good && columns == 0) {
      good = PerIoLayoutOf(n, LooksTwoValued(fields, n), &layout, &what);
      if (!good && n > kPerIoMaxColumns / 2 + 4) {
        what += ": a histogram log named like a per-I/O log?";
      }
    }
    PerIoRecord record;
    if (good) good = ParsePerIoLine(line, layout, &record, &what);
    if (!good) {
      if (skip_bad_lines) continue;
      return Status::InputError(path, reader->line_number(), "per-I/O latency log: " + what);
    }
    if (columns == 0) {
      columns = n;
      probe->empty = false;
      probe->per_io_columns = n;
      probe->first_time_ms = record.time_ms;
      probe->epoch = record.time_ms >= kEpochThresholdMs;
    }
    // fio's averaged samples (log_avg_msec > 0) carry block size 0; an I/O never does.
    if (record.block_size == 0) ++averaged;
    ++seen;
  }
  if (!reader->status().ok() && !skip_bad_lines) return reader->status();
  if (seen > 0 && averaged == seen) {
    return Status::InputError(
        path, 1,
        "an averaged latency log (fio's log_avg_msec > 0: each line is the mean, or with "
        "log_max_value the maximum, of a window, with block size 0), not one line per I/O: "
        "no percentile can be computed from it; run fio with log_avg_msec=0 (or use "
        "write_hist_log)");
  }
  return Status();
}

PerIoStream::PerIoStream(const LogSource& source, const StreamSetup& setup)
    : source_(source), setup_(setup) {
  if (source_.smallfile) {
    ParseSmallfileName(source_.path, &smallfile_);
    // The run's slot for the op (DirectionNames); kAll: none given, the op's direction.
    if (source_.slot != Direction::kAll) smallfile_.slot = source_.slot;
  }
}

Status PerIoStream::BadLine(const std::string& what) {
  std::string text = what;
  if (reader_->last_line_unterminated()) {
    text = "last line is incomplete (no newline at the end: fio killed mid-write?): " + text;
  }
  if (!setup_.skip_bad_lines) {
    return Status::InputError(source_.path, reader_->line_number(), text);
  }
  ++report_.skipped_lines;
  if (report_.skipped_examples.size() < 3) {
    report_.skipped_examples.push_back(source_.path + ":" + std::to_string(reader_->line_number()) +
                                       ": " + text);
  }
  return Status();
}

Status PerIoStream::ReadPeek() {
  have_peek_ = false;
  std::string_view line;
  std::string what;
  while (reader_->NextLine(&line)) {
    if (source_.smallfile) {
      if (line.find_first_not_of(" \t") == std::string_view::npos) {
        ++report_.blank_lines;
        continue;
      }
      if (!ParseSmallfileLine(line, smallfile_, &peek_, &what)) {
        Status s = BadLine(what);
        if (!s.ok()) return s;
        continue;
      }
    } else if (layout_.columns == 0) {
      // The first line settles the layout of the file.
      if (line.find_first_not_of(" \t") == std::string_view::npos) {
        ++report_.blank_lines;
        continue;
      }
      uint64_t fields[kPerIoMaxColumns];
      int n = 0;
      if (!SplitPerIoLine(line, fields, &n, &what) ||
          !PerIoLayoutOf(n, LooksTwoValued(fields, n), &layout_, &what)) {
        layout_ = PerIoLayout();
        Status s = BadLine(what);
        if (!s.ok()) return s;
        continue;
      }
      layout_.hex_column = HexColumnOf(line, layout_);
    }
    if (!source_.smallfile && !ParsePerIoLine(line, layout_, &peek_, &what)) {
      if (line.find_first_not_of(" \t") == std::string_view::npos) {
        ++report_.blank_lines;
        continue;
      }
      Status s = BadLine(what);
      if (!s.ok()) return s;
      continue;
    }
    const int64_t stamp = peek_.time_ms + setup_.offset_ms;
    if (last_stamp_ != INT64_MIN && stamp < last_stamp_ - kPerIoBackwardsSlackMs) {
      Status s = BadLine(
          "time goes backwards: " + std::to_string(peek_.time_ms) + " ms after " +
          std::to_string(last_stamp_ - setup_.offset_ms) +
          " ms on the line before (fio logs each I/O when it completes, in order; times that "
          "restart are a per_job_logs=0 file holding several jobs one after the other: run "
          "fio with per_job_logs=1)");
      if (!s.ok()) return s;
      continue;
    }
    peek_stamp_ = stamp;
    if (reader_->last_line_unterminated()) report_.unterminated_last_line = true;
    have_peek_ = true;
    return Status();
  }
  return reader_->status();
}

bool PerIoStream::ScanRun(int64_t qs, int64_t qe, std::array<uint64_t, kLogDirections>* ios) {
  if (layout_.columns == 0 || source_.smallfile) return false;
  const std::string_view text = reader_->Buffered();
  if (text.size() < kPerIoScanReadable) return false;
  // Everything the loop touches in locals (registers), written back once at the end: the
  // loop runs 30 M times a second, and stores to members would each be a memory write
  // the compiler cannot drop (the reader and the record alias them).
  const char* const begin = text.data();
  const char* const last_start = begin + (text.size() - kPerIoScanReadable);
  const PerIoLayout layout = layout_;
  const BucketLayout buckets = setup_.layout;
  const int64_t offset = setup_.offset_ms;
  const int64_t unit = setup_.value_unit_ns;
  const bool same_unit = unit == buckets.unit_ns;
  std::array<uint32_t*, kLogDirections> dense{};
  for (size_t d = 0; d < kLogDirections; ++d) dense[d] = dense_[d].data();
  std::array<int, kLogDirections> low = low_, high = high_;
  std::array<uint64_t, kLogDirections> n = *ios;
  int64_t last = last_stamp_;
  long long late = 0, lines = 0;
  bool peeked = false;
  const char* p = begin;
  PerIoRecord r;
  while (p <= last_start) {
    const size_t length = ScanPerIoLine</*kBlockSize=*/false>(p, layout, &r);
    if (length == 0) break;  // for ReadPeek() to read or report
    const int64_t stamp = r.time_ms + offset;
    if (stamp < last - kPerIoBackwardsSlackMs) break;  // ReadPeek() reports it
    p += length + 1;
    ++lines;
    if (stamp >= qe) {  // the next quantum's first I/O
      peek_ = r;
      peek_stamp_ = stamp;
      peeked = true;
      break;
    }
    // A line before qs went back within the slack into a finished quantum: counted here.
    late += stamp < qs;
    uint64_t v = r.value;
    if (!same_unit) {
      v = static_cast<uint64_t>(static_cast<double>(v) * static_cast<double>(unit) /
                                static_cast<double>(buckets.unit_ns));
    }
    const size_t d = static_cast<size_t>(r.direction);
    const int c = ColumnOfValue(buckets, v);
    ++dense[d][static_cast<size_t>(c)];
    low[d] = std::min(low[d], c);
    high[d] = std::max(high[d], c);
    ++n[d];
    last = stamp;
  }
  reader_->ConsumeLines(static_cast<size_t>(p - begin), lines);
  low_ = low;
  high_ = high;
  *ios = n;
  last_stamp_ = last;
  report_.late_ios += static_cast<double>(late);
  return peeked;
}

Status PerIoStream::Prime() {
  if (opened_) return Status();
  opened_ = true;
  Status s = OpenLogSource(source_, &reader_);
  if (!s.ok()) return s;
  const size_t columns = static_cast<size_t>(setup_.layout.columns());
  for (auto& d : dense_) d.assign(columns, 0);
  s = ReadPeek();
  if (!s.ok()) return s;
  next_start_ms_ = have_peek_ ? peek_stamp_ : INT64_MAX;
  if (have_peek_) first_stamp_ = peek_stamp_;
  if (setup_.place_issue) {
    double h = 0;
    for (const LatencyRange& r : ColumnLatencies(setup_.layout)) h = std::max(h, r.hi_ms);
    horizon_ms_ = static_cast<int64_t>(std::ceil(h)) + 1;
    // Read until the earliest quantum an I/O was issued in is known.
    const QuantumGrid grid(setup_.grid_origin_ms, setup_.grid_quantum_ms);
    while (have_peek_ &&
           (issued_.empty() || peek_stamp_ - horizon_ms_ < grid.Start(issued_.begin()->first))) {
      s = ReadIssued(grid, peek_stamp_ + 1);
      if (!s.ok()) return s;
    }
    next_start_ms_ = issued_.empty() ? INT64_MAX : grid.Start(issued_.begin()->first);
  }
  return Status();
}

int64_t PerIoStream::PeekLatencyNs() const {
  return static_cast<int64_t>(peek_.value) * setup_.value_unit_ns;
}

int PerIoStream::PeekColumn() const {
  uint64_t v = peek_.value;
  if (setup_.value_unit_ns != setup_.layout.unit_ns) {
    v = static_cast<uint64_t>(static_cast<double>(v) * static_cast<double>(setup_.value_unit_ns) /
                              static_cast<double>(setup_.layout.unit_ns));
  }
  return ColumnOfValue(setup_.layout, v);
}

Status PerIoStream::ReadIssued(const QuantumGrid& grid, int64_t until_ms) {
  while (have_peek_ && peek_stamp_ < until_ms) {
    // Issued at completion - latency: exact but for the completion stamp's truncation to
    // the millisecond (as every per-I/O placement here).
    const int64_t latency_ns = PeekLatencyNs();
    const int64_t issue_ns = peek_stamp_ * 1000000 - latency_ns;
    const int64_t issue_ms = issue_ns >= 0 ? issue_ns / 1000000 : -((-issue_ns + 999999) / 1000000);
    const uint32_t key =
        static_cast<uint32_t>(peek_.direction) << 16 | static_cast<uint32_t>(PeekColumn());
    issued_[grid.IndexOf(issue_ms)].push_back(key);
    slowest_ms_ = std::max(slowest_ms_, static_cast<double>(latency_ns) / 1e6);
    last_stamp_ = peek_stamp_;
    Status s = ReadPeek();
    if (!s.ok()) return s;
  }
  return Status();
}

void PerIoStream::NoteCoverage(int64_t qs, int64_t qe) {
  // The job ran from its start (relative logs: the floor) or its first completion, to its
  // last completion (the end of that millisecond).
  if (first_stamp_ == INT64_MIN) return;
  const int64_t from = std::max(
      qs, setup_.floor_ms > INT64_MIN / 2 ? std::min(setup_.floor_ms, first_stamp_) : first_stamp_);
  const int64_t to = have_peek_ ? qe : std::min(qe, last_stamp_ + 1);
  covered_ = std::max<int64_t>(0, to - from);
}

void PerIoStream::AddCounts(size_t d, const TimeSpan& span, uint64_t ios, DirectionSums* out,
                            DirectionFlags* touched, std::vector<PlacedRecord>* placed) {
  const Direction dir = static_cast<Direction>(d);
  (*out)[d].AddWeighted(counts_, 1.0);
  if (observer_) observer_(dir, counts_, 1.0);
  if (placed) placed->push_back(PlacedRecord{dir, span, counts_});
  (*touched)[d] = true;
  report_.has_direction[d] = true;
  report_.records += static_cast<long long>(ios);
  report_.total_ios += static_cast<double>(ios);
}

Status PerIoStream::FeedIssue(const QuantumGrid& grid, int64_t q, DirectionSums* out,
                              DirectionFlags* touched, std::vector<PlacedRecord>* placed) {
  const int64_t qs = grid.Start(q), qe = grid.End(q);
  covered_q_ = q;
  covered_ = 0;
  // Every I/O issued before qe completes before qe + horizon unless slower than fio's
  // last bucket (then it is counted late, in the quantum being fed).
  Status s = ReadIssued(grid, qe + horizon_ms_);
  if (!s.ok()) return s;
  std::vector<uint32_t> keys;
  while (!issued_.empty() && issued_.begin()->first <= q) {
    if (issued_.begin()->first < q) {
      report_.late_ios += static_cast<double>(issued_.begin()->second.size());
    }
    keys.insert(keys.end(), issued_.begin()->second.begin(), issued_.begin()->second.end());
    issued_.erase(issued_.begin());
  }
  std::sort(keys.begin(), keys.end());
  const TimeSpan span{qs, qe};
  for (size_t i = 0; i < keys.size();) {
    const uint32_t d = keys[i] >> 16;
    counts_.clear();
    size_t j = i;
    for (; j < keys.size() && (keys[j] >> 16) == d; ++j) {
      const uint32_t c = keys[j] & 0xffff;
      if (!counts_.empty() && counts_.back().first == c) {
        ++counts_.back().second;
      } else {
        counts_.emplace_back(c, 1);
      }
    }
    AddCounts(d, span, j - i, out, touched, placed);
    i = j;
  }
  NoteCoverage(qs, qe);
  complete_to_ = have_peek_ || last_stamp_ == INT64_MIN ? kCompleteToAll
                                                        : CompleteTo(qe, last_stamp_, slowest_ms_);
  next_start_ms_ = issued_.empty() ? (have_peek_ ? peek_stamp_ - horizon_ms_ : INT64_MAX)
                                   : grid.Start(issued_.begin()->first);
  if (have_peek_ && !issued_.empty()) {
    next_start_ms_ = std::min(next_start_ms_, peek_stamp_ - horizon_ms_);
  }
  if (!have_peek_ && issued_.empty()) {
    reader_.reset();
    for (auto& dv : dense_) std::vector<uint32_t>().swap(dv);
  }
  return Status();
}

Status PerIoStream::Feed(const QuantumGrid& grid, int64_t q, DirectionSums* out,
                         DirectionFlags* touched, std::vector<PlacedRecord>* placed) {
  Status s = Prime();
  if (!s.ok()) return s;
  if (setup_.place_issue) return FeedIssue(grid, q, out, touched, placed);
  const int64_t qs = grid.Start(q), qe = grid.End(q);
  covered_q_ = q;
  covered_ = 0;
  const int64_t unit = setup_.value_unit_ns;
  const int64_t layout_unit = setup_.layout.unit_ns;
  std::array<uint64_t, kLogDirections> ios{};
  while (have_peek_ && peek_stamp_ < qe) {
    // A line before qs went back within the slack into a finished quantum: counted here.
    if (peek_stamp_ < qs) report_.late_ios += 1;
    const size_t d = static_cast<size_t>(peek_.direction);
    // Latency in the layout's units (ns for fio 3, us for fio 2's hist layout).
    uint64_t v = peek_.value;
    if (unit != layout_unit) {
      v = static_cast<uint64_t>(static_cast<double>(v) * static_cast<double>(unit) /
                                static_cast<double>(layout_unit));
    }
    const int c = ColumnOfValue(setup_.layout, v);
    ++dense_[d][static_cast<size_t>(c)];
    low_[d] = std::min(low_[d], c);
    high_[d] = std::max(high_[d], c);
    ++ios[d];
    last_stamp_ = peek_stamp_;
    // The lines after it, as long as they are as fio writes them, in a tight loop; the
    // rest (the buffer's end, other lines, errors) one at a time by ReadPeek().
    if (!ScanRun(qs, qe, &ios)) {
      s = ReadPeek();
      if (!s.ok()) return s;
    }
  }
  const TimeSpan span{qs, qe};  // (qs, qe]: weight 1 in q, 0 in every other quantum
  for (int di = 0; di < kLogDirections; ++di) {
    const size_t d = static_cast<size_t>(di);
    if (ios[d] == 0) continue;
    // The touched columns in order: a scan of their range costs less than keeping a list
    // (a branch per I/O on whether its column is new).
    counts_.clear();
    std::vector<uint32_t>& dense = dense_[d];
    for (int c = low_[d]; c <= high_[d]; ++c) {
      uint32_t& n = dense[static_cast<size_t>(c)];
      if (n != 0) counts_.emplace_back(static_cast<uint32_t>(c), n);
      n = 0;
    }
    low_[d] = INT32_MAX;
    high_[d] = -1;
    AddCounts(d, span, ios[d], out, touched, placed);
  }
  NoteCoverage(qs, qe);
  next_start_ms_ = have_peek_ ? peek_stamp_ : INT64_MAX;
  if (!have_peek_) {
    reader_.reset();
    for (auto& d : dense_) std::vector<uint32_t>().swap(d);
  }
  return Status();
}

}  // namespace fiohist
