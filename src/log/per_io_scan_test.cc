#include "log/per_io_scan.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "log/per_io_test_util.h"

namespace fiohist {
namespace {

// ScanPerIoLine on `line` followed by '\n' and padding (what a read buffer holds).
size_t Scan(const std::string& line, const PerIoLayout& layout, PerIoRecord* r) {
  std::string text = line + "\n";
  text.resize(text.size() + kPerIoScanReadable, 'z');
  return ScanPerIoLine(text.data(), layout, r);
}

void ExpectSame(const PerIoRecord& a, const PerIoRecord& b) {
  EXPECT_EQ(a.time_ms, b.time_ms);
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.direction, b.direction);
  EXPECT_EQ(a.block_size, b.block_size);
  EXPECT_EQ(a.issue_time_ns, b.issue_time_ns);
}

TEST(PerIoScan, ReadsEveryDecimalLayoutAsTheGeneralParser) {
  const struct {
    const char* line;
    int columns;
    bool two_values;
  } cases[] = {
      {"12, 345, 1, 4096", 4, false},
      {"0, 95528197, 0, 4096, 0", 5, false},
      {"7, 9000, 2, 4096, 123456, 0", 6, false},
      {"7, 9000, 0, 4096, 0, 0, 6991000", 7, false},
      {"7, 9000, 9000, 1, 4096, 0", 6, true},
      {"1700000000123, 123456789012, 1, 131072, 98765432109, 0, 12345678901234", 7, false},
      {"999999, 1234567890123456, 2, 4096, 0", 5, false},  // 16 digits: two words
  };
  for (const auto& c : cases) {
    const PerIoLayout layout = LayoutOf(c.columns, c.two_values);
    PerIoRecord fast, general;
    std::string what;
    ASSERT_TRUE(ParsePerIoLine(c.line, layout, &general, &what)) << c.line << ": " << what;
    const size_t length = Scan(c.line, layout, &fast);
    if (std::string(c.line).size() > kPerIoScanMaxLine) {
      EXPECT_EQ(length, 0u) << c.line;  // too long: left to the general parser
      continue;
    }
    EXPECT_EQ(length, std::string(c.line).size()) << c.line;
    ExpectSame(fast, general);
  }
}

TEST(PerIoScan, LeavesEveryOtherLineToTheGeneralParser) {
  const PerIoLayout five = LayoutOf(5);
  PerIoRecord r;
  for (const char* line : {
           "",                                  // blank
           "7, 9000, 0, 8192, 0x2004",          // log_prio's hex priority
           "7,9000, 0, 8192, 0",                // other spacing
           "7,  9000, 0, 8192, 0",              // two blanks
           " 7, 9000, 0, 8192, 0",              // leading blank
           "7, 9000, 0, 8192, 0 ",              // trailing blank
           "7, 9000, 0, 8192, 0,",              // trailing comma
           "7, 9000, 0, 8192, 0, 3",            // a column more
           "7, 9000, 0, 8192",                  // a column less
           "7, 9000, 3, 8192, 0",               // no direction
           "7, 9000, 10, 8192, 0",              // two-digit direction
           "7, -9000, 0, 8192, 0",              // negative
           "7, 90a0, 0, 8192, 0",               // not a number
           "7, 12345678901234567, 0, 8192, 0",  // 17 digits
           "1000000000000001, 1, 0, 8192, 0",   // time above 10^15 ms
           "7, 9000, 0, 8192, 0\r",             // CRLF
       }) {
    EXPECT_EQ(Scan(line, five, &r), 0u) << "'" << line << "'";
  }
  // No '\n' within the window: a long line.
  std::string text(kPerIoScanReadable + 8, '1');
  EXPECT_EQ(ScanPerIoLine(text.data(), five, &r), 0u);
}

TEST(PerIoScan, ReadsLogPriosHexPriority) {
  // log_prio (3.28) writes the priority as 0x%04x: its column, from the first line.
  PerIoLayout five = LayoutOf(5);
  EXPECT_EQ(HexColumnOf("7, 9000, 0, 8192, 0x2004", five), 4);
  EXPECT_EQ(HexColumnOf("7, 9000, 0, 8192, 0", five), -1);
  EXPECT_EQ(HexColumnOf("7, 0x10, 0, 8192, 0", five), -1);  // a kept column: general parser
  PerIoLayout seven = LayoutOf(7);
  EXPECT_EQ(HexColumnOf("7, 9000, 0, 4096, 0, 0x0000, 6991000", seven), 5);
  five.hex_column = 4;
  seven.hex_column = 5;
  PerIoRecord fast, general;
  std::string what;
  for (const char* line : {"7, 9000, 0, 8192, 0x2004", "7, 9000, 1, 8192, 0xABcd"}) {
    ASSERT_TRUE(ParsePerIoLine(line, five, &general, &what)) << what;
    EXPECT_EQ(Scan(line, five, &fast), std::string(line).size()) << line;
    ExpectSame(fast, general);
  }
  const char* issue = "7, 9000, 0, 4096, 0, 0x0000, 6991000";
  ASSERT_TRUE(ParsePerIoLine(issue, seven, &general, &what)) << what;
  EXPECT_EQ(Scan(issue, seven, &fast), std::string(issue).size());
  ExpectSame(fast, general);
  for (const char* line : {
           "7, 9000, 0, 8192, 0x",      // no digit
           "7, 9000, 0, 8192, 0xg0",    // not hex
           "7, 9000, 0, 8192, 1x20",    // not 0x
           "7, 9000, 0, 8192, 0x2x4",   // a second x
           "7, 9a00, 0, 8192, 0x2004",  // a letter elsewhere
           "7, 9000, 0, 8x92, 0x2004",  // an x elsewhere
       }) {
    EXPECT_EQ(Scan(line, five, &fast), 0u) << line;
  }
}

TEST(PerIoScan, AgreesWithTheGeneralParserOnRandomLines) {
  // Lines of fio's shape with random digits, lengths and damage: whatever the fast path
  // reads, the general parser reads the same; what it leaves, it leaves whole.
  std::mt19937_64 rng(32);
  const char kAlphabet[] = "0123456789, x-\tabfAF";
  for (int columns = 4; columns <= 7; ++columns) {
    PerIoLayout layout = LayoutOf(columns);
    // The priority (the last column, or the one before the issue time) in hex for half.
    const int prio = columns == 7 ? 5 : columns - 1;
    for (int i = 0; i < 20000; ++i) {
      const bool hex = columns >= 5 && i % 2 == 1;
      layout.hex_column = hex ? prio : -1;
      std::string line;
      for (int c = 0; c < columns; ++c) {
        if (c > 0) line += ", ";
        const int digits = c == layout.direction_column ? 1 : 1 + static_cast<int>(rng() % 17);
        if (hex && c == prio) {
          line += "0x";
          for (int k = 0; k < 4; ++k) line += "0123456789abcdef"[rng() % 16];
          continue;
        }
        for (int k = 0; k < digits; ++k) line += static_cast<char>('0' + rng() % 10);
      }
      if (rng() % 4 == 0) line[rng() % line.size()] = kAlphabet[rng() % (sizeof kAlphabet - 1)];
      PerIoRecord fast, general;
      std::string what;
      const size_t length = Scan(line, layout, &fast);
      const bool parsed = ParsePerIoLine(line, layout, &general, &what);
      if (length == 0) continue;
      ASSERT_TRUE(parsed) << line;
      ASSERT_EQ(length, line.size()) << line;
      ExpectSame(fast, general);
    }
  }
}

}  // namespace
}  // namespace fiohist
