// libFuzzer target: the log line parser (ParseRecordHead, ParseRecord) on arbitrary bytes.
// Besides crashes it checks that the two parsers agree, that a parsed record is consistent
// with itself, and that ParseRecord (vectorised fast paths and all) accepts exactly what a
// plain split on ',' accepts, with the same numbers.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "log/log_line.h"

namespace {

// The documented grammar, the slow and obvious way: fields split on ',', spaces and tabs
// around them, each a non-empty run of digits that fits in 64 bits; at least 4 fields;
// time <= 10^15; direction 0..2; the counts' sum fits in 64 bits.
bool ReferenceParse(std::string_view line, fiohist::LogRecord* r) {
  std::vector<uint64_t> fields;
  size_t pos = 0;
  for (;;) {
    size_t comma = line.find(',', pos);
    std::string_view f = line.substr(pos, comma == std::string_view::npos ? line.npos
                                                                          : comma - pos);
    while (!f.empty() && (f.front() == ' ' || f.front() == '\t')) f.remove_prefix(1);
    while (!f.empty() && (f.back() == ' ' || f.back() == '\t')) f.remove_suffix(1);
    if (f.empty()) return false;
    uint64_t v = 0;
    for (char c : f) {
      if (c < '0' || c > '9') return false;
      const uint64_t d = static_cast<uint64_t>(c - '0');
      if (v > (UINT64_MAX - d) / 10) return false;
      v = v * 10 + d;
    }
    fields.push_back(v);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  if (fields.size() < 4 || fields[0] > 1000000000000000ULL || fields[1] > 2) return false;
  r->counts.clear();
  uint64_t total = 0;
  for (size_t i = 3; i < fields.size(); ++i) {
    if (fields[i] == 0) continue;
    if (total + fields[i] < total) return false;
    total += fields[i];
    r->counts.emplace_back(static_cast<uint32_t>(i - 3), fields[i]);
  }
  r->time_ms = static_cast<int64_t>(fields[0]);
  r->direction = static_cast<fiohist::Direction>(fields[1]);
  r->block_size = fields[2];
  r->columns = static_cast<int>(fields.size() - 3);
  r->total = total;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  int64_t head_time = 0;
  fiohist::Direction head_direction = fiohist::Direction::kAll;
  const bool head_ok = fiohist::ParseRecordHead(line, &head_time, &head_direction);

  fiohist::LogRecord record;
  std::string what;
  const bool ok = fiohist::ParseRecord(line, &record, &what);
  fiohist::LogRecord expected;
  if (ReferenceParse(line, &expected) != ok) std::abort();
  if (ok && (expected.counts != record.counts || expected.total != record.total ||
             expected.columns != record.columns || expected.time_ms != record.time_ms ||
             expected.direction != record.direction ||
             expected.block_size != record.block_size)) {
    std::abort();
  }
  if (!ok) {
    // Every rejection says what was expected.
    if (what.empty()) std::abort();
    return 0;
  }
  // A full parse implies the head parse, with the same answer.
  if (!head_ok || head_time != record.time_ms || head_direction != record.direction) std::abort();
  if (record.time_ms < 0 || record.columns < 1) std::abort();
  if (static_cast<int>(record.direction) >= fiohist::kLogDirections) std::abort();
  uint64_t total = 0;
  int64_t previous = -1;
  for (const auto& [column, count] : record.counts) {
    if (count == 0 || static_cast<int64_t>(column) <= previous ||
        static_cast<int>(column) >= record.columns) {
      std::abort();
    }
    previous = column;
    total += count;
  }
  if (total != record.total) std::abort();
  // Parsing again into a used record gives the same result (no state leaks between lines).
  fiohist::LogRecord again = record;
  std::string what2;
  if (!fiohist::ParseRecord(line, &again, &what2) || again.counts != record.counts ||
      again.total != record.total || again.columns != record.columns) {
    std::abort();
  }
  return 0;
}
