#include "log/stats_reset.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "log/log_line.h"
#include "log/log_reader.h"

namespace fiohist {
namespace {

constexpr uint64_t kWrapped = 1ULL << 63;

// The line's numbers, comma separated (no checks beyond that: the caller knows the line
// has the log's shape). Values beyond 64 bits saturate.
std::vector<uint64_t> Numbers(std::string_view line) {
  std::vector<uint64_t> out;
  const std::string text(line);
  const char* p = text.c_str();
  while (*p != '\0') {
    char* end = nullptr;
    out.push_back(std::strtoull(p, &end, 10));
    if (end == p) break;
    p = end;
    while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
    if (*p != ',') break;
    ++p;
  }
  return out;
}

}  // namespace

bool IsStatsResetLine(std::string_view line, bool went_back, int* wrapped) {
  const std::vector<uint64_t> v = Numbers(line);
  int n = 0;
  for (size_t i = 3; i < v.size(); ++i) n += v[i] >= kWrapped ? 1 : 0;
  *wrapped = n;
  return n >= 2 || (n == 1 && went_back);
}

Status CountStatsResetTail(const std::string& path, long long reset_line, StatsResetTail* tail) {
  *tail = StatsResetTail();
  std::unique_ptr<LogReader> reader;
  Status s = LogReader::Open(path, &reader);
  if (!s.ok()) return s;
  // Per direction: the sum of its lines before the reset (fio's snapshot), and whether its
  // first line after the reset (the wrapped one) was seen.
  std::array<std::vector<uint64_t>, kLogDirections> before;
  std::array<bool, kLogDirections> undone{};
  std::string_view line;
  while (reader->NextLine(&line)) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::vector<uint64_t> v = Numbers(line);
    if (v.size() < 4 || v[1] >= kLogDirections) continue;
    const size_t d = static_cast<size_t>(v[1]);
    std::vector<uint64_t>& sum = before[d];
    if (sum.size() < v.size() - 3) sum.resize(v.size() - 3, 0);
    if (reader->line_number() < reset_line) {
      for (size_t i = 3; i < v.size(); ++i) sum[i - 3] += v[i];
      continue;
    }
    ++tail->lines;
    for (size_t i = 3; i < v.size(); ++i) {
      // Unsigned arithmetic wraps modulo 2^64: exactly fio's difference undone.
      const uint64_t count = undone[d] ? v[i] : sum[i - 3] + v[i];
      tail->ios += static_cast<double>(count);
    }
    undone[d] = true;
  }
  return reader->status();
}

std::string StatsResetMessage(int wrapped) {
  return "fio reset its statistics here (the latency_target search converged; fio resets the "
         "job's statistics but not the histogram log's previous snapshot), so " +
         std::to_string(wrapped) +
         " counts of this line wrapped near 2^64 and the lines after it restart their stamps at "
         "0, one line per I/O: they are not intervals of the run. fio's status stream "
         "(--status-interval with --output-format=json+) and its json+ result are unaffected: "
         "use them for this run; --skip-bad-lines keeps the records before this line and "
         "reports the I/Os it leaves out";
}

}  // namespace fiohist
