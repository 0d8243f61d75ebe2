#include "compat/compat_pctiles.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace fiohist {
namespace compat {
namespace {

Status Parse(std::vector<const char*> args, PctilesOptions* options) {
  args.insert(args.begin(), "pctiles");
  return ParsePctilesArgs(static_cast<int>(args.size()), args.data(), options);
}

TEST(CompatPctilesArgs, Defaults) {
  PctilesOptions o;
  ASSERT_TRUE(Parse({"a.log"}, &o).ok());
  EXPECT_EQ(o.fio_version, 3);
  EXPECT_EQ(o.bucket_groups, 29);
  EXPECT_EQ(o.bucket_bits, 6);
  EXPECT_EQ(o.percentiles, (std::vector<double>{0, 50, 95, 99, 100}));
  EXPECT_EQ(o.time_quantum_s, 1);
  EXPECT_EQ(o.log_hist_msec, -1);
  EXPECT_EQ(o.output_unit, "usec");
  EXPECT_EQ(o.files, (std::vector<std::string>{"a.log"}));
}

TEST(CompatPctilesArgs, ReferenceSyntax) {
  PctilesOptions o;
  Status s = Parse({"--time-quantum=5", "--log-hist-msec", "500", "--output-unit", "msec",
                    "--percentiles", "50", "99", "99.9", "--", "a.log", "b.log", "a.log"},
                   &o);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(o.time_quantum_s, 5);
  EXPECT_EQ(o.log_hist_msec, 500);
  EXPECT_EQ(o.output_unit, "msec");
  EXPECT_EQ(o.percentiles, (std::vector<double>{50, 99, 99.9}));
  // A name given twice counts once, as in the reference (its logs are a dict by name).
  EXPECT_EQ(o.files, (std::vector<std::string>{"a.log", "b.log"}));
}

TEST(CompatPctilesArgs, UniquePrefixesAndFilesFirst) {
  PctilesOptions o;
  ASSERT_TRUE(Parse({"a.log", "--time", "3", "b.log"}, &o).ok());
  EXPECT_EQ(o.time_quantum_s, 3);
  EXPECT_EQ(o.files.size(), 2u);
  EXPECT_FALSE(Parse({"--bucket", "3", "a.log"}, &o).ok());  // ambiguous
}

TEST(CompatPctilesArgs, FioVersion2ForcesNineteenGroups) {
  PctilesOptions o;
  ASSERT_TRUE(Parse({"--fio-version", "2", "--bucket-groups", "25", "a.log"}, &o).ok());
  EXPECT_EQ(o.fio_version, 2);
  EXPECT_EQ(o.bucket_groups, 19);
}

TEST(CompatPctilesArgs, ClearErrorsWhereTheReferenceCrashes) {
  PctilesOptions o;
  Status s = Parse({"--output-unit", "nsec", "a.log"}, &o);
  EXPECT_NE(s.message().find("usec or msec"), std::string::npos) << s.message();
  s = Parse({"--time-quantum", "0", "a.log"}, &o);
  EXPECT_NE(s.message().find("positive"), std::string::npos) << s.message();
  s = Parse({"--percentiles", "50", "a.log"}, &o);  // nargs '+' takes the file too
  EXPECT_NE(s.message().find("'--'"), std::string::npos) << s.message();
  s = Parse({"--percentiles", "100.5", "--", "a.log"}, &o);
  EXPECT_FALSE(s.ok());
  s = Parse({"--percentiles", "nan", "--", "a.log"}, &o);
  EXPECT_FALSE(s.ok());
  s = Parse({"--fio-version", "4", "a.log"}, &o);
  EXPECT_NE(s.message().find("choose from 2, 3"), std::string::npos) << s.message();
  s = Parse({"--time-quantum", "1.5", "a.log"}, &o);
  EXPECT_NE(s.message().find("invalid int"), std::string::npos) << s.message();
  s = Parse({"--time-quantum", "2"}, &o);
  EXPECT_NE(s.message().find("file_list"), std::string::npos) << s.message();
  EXPECT_TRUE(Parse({"-h"}, &o).ok());
  EXPECT_TRUE(o.help);
}

TEST(CompatPctiles, QuantumCountFormula) {
  // ((floor(end/1000) - floor(start/1000)) + Q) div Q
  EXPECT_EQ(QuantumCount(1, 0, 30001), 31);
  EXPECT_EQ(QuantumCount(5, 0, 30001), 7);
  EXPECT_EQ(QuantumCount(5, 0, 100), 1);
  // The reference's own unit tests: epoch stamps, quanta start at the window start.
  EXPECT_EQ(QuantumCount(1, 1536504001123, 1536504003123), 3);
  EXPECT_EQ(QuantumCount(5, 1536504001123, 1536504003123), 1);
  // Whole seconds are floored separately: 999 -> 1001 spans two seconds.
  EXPECT_EQ(QuantumCount(1, 999, 1001), 2);
}

TEST(CompatPctiles, RecordEndLooksAtMostThreeAhead) {
  const std::vector<int64_t> t = {1000, 1000, 2000, 2000, 2500, 2600, 2700, 3000};
  const std::vector<uint8_t> d = {0, 1, 1, 0, 1, 1, 1, 0};
  EXPECT_EQ(RecordEnd(t, d, 0, 9000), 2000);  // k+2 is the next read
  EXPECT_EQ(RecordEnd(t, d, 1, 9000), 2000);  // k+1 is the next write
  // The next read is 4 records ahead: the reference gives up (it asserts), the record
  // runs to the end of the last quantum.
  EXPECT_EQ(RecordEnd(t, d, 3, 9000), 9000);
  EXPECT_EQ(RecordEnd(t, d, 7, 9000), 9000);  // last record
  EXPECT_EQ(RecordEnd(t, d, 6, 9000), 9000);  // no later write
}

TEST(CompatPctiles, WeightingByOverlapOverRecordLength) {
  // The reference's own test: records at 2000 and 7000 ms, 5 s quanta: the first covers
  // [2000, 7000): 0.6 in quantum 0, 0.4 in quantum 1; the second runs to the grid end.
  GridSpec grid;
  grid.start_ms = 0;
  grid.quantum_ms = 5000;
  grid.count = QuantumCount(5, 0, 7000);
  grid.end_ms = 10000;
  grid.buckets = 4;
  ASSERT_EQ(grid.count, 2);
  std::vector<SparseRow> totals(2);
  LogAligner aligner(grid, &totals);
  const std::vector<std::pair<uint32_t, uint64_t>> counts = {{0, 1}, {1, 2}, {2, 3}, {3, 4}};
  EXPECT_TRUE(aligner.Add(2000, 7000, counts));
  EXPECT_TRUE(aligner.Add(7000, 10000, counts));
  aligner.FlushAll();
  ASSERT_EQ(totals[0].size(), 4u);
  ASSERT_EQ(totals[1].size(), 4u);
  for (int b = 0; b < 4; ++b) {
    EXPECT_DOUBLE_EQ(totals[0][b].second, 0.6 * (b + 1));
    EXPECT_DOUBLE_EQ(totals[1][b].second, 0.4 * (b + 1) + (b + 1));
  }
}

TEST(CompatPctiles, ShareBeforeTheWindowIsDroppedNotWrapped) {
  GridSpec grid;
  grid.start_ms = 1000;
  grid.quantum_ms = 1000;
  grid.count = 3;
  grid.end_ms = 4000;
  grid.buckets = 2;
  std::vector<SparseRow> totals(3);
  LogAligner aligner(grid, &totals);
  EXPECT_TRUE(aligner.Add(500, 1500, {{1, 10}}));  // half before the window
  aligner.FlushAll();
  ASSERT_EQ(totals[0].size(), 1u);
  EXPECT_EQ(totals[0][0].second, 5.0);
  EXPECT_TRUE(totals[2].empty());  // the reference would add 5 here (index -1)
}

TEST(CompatPctiles, ZeroLengthRecordIsDropped) {
  GridSpec grid;
  grid.count = 2;
  grid.end_ms = 2000;
  grid.buckets = 2;
  std::vector<SparseRow> totals(2);
  LogAligner aligner(grid, &totals);
  EXPECT_FALSE(aligner.Add(1500, 1500, {{1, 10}}));
  aligner.FlushAll();
  EXPECT_TRUE(totals[0].empty());
  EXPECT_TRUE(totals[1].empty());
}

TEST(CompatPctiles, EarlyFlushKeepsPerLogSumsApart) {
  GridSpec grid;
  grid.count = 3;
  grid.end_ms = 3000;
  grid.buckets = 2;
  std::vector<SparseRow> totals(3);
  {
    LogAligner a(grid, &totals);
    a.Add(0, 1000, {{0, 1}});
    a.FlushBefore(1000);  // quantum 0 is complete
    EXPECT_EQ(totals[0].size(), 1u);
    a.Add(1000, 3000, {{1, 4}});
    a.FlushAll();
  }
  {
    LogAligner b(grid, &totals);
    b.Add(0, 3000, {{0, 3}});
    b.FlushAll();
  }
  ASSERT_EQ(totals[0].size(), 1u);
  EXPECT_EQ(totals[0][0].second, 2.0);
  ASSERT_EQ(totals[1].size(), 2u);
  EXPECT_EQ(totals[1][0].second, 1.0);
  EXPECT_EQ(totals[1][1].second, 2.0);
}

TEST(CompatPctiles, BucketEdgesInReferenceUnits) {
  const auto v3 = BucketEdges(3, 3, 1);  // the reference's test: groups of 2
  const std::vector<std::pair<double, double>> want = {{0.000, 0.001}, {0.001, 0.002},
                                                       {0.002, 0.003}, {0.003, 0.004},
                                                       {0.004, 0.006}, {0.006, 0.008}};
  EXPECT_EQ(v3, want);
  const auto v2 = BucketEdges(2, 3, 1);
  EXPECT_EQ(v2[5], (std::pair<double, double>{6.0, 8.0}));
  const auto full = BucketEdges(3, 29, 6);
  ASSERT_EQ(full.size(), 1856u);
  EXPECT_EQ(full.back().second, 64.0 * (1 << 28) / 1000.0);
}

TEST(CompatPctiles, PercentilesOfAFlatHistogram) {
  // The reference's test: 128 equal buckets of 4 groups of 32.
  SparseRow row;
  for (uint32_t b = 0; b < 128; ++b) row.emplace_back(b, 100.0);
  const auto edges = BucketEdges(3, 4, 5);
  const auto p = Percentiles(row, {0, 50, 100}, edges);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].second, 0.0);
  EXPECT_EQ(p[1].second, 0.064);
  EXPECT_EQ(p[2].second, 0.256);
}

