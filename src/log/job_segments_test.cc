#include "log/job_segments.h"

#include <gtest/gtest.h>

#include "base/test_util.h"

namespace fiohist {
namespace {

TEST(JobSegments, PerIoTimesRestartingAreJobs) {
  LogSource s;
  s.path = WriteTempFile("pjl_clat.log",
                         "1, 10, 0, 4096, 0\n900, 10, 0, 4096, 0\n"
                         "2, 10, 0, 4096, 0\n800, 10, 1, 4096, 0\n3, 10, 0, 4096, 0\n");
  s.job = "pjl_clat";
  s.per_io = true;
  EXPECT_TRUE(MayHoldSeveralJobs(s));
  std::vector<LogSource> out;
  ASSERT_TRUE(SplitJobSegments(s, &out).ok());
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1].job, "pjl_clat@2");
  EXPECT_EQ(out[1].segment_lines, 2);
  EXPECT_EQ(out[0].segment_begin, 0);
  EXPECT_EQ(out[1].segment_begin, out[0].segment_end);
  // Each segment reads its own lines only.
  std::unique_ptr<LogReader> r;
  ASSERT_TRUE(OpenLogSource(out[1], &r).ok());
  std::string_view line;
  int n = 0;
  while (r->NextLine(&line)) ++n;
  EXPECT_EQ(n, 2);
  EXPECT_EQ(r->line_number(), 4);
}

TEST(JobSegments, OneJobComesBackAsItWas) {
  LogSource s;
  s.path = WriteTempFile("one_clat_hist.log",
                         "500, 0, 4096, 1\n505, 1, 4096, 1\n"
                         "1000, 0, 4096, 1\n1005, 1, 4096, 1\n");
  s.job = "one_clat_hist";
  std::vector<LogSource> out;
  ASSERT_TRUE(SplitJobSegments(s, &out).ok());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].segment_end, -1);
  LogSource numbered;
  numbered.path = "t_clat_hist.1.log";
  EXPECT_FALSE(MayHoldSeveralJobs(numbered));
}

}  // namespace
}  // namespace fiohist
