#include "report/report_page.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "report/report_assets.h"

namespace fiohist {
namespace {

// The page inlines the library, its licence, the script and the data: nothing to fetch.
TEST(ReportPage, EverythingInlined) {
  const std::string path = ::testing::TempDir() + "/page.html";
  ASSERT_TRUE(WriteReportPage(path, "run <1>", "{\"main\":{}}").ok());
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string page = ss.str();
  EXPECT_NE(page.find("<title>run &lt;1&gt;</title>"), std::string::npos);
  EXPECT_NE(page.find(std::string(EchartsScript().substr(0, 200))), std::string::npos);
  EXPECT_NE(page.find("Apache License"), std::string::npos);
  EXPECT_NE(page.find("Apache ECharts " + std::string(EchartsVersion())), std::string::npos);
  EXPECT_NE(page.find("{\"main\":{}}"), std::string::npos);
  EXPECT_EQ(page.find("src=\"http"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_GT(EchartsScript().size(), 500000u);
  EXPECT_GT(ReportScript().size(), 1000u);
}

TEST(ReportPage, UnwritablePathIsAnError) {
  const Status s = WriteReportPage("/nonexistent-dir/x.html", "t", "{}");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/nonexistent-dir/x.html"), std::string::npos);
}

TEST(ReportPage, HtmlEscape) { EXPECT_EQ(HtmlEscape("a<b>&\"c"), "a&lt;b&gt;&amp;&quot;c"); }

}  // namespace
}  // namespace fiohist
