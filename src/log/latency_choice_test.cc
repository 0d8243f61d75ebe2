#include "log/latency_choice.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

std::string Joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += x + "\n";
  return s;
}

const std::vector<std::string> kRun = {
    "r/t_lat.1.log",       "r/t_clat.1.log", "r/t_slat.1.log", "r/t_clat_hist.1.log",
    "r/t_clat_hist.2.log", "r/t_bw.1.log",   "r/other.log"};

TEST(LatencyChoice, EachJobOnceClatFirst) {
  LatencySelection sel;
  ASSERT_TRUE(SelectLatencyLogs(kRun, LatencyChoice(), &sel).ok());
  // Job 1 from its per-I/O clat log, job 2 (no per-I/O log) from its histogram log.
  EXPECT_EQ(sel.paths,
            (std::vector<std::string>{"r/t_clat.1.log", "r/t_clat_hist.2.log", "r/other.log"}));
  const std::string notes = Joined(sel.notes);
  EXPECT_NE(notes.find("read 1 per-I/O clat log, 1 histogram (clat) log"), std::string::npos)
      << notes;
  EXPECT_NE(notes.find("left out 1 per-I/O lat log, 1 per-I/O slat log, 1 histogram (clat) log"),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("bandwidth/IOPS"), std::string::npos) << notes;
}

TEST(LatencyChoice, LatencyGiven) {
  LatencyChoice lat;
  lat.latency = Latency::kLat;
  lat.given = true;
  LatencySelection sel;
  ASSERT_TRUE(SelectLatencyLogs(kRun, lat, &sel).ok());
  // Job 2 has no lat log: left out, and said so.
  EXPECT_EQ(sel.paths, (std::vector<std::string>{"r/t_lat.1.log", "r/other.log"}));
  EXPECT_NE(Joined(sel.notes).find("1 job with no lat log"), std::string::npos)
      << Joined(sel.notes);
}

TEST(LatencyChoice, OnlyLatLogsAreReadWhenNotTold) {
  LatencySelection sel;
  ASSERT_TRUE(SelectLatencyLogs({"t_lat.1.log", "t_lat.2.log"}, LatencyChoice(), &sel).ok());
  EXPECT_EQ(sel.paths.size(), 2u);
  EXPECT_NE(Joined(sel.notes).find("2 per-I/O lat logs"), std::string::npos);
}

TEST(LatencyChoice, HistogramLogsAloneSayNothing) {
  LatencySelection sel;
  ASSERT_TRUE(SelectLatencyLogs({"a_clat_hist.1.log", "x.log"}, LatencyChoice(), &sel).ok());
  EXPECT_EQ(sel.paths.size(), 2u);
  EXPECT_TRUE(sel.notes.empty());
}

TEST(LatencyChoice, StoredCompressedLogsNameTheFix) {
  LatencySelection sel;
  const Status s = SelectLatencyLogs({"t_clat.1.log.fz"}, LatencyChoice(), &sel);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("fio --inflate-log"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace fiohist
