#include "report/report_charts.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

ReportSeries Series(const std::string& host, Direction d, double samples, bool clamped) {
  ReportSeries s;
  s.host = host;
  s.direction = d;
  ReportPoint p;
  p.samples = samples;
  p.percentile_ns = {1000};
  p.lower_bound = {clamped};
  s.points.push_back(p);
  return s;
}

// Directions without I/O get no chart; a clamped value is flagged; hosts need host series.
TEST(ReportCharts, OnlyWhatHasData) {
  ReportData d;
  d.series = {Series("", Direction::kRead, 10, false), Series("", Direction::kWrite, 0, false),
              Series("", Direction::kAll, 10, true)};
  std::vector<ReportChart> c = ReportCharts(d, nullptr);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].id, "latency-read");
  EXPECT_FALSE(c[0].clamped);
  EXPECT_EQ(c[1].id, "latency-all");
  EXPECT_TRUE(c[1].clamped);
  EXPECT_EQ(c[2].id, "iops");
  EXPECT_EQ(c[2].dirs, (std::vector<std::string>{"read", "all"}));
  d.series.push_back(Series("h1", Direction::kAll, 10, false));
  d.hosts.push_back({"h1", 0, 0, 0});
  EXPECT_EQ(ReportCharts(d, nullptr).back().id, "hosts");
}

}  // namespace
}  // namespace fiohist
