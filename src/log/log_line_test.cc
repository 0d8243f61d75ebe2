#include "log/log_line.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

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

// Lines long enough for the vectorised zero-run skip, with the spacing varied anywhere:
// the result must equal a plain split on ','.
TEST(LogLineTest, LongLinesMatchAPlainSplit) {
  std::mt19937 rng(7);
  const char* separators[] = {", ", ", ", ", ", ", ", ",", ",  ", " , ", "\t,\t", ", \t"};
  for (int round = 0; round < 3000; ++round) {
    const int columns = 1 + static_cast<int>(rng() % 200);
    std::string text = std::to_string(rng() % 100000) + ", " + std::to_string(rng() % 3) +
                       ", 4096";
    const bool odd_spacing = rng() % 4 == 0;
    std::vector<std::pair<uint32_t, uint64_t>> want;
    uint64_t total = 0;
    for (int c = 0; c < columns; ++c) {
      text += odd_spacing ? separators[rng() % 9] : ", ";
      uint64_t v = 0;
      const unsigned kind = rng() % 16;
      if (kind == 0) v = rng() % 10;
      if (kind == 1) v = rng();
      if (kind == 2) v = 1000000000000ULL + rng();
      text += std::to_string(v);
      if (v != 0) {
        want.emplace_back(static_cast<uint32_t>(c), v);
        total += v;
      }
    }
    if (rng() % 8 == 0) text += "  ";
    LogRecord r;
    std::string what;
    ASSERT_TRUE(ParseRecord(text, &r, &what)) << text << ": " << what;
    EXPECT_EQ(r.columns, columns) << text;
    EXPECT_EQ(r.counts, want) << text;
    EXPECT_EQ(r.total, total) << text;
    // Cut anywhere after a separator: always an error, never a shorter record.
    const size_t comma = text.rfind(',');
    EXPECT_FALSE(ParseRecord(std::string_view(text).substr(0, comma + 1), &r, &what)) << text;
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
  // The same where the fast path for fio's own formatting reads the second count.
  EXPECT_FALSE(ParseRecord(Line("1001, 0, 4096, 18446744073709551615", 40, 5, "7"), &r, &what));
  EXPECT_NE(what.find("64 bits"), std::string::npos) << what;
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
