#include "report/report_sink.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "base/test_util.h"
#include "stats/pipeline.h"
#include "stats/resolution_sink.h"

namespace fiohist {
namespace {

std::vector<std::string> SampleLogs() {
  const std::string dir = FIOHIST_SOURCE_DIR "/samples/epoch2/";
  return {dir + "epoch2_clat_hist.1.log.hostX.gz", dir + "epoch2_clat_hist.2.log.hostX.gz",
          dir + "epoch2_clat_hist.1.log.hostY.gz", dir + "epoch2_clat_hist.2.log.hostY.gz"};
}

// The sample run through the report's sinks, as `fiohist report` runs it.
ReportData Collect(const std::vector<std::string>& logs, std::vector<int> coarse = {5, 10}) {
  PipelineOptions o;
  o.scopes = {true, true, false};
  ReportSink report;
  ResolutionSink sink(&report, std::move(coarse));
  RunSummary summary;
  EXPECT_TRUE(RunPipeline(o, logs, &sink, &summary).ok());
  return report.data();
}

const ReportSeries* Find(const ReportData& d, const std::string& host, Direction dir, int res) {
  for (const ReportSeries& s : d.series) {
    if (s.host == host && s.direction == dir && s.resolution == res) return &s;
  }
  return nullptr;
}

// Every heatmap column holds exactly the I/Os of its window, at every resolution: rows
// join whole fio buckets and coarser columns are sums of histograms, not of pictures.
TEST(ReportSink, HeatmapColumnsHoldEveryIoOfTheirWindow) {
  const ReportData d = Collect(SampleLogs());
  ASSERT_EQ(d.heat_row_columns, 16);
  size_t checked = 0;
  for (const HeatSeries& h : d.heat) {
    const ReportSeries* s = Find(d, "", h.direction, h.resolution);
    ASSERT_NE(s, nullptr);
    std::map<int64_t, double> samples;
    for (const ReportPoint& p : s->points) samples[p.start_ms] = p.samples;
    for (const HeatColumn& c : h.columns) {
      double sum = 0;
      for (double v : c.counts) sum += v;
      EXPECT_NEAR(sum, samples.at(c.start_ms), 1e-6 * sum) << h.resolution;
      ++checked;
    }
  }
  EXPECT_GT(checked, 40u);
  // Rows are unions of fio buckets: 4 per doubling above the linear groups.
  EXPECT_DOUBLE_EQ(d.heat_row_edges_ns[8] * 2, d.heat_row_edges_ns[12]);
}

// The series the page draws exist at every resolution, in time order, with the run's
// percentiles for the cluster and the host percentile (p99) for hosts.
TEST(ReportSink, SeriesPerScopeDirectionAndResolution) {
  const ReportData d = Collect(SampleLogs());
  EXPECT_EQ(d.info.resolutions, (std::vector<int>{1, 5, 10}));
  EXPECT_EQ(d.host_percentile, 99);
  for (int res : {1, 5, 10}) {
    for (Direction dir : {Direction::kRead, Direction::kWrite, Direction::kAll}) {
      const ReportSeries* c = Find(d, "", dir, res);
      ASSERT_NE(c, nullptr) << res;
      EXPECT_EQ(c->points[0].percentile_ns.size(), d.info.percentiles.values.size());
      for (size_t i = 1; i < c->points.size(); ++i) {
        EXPECT_LT(c->points[i - 1].start_ms, c->points[i].start_ms);
      }
      for (const char* host : {"hostX", "hostY"}) {
        const ReportSeries* h = Find(d, host, dir, res);
        ASSERT_NE(h, nullptr);
        EXPECT_EQ(h->points[0].percentile_ns.size(), 1u);
      }
    }
  }
  EXPECT_EQ(Find(d, "", Direction::kAll, 1)->points.size(), 19u);
  // The confidence band of every cluster percentile holds the percentile.
  for (const ReportPoint& p : Find(d, "", Direction::kAll, 1)->points) {
    ASSERT_EQ(p.low_ns.size(), p.percentile_ns.size());
    ASSERT_EQ(p.few_ios.size(), p.percentile_ns.size());
    for (size_t k = 0; k < p.percentile_ns.size(); ++k) {
      EXPECT_LE(p.low_ns[k], p.percentile_ns[k]);
      EXPECT_GE(p.high_ns[k], p.percentile_ns[k]);
    }
  }
  EXPECT_EQ(d.whole.size(), 3u);  // read, write, all of the cluster
  EXPECT_EQ(d.hosts.size(), 2u);
  EXPECT_EQ(d.missing_quanta, 0);
}

// One read line of the fio3 layout: `count` I/Os in `column`.
std::string Line(int64_t t, int column, int count) {
  std::string s = std::to_string(t) + ", 0, 4096";
  for (int c = 0; c < 1856; ++c) s += c == column ? ", " + std::to_string(count) : ", 0";
  return s + "\n";
}

// A host whose I/Os are all slow leads the hosts, with the ratio of its percentile to the
// cluster's (Cronburg and England, 2016); a host silent for a while is counted as missing.
TEST(ReportSink, HostsOrderedByHowFarTheyStray) {
  std::string fast1, fast2, slow;
  for (int t = 1000; t <= 10000; t += 1000) {
    fast1 += Line(t, 300, 100);
    if (t <= 5000) fast2 += Line(t, 300, 100);
    slow += Line(t, 364, 100);  // one group (a doubling) higher
  }
  const std::vector<std::string> logs = {WriteTempFile("j_clat_hist.1.log.fastA", fast1),
                                         WriteTempFile("j_clat_hist.1.log.fastB", fast2),
                                         WriteTempFile("j_clat_hist.1.log.slowC", slow)};
  const ReportData d = Collect(logs, {});
  ASSERT_EQ(d.hosts.size(), 3u);
  EXPECT_EQ(d.hosts[0].host, "slowC");
  EXPECT_GT(d.hosts[0].mean_log2, 0.5);
  EXPECT_LT(d.hosts[2].mean_abs_log2, d.hosts[0].mean_abs_log2);
  for (const HostStray& h : d.hosts) {
    EXPECT_EQ(h.missing_quanta, h.host == "fastB" ? 5 : 0) << h.host;
  }
}

TEST(ReportSink, NearestPercentile) {
  PercentileList list;
  ASSERT_TRUE(MakePercentiles({50, 99.9, 90}, &list).ok());
  EXPECT_EQ(NearestPercentileIndex(list, 99), 2u);
  EXPECT_EQ(NearestPercentileIndex(list, 99.9), 1u);
  EXPECT_EQ(NearestPercentileIndex(list, 10), 0u);
}

}  // namespace
}  // namespace fiohist
