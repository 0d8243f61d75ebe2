#include "log/probed_records.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "base/test_util.h"
#include "histogram/histogram.h"
#include "log/log_probe.h"
#include "log/log_stream.h"

namespace fiohist {
namespace {

std::string ProbedLine(int64_t t, int direction, int count) {
  return std::to_string(t) + ", " + std::to_string(direction) + ", 4096, 0, " +
         std::to_string(count) + "\n";
}

TEST(ProbedRecordsTest, RecordRoundTrips) {
  LogRecord r;
  r.time_ms = 123456789012;
  r.direction = Direction::kWrite;
  r.block_size = 4096;
  r.columns = 1856;
  r.counts = {{0, 1}, {5, 300}, {1855, 1ULL << 40}};
  r.total = 1 + 300 + (1ULL << 40);
  std::string bytes;
  PutRecord(r, 3, &bytes);
  PutRecord(LogRecord(), 1, &bytes);
  const char* p = bytes.data();
  const char* end = p + bytes.size();
  LogRecord back;
  long long step = 0;
  ASSERT_TRUE(GetRecord(&p, end, &back, &step));
  EXPECT_EQ(step, 3);
  EXPECT_EQ(back.time_ms, r.time_ms);
  EXPECT_EQ(back.direction, r.direction);
  EXPECT_EQ(back.block_size, r.block_size);
  EXPECT_EQ(back.columns, r.columns);
  EXPECT_EQ(back.counts, r.counts);
  EXPECT_EQ(back.total, r.total);
  ASSERT_TRUE(GetRecord(&p, end, &back, &step));
  EXPECT_TRUE(back.counts.empty());
  EXPECT_EQ(p, end);
  // Cut anywhere, a record reads as damaged, never as another record.
  for (size_t n = 0; n + 1 < bytes.size() / 2; ++n) {
    const char* q = bytes.data();
    EXPECT_FALSE(GetRecord(&q, bytes.data() + n, &back, &step)) << n;
  }
}

// Counts of every varint length read back as written, near the end of the bytes (read byte
// by byte) and far from it (read without a bound check per byte); cut ones are damaged.
TEST(ProbedRecordsTest, CountsRoundTripAtEveryLength) {
  std::vector<std::pair<uint32_t, uint64_t>> counts;
  uint32_t column = 0;
  for (int bits = 0; bits < 64; ++bits) {
    counts.emplace_back(column, (uint64_t{1} << bits) | (bits % 3));
    column += 1 + static_cast<uint32_t>(bits) / 2;
  }
  counts.emplace_back(Histogram::kMaxColumns - 1, UINT64_MAX);
  std::string bytes;
  PutCounts(counts, &bytes);
  PutCounts(counts, &bytes);
  const char* p = bytes.data();
  const char* end = p + bytes.size();
  std::vector<std::pair<uint32_t, uint64_t>> back;
  ASSERT_TRUE(GetCounts(&p, end, &back));
  EXPECT_EQ(back, counts);
  ASSERT_TRUE(GetCounts(&p, end, &back));
  EXPECT_EQ(back, counts);
  EXPECT_EQ(p, end);
  for (size_t n = 0; n < bytes.size() / 2; ++n) {
    const char* q = bytes.data();
    EXPECT_FALSE(GetCounts(&q, bytes.data() + n, &back)) << n;
  }
  // A varint without its end (11 bytes of continuation) is damaged on either path.
  std::string endless = std::string(1, 1) + std::string(11, '\x80') + std::string(30, '\x01');
  const char* q = endless.data();
  EXPECT_FALSE(GetCounts(&q, endless.data() + endless.size(), &back));
  // A column beyond any layout's.
  std::string wide;
  PutCounts({{static_cast<uint32_t>(Histogram::kMaxColumns), 1}}, &wide);
  q = wide.data();
  EXPECT_FALSE(GetCounts(&q, wide.data() + wide.size(), &back));
}

// What ProbeLog keeps of `text` (probing 64 lines).
std::string Kept(const std::string& name, const std::string& text, LogProbe* probe) {
  LogSource source;
  source.path = WriteTempFile(name, text);
  std::string records = "stale";
  EXPECT_TRUE(ProbeLog(source, 64, true, probe, &records).ok());
  return records;
}

TEST(ProbedRecordsTest, ProbeKeepsOnlyLogsReadWholeAndClean) {
  LogProbe probe;
  std::string whole;
  for (int t = 1000; t <= 5000; t += 1000) whole += ProbedLine(t, 0, 3);
  EXPECT_FALSE(Kept("whole_clat_hist.1.log", whole + "\n \n", &probe).empty());
  EXPECT_EQ(probe.probed.trailing_blank_lines, 2);
  // Longer than the probe reads.
  std::string longer;
  for (int t = 1000; t <= 65000; t += 1000) longer += ProbedLine(t, 0, 3);
  EXPECT_TRUE(Kept("long_clat_hist.1.log", longer, &probe).empty());
  // A bad line, a cut last line, a line of another width: read from the log.
  EXPECT_TRUE(Kept("bad_clat_hist.1.log", whole + "6000, 0, x\n", &probe).empty());
  EXPECT_TRUE(Kept("cut_clat_hist.1.log", whole + "6000, 0, 4096, 0, 1", &probe).empty());
  EXPECT_TRUE(Kept("wide_clat_hist.1.log", whole + "6000, 0, 4096, 0, 1, 2\n", &probe).empty());
  // 64 records and blank lines after them: whole.
  std::string sixty_four;
  for (int t = 1000; t <= 64000; t += 1000) sixty_four += ProbedLine(t, 0, 3);
  EXPECT_FALSE(Kept("s64_clat_hist.1.log", sixty_four + "\n", &probe).empty());
}

struct Fed {
  std::map<int64_t, std::array<double, kLogDirections>> ios;
  std::map<int64_t, LogStream::DirectionFlags> touched;
  std::map<int64_t, size_t> placed;
  LogReport report;
};

Fed FeedWhole(const LogSource& source, const StreamSetup& setup) {
  const QuantumGrid grid(0, 1000);
  LogStream stream(source, setup);
  Fed fed;
  EXPECT_TRUE(stream.Prime().ok());
  int64_t q = grid.IndexOf(stream.next_start_ms());
  while (!stream.done()) {
    LogStream::DirectionSums sums;
    LogStream::DirectionFlags touched{};
    std::vector<PlacedRecord> placed;
    const Status s = stream.Feed(grid, q, &sums, &touched, &placed);
    EXPECT_TRUE(s.ok()) << s.message();
    for (int d = 0; d < kLogDirections; ++d) fed.ios[q][static_cast<size_t>(d)] = sums[d].total();
    fed.touched[q] = touched;
    fed.placed[q] = placed.size();
    if (stream.done()) break;
    q = std::max(q + 1, grid.IndexOf(stream.next_start_ms()));
  }
  fed.report = stream.report();
  return fed;
}

// A stream of the probed records hands out what the stream of the log does, with the same
// line numbers: blank lines, a stalled direction (read ahead from the log), a stamp that
// goes back (a bad line for the stream, a record for the probe).
TEST(ProbedRecordsTest, StreamOfProbedRecordsIsTheLogs) {
  std::string text = "\n";
  for (int64_t t = 1000; t <= 10000; t += 1000) {
    text += ProbedLine(t, 0, 10);
    if (t == 1000 || t == 10000) text += ProbedLine(t, 1, 10);
    if (t == 9000) text += ProbedLine(t, 1, 80);
    if (t == 4000) text += "  \n" + ProbedLine(2500, 0, 7);
  }
  text += "\n";
  LogSource source;
  source.path = WriteTempFile("probed_clat_hist.1.log", text);
  LogProbe probe;
  std::string records;
  ASSERT_TRUE(ProbeLog(source, 64, true, &probe, &records).ok());
  ASSERT_FALSE(records.empty());
  SpillFile file;
  ASSERT_TRUE(file.Create().ok());
  ASSERT_TRUE(file.Append(std::string(5, 'x')).ok());  // not at offset 0
  ASSERT_TRUE(file.Append(records).ok());
  ASSERT_TRUE(file.Flush().ok());

  StreamSetup setup;
  setup.columns = 2;
  setup.first_interval_ms = 1000;
  setup.skip_bad_lines = true;
  StreamSetup from_probe = setup;
  from_probe.probed = probe.probed;
  from_probe.probed.file = &file;
  from_probe.probed.offset = 5;
  from_probe.probed.length = records.size();

  const Fed log = FeedWhole(source, setup);
  const Fed probed = FeedWhole(source, from_probe);
  EXPECT_EQ(probed.ios, log.ios);
  EXPECT_EQ(probed.touched, log.touched);
  EXPECT_EQ(probed.placed, log.placed);
  EXPECT_EQ(probed.report.records, log.report.records);
  EXPECT_EQ(probed.report.blank_lines, log.report.blank_lines);
  EXPECT_EQ(log.report.blank_lines, 3);
  EXPECT_EQ(probed.report.skipped_lines, log.report.skipped_lines);
  EXPECT_EQ(log.report.skipped_lines, 1);
  EXPECT_EQ(probed.report.skipped_examples, log.report.skipped_examples);
  EXPECT_EQ(probed.report.total_ios, log.report.total_ios);
  EXPECT_EQ(probed.report.pauses.size(), log.report.pauses.size());

  // Without --skip-bad-lines both stop at the same line.
  setup.skip_bad_lines = from_probe.skip_bad_lines = false;
  const QuantumGrid grid(0, 1000);
  std::string errors[2];
  for (int k = 0; k < 2; ++k) {
    LogStream stream(source, k == 0 ? setup : from_probe);
    Status s = stream.Prime();
    for (int64_t q = 0; s.ok() && !stream.done() && q < 20; ++q) {
      LogStream::DirectionSums sums;
      LogStream::DirectionFlags touched{};
      s = stream.Feed(grid, q, &sums, &touched);
    }
    errors[k] = s.message();
  }
  EXPECT_NE(errors[0].find(":8: time goes backwards"), std::string::npos) << errors[0];
  EXPECT_EQ(errors[1], errors[0]);
}

}  // namespace
}  // namespace fiohist
