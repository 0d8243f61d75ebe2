#include "log/probed_records.h"

#include "base/varint.h"
#include "histogram/histogram.h"

namespace fiohist {

void PutCounts(const std::vector<std::pair<uint32_t, uint64_t>>& counts, std::string* out) {
  // Encoded into room made once per thread, not appended byte by byte: every record of
  // every log passes here. The room (10 bytes a varint) is several times what is written;
  // growing `out` by it zero-filled it for each record (2 % of `push --out`'s instructions).
  thread_local std::vector<char> room;
  const size_t most = kMaxVarintBytes * (1 + 2 * counts.size());
  if (room.size() < most) room.resize(most);
  char* p = EncodeVarint(counts.size(), room.data());
  uint32_t previous = 0;
  for (const auto& [column, count] : counts) {
    p = EncodeVarint(column - previous, p);
    previous = column;
    p = EncodeVarint(count, p);
  }
  out->append(room.data(), static_cast<size_t>(p - room.data()));
}

namespace {

// GetVarint where kMaxVarintBytes bytes at `*p` are readable: no bound check per byte, and
// the one- and two-byte values (most column steps and counts) without a loop. The same
// value and the same verdict on a varint longer than kMaxVarintBytes.
inline bool GetVarintUnbounded(const char** p, uint64_t* v) {
  const unsigned char* s = reinterpret_cast<const unsigned char*>(*p);
  if (s[0] < 0x80) {
    *v = s[0];
    *p += 1;
    return true;
  }
  if (s[1] < 0x80) {
    *v = (s[0] & 0x7fu) | (uint64_t{s[1]} << 7);
    *p += 2;
    return true;
  }
  return GetVarint(p, *p + kMaxVarintBytes, v);
}

}  // namespace

bool GetCounts(const char** p, const char* end,
               std::vector<std::pair<uint32_t, uint64_t>>* counts) {
  // Every spilled addition of every log is read here, once per quantum it adds to.
  uint64_t n;
  if (!GetVarint(p, end, &n) || n > static_cast<uint64_t>(end - *p)) return false;
  counts->resize(n);
  uint64_t column = 0;
  for (auto& [c, count] : *counts) {
    uint64_t delta;
    const bool got = end - *p >= static_cast<long>(2 * kMaxVarintBytes)
                         ? GetVarintUnbounded(p, &delta) && GetVarintUnbounded(p, &count)
                         : GetVarint(p, end, &delta) && GetVarint(p, end, &count);
    if (!got) return false;
    column += delta;
    if (column >= static_cast<uint64_t>(Histogram::kMaxColumns)) return false;
    c = static_cast<uint32_t>(column);
  }
  return true;
}

void PutRecord(const LogRecord& record, long long line_step, std::string* out) {
  PutVarint(static_cast<uint64_t>(line_step), out);
  PutSignedVarint(record.time_ms, out);
  out->push_back(static_cast<char>(record.direction));
  PutVarint(record.block_size, out);
  PutVarint(static_cast<uint64_t>(record.columns), out);
  PutVarint(record.total, out);
  PutCounts(record.counts, out);
}

bool GetRecord(const char** p, const char* end, LogRecord* record, long long* line_step) {
  uint64_t step, columns;
  if (!GetVarint(p, end, &step) || !GetSignedVarint(p, end, &record->time_ms) || *p == end) {
    return false;
  }
  const int direction = static_cast<unsigned char>(*(*p)++);
  if (direction >= kLogDirections || !GetVarint(p, end, &record->block_size) ||
      !GetVarint(p, end, &columns) || columns > static_cast<uint64_t>(Histogram::kMaxColumns) ||
      !GetVarint(p, end, &record->total) || !GetCounts(p, end, &record->counts)) {
    return false;
  }
  record->direction = static_cast<Direction>(direction);
  record->columns = static_cast<int>(columns);
  *line_step = static_cast<long long>(step);
  return true;
}

}  // namespace fiohist
