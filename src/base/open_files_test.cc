#include "base/open_files.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cerrno>

namespace fiohist {
namespace {

TEST(OpenFilesTest, HoldsUpToTheBudgetThenRefuses) {
  const int before = OpenFileBudget();
  SetOpenFileBudget(HeldOpenFiles() + 2);
  EXPECT_TRUE(TryHoldOpenFile());
  EXPECT_TRUE(TryHoldOpenFile());
  EXPECT_FALSE(TryHoldOpenFile());
  ReleaseOpenFile();
  EXPECT_TRUE(TryHoldOpenFile());
  ReleaseOpenFile();
  ReleaseOpenFile();
  SetOpenFileBudget(before);
}

TEST(OpenFilesTest, RaisedLimitLeavesRoomBesidesTheBudget) {
  RaiseOpenFileLimit();
  struct rlimit rl;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
  EXPECT_EQ(rl.rlim_cur, rl.rlim_max);
  EXPECT_LT(static_cast<rlim_t>(OpenFileBudget()), rl.rlim_cur);
  EXPECT_GE(rl.rlim_cur - static_cast<rlim_t>(OpenFileBudget()), rlim_t{24});
}

TEST(OpenFilesTest, TooManyOpenFilesGivesTheNumbers) {
  const std::string m = TooManyOpenFiles(EMFILE);
  EXPECT_NE(m.find("Too many open files (limit "), std::string::npos) << m;
  EXPECT_NE(m.find("ulimit -n"), std::string::npos) << m;
}

}  // namespace
}  // namespace fiohist
