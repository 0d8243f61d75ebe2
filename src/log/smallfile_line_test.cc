#include "log/smallfile_line.h"

#include <gtest/gtest.h>

#include "base/test_util.h"
#include "log/per_io_stream.h"

namespace fiohist {
namespace {

TEST(SmallfileLine, NameAndLines) {
  SmallfileName n;
  ASSERT_TRUE(ParseSmallfileName("run/rsptimes_03_host-a.lab_create_1700000000.25.csv", &n));
  EXPECT_EQ(n.thread, "03");
  EXPECT_EQ(n.host, "host-a.lab");
  EXPECT_EQ(n.op, "create");
  EXPECT_EQ(n.epoch_ms, 1700000000250);
  EXPECT_FALSE(ParseSmallfileName("t_clat.1.log", &n));
  ASSERT_TRUE(ParseSmallfileName("rsptimes_00_h1_read_1700000000.csv.gz", &n));
  PerIoRecord r;
  std::string what;
  ASSERT_TRUE(ParseSmallfileLine("    read,  1.250000,   0.000450", n, &r, &what)) << what;
  EXPECT_EQ(r.time_ms, 1700000000000 + 1250);  // 1.25045 s after the epoch, in ms
  EXPECT_EQ(r.value, 450000u);
  EXPECT_EQ(r.direction, Direction::kRead);
  EXPECT_EQ(r.issue_time_ns, 1700000001250000000);
  EXPECT_FALSE(ParseSmallfileLine("create, 1.0, 0.1", n, &r, &what));
  EXPECT_NE(what.find("expected the op 'read'"), std::string::npos) << what;
  EXPECT_FALSE(ParseSmallfileLine("read, 1.0, -0.1", n, &r, &what));
  EXPECT_NE(what.find("response time (column 3)"), std::string::npos) << what;
  EXPECT_FALSE(ParseSmallfileLine("read, 1.0", n, &r, &what));
  EXPECT_EQ(SmallfileOpDirection("create"), Direction::kWrite);
  EXPECT_EQ(SmallfileOpDirection("delete"), Direction::kTrim);
  EXPECT_EQ(SmallfileOpDirection("ls-l"), Direction::kRead);
}

TEST(SmallfileLine, StreamedAtCompletion) {
  // Thread 0 created 3 files: completions at 0.5 s, 1.2 s and 1.9 s after the epoch.
  const std::string path = WriteTempFile("rsptimes_00_h1_create_1700000000.csv",
                                         "create, 0.400000, 0.100000\n"
                                         "create, 1.000000, 0.200000\n"
                                         "create, 1.500000, 0.400000\n");
  LogSource source;
  source.path = path;
  source.per_io = source.smallfile = true;
  StreamSetup setup;
  LogProbe probe;
  ASSERT_TRUE(ProbePerIoLog(source, 64, false, &probe).ok());
  EXPECT_TRUE(probe.epoch);
  EXPECT_EQ(probe.first_time_ms, 1700000000500);
  PerIoStream stream(source, setup);
  const QuantumGrid grid(0, 1000);
  RecordStream::DirectionSums sums;
  RecordStream::DirectionFlags touched{};
  ASSERT_TRUE(stream.Feed(grid, 1700000000, &sums, &touched).ok());
  EXPECT_EQ(sums[1].total(), 1.0);
  RecordStream::DirectionSums next;
  ASSERT_TRUE(stream.Feed(grid, 1700000001, &next, &touched).ok());
  EXPECT_EQ(next[1].total(), 2.0);
  EXPECT_EQ(next[1].at(ColumnOfValue(BucketLayout(), 400000000)), 1.0);
  EXPECT_TRUE(stream.done());
}

}  // namespace
}  // namespace fiohist
