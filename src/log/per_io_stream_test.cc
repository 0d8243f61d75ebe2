#include "log/per_io_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/test_util.h"

namespace fiohist {
namespace {

StreamSetup Fio3(bool skip_bad_lines = false) {
  StreamSetup setup;
  setup.layout = BucketLayout();
  setup.columns = setup.layout.columns();
  setup.skip_bad_lines = skip_bad_lines;
  return setup;
}

LogSource Source(const std::string& path) {
  LogSource s;
  s.path = path;
  s.per_io = true;
  return s;
}

TEST(PerIoStream, ColumnOfValueIsFiosBucket) {
  const BucketLayout fio3;
  const std::vector<double>& edges = EdgesNs(fio3);
  for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 129ull, 1000ull, 65535ull, 999999ull, 123456789ull,
                     17179869183ull}) {
    const int c = ColumnOfValue(fio3, v);
    EXPECT_LE(edges[static_cast<size_t>(c)], static_cast<double>(v)) << v;
    EXPECT_GT(edges[static_cast<size_t>(c) + 1], static_cast<double>(v)) << v;
  }
  // fio clamps what lies beyond its last bucket into it.
  EXPECT_EQ(ColumnOfValue(fio3, UINT64_MAX / 2), fio3.top_column());
  // A coarsened layout merges neighbours.
  BucketLayout coarse;
  coarse.coarseness = 2;
  EXPECT_EQ(ColumnOfValue(coarse, 1000), ColumnOfValue(fio3, 1000) >> 2);
}

// fio's plat_val_to_idx as stat.c writes it (branches), against the branch-free form.
int FioPlatValToIdx(const BucketLayout& layout, uint64_t value) {
  const int msb = value == 0 ? 0 : 63 - __builtin_clzll(value);
  int index = static_cast<int>(value);
  if (msb > layout.bits) {
    const int error_bits = msb - layout.bits;
    index = ((error_bits + 1) << layout.bits) +
            static_cast<int>((value >> error_bits) & ((1u << layout.bits) - 1));
  }
  const int fine = layout.groups << layout.bits;
  return std::min(index, fine - 1) >> layout.coarseness;
}

TEST(PerIoStream, ColumnOfValueIsPlatValToIdxAtEveryPowerOfTwo) {
  for (int coarseness : {0, 1, 3}) {
    BucketLayout layout;
    layout.coarseness = coarseness;
    for (int bit = 0; bit < 64; ++bit) {
      const uint64_t p = uint64_t{1} << bit;
      for (uint64_t v : {p - 1, p, p + 1, p + p / 2, p | (p - 1)}) {
        EXPECT_EQ(ColumnOfValue(layout, v), FioPlatValToIdx(layout, v)) << v;
      }
    }
    for (uint64_t v = 0; v < 5000; ++v) {
      ASSERT_EQ(ColumnOfValue(layout, v), FioPlatValToIdx(layout, v)) << v;
    }
  }
}

TEST(PerIoStream, EachIoInTheQuantumItCompletedIn) {
  // Quanta of 1 s: 3 I/Os in [0, 1000), 2 in [1000, 2000) (one at its first ms), 1 at 2999.
  const std::string path =
      WriteTempFile("t_clat.1.log",
                    "0, 1000, 0, 4096, 0\n999, 2000, 0, 4096, 0\n999, 3000, 1, 4096, 0\n"
                    "1000, 1000, 1, 4096, 0\n1500, 5000, 1, 4096, 0\n2999, 100, 0, 4096, 0\n");
  PerIoStream stream(Source(path), Fio3());
  ASSERT_TRUE(stream.Prime().ok());
  EXPECT_EQ(stream.next_start_ms(), 0);
  const QuantumGrid grid(0, 1000);
  std::vector<std::pair<Direction, double>> added;
  stream.set_addition_observer(
      [&](Direction d, const std::vector<std::pair<uint32_t, uint64_t>>& counts, double w) {
        double n = 0;
        for (const auto& c : counts) n += static_cast<double>(c.second);
        added.emplace_back(d, n * w);
      });
  const double expect[3][2] = {{2, 1}, {0, 2}, {1, 0}};
  for (int64_t q = 0; q < 3; ++q) {
    RecordStream::DirectionSums sums;
    RecordStream::DirectionFlags touched{};
    std::vector<PlacedRecord> placed;
    ASSERT_TRUE(stream.Feed(grid, q, &sums, &touched, &placed).ok());
    EXPECT_EQ(sums[0].total(), expect[q][0]) << q;
    EXPECT_EQ(sums[1].total(), expect[q][1]) << q;
    EXPECT_EQ(touched[1], expect[q][1] > 0);
    for (const PlacedRecord& p : placed) {
      // Weight 1 in its own quantum, nothing in the neighbours.
      EXPECT_EQ(grid.Weight(p.span, q), 1.0);
      EXPECT_EQ(grid.Weight(p.span, q - 1), 0.0);
      EXPECT_EQ(grid.Weight(p.span, q + 1), 0.0);
    }
    EXPECT_EQ(stream.straddled_ios(q)[0], 0.0);
  }
  // The last quantum is covered up to the last completion (2999 ms: the whole of it).
  EXPECT_EQ(stream.covered_ms(2), 1000);
  EXPECT_TRUE(stream.done());
  EXPECT_EQ(stream.report().records, 6);
  EXPECT_EQ(stream.report().total_ios, 6);
  ASSERT_EQ(added.size(), 4u);
  // The 5 us write is in 5000's bucket.
  EXPECT_EQ(added[2].second, 2.0);
}

