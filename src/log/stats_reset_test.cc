#include "log/stats_reset.h"

#include <gtest/gtest.h>

#include "base/test_util.h"

namespace fiohist {
namespace {

TEST(StatsReset, WrappedCountsMarkTheReset) {
  int wrapped = 0;
  // Two counts wrapped near 2^64 (0 - 3 and 0 - 1 modulo 2^64): a reset.
  EXPECT_TRUE(IsStatsResetLine("1, 0, 4096, 18446744073709551613, 18446744073709551615, 2",
                               false, &wrapped));
  EXPECT_EQ(wrapped, 2);
  // One huge count in a line that keeps time: damage, not a reset; with the stamp restarting,
  // a reset.
  EXPECT_FALSE(IsStatsResetLine("3001, 0, 4096, 18446744073709551615, 1", false, &wrapped));
  EXPECT_TRUE(IsStatsResetLine("1, 0, 4096, 18446744073709551615, 1", true, &wrapped));
  EXPECT_FALSE(IsStatsResetLine("1001, 0, 4096, 5, 7", true, &wrapped));
}

TEST(StatsReset, CountsWhatTheLinesFromTheResetHold) {
  // Before the reset the read snapshot is (3, 5); fio's counts restart, and its first
  // line after holds (1, 0) - (3, 5) modulo 2^64; then one line per I/O.
  const std::string path = WriteTempFile(
      "reset.log",
      "1000, 0, 4096, 1, 2\n2000, 0, 4096, 2, 3\n"
      "1, 0, 4096, 18446744073709551614, 18446744073709551611\n"
      "1, 0, 4096, 0, 1\n2, 0, 4096, 1, 0\n");
  StatsResetTail tail;
  ASSERT_TRUE(CountStatsResetTail(path, 3, &tail).ok());
  EXPECT_EQ(tail.lines, 3);
  EXPECT_EQ(tail.ios, 1 + 1 + 1);
  EXPECT_NE(StatsResetMessage(2).find("2 counts of this line wrapped near 2^64"),
            std::string::npos);
}

}  // namespace
}  // namespace fiohist
