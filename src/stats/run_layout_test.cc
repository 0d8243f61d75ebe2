#include "stats/run_layout.h"

#include <gtest/gtest.h>

#include <string>

#include "base/test_util.h"

namespace fiohist {
namespace {

// A line of fio 3's layout (1856 bucket counts) with `count` I/Os in one bucket.
std::string Line(int64_t t, int count, int columns = 1856) {
  std::string s = std::to_string(t) + ", 0, 4096";
  for (int c = 0; c < columns; ++c) s += c == 3 ? ", " + std::to_string(count) : ", 0";
  return s + "\n";
}

// Relative stamps placed by --start-time: the anchor, the inferred log_hist_msec, each
// log's offset and the logs in host order.
TEST(RunLayout, RelativeLogsOnTheStartTime) {
  PipelineOptions o;
  o.has_start_time = true;
  o.start_time_ms = 1795306120000;
  o.find_fio_json = false;
  const std::string two = Line(1000, 5) + Line(2000, 5) + Line(3000, 5);
  RunLayout layout;
  RunSummary summary;
  ASSERT_TRUE(LayOutRun(o,
                        {WriteTempFile("layout_clat_hist.1.log.hostB", two),
                         WriteTempFile("layout_clat_hist.1.log.hostA", two)},
                        &layout, &summary)
                  .ok());
  EXPECT_EQ(layout.info.anchor, "start-time");
  EXPECT_TRUE(layout.info.absolute);
  EXPECT_EQ(layout.info.log_hist_msec, 1000);
  EXPECT_TRUE(layout.info.log_hist_msec_inferred);
  ASSERT_EQ(layout.info.logs.size(), 2u);
  EXPECT_EQ(layout.info.logs[0].host, "hostA");  // by host, then job
  ASSERT_EQ(layout.setups.size(), 2u);
  EXPECT_EQ(layout.setups[1].offset_ms, o.start_time_ms);
}

// Logs of two layouts cannot be added up: the error names both files.
TEST(RunLayout, LogsOfDifferentLayoutsAreRefused) {
  PipelineOptions o;
  o.find_fio_json = false;
  const std::string fio3 = WriteTempFile("l3_clat_hist.1.log.h", Line(1000, 1) + Line(2000, 1));
  const std::string other =
      WriteTempFile("lo_clat_hist.1.log.h", Line(1000, 1, 1216) + Line(2000, 1, 1216));
  RunLayout layout;
  RunSummary summary;
  const Status s = LayOutRun(o, {fio3, other}, &layout, &summary);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("logs of different layouts cannot be added up"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace fiohist
