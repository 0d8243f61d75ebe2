#include "stats/stalls.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

LogReport Report(std::vector<Pause> pauses, bool write = true) {
  LogReport r;
  r.has_direction[0] = true;
  r.has_direction[1] = write;
  r.pauses = std::move(pauses);
  return r;
}

Pause P(Direction d, int64_t start, int64_t end, double stuck, uint32_t column) {
  Pause p;
  p.direction = d;
  p.start_ms = start;
  p.end_ms = end;
  p.stuck_ios = stuck;
  p.slowest_column = column;
  return p;
}

TEST(Stalls, AllDirectionsAndLogsOfAScopeMustPause) {
  const BucketLayout layout;
  std::vector<LogSource> logs = {
      {"a1", "hostA", "j1", 0}, {"a2", "hostA", "j2", 0}, {"b1", "hostB", "j1", 1}};
  std::vector<LogReport> reports = {
      // Both directions of a1 pause over [1000, 5000) and [1200, 5100): quiet [1200, 5000).
      Report({P(Direction::kRead, 1000, 5000, 4, 800), P(Direction::kWrite, 1200, 5100, 3, 900)}),
      Report({P(Direction::kRead, 1100, 4800, 2, 700)}, false),
      // hostB pauses only briefly: the cluster did not stall.
      Report({P(Direction::kRead, 3000, 3500, 1, 600), P(Direction::kWrite, 3000, 3500, 1, 600)}),
  };
  std::vector<Stall> stalls = FindStalls(logs, reports, layout, 2000);
  ASSERT_EQ(stalls.size(), 1u);
  EXPECT_EQ(stalls[0].host, "hostA");
  EXPECT_EQ(stalls[0].start_ms, 1200);
  EXPECT_EQ(stalls[0].end_ms, 4800);
  EXPECT_DOUBLE_EQ(stalls[0].stuck_ios, 9);
  EXPECT_DOUBLE_EQ(stalls[0].slowest_ns, EdgesNs(layout)[901]);
  EXPECT_FALSE(stalls[0].idle);
}

TEST(Stalls, ClusterStallAndShortPausesAndIdle) {
  const BucketLayout layout;
  std::vector<LogSource> logs = {{"a1", "hostA", "j1", 0}, {"b1", "hostB", "j1", 1}};
  std::vector<LogReport> reports = {
      Report({P(Direction::kRead, 0, 1500, 1, 1), P(Direction::kRead, 10000, 13000, 1, 5)}, false),
      Report({P(Direction::kRead, 10100, 13100, 1, 6)}, false),
  };
  // Both jobs' options explain gaps of up to 3.5 s (a thinktime of 3 s): the 2.9 s gaps are idle.
  std::vector<Stall> stalls = FindStalls(logs, reports, layout, 2000, {3500, 3500});
  // hostA (the 1.5 s pause is too short), hostB, then the cluster.
  ASSERT_EQ(stalls.size(), 3u);
  EXPECT_EQ(stalls[0].host, "hostA");
  EXPECT_EQ(stalls[1].host, "hostB");
  EXPECT_EQ(stalls[2].host, "");
  EXPECT_EQ(stalls[2].start_ms, 10100);
  EXPECT_EQ(stalls[2].end_ms, 13000);
  EXPECT_DOUBLE_EQ(stalls[2].stuck_ios, 2);
  EXPECT_TRUE(stalls[2].idle);
  // A rate-limited job's gaps are about iodepth/rate (a few ms): the same span is a stall
  // (a freeze), and so it is where one log's job explains it and the other's does not.
  for (const std::vector<double>& idle : {std::vector<double>{53, 53},
                                          std::vector<double>{3500, 53}}) {
    stalls = FindStalls(logs, reports, layout, 2000, idle);
    ASSERT_EQ(stalls.size(), 3u);
    EXPECT_FALSE(stalls[2].idle);
  }
  EXPECT_TRUE(stalls[0].idle);  // hostA's own: its job explains it
  EXPECT_FALSE(stalls[1].idle);
}

}  // namespace
}  // namespace fiohist
