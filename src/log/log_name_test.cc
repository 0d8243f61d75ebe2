#include "log/log_name.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(LogName, FioNames) {
  LogName n = ParseLogName("run/t_clat.1.log");
  EXPECT_EQ(n.type, LogFileType::kPerIo);
  EXPECT_EQ(n.latency, Latency::kClat);
  EXPECT_EQ(n.job_number, 1);
  const std::string clat_key = n.job_key;
  n = ParseLogName("run/t_lat.1.log");
  EXPECT_EQ(n.type, LogFileType::kPerIo);
  EXPECT_EQ(n.latency, Latency::kLat);
  EXPECT_EQ(n.job_key, clat_key);
  n = ParseLogName("run/t_slat.1.log.gz");
  EXPECT_EQ(n.latency, Latency::kSlat);
  EXPECT_EQ(n.job_key, clat_key);
  n = ParseLogName("run/t_clat_hist.1.log");
  EXPECT_EQ(n.type, LogFileType::kHist);
  EXPECT_EQ(n.job_key, clat_key);
  // Another job, another host, another directory: other keys.
  EXPECT_NE(ParseLogName("run/t_clat.2.log").job_key, clat_key);
  EXPECT_NE(ParseLogName("run/t_clat.1.log.host1").job_key, clat_key);
  EXPECT_NE(ParseLogName("other/t_clat.1.log").job_key, clat_key);
  // Client/server suffix.
  n = ParseLogName("csa_clat.2.log.127.0.0.1.gz");
  EXPECT_EQ(n.type, LogFileType::kPerIo);
  EXPECT_EQ(n.job_number, 2);
  // per_job_logs=0: no job number.
  n = ParseLogName("pjl_clat.log");
  EXPECT_EQ(n.type, LogFileType::kPerIo);
  EXPECT_EQ(n.job_number, 0);
  EXPECT_EQ(ParseLogName("t_bw.1.log").type, LogFileType::kBandwidth);
  EXPECT_EQ(ParseLogName("t_iops.1.log").type, LogFileType::kBandwidth);
  EXPECT_EQ(ParseLogName("t_clat.1.log.fz").type, LogFileType::kStoredCompressed);
  EXPECT_EQ(ParseLogName("mylog.txt").type, LogFileType::kUnknown);
  EXPECT_EQ(ParseLogName("randrw4_hist.log").type, LogFileType::kUnknown);
}

TEST(LogName, LatencyNames) {
  Latency l;
  EXPECT_TRUE(ParseLatency("slat", &l));
  EXPECT_EQ(l, Latency::kSlat);
  EXPECT_STREQ(LatencyName(Latency::kLat), "lat");
  EXPECT_FALSE(ParseLatency("p99", &l));
}

}  // namespace
}  // namespace fiohist
