#include "log/log_probe.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <string>

#include "base/test_util.h"

namespace fiohist {
namespace {

std::string Record(int64_t t, int d, int count) {
  return std::to_string(t) + ", " + std::to_string(d) + ", 4096, 0, " + std::to_string(count) +
         "\n";
}

// One cut line (fio killed in its first interval) parses with fewer columns, which can
// match a coarse layout: with nothing complete before it, it must not be taken as a log.
TEST(LogProbeTest, SingleCutLineIsNotALayout) {
  const std::string path = WriteTempFile("cut_clat_hist.1.log", "1001, 0, 4096, 0, 0");
  LogProbe probe;
  Status s = ProbeLog(path, 64, false, &probe);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(":1: last line is incomplete"), std::string::npos) << s.message();
  ASSERT_TRUE(ProbeLog(path, 64, true, &probe).ok());
  EXPECT_TRUE(probe.empty);
}

TEST(LogProbeTest, CutLastLineWithFewerColumnsSaysIncomplete) {
  const std::string path = WriteTempFile(
      "cut2_clat_hist.1.log", Record(1001, 0, 1) + Record(2001, 0, 1) + "3001, 0, 4096, 0");
  LogProbe probe;
  Status s = ProbeLog(path, 64, false, &probe);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(":3: last line is incomplete"), std::string::npos) << s.message();
}

// A damaged stamp years ahead says nothing about log_hist_msec.
TEST(LogProbeTest, HugeGapsDoNotMakeTheInterval) {
  const std::string path = WriteTempFile(
      "gap_clat_hist.1.log",
      Record(1795306121001, 0, 1) + Record(1895306122001, 0, 1) + Record(1895306123001, 0, 1));
  LogProbe probe;
  ASSERT_TRUE(ProbeLog(path, 64, false, &probe).ok());
  EXPECT_EQ(probe.typical_gap_ms, 1000);
}

// With --skip-bad-lines a damaged gzip is left to the stream to report, not a probe error.
TEST(LogProbeTest, TruncatedGzipIsSkippableWhileProbing) {
  std::string text;
  for (int i = 1; i <= 2000; ++i) text += Record(1000 * i + 1, i % 2, i);
  const std::string path = ::testing::TempDir() + "/trunc_clat_hist.1.log.gz";
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  std::string gz;
  {
    std::FILE* in = std::fopen(path.c_str(), "rb");
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) gz.append(buf, n);
    std::fclose(in);
  }
  const std::string cut = WriteTempFile("trunc_clat_hist.2.log.gz", gz.substr(0, 200));
  LogProbe probe;
  Status s = ProbeLog(cut, 64, false, &probe);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("bad gzip data: unexpected end of file"), std::string::npos)
      << s.message();
  EXPECT_EQ(s.message().find("<fd:"), std::string::npos) << s.message();
  EXPECT_TRUE(ProbeLog(cut, 64, true, &probe).ok());
}

}  // namespace
}  // namespace fiohist
