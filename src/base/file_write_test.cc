#include "base/file_write.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

namespace fiohist {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

TEST(FileWrite, WritesAndFlushes) {
  const std::string path = ::testing::TempDir() + "/file_write_ok.txt";
  {
    File f(std::fopen(path.c_str(), "w"));
    ASSERT_TRUE(f);
    EXPECT_TRUE(WriteText(f.get(), "a,b\n").ok());
    EXPECT_TRUE(WriteText(f.get(), "").ok());
    EXPECT_TRUE(FlushText(f.get()).ok());
  }
  File f(std::fopen(path.c_str(), "r"));
  ASSERT_TRUE(f);
  char buf[16] = {};
  EXPECT_EQ(std::fread(buf, 1, sizeof buf - 1, f.get()), 4u);
  EXPECT_STREQ(buf, "a,b\n");
}

TEST(FileWrite, FullDiskIsAnError) {
  // /dev/full accepts the buffered write and fails the flush (ENOSPC).
  File f(std::fopen("/dev/full", "w"));
  if (!f) GTEST_SKIP() << "no /dev/full";
  EXPECT_TRUE(WriteText(f.get(), "row\n").ok());
  const Status s = FlushText(f.get());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().rfind("cannot write output: ", 0), 0u) << s.message();
}

TEST(FileWrite, UnwritableStreamIsAnError) {
  const std::string path = ::testing::TempDir() + "/file_write_ro.txt";
  File(std::fopen(path.c_str(), "w"));
  File f(std::fopen(path.c_str(), "r"));
  ASSERT_TRUE(f);
  EXPECT_FALSE(WriteText(f.get(), "x").ok());
  EXPECT_FALSE(FlushText(f.get()).ok());
}

}  // namespace
}  // namespace fiohist
