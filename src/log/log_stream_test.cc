#include "log/log_stream.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "base/test_util.h"

namespace fiohist {
namespace {

// A line of a two-column log: all of its `count` I/Os in the second bucket.
std::string Line(int64_t t, int direction, int count) {
  return std::to_string(t) + ", " + std::to_string(direction) + ", 4096, 0, " +
         std::to_string(count) + "\n";
}

constexpr int kRead = 0;
constexpr int kWrite = 1;

// Writes stall while reads go on: reads every second from 1 s to 10 s, writes at 1 s, then
// the line that closes the stall at 9 s (80 I/Os over 8 s), then 10 s. Every quantum of 1 s
// thus holds 10 I/Os of each direction.
std::string StalledWrites() {
  std::string text;
  for (int64_t t = 1000; t <= 10000; t += 1000) {
    text += Line(t, kRead, 10);
    if (t == 1000 || t == 10000) text += Line(t, kWrite, 10);
    if (t == 9000) text += Line(t, kWrite, 80);
  }
  return text;
}

StreamSetup TwoColumns(bool skip_bad_lines = false) {
  StreamSetup setup;
  setup.columns = 2;
  setup.first_interval_ms = 1000;
  setup.skip_bad_lines = skip_bad_lines;
  return setup;
}

LogSource Source(const std::string& path) {
  LogSource source;
  source.path = path;
  return source;
}

// What one Feed() handed out: I/Os per direction and the directions it touched.
struct Share {
  std::array<double, kLogDirections> ios{};
  LogStream::DirectionFlags touched{};
};

Share FeedOne(LogStream* stream, const QuantumGrid& grid, int64_t q) {
  LogStream::DirectionSums sums;
  Share share;
  const Status s = stream->Feed(grid, q, &sums, &share.touched);
  EXPECT_TRUE(s.ok()) << s.message();
  for (int d = 0; d < kLogDirections; ++d) share.ios[static_cast<size_t>(d)] = sums[d].total();
  return share;
}

// Feeds quanta the way the pipeline does (from the stream's next start, skipping quanta it
// has nothing for) until the stream is done.
std::map<int64_t, Share> FeedAll(LogStream* stream, const QuantumGrid& grid) {
  std::map<int64_t, Share> shares;
  EXPECT_TRUE(stream->Prime().ok());
  int64_t q = grid.IndexOf(stream->next_start_ms());
  while (!stream->done()) {
    shares[q] = FeedOne(stream, grid, q);
    if (stream->done()) break;
    q = std::max(q + 1, grid.IndexOf(stream->next_start_ms()));
  }
  return shares;
}

// StalledWrites() as fio's rule places it: the write record stamped 9 s (deadline 2 s) holds
// 79 I/Os that completed in (1 s, 2 s] and the one that ended the stall at 9 s; quanta 2..7
// have no write but are covered. `at_end`: the writes of quantum 8.
void ExpectStalledWrites(const std::map<int64_t, Share>& shares, double at_end = 1) {
  ASSERT_EQ(shares.size(), 10u);
  for (const auto& [q, share] : shares) {
    EXPECT_DOUBLE_EQ(share.ios[kRead], 10) << "quantum " << q;
    const double writes = q == 1 ? 79 : q == 8 ? at_end : q >= 2 && q <= 7 ? 0 : 10;
    EXPECT_DOUBLE_EQ(share.ios[kWrite], writes) << "quantum " << q;
    EXPECT_TRUE(share.touched[kWrite]) << "quantum " << q;
  }
}

// The write line that closes the stall comes after seven read lines, yet quanta 1..7 must
// get their share of it before they are handed out: the look-ahead finds it.
TEST(LogStreamTest, StalledDirectionIsPlacedBeforeItsQuantaAreHandedOut) {
  LogStream stream(Source(WriteTempFile("stall_clat_hist.1.log", StalledWrites())), TwoColumns());
  const QuantumGrid grid(0, 1000);
  ASSERT_TRUE(stream.Prime().ok());
  FeedOne(&stream, grid, 0);
  const Share q1 = FeedOne(&stream, grid, 1);
  EXPECT_DOUBLE_EQ(q1.ios[kWrite], 79);  // 80 I/Os stamped 9 s, deadline 2 s: all but one
  EXPECT_TRUE(q1.touched[kWrite]);
}

TEST(LogStreamTest, StalledDirectionIsCountedOnce) {
  LogStream stream(Source(WriteTempFile("stall2_clat_hist.1.log", StalledWrites())), TwoColumns());
  ExpectStalledWrites(FeedAll(&stream, QuantumGrid(0, 1000)));
  const LogReport& r = stream.report();
  EXPECT_EQ(r.records, 13);  // the closing line once, from the look-ahead
  EXPECT_EQ(r.duplicates, 0);
  EXPECT_EQ(r.late_ios, 0);
  EXPECT_DOUBLE_EQ(r.total_ios, 200);
}

// A gzip look-ahead cannot seek: it reads from the top to the main reader's line.
TEST(LogStreamTest, StalledDirectionInAGzipLog) {
  const std::string text = StalledWrites();
  const std::string path = ::testing::TempDir() + "/stall_clat_hist.1.log.gz";
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  LogStream stream(Source(path), TwoColumns());
  ExpectStalledWrites(FeedAll(&stream, QuantumGrid(0, 1000)));
  EXPECT_EQ(stream.report().records, 13);
  EXPECT_EQ(stream.report().late_ios, 0);
}

// Lines the look-ahead reader passed over are judged when the main reader reaches them:
// a bad write line is skipped there, in file order. A second closing line with the same
// stamp is a catch-up record (fio writes one per missed deadline): placed, whole, there.
TEST(LogStreamTest, LinesPassedByTheLookAheadAreJudgedInFileOrder) {
  std::string text;
  for (int64_t t = 1000; t <= 10000; t += 1000) {
    text += Line(t, kRead, 10);
    if (t == 1000 || t == 10000) text += Line(t, kWrite, 10);
    if (t == 5000) text += "5500, 1, 4096, x, 1\n";  // line 7
    if (t == 9000) text += Line(t, kWrite, 80) + Line(t, kWrite, 80);
  }
  LogStream stream(Source(WriteTempFile("passed_clat_hist.1.log", text)), TwoColumns(true));
  ExpectStalledWrites(FeedAll(&stream, QuantumGrid(0, 1000)), 81);
  const LogReport& r = stream.report();
  EXPECT_EQ(r.duplicates, 0);
  EXPECT_EQ(r.skipped_lines, 1);
  ASSERT_EQ(r.skipped_examples.size(), 1u);
  EXPECT_NE(r.skipped_examples[0].find("passed_clat_hist.1.log:7: "), std::string::npos)
      << r.skipped_examples[0];
}

// Writes stop after 2 s while reads go on: the look-ahead finds no more write lines, and
// the writes are neither stretched nor touched after their last span.
TEST(LogStreamTest, DirectionThatStopsEarly) {
  std::string text;
  for (int64_t t = 1000; t <= 6000; t += 1000) {
    text += Line(t, kRead, 10);
    if (t <= 2000) text += Line(t, kWrite, 10);
  }
  LogStream stream(Source(WriteTempFile("stop_clat_hist.1.log", text)), TwoColumns());
  const std::map<int64_t, Share> shares = FeedAll(&stream, QuantumGrid(0, 1000));
  ASSERT_EQ(shares.size(), 6u);
  for (const auto& [q, share] : shares) {
    EXPECT_DOUBLE_EQ(share.ios[kRead], 10) << "quantum " << q;
    EXPECT_DOUBLE_EQ(share.ios[kWrite], q < 2 ? 10 : 0) << "quantum " << q;
    EXPECT_EQ(share.touched[kWrite], q < 2) << "quantum " << q;
  }
  EXPECT_EQ(stream.report().records, 8);
  EXPECT_EQ(stream.report().late_ios, 0);
}

// next_start_ms() is where the next quantum with something of this log begins: the first
// span's start after Prime(), the next line's span start, the next quantum while a span
// read earlier continues, and INT64_MAX (done()) at the end.
TEST(LogStreamTest, NextStartAndDone) {
  LogStream stream(Source(WriteTempFile("next_clat_hist.1.log", StalledWrites())), TwoColumns());
  const QuantumGrid grid(0, 1000);
  ASSERT_TRUE(stream.Prime().ok());
  EXPECT_EQ(stream.next_start_ms(), 0);  // the first line at 1 s covers (0, 1 s]
  EXPECT_FALSE(stream.done());
  FeedOne(&stream, grid, 0);
  EXPECT_EQ(stream.next_start_ms(), 1000);  // the read at 2 s covers (1 s, 2 s]
  FeedOne(&stream, grid, 1);
  EXPECT_EQ(stream.next_start_ms(), 2000);  // the writes' span (1 s, 9 s] goes on
  for (int64_t q = 2; q <= 9; ++q) FeedOne(&stream, grid, q);
  EXPECT_TRUE(stream.done());
  EXPECT_EQ(stream.next_start_ms(), INT64_MAX);
}

TEST(LogStreamTest, FileOfBlankLinesIsDoneOnceOpened) {
  LogStream stream(Source(WriteTempFile("blank_clat_hist.1.log", "\n  \n\t\n")), TwoColumns());
  ASSERT_TRUE(stream.Prime().ok());
  EXPECT_TRUE(stream.done());
  EXPECT_EQ(stream.report().blank_lines, 3);
  EXPECT_EQ(stream.report().records, 0);
}

TEST(LogStreamTest, FeedOpensTheFileWhenNotPrimed) {
  LogStream stream(Source(WriteTempFile("noprime_clat_hist.1.log", Line(1000, kRead, 4))),
                   TwoColumns());
  const Share share = FeedOne(&stream, QuantumGrid(0, 1000), 0);
  EXPECT_DOUBLE_EQ(share.ios[kRead], 4);
  EXPECT_TRUE(stream.done());
}

// A span that starts in a quantum already handed out (here: quanta fed from 1 s while the
// first span covers (0.5 s, 1.5 s]) loses nothing: all of it goes from the first open
// quantum on, and the I/Os of its finished part are counted as late.
TEST(LogStreamTest, LateIosAreCountedAndKept) {
  LogStream stream(Source(WriteTempFile("late_clat_hist.1.log", Line(1500, kRead, 10))),
                   TwoColumns());
  const QuantumGrid grid(0, 1000);
  ASSERT_TRUE(stream.Prime().ok());
  EXPECT_EQ(stream.next_start_ms(), 500);
  const Share share = FeedOne(&stream, grid, 1);
  EXPECT_DOUBLE_EQ(share.ios[kRead], 10);
  EXPECT_DOUBLE_EQ(stream.report().late_ios, 5);
  EXPECT_TRUE(stream.done());
}

// The look-ahead keeps late_ios at zero where a plain reader would not: without it the
// closing write line would be read only in quantum 8, long after quanta 1..7 went out.
TEST(LogStreamTest, NoLateIosWithTheLookAhead) {
  LogStream stream(Source(WriteTempFile("nolate_clat_hist.1.log", StalledWrites())), TwoColumns());
  FeedAll(&stream, QuantumGrid(0, 1000));
  EXPECT_EQ(stream.report().late_ios, 0);
}

// Fed without sums (as SpilledLogs feeds it), the stream tells its observer the same
// additions, and sets the same flags, coverage and straddled I/Os, as when it adds them up.
TEST(LogStreamTest, FedWithoutSumsTellsTheObserverTheSame) {
  const std::string path = WriteTempFile("nosums_clat_hist.1.log", StalledWrites());
  const QuantumGrid grid(0, 1000);
  struct Fed {
    std::vector<std::string> additions;  // quantum, direction, weight, counts
    std::vector<LogStream::DirectionFlags> touched;
    std::vector<int64_t> covered;
    std::vector<std::array<double, kLogDirections>> straddled;
  } fed[2];
  for (int k = 0; k < 2; ++k) {
    LogStream stream(Source(path), TwoColumns());
    ASSERT_EQ(stream.feeds_without_sums(), true);
    int64_t q = 0;
    stream.set_addition_observer(
        [&](Direction d, const std::vector<std::pair<uint32_t, uint64_t>>& counts, double w) {
          std::string a = std::to_string(q) + " " + DirectionName(d) + " " + std::to_string(w);
          for (const auto& [c, n] : counts) a += " " + std::to_string(c) + ":" + std::to_string(n);
          fed[k].additions.push_back(a);
        });
    ASSERT_TRUE(stream.Prime().ok());
    q = grid.IndexOf(stream.next_start_ms());
    while (!stream.done()) {
      LogStream::DirectionSums sums;
      LogStream::DirectionFlags touched{};
      ASSERT_TRUE(stream.Feed(grid, q, k == 0 ? &sums : nullptr, &touched).ok());
      fed[k].touched.push_back(touched);
      fed[k].covered.push_back(stream.covered_ms(q));
      fed[k].straddled.push_back(stream.straddled_ios(q));
      if (stream.done()) break;
      q = std::max(q + 1, grid.IndexOf(stream.next_start_ms()));
    }
  }
  EXPECT_FALSE(fed[0].additions.empty());
  EXPECT_EQ(fed[1].additions, fed[0].additions);
  EXPECT_EQ(fed[1].touched, fed[0].touched);
  EXPECT_EQ(fed[1].covered, fed[0].covered);
  EXPECT_EQ(fed[1].straddled, fed[0].straddled);
}

}  // namespace
}  // namespace fiohist