TEST(CompatPctiles, MaxInTheLastBucket) {
  SparseRow row = {{1855, 1.0}};
  const auto p = Percentiles(row, {100}, BucketEdges(3, 29, 6));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].second, 64.0 * (1 << 28) / 1000.0);
}

TEST(CompatPctiles, HundredStopsAt99_9999AndExtrapolates) {
  // 99.99999% of the I/Os are in bucket 10 [0.010, 0.011): p=100 stops there and
  // extrapolates a little past its upper edge instead of reaching bucket 20.
  SparseRow row = {{10, 9999999.0}, {20, 1.0}};
  const auto p = Percentiles(row, {100}, BucketEdges(3, 29, 6));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_GT(p[0].second, 0.011);
  EXPECT_LT(p[0].second, 0.0110001);
}

TEST(CompatPctiles, StrictlyGreaterThanP) {
  // After bucket 5 exactly 50% are below: p50 is taken from bucket 6, at its lower edge.
  SparseRow row = {{5, 50.0}, {6, 50.0}};
  const auto p = Percentiles(row, {50}, BucketEdges(3, 29, 6));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].second, 0.006);
}

TEST(CompatPctiles, ValuesComeSortedByPercentileOnePerDistinctP) {
  SparseRow row = {{5, 50.0}, {6, 50.0}};
  const auto p = Percentiles(row, {90, 10, 90}, BucketEdges(3, 29, 6));
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].first, 10.0);
  EXPECT_EQ(p[1].first, 90.0);
  EXPECT_TRUE(Percentiles({}, {50}, BucketEdges(3, 29, 6)).empty());
}

