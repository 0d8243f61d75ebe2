#include "log/carried_lines.h"

#include <gtest/gtest.h>

#include <random>

namespace fiohist {
namespace {

LogRecord Record(Direction d, std::vector<std::pair<uint32_t, uint64_t>> counts) {
  LogRecord r;
  r.direction = d;
  r.counts = std::move(counts);
  for (const auto& c : r.counts) r.total += c.second;
  return r;
}

// Intervals of a steady job: about 100 I/Os over buckets 10..13, varying.
std::vector<LogRecord> Intervals(int n, Direction d, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<LogRecord> out;
  for (int k = 0; k < n; ++k) {
    std::vector<std::pair<uint32_t, uint64_t>> c;
    for (uint32_t b = 10; b < 14; ++b) c.emplace_back(b, 20 + rng() % 10);
    out.push_back(Record(d, c));
  }
  return out;
}

// What fio's servers send: line k = interval k + line k-2.
std::vector<LogRecord> Carried(const std::vector<LogRecord>& intervals) {
  std::vector<LogRecord> out;
  for (size_t k = 0; k < intervals.size(); ++k) {
    LogRecord r = intervals[k];
    if (k >= 2) {
      for (size_t i = 0; i < r.counts.size(); ++i)
        r.counts[i].second += out[k - 2].counts[i].second;
      r.total += out[k - 2].total;
    }
    out.push_back(r);
  }
  return out;
}

TEST(CarriedLines, ToldFromRightLogs) {
  const auto reads = Intervals(8, Direction::kRead, 1);
  CarriedLinesCheck right, wrong;
  for (const auto& r : reads) right.Add(r);
  for (const auto& r : Carried(reads)) wrong.Add(r);
  EXPECT_FALSE(right.Carried());
  EXPECT_TRUE(wrong.Carried());
  // Too few lines tell nothing.
  CarriedLinesCheck short_log;
  for (const auto& r : Carried(Intervals(4, Direction::kRead, 2))) short_log.Add(r);
  EXPECT_FALSE(short_log.Carried());
}

TEST(CarriedLines, RepairGivesTheIntervalsBack) {
  const auto reads = Intervals(8, Direction::kRead, 3);
  const auto writes = Intervals(8, Direction::kWrite, 4);
  const auto cr = Carried(reads), cw = Carried(writes);
  CarriedLinesRepair repair;
  for (size_t k = 0; k < reads.size(); ++k) {
    // Directions interleaved, as in a randrw log.
    LogRecord r = cr[k], w = cw[k];
    repair.Repair(&r);
    repair.Repair(&w);
    EXPECT_EQ(r.counts, reads[k].counts) << k;
    EXPECT_EQ(r.total, reads[k].total) << k;
    EXPECT_EQ(w.counts, writes[k].counts) << k;
  }
  EXPECT_EQ(repair.clamped_ios(), 0u);
  // A bucket below its value two lines before is 0, and counted.
  CarriedLinesRepair clamp;
  LogRecord a = Record(Direction::kRead, {{1, 5}}), b = Record(Direction::kRead, {{1, 5}}),
            c = Record(Direction::kRead, {{1, 3}, {2, 4}});
  clamp.Repair(&a);
  clamp.Repair(&b);
  clamp.Repair(&c);
  EXPECT_EQ(c.counts, (std::vector<std::pair<uint32_t, uint64_t>>{{2, 4}}));
  EXPECT_EQ(clamp.clamped_ios(), 2u);
}

}  // namespace
}  // namespace fiohist
