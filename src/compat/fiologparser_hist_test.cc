#include "compat/fiologparser_hist.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "base/test_util.h"

namespace fiohist {
namespace compat {
namespace {

Status Parse(std::vector<const char*> args, FlhOptions* options) {
  args.insert(args.begin(), "fiologparser_hist");
  return ParseFlhArgs(static_cast<int>(args.size()), args.data(), options);
}

TEST(FlhArgs, DefaultsAreTheScripts) {
  FlhOptions o;
  ASSERT_TRUE(Parse({"a.log"}, &o).ok());
  EXPECT_EQ(o.interval_ms, 0);  // resolved later: job file, else 1000
  EXPECT_EQ(o.percentiles, (std::vector<double>{50, 90, 95, 99}));
  EXPECT_EQ(o.percentile_texts, (std::vector<std::string>{"90", "95", "99"}));
  EXPECT_EQ(o.decimals, 3);
  EXPECT_EQ(o.divisor, 1);
  EXPECT_EQ(o.max_latency_s, 20.0);
  EXPECT_FALSE(o.noweight);
  ASSERT_TRUE(ResolveInterval(&o).ok());
  EXPECT_EQ(o.interval_ms, 1000);
}

TEST(FlhArgs, ArgparseSyntax) {
  FlhOptions o;
  Status s = Parse({"--inter=250", "--perc", "50,99.9:99.99", "-d", "1000", "--dir", "RW",
                    "--noweight", "--", "a.log", "a.log"},
                   &o);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(o.interval_ms, 250);
  EXPECT_EQ(o.percentile_texts, (std::vector<std::string>{"50", "99.9", "99.99"}));
  EXPECT_EQ(o.divisor, 1000);
  EXPECT_EQ(o.directions, "rw");
  EXPECT_TRUE(o.noweight);
  EXPECT_EQ(o.files.size(), 2u);  // a file given twice is read twice, as the script does
}

TEST(FlhArgs, BadUsageIsAnError) {
  FlhOptions o;
  EXPECT_FALSE(Parse({"--time-quantum", "1", "a.log"}, &o).ok());  // not the script's
  EXPECT_FALSE(Parse({"--d", "2", "a.log"}, &o).ok());             // ambiguous prefix
  EXPECT_FALSE(Parse({"-i", "0", "a.log"}, &o).ok());
  EXPECT_FALSE(Parse({"--divisor", "0", "a.log"}, &o).ok());
  EXPECT_FALSE(Parse({"--decimals", "-1", "a.log"}, &o).ok());
  EXPECT_FALSE(Parse({"--buff_size", "0", "a.log"}, &o).ok());
  EXPECT_FALSE(Parse({"--percentiles", "90,,99", "a.log"}, &o).ok());
  EXPECT_FALSE(Parse({"--noweight=1", "a.log"}, &o).ok());
  EXPECT_FALSE(Parse({}, &o).ok());
  EXPECT_TRUE(IsFlhOption("inter"));
  EXPECT_FALSE(IsFlhOption("d"));
  EXPECT_FALSE(IsFlhOption("format"));
}

TEST(FlhArgs, IntervalFromTheJobFile) {
  const std::string job = WriteTempFile("flh.fio",
                                        "; comment\n[global]\nlog_hist_msec = 500\ndirect\n"
                                        "[a]\nrw=read\n[b]\nlog_hist_msec: 250\n");
  FlhOptions o;
  ASSERT_TRUE(Parse({"--job-file", job.c_str(), "a.log"}, &o).ok());
  ASSERT_TRUE(ResolveInterval(&o).ok());
  EXPECT_EQ(o.interval_ms, 250);  // the last section that names it
  ASSERT_TRUE(Parse({"--job-file", job.c_str(), "-i", "100", "a.log"}, &o).ok());
  ASSERT_TRUE(ResolveInterval(&o).ok());
  EXPECT_EQ(o.interval_ms, 100);

  const std::string dup = WriteTempFile("flh-dup.fio", "[a]\nbs=4k\n[a]\nbs=8k\n");
  ASSERT_TRUE(Parse({"--job-file", dup.c_str(), "a.log"}, &o).ok());
  EXPECT_FALSE(ResolveInterval(&o).ok());  // configparser: DuplicateSectionError
}

TEST(FlhBins, ValuesAreHalfABucketHigh) {
  FlhBins bins;
  ASSERT_TRUE(MakeFlhBins(29, 1856, &bins).ok());
  EXPECT_EQ(bins.mid[0], 0.5);
  EXPECT_EQ(bins.mid[127], 128.5);  // lower 127, upper of bucket 128: 130
  EXPECT_EQ(bins.lower[128], 128.0);
  EXPECT_EQ(bins.upper[128], 132.0);
  ASSERT_TRUE(MakeFlhBins(29, 464, &bins).ok());  // log_hist_coarseness=2
  EXPECT_EQ(bins.lower[1], 4.0);
  EXPECT_EQ(bins.upper[1], 8.0);
  EXPECT_EQ(bins.mid[1], 6.0);
  EXPECT_FALSE(MakeFlhBins(29, 1000, &bins).ok());
  EXPECT_FALSE(MakeFlhBins(24, 1856, &bins).ok());
}

std::string Line(int64_t t, int dir, const std::map<int, int>& counts) {
  std::string s = std::to_string(t) + ", " + std::to_string(dir) + ", 4096";
  for (int j = 0; j < 1856; ++j) {
    auto it = counts.find(j);
    s += ", " + std::to_string(it == counts.end() ? 0 : it->second);
  }
  return s + "\n";
}

std::string RunScript(std::vector<const char*> args) {
  FlhOptions o;
  Status s = Parse(args, &o);
  if (s.ok()) s = ResolveInterval(&o);
  EXPECT_TRUE(s.ok()) << s.message();
  const std::string out_path = ::testing::TempDir() + "/flh-out.csv";
  std::FILE* f = std::fopen(out_path.c_str(), "wb");
  s = RunFiologparserHist(o, f);
  std::fclose(f);
  EXPECT_TRUE(s.ok()) << s.message();
  std::string text;
  f = std::fopen(out_path.c_str(), "rb");
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) text.append(buf, n);
  std::fclose(f);
  return text;
}

// Expected outputs: Debian's fiologparser_hist.py on the same two files.
TEST(FiologparserHist, EqualsTheScriptOnSmallLogs) {
  const std::string a = WriteTempFile(
      "flh-a.log", Line(1000, 0, {{100, 5}, {700, 2}}) + Line(2000, 1, {{900, 3}}));
  const std::string b = WriteTempFile("flh-b.log", Line(1500, 0, {{1200, 1}}));
  EXPECT_EQ(RunScript({a.c_str(), b.c_str()}),
            "end-time, samples, min, avg, median, 90%, 95%, 99%, max\n"
            "1000, 8, 99, 78907.041, 100.906, 64166.857, 64346.794, 64490.743, 15073280\n"
            "2000, 4, 548864, 4049315.504, 567900.105, 14835020.810, 14888614.405, "
            "14931489.281, 15073280\n");
  EXPECT_EQ(RunScript({"--noweight", "--directions", "rw", a.c_str(), b.c_str()}),
            "end-time, dir, samples, min, avg, median, 90%, 95%, 99%, max\n"
            "2000, r, 8, 100, 1867454.812, 101.100, 14732492.800, 14837350.400, "
            "14921236.480, 14811136\n"
            "3000, w, 3, 565248, 565248.000, 565248.000, 571801.600, 572620.800, 573276.160, "
            "565248\n");
  EXPECT_EQ(RunScript({"-i", "250", "--percentiles", "10:99", "--directions", "m", "--divisor", "7",
                 a.c_str(), b.c_str()}),
            "end-time, dir, samples, min, avg, median, 10%, 99%, max\n"
            "1000, m, 7, 14.143, 2622.500, 14.414, 14.254, 9210.880, 9289.143\n"
            "1500, m, 1, 2078427.429, 2115876.571, 2115876.571, 2100896.914, 2134226.651, "
            "2153325.714\n"
            "2000, m, 3, 78409.143, 80749.714, 80749.714, 79813.486, 81896.594, 83090.286\n");
}

TEST(FiologparserHist, BadInputIsAnErrorBeforeAnyOutput) {
  const std::string a = WriteTempFile("flh-bad-a.log", Line(1000, 0, {{100, 5}}));
  const std::string empty = WriteTempFile("flh-empty.log", "");
  const std::string bad = WriteTempFile("flh-bad.log", Line(1000, 0, {{1, 1}}) + "2000, 0, x\n");
  FlhOptions o;
  for (const std::vector<std::string>& files :
       {std::vector<std::string>{empty}, {a, bad}, {a, "/nonexistent/x.log"}}) {
    o.files = files;
    o.interval_ms = 1000;
    std::FILE* f = std::tmpfile();
    EXPECT_FALSE(RunFiologparserHist(o, f).ok());
    EXPECT_EQ(std::ftell(f), 0L);
    std::fclose(f);
  }
}

}  // namespace
}  // namespace compat
}  // namespace fiohist
