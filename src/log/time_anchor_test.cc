#include "log/time_anchor.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(TimeAnchor, FormatsIsoTime) {
  EXPECT_EQ(FormatIsoTime(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatIsoTime(1795306120457), "2026-11-22T00:08:40.457Z");
  EXPECT_EQ(FormatIsoTime(951782400000), "2000-02-29T00:00:00.000Z");
  EXPECT_EQ(FormatIsoTime(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatIsoTime(4102444800000), "2100-01-01T00:00:00.000Z");
}

TEST(TimeAnchor, ParsesStartTimes) {
  int64_t ms = 0;
  ASSERT_TRUE(ParseStartTime("2026-11-22T00:08:40.457Z", &ms).ok());
  EXPECT_EQ(ms, 1795306120457);
  ASSERT_TRUE(ParseStartTime("2026-11-22T02:08:40+02:00", &ms).ok());
  EXPECT_EQ(ms, 1795306120000);
  ASSERT_TRUE(ParseStartTime("1795306120", &ms).ok());
  EXPECT_EQ(ms, 1795306120000);
  ASSERT_TRUE(ParseStartTime("1795306120457", &ms).ok());
  EXPECT_EQ(ms, 1795306120457);
  EXPECT_FALSE(ParseStartTime("yesterday", &ms).ok());
  EXPECT_FALSE(ParseStartTime("2026-13-01", &ms).ok());
}

TEST(TimeAnchor, FioJsonOfOldFioUsesTimestampMinusRuntime) {
  FioJsonAnchor a;
  ASSERT_TRUE(ReadFioJsonAnchor(FIOHIST_TEST_DATA "/fio-logs/epoch2/fio-hostX.json", &a).ok());
  EXPECT_EQ(a.method, "timestamp_ms-runtime");
  EXPECT_EQ(a.fio_version, "fio-3.33");
  // The epoch-stamped logs of this run start at 1795306120457 - 500 ms.
  EXPECT_NEAR(static_cast<double>(a.start_ms), 1795306119957.0, 50);
}

}  // namespace
}  // namespace fiohist