TEST(PerIoStream, PlaceIssueCountsEachIoWhereItWasIssued) {
  // Issued at completion - latency: 499.9, 900 and 600 ms (reads, the last one stuck 3 s),
  // 1499.9 and 3699.9 ms (writes).
  const std::string path = WriteTempFile(
      "ti_clat.1.log",
      "500, 100000, 0, 4096, 0\n1200, 300000000, 0, 4096, 0\n1500, 100000, 1, 4096, 0\n"
      "3600, 3000000000, 0, 4096, 0\n3700, 100000, 1, 4096, 0\n");
  StreamSetup setup = Fio3();
  setup.place_issue = true;
  setup.grid_origin_ms = 0;
  setup.grid_quantum_ms = 1000;
  PerIoStream stream(Source(path), setup);
  ASSERT_TRUE(stream.Prime().ok());
  EXPECT_EQ(stream.next_start_ms(), 0);
  const QuantumGrid grid(0, 1000);
  const double expect[4][2] = {{3, 0}, {0, 1}, {0, 0}, {0, 1}};
  // The log ends at 3700 ms and its slowest I/O took 3 s: quanta ending less than 3 s
  // before that are complete only up to the latency that still fits.
  const int64_t complete_to[4] = {2700, 1700, 700, 0};
  for (int64_t q = 0; q < 4; ++q) {
    RecordStream::DirectionSums sums;
    RecordStream::DirectionFlags touched{};
    if (stream.next_start_ms() < grid.End(q)) {
      ASSERT_TRUE(stream.Feed(grid, q, &sums, &touched).ok());
      EXPECT_EQ(stream.complete_to_ms(q), complete_to[q]) << q;
    }
    EXPECT_EQ(sums[0].total(), expect[q][0]) << q;
    EXPECT_EQ(sums[1].total(), expect[q][1]) << q;
  }
  EXPECT_TRUE(stream.done());
  EXPECT_EQ(stream.report().total_ios, 5);
  EXPECT_EQ(stream.report().late_ios, 0);
}

TEST(PerIoStream, MicrosecondsOfFio2) {
  const std::string path = WriteTempFile("t2_clat.1.log", "10, 5, 0, 4096\n");
  StreamSetup setup = Fio3();
  setup.value_unit_ns = 1000;
  PerIoStream stream(Source(path), setup);
  RecordStream::DirectionSums sums;
  RecordStream::DirectionFlags touched{};
  ASSERT_TRUE(stream.Feed(QuantumGrid(0, 1000), 0, &sums, &touched).ok());
  EXPECT_EQ(sums[0].at(ColumnOfValue(BucketLayout(), 5000)), 1.0);
}

TEST(PerIoStream, TimesGoingBackIsAnErrorNamingTheLine) {
  const std::string text = "100, 1000, 0, 4096, 0\n200, 1000, 0, 4096, 0\n5, 1000, 0, 4096, 0\n";
  const std::string path = WriteTempFile("b_clat.1.log", text);
  PerIoStream stream(Source(path), Fio3());
  RecordStream::DirectionSums sums;
  RecordStream::DirectionFlags touched{};
  const Status s = stream.Feed(QuantumGrid(0, 1000), 0, &sums, &touched);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(":3:"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("backwards"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("per_job_logs=0"), std::string::npos) << s.message();
  // --skip-bad-lines: counted, the rest read.
  PerIoStream skipping(Source(path), Fio3(true));
  RecordStream::DirectionSums sums2;
  ASSERT_TRUE(skipping.Feed(QuantumGrid(0, 1000), 0, &sums2, &touched).ok());
  EXPECT_EQ(sums2[0].total(), 2.0);
  EXPECT_EQ(skipping.report().skipped_lines, 1);
}

TEST(PerIoStream, BadValuesAndChangingColumns) {
  for (const std::string& bad :
       {std::string("1, -5, 0, 4096, 0\n"), std::string("1, x, 0, 4096, 0\n"),
        std::string("1, 5, 0, 4096\n")}) {
    const std::string path =
        WriteTempFile("c_clat.1.log", "1, 1000, 0, 4096, 0\n" + bad + "2, 1000, 0, 4096, 0\n");
    PerIoStream stream(Source(path), Fio3());
    RecordStream::DirectionSums sums;
    RecordStream::DirectionFlags touched{};
    const Status s = stream.Feed(QuantumGrid(0, 1000), 0, &sums, &touched);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find("c_clat.1.log:2:"), std::string::npos) << s.message();
  }
}

TEST(PerIoStream, ProbeRefusesAveragedLogs) {
  // log_avg_msec=1000: window means with block size 0.
  const std::string path =
      WriteTempFile("avg_clat.1.log", "1000, 52311, 0, 0, 0\n2000, 50110, 0, 0, 0\n");
  LogProbe probe;
  const Status s = ProbePerIoLog(Source(path), 64, false, &probe);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("log_avg_msec"), std::string::npos) << s.message();
  const std::string good = WriteTempFile("g_clat.1.log", "1000, 52311, 0, 4096, 0\n");
  ASSERT_TRUE(ProbePerIoLog(Source(good), 64, false, &probe).ok());
  EXPECT_FALSE(probe.empty);
  EXPECT_EQ(probe.columns, 0);
  EXPECT_EQ(probe.per_io_columns, 5);
  EXPECT_FALSE(probe.epoch);
}

}  // namespace
}  // namespace fiohist
