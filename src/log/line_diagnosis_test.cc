#include "log/line_diagnosis.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(LineDiagnosis, NamesWhatTheLineIs) {
  EXPECT_NE(ExplainBadHistLine("1000, 94823748291472, 0, 4096, 0", "bad").find("log_compression"),
            std::string::npos);
  EXPECT_NE(ExplainBadHistLine("1000, 52311, 0, 0, 0", "bad").find("log_avg_msec"),
            std::string::npos);
  EXPECT_NE(ExplainBadHistLine("1000, 52311, 0, 4096, 0", "bad").find("write_lat_log"),
            std::string::npos);
  // A histogram line's own faults stay as they are.
  EXPECT_EQ(ExplainBadHistLine("1000, 0, 4096, 0, 1, x", "bad"), "bad");
  EXPECT_EQ(ExplainBadHistLine("1000, 7, 4096, 0, 1, 2", "bad"), "bad");
}

}  // namespace
}  // namespace fiohist
