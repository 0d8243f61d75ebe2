#include "stats/spilled_logs.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

#include "base/varint.h"
#include "log/probed_records.h"
#include "log/record_stream.h"

namespace fiohist {
namespace {

constexpr size_t kNextLength = SpilledLogs::kNextLength;

void PutLength(uint32_t n, std::string* out) {
  char raw[kNextLength];
  std::memcpy(raw, &n, kNextLength);
  out->append(raw, kNextLength);
}

// The parts of a share Feed() sets besides its histograms.
void PutShareFlags(const ScopeHistograms& share, std::string* out) {
  out->push_back(static_cast<char>((share.touched[0] ? 1 : 0) | (share.touched[1] ? 2 : 0) |
                                   (share.touched[2] ? 4 : 0)));
  PutSignedVarint(share.covered_ms, out);
  for (double s : share.straddled) PutDouble(s, out);
}

bool GetShareFlags(const char** p, const char* end, ScopeHistograms* share) {
  if (*p == end) return false;
  const unsigned flags = static_cast<unsigned char>(*(*p)++);
  for (size_t d = 0; d < share->touched.size(); ++d) share->touched[d] = (flags >> d) & 1;
  if (!GetSignedVarint(p, end, &share->covered_ms)) return false;
  for (double& s : share->straddled) {
    if (!GetDouble(p, end, &s)) return false;
  }
  return true;
}

// One addition LogStream::Feed made: direction, weight, counts.
void PutAddition(Direction d, const std::vector<std::pair<uint32_t, uint64_t>>& counts,
                 double weight, std::string* out) {
  out->push_back(static_cast<char>(d));
  PutDouble(weight, out);
  PutCounts(counts, out);
}

void PutPlaced(const std::vector<PlacedRecord>& placed, std::string* out) {
  PutVarint(placed.size(), out);
  for (const PlacedRecord& r : placed) {
    out->push_back(static_cast<char>(r.direction));
    PutSignedVarint(r.span.start_ms, out);
    PutSignedVarint(r.span.end_ms - r.span.start_ms, out);
    PutCounts(r.counts, out);
  }
}

bool GetPlaced(const char** p, const char* end, std::vector<PlacedRecord>* placed) {
  uint64_t n;
  if (!GetVarint(p, end, &n) || n > static_cast<uint64_t>(end - *p)) return false;
  placed->resize(n);
  for (PlacedRecord& r : *placed) {
    int64_t length;
    if (*p == end) return false;
    const int direction = static_cast<unsigned char>(*(*p)++);
    if (direction >= kLogDirections) return false;
    r.direction = static_cast<Direction>(direction);
    if (!GetSignedVarint(p, end, &r.span.start_ms) || !GetSignedVarint(p, end, &length) ||
        !GetCounts(p, end, &r.counts)) {
      return false;
    }
    r.span.end_ms = r.span.start_ms + length;
  }
  return true;
}

Status Damaged(const std::string& what) {
  return Status::Error("temporary data of " + what + " read back damaged (in " +
                       SpillFile::Directory() + ")");
}

}  // namespace

Status SpilledLogs::Write(const std::vector<LogSource>& logs,
                          const std::vector<StreamSetup>& setups, const QuantumGrid& grid,
                          const Options& options, WorkerPool* pool) {
  files_.clear();
  for (int w = 0; w < pool->size(); ++w) {
    files_.push_back(std::make_unique<SpillFile>());
    Status s = files_.back()->Create();
    if (!s.ok()) return s;
  }
  cursors_.assign(logs.size(), Cursor());
  keep_records_ = options.keep_records;
  // Read-ahead in step: a share of a fixed budget, so memory does not grow with the logs
  // (8 MiB: 32 KiB each up to 256 logs, 8 KiB at 1024). Beyond 1024 logs a quantum at a
  // time: measured at 4096 logs, 2 KiB each cost 21 MiB of peak and no time.
  constexpr size_t kReadAheadBudget = size_t{8} << 20, kMaxReadAhead = size_t{32} << 10;
  ahead_bytes_ = std::min(kMaxReadAhead, kReadAheadBudget / std::max<size_t>(logs.size(), 1));
  if (ahead_bytes_ < (size_t{8} << 10)) ahead_bytes_ = 0;
  std::atomic<bool> failed{false};
  std::mutex mutex;
  Status first_error;
  pool->ParallelFor(logs.size(), [&](int worker, size_t i) {
    if (failed.load(std::memory_order_relaxed)) return;
    Status s = WriteLog(i, logs[i], setups[i], grid, options, worker);
    if (s.ok()) return;
    failed.store(true, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(mutex);
    if (first_error.ok()) first_error = s;
  });
  if (!first_error.ok()) return first_error;
  for (auto& f : files_) {
    Status s = f->Flush();
    if (!s.ok()) return s;
  }
  return Status();
}

Status SpilledLogs::WriteLog(size_t i, const LogSource& log, const StreamSetup& setup,
                             const QuantumGrid& grid, const Options& options, int worker) {
  SpillFile& file = *files_[static_cast<size_t>(worker)];
  Cursor& c = cursors_[i];
  c.at.file = c.first.file = worker;
  const std::unique_ptr<RecordStream> owned = MakeRecordStream(log, setup);
  RecordStream& stream = *owned;
  std::string additions;  // this quantum's
  uint64_t addition_count = 0;
  stream.set_addition_observer(
      [&](Direction d, const std::vector<std::pair<uint32_t, uint64_t>>& counts, double w) {
        PutAddition(d, counts, w, &additions);
        ++addition_count;
      });
  Status s = stream.Prime();
  if (!s.ok()) return s;
  c.next_start_ms = stream.next_start_ms();
  ScopeHistograms mine;
  std::vector<PlacedRecord> placed;
  std::string pending, bytes;  // the quantum before this one (its next length unknown), this one
  bool first = true;
  int64_t q = 0;
  while (!stream.done()) {
    // The quanta the in-step loop feeds this log: the one its next span starts in, or the
    // one after the last when that span started in the past.
    const int64_t start = grid.IndexOf(stream.next_start_ms());
    q = first ? start : std::max(q + 1, start);
    mine.Clear();
    placed.clear();
    additions.clear();
    addition_count = 0;
    // The histograms are not spilled, only the additions that make them: a stream that can
    // leave them out does (4 % of push --out's instructions on bench's many logs).
    s = stream.Feed(grid, q, stream.feeds_without_sums() ? nullptr : &mine.direction, &mine.touched,
                    options.keep_records ? &placed : nullptr);
    if (!s.ok()) return s;
    mine.covered_ms = stream.covered_ms(q);
    mine.straddled = stream.straddled_ios(q);
    bytes.clear();
    PutSignedVarint(q, &bytes);
    PutSignedVarint(stream.next_start_ms(), &bytes);
    PutShareFlags(mine, &bytes);
    PutVarint(addition_count, &bytes);
    bytes += additions;
    if (options.keep_records) PutPlaced(placed, &bytes);
    const uint32_t length = static_cast<uint32_t>(bytes.size() + kNextLength);
    if (first) {
      c.first.offset = c.at.offset = file.size();
      c.first.length = c.at.length = length;
    } else {
      PutLength(length, &pending);
      s = file.Append(pending);
      if (!s.ok()) return s;
    }
    first = false;
    pending.swap(bytes);
  }
  if (!first) {
    PutLength(0, &pending);
    s = file.Append(pending);
    if (!s.ok()) return s;
  }
  c.report = stream.report();
  return Status();
}

Status SpilledLogs::Decode(const char* data, Position* at, int64_t* q, int64_t* next_start,
                           bool placed_spilled, ScopeHistograms* share,
                           std::vector<PlacedRecord>* placed) const {
  // The message is made only on failure: this runs for every log in every quantum.
  const int64_t expected = *q;
  auto damaged = [expected] {
    return Damaged("quantum " +
                   (expected == INT64_MIN ? std::string("?") : std::to_string(expected)) +
                   " of a log");
  };
  const char* p = data;
  const char* end = p + at->length - kNextLength;
  int64_t spilled_q;
  uint64_t additions;
  share->Clear();
  if (!GetSignedVarint(&p, end, &spilled_q) || (*q != INT64_MIN && spilled_q != *q) ||
      !GetSignedVarint(&p, end, next_start) || !GetShareFlags(&p, end, share) ||
      !GetVarint(&p, end, &additions)) {
    return damaged();
  }
  *q = spilled_q;
  thread_local std::vector<std::pair<uint32_t, uint64_t>> counts;
  for (uint64_t k = 0; k < additions; ++k) {
    double weight;
    if (p == end) return damaged();
    const int d = static_cast<unsigned char>(*p++);
    if (d >= kLogDirections || !GetDouble(&p, end, &weight) || !GetCounts(&p, end, &counts)) {
      return damaged();
    }
    share->direction[static_cast<size_t>(d)].AddWeighted(counts, weight);
  }
  if (placed_spilled && placed != nullptr && !GetPlaced(&p, end, placed)) {
    return damaged();
  }
  uint32_t next_length;
  std::memcpy(&next_length, end, kNextLength);
  at->offset += at->length;
  at->length = next_length;
  return Status();
}

Status SpilledLogs::Read(size_t i, int64_t q, ScopeHistograms* share,
                         std::vector<PlacedRecord>* placed) {
  Cursor& c = cursors_[i];
  if (c.at.length <= kNextLength) return Damaged("a log (past its end)");
  const SpillFile& file = *files_[static_cast<size_t>(c.at.file)];
  const char* data;
  if (ahead_bytes_ == 0) {
    // Many logs: a quantum at a time into this thread's buffer, which stays in cache; a
    // buffer per log would be thousands of them, each touched once a quantum.
    thread_local std::string bytes;
    Status s = file.ReadAt(c.at.offset, c.at.length, &bytes);
    if (!s.ok()) return s;
    data = bytes.data();
  } else {
    if (c.at.offset < c.ahead_offset ||
        c.at.offset + c.at.length > c.ahead_offset + c.ahead.size()) {
      // Room for the read-ahead and a long quantum, made once: a buffer that grew with
      // every longer read would leave freed pieces of every size behind (peak 31 MiB
      // instead of 36 on bench's corpus).
      const size_t room = ahead_bytes_ + c.at.length;
      if (c.ahead.capacity() < room) c.ahead.reserve(room + room / 4);
      Status s = file.ReadAhead(c.at.offset, c.at.length, ahead_bytes_, &c.ahead);
      if (!s.ok()) return s;
      c.ahead_offset = c.at.offset;
    }
    data = c.ahead.data() + (c.at.offset - c.ahead_offset);
  }
  Status s = Decode(data, &c.at, &q, &c.next_start_ms, keep_records_, share, placed);
  if (c.at.done()) c.ahead = std::string();  // the log is read: its buffer is not kept
  return s;
}

SpilledLogs::Position SpilledLogs::Restart(size_t i) const { return cursors_[i].first; }

Status SpilledLogs::ReadNext(Position* at, int64_t* q, ScopeHistograms* share,
                             std::vector<PlacedRecord>* placed, std::string* scratch) const {
  int64_t next_start;
  *q = INT64_MIN;
  if (at->length <= kNextLength) return Damaged("a log (past its end)");
  Status s = files_[static_cast<size_t>(at->file)]->ReadAt(at->offset, at->length, scratch);
  if (!s.ok()) return s;
  return Decode(scratch->data(), at, q, &next_start, keep_records_, share, placed);
}

Status SpilledLogs::ReadWhole(size_t i, ScopeHistograms* whole, std::string* scratch) const {
  whole->Clear();
  Position at = Restart(i);
  ScopeHistograms mine;
  while (!at.done()) {
    int64_t q;
    Status s = ReadNext(&at, &q, &mine, nullptr, scratch);
    if (!s.ok()) return s;
    if (!mine.any()) continue;
    mine.logs = 1;
    whole->Merge(mine);
    whole->logs = 1;
  }
  return Status();
}

}  // namespace fiohist
