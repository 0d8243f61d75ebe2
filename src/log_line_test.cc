#include "log_line.h"

#include <gtest/gtest.h>

#include <string>

namespace fiohist {
namespace {

// A fio3 line with `columns` counts, `value` at column `at`.
std::string Line(const std::string& head, int columns, int at, const std::string& value) {
  std::string s = head;
  for (int i = 0; i < columns; ++i) s += ", " + (i == at ? value : std::string("0"));
  return s;
}

TEST(LogLineTest, ParsesRealLayout) {
  LogRecord r;
  std::string what;
  ASSERT_TRUE(ParseRecord(Line("2001, 1, 4096", 1856, 700, "17"), &r, &what)) << what;
  EXPECT_EQ(r.time_ms, 2001);
  EXPECT_EQ(r.direction, Direction::kWrite);
  EXPECT_EQ(r.columns, 1856);
  ASSERT_EQ(r.counts.size(), 1u);
  EXPECT_EQ(r.counts[0].first, 700u);
  EXPECT_EQ(r.total, 17u);
}

// The run-of-zeros shortcut must count columns exactly like one-by-one parsing, whatever
// the spacing and wherever the non-zero count is.
TEST(LogLineTest, ZeroRunsAndSpacingAgree) {
  for (int at = 0; at < 12; ++at) {
    const std::string fio = Line("5, 0, 4096", 12, at, "3");
    std::string spaced;
    for (char c : fio) spaced += c == ',' ? std::string(" ,\t") : std::string(1, c);
    for (const std::string& text : {fio, spaced, fio + " \t", "  " + fio}) {
      LogRecord r;
      std::string what;
      ASSERT_TRUE(ParseRecord(text, &r, &what)) << text << ": " << what;
      EXPECT_EQ(r.columns, 12) << text;
      ASSERT_EQ(r.counts.size(), 1u) << text;
      EXPECT_EQ(r.counts[0].first, static_cast<uint32_t>(at)) << text;
    }
  }
}

TEST(LogLineTest, CutLinesAreRejected) {
  LogRecord r;
  std::string what;
  EXPECT_FALSE(ParseRecord("1001, 0, 4096, 0, 0, 0, 0, ", &r, &what));
  EXPECT_NE(what.find("expected"), std::string::npos) << what;
  EXPECT_FALSE(ParseRecord("1001, 0, 4096, 0, 1,", &r, &what));
  EXPECT_NE(what.find("truncated"), std::string::npos) << what;
  EXPECT_FALSE(ParseRecord("1001, 0, 4096", &r, &what));
  EXPECT_NE(what.find("found only 3 columns"), std::string::npos) << what;
}

TEST(LogLineTest, RejectsWhatFioNeverWrites) {
  LogRecord r;
  std::string what;
  EXPECT_FALSE(ParseRecord("1001, 0, 4096, 0, -3", &r, &what));
  EXPECT_NE(what.find("negative number '-3'"), std::string::npos) << what;
  EXPECT_FALSE(ParseRecord("1001, 3, 4096, 0, 3", &r, &what));
  EXPECT_NE(what.find("found 3"), std::string::npos) << what;
  EXPECT_FALSE(ParseRecord("1001, 0, 4096, 18446744073709551616", &r, &what));
  EXPECT_NE(what.find("64 bits"), std::string::npos) << what;
  EXPECT_FALSE(ParseRecord("1001, 0, 4096, 18446744073709551615, 1", &r, &what));
  EXPECT_NE(what.find("add up to more than 64 bits"), std::string::npos) << what;
  EXPECT_FALSE(ParseRecord("1001.5, 0, 4096, 0, 1", &r, &what));
  EXPECT_FALSE(ParseRecord(std::string("1001, 0, 4096, 0\0, 1", 20), &r, &what));
}

// Stamps near 2^63 used to overflow the time grid (and hang the run).
TEST(LogLineTest, TimeIsBounded) {
  LogRecord r;
  std::string what;
  int64_t t = 0;
  Direction d;
  EXPECT_TRUE(ParseRecord("1000000000000000, 0, 4096, 0, 1", &r, &what)) << what;
  EXPECT_TRUE(ParseRecordHead("1000000000000000, 0, 4096, 0, 1", &t, &d));
  EXPECT_FALSE(ParseRecord("1000000000000001, 0, 4096, 0, 1", &r, &what));
  EXPECT_NE(what.find("time (column 1) is too large"), std::string::npos) << what;
  EXPECT_FALSE(ParseRecordHead("9223372036854775807, 0, 4096, 0, 1", &t, &d));
}

}  // namespace
}  // namespace fiohist