TEST(CompatPctiles, HeaderLine) {
  EXPECT_EQ(HeaderLine({0, 50, 95, 99.99, 100}),
            "msec-since-start, samples, min, median, 95.0, 100.0, max, ");
}

TEST(CompatPctiles, RowLines) {
  const auto edges = BucketEdges(3, 29, 6);
  EXPECT_EQ(RowLine(0, {}, {0, 50, 100}, edges, 1.0), "       0,        0, , , , ");
  // 672 ns is bucket 276's lower edge; in msec Python prints 0.672/1000 this way.
  SparseRow row = {{276, 2.75}};
  EXPECT_EQ(RowLine(12000, row, {0}, edges, 1000.0), "   12000,        2, 0.0006720000000000001");
  EXPECT_EQ(RowLine(1000, {{1, 3.0}}, {0, 100}, edges, 1.0), "    1000,        3, 0.001, 0.002");
  EXPECT_EQ(RowLine(123456789, {{1, 123456789.5}}, {0}, edges, 1.0), "123456789, 123456789, 0.001");
}

TEST(CompatPctiles, CTimeLikePython) {
  const char* old = std::getenv("TZ");
  const std::string saved = old ? old : "";
  setenv("TZ", "UTC", 1);
  EXPECT_EQ(CTime(1795306122), "Sun Nov 22 00:08:42 2026");
  EXPECT_EQ(CTime(0), "Thu Jan  1 00:00:00 1970");
  if (old) {
    setenv("TZ", saved.c_str(), 1);
  } else {
    unsetenv("TZ");
  }
}

}  // namespace
}  // namespace compat
}  // namespace fiohist
