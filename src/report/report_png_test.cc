#include "report/report_png.h"

#include <gtest/gtest.h>
#include <stdlib.h>

namespace fiohist {
namespace {

// Without a Chromium the error says what to install; FIOHIST_CHROMIUM chooses one.
TEST(ReportPng, MissingChromiumIsAClearError) {
  const Status s = ScreenshotCharts("", "x.html", {{"iops", 700}}, ::testing::TempDir());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("chromium"), std::string::npos);
  const Status t = ScreenshotCharts("/nonexistent/chromium", "x.html", {{"iops", 700}}, "d");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.message().find("/nonexistent/chromium"), std::string::npos);
  setenv("FIOHIST_CHROMIUM", "/opt/x/chrome", 1);
  EXPECT_EQ(FindChromium(), "/opt/x/chrome");
  unsetenv("FIOHIST_CHROMIUM");
}

}  // namespace
}  // namespace fiohist
