#include "base/path.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(PathTest, BaseName) {
  EXPECT_EQ(BaseName("a/b/job_clat_hist.1.log"), "job_clat_hist.1.log");
  EXPECT_EQ(BaseName("job.log"), "job.log");
  EXPECT_EQ(BaseName("/job.log"), "job.log");
  EXPECT_EQ(BaseName("a/b/"), "");
  EXPECT_EQ(BaseName(""), "");
}

TEST(PathTest, ParentPathIsTheTextBeforeTheLastSlash) {
  EXPECT_EQ(ParentPath("a/b/c.log"), "a/b");
  EXPECT_EQ(ParentPath("c.log"), "");
  EXPECT_EQ(ParentPath("c.log", "."), ".");
  EXPECT_EQ(ParentPath("/c.log", "."), "");
  EXPECT_EQ(ParentPath("a//c.log"), "a/");
  EXPECT_EQ(ParentPath("a/b/"), "a/b");
  EXPECT_EQ(ParentPath("./c.log"), ".");
}

TEST(PathTest, DirNameLikeDirname) {
  EXPECT_EQ(DirName("/usr/local/bin/fiohist"), "/usr/local/bin");
  EXPECT_EQ(DirName(DirName("/usr/local/bin/fiohist")), "/usr/local");
  EXPECT_EQ(DirName("/fiohist"), "/");
  EXPECT_EQ(DirName("fiohist"), ".");
  EXPECT_EQ(DirName(""), ".");
}

TEST(PathTest, NormalDirOfIgnoresHowTheDirectoryIsSpelt) {
  const std::string cwd = NormalDirOf("x");
  EXPECT_EQ(cwd.front(), '/');
  EXPECT_EQ(NormalDirOf("./run/fio.json"), NormalDirOf("run/x.log"));
  EXPECT_EQ(NormalDirOf("run//x.log"), cwd + "/run");
  EXPECT_EQ(NormalDirOf("run/sub/../x.log"), cwd + "/run");
  EXPECT_EQ(NormalDirOf(cwd + "/run/x.log"), cwd + "/run");
  EXPECT_EQ(NormalDirOf("/a/./b/c"), "/a/b");
  EXPECT_NE(NormalDirOf("run/x.log"), NormalDirOf("other/x.log"));
}

}  // namespace
}  // namespace fiohist
