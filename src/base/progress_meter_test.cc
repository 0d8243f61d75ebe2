#include "base/progress_meter.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(ProgressText, BytesOfAKnownTotalWithRateAndTimeLeft) {
  EXPECT_EQ(ProgressText(1200000000, 3400000000, 3.0, true, ""),
            "1.2 GB of 3.4 GB (35%), 400.0 MB/s, 6 s left");
}

TEST(ProgressText, CountWithoutTotalHasNoTimeLeft) {
  EXPECT_EQ(ProgressText(5000, 0, 2.0, false, "documents"), "5000 documents, 2500 documents/s");
}

TEST(ProgressText, DoneIsNeverPastTheTotal) {
  EXPECT_EQ(ProgressText(120, 100, 0, false, "documents"), "100 of 100 documents (100%)");
}

TEST(ProgressText, LongWorkInMinutesAndHours) {
  EXPECT_EQ(ProgressText(1000, 100000, 10.0, true, ""),
            "1.0 kB of 100.0 kB (1%), 100 B/s, 17 min left");
  EXPECT_EQ(ProgressText(1000, 10000000, 10.0, true, ""),
            "1.0 kB of 10.0 MB (0%), 100 B/s, 27.8 h left");
}

TEST(ProgressMeter, DisabledDrawsNothing) {
  char buffer[256] = {};
  std::FILE* out = fmemopen(buffer, sizeof buffer, "w");
  {
    ProgressMeter m(out, false, [](double) { return std::string("x"); });
    m.Stop();
  }
  std::fclose(out);
  EXPECT_STREQ(buffer, "");
}

}  // namespace
}  // namespace fiohist
