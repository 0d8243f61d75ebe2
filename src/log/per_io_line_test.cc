#include "log/per_io_line.h"

#include <gtest/gtest.h>

#include <string>

#include "log/per_io_test_util.h"

namespace fiohist {
namespace {

TEST(PerIoLine, EveryFioLayout) {
  PerIoRecord r;
  std::string what;
  // fio 2 (microseconds) and fio 3 before 3.18: time, value, ddir, bs.
  ASSERT_TRUE(ParsePerIoLine("12, 345, 1, 4096", LayoutOf(4), &r, &what)) << what;
  EXPECT_EQ(r.time_ms, 12);
  EXPECT_EQ(r.value, 345u);
  EXPECT_EQ(r.direction, Direction::kWrite);
  EXPECT_EQ(r.block_size, 4096u);
  EXPECT_EQ(r.issue_time_ns, -1);
  // 3.18 on: the priority, in hex with log_prio.
  ASSERT_TRUE(ParsePerIoLine("7, 9000, 0, 8192, 0x2004", LayoutOf(5), &r, &what)) << what;
  EXPECT_EQ(r.value, 9000u);
  EXPECT_EQ(r.block_size, 8192u);
  // log_offset: offset, then the priority.
  ASSERT_TRUE(ParsePerIoLine("7, 9000, 2, 4096, 123456, 0", LayoutOf(6), &r, &what)) << what;
  EXPECT_EQ(r.direction, Direction::kTrim);
  // log_issue_time (3.38, with log_offset).
  ASSERT_TRUE(ParsePerIoLine("7, 9000, 0, 4096, 0, 0, 6991000", LayoutOf(7), &r, &what)) << what;
  EXPECT_EQ(r.issue_time_ns, 6991000);
  // log_window_value=both: a second value before the direction.
  ASSERT_TRUE(ParsePerIoLine("7, 9000, 9000, 1, 4096, 0", LayoutOf(6, true), &r, &what)) << what;
  EXPECT_EQ(r.direction, Direction::kWrite);
  EXPECT_EQ(r.block_size, 4096u);
  // Other spacing goes through the general parser.
  ASSERT_TRUE(ParsePerIoLine(" 7 ,9000,\t0, 4096, 0 ", LayoutOf(5), &r, &what)) << what;
  EXPECT_EQ(r.time_ms, 7);
}

TEST(PerIoLine, IssueTimeFallsBackToCompletionMinusLatency) {
  PerIoRecord r;
  r.time_ms = 10;
  r.value = 2000;
  EXPECT_EQ(IssueTimeNs(r, 1), 10 * 1000000 - 2000);
  EXPECT_EQ(IssueTimeNs(r, 1000), 10 * 1000000 - 2000000);
  r.issue_time_ns = 5;
  EXPECT_EQ(IssueTimeNs(r, 1), 5);
}

TEST(PerIoLine, BadLinesSayWhatWasExpected) {
  PerIoRecord r;
  std::string what;
  EXPECT_FALSE(ParsePerIoLine("7, -9000, 0, 4096, 0", LayoutOf(5), &r, &what));
  EXPECT_NE(what.find("negative"), std::string::npos) << what;
  EXPECT_NE(what.find("latency (column 2)"), std::string::npos) << what;
  EXPECT_FALSE(ParsePerIoLine("7, abc, 0, 4096, 0", LayoutOf(5), &r, &what));
  EXPECT_NE(what.find("expected an integer"), std::string::npos) << what;
  EXPECT_FALSE(ParsePerIoLine("7, 9000, 0, 4096", LayoutOf(5), &r, &what));
  EXPECT_NE(what.find("expected 5 columns"), std::string::npos) << what;
  EXPECT_FALSE(ParsePerIoLine("7, 9000, 5, 4096, 0", LayoutOf(5), &r, &what));
  EXPECT_NE(what.find("direction"), std::string::npos) << what;
  EXPECT_FALSE(ParsePerIoLine("7, 9000, 0, 4096,", LayoutOf(5), &r, &what));
  EXPECT_NE(what.find("truncated"), std::string::npos) << what;
  PerIoLayout layout;
  EXPECT_FALSE(PerIoLayoutOf(3, false, &layout, &what));
  EXPECT_FALSE(PerIoLayoutOf(9, false, &layout, &what));
}

}  // namespace
}  // namespace fiohist
