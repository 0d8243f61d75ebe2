#include "log/log_tail.h"

#include <gtest/gtest.h>

#include <string>

#include "base/test_util.h"

namespace fiohist {
namespace {

TEST(LogTail, LastCompleteRecordOfAPlainLog) {
  int64_t t = 0;
  ASSERT_TRUE(
      ReadLastStamp(WriteTempFile("tail_a.log", "500, 0, 4096, 1, 2\n1000, 1, 4096, 3, 4\n"), &t));
  EXPECT_EQ(t, 1000);
  // A cut last line (fio killed mid-write): the last whole one counts.
  ASSERT_TRUE(ReadLastStamp(
      WriteTempFile("tail_b.log", "500, 0, 4096, 1, 2\n1000, 1, 4096, 3, 4\n15"), &t));
  EXPECT_EQ(t, 1000);
}

TEST(LogTail, LongLogReadsOnlyItsEnd) {
  std::string text;
  for (int i = 1; i <= 5000; ++i) text += std::to_string(i * 500) + ", 0, 4096, 0, 0, 0, 7\n";
  int64_t t = 0;
  ASSERT_TRUE(ReadLastStamp(WriteTempFile("tail_c.log", text), &t));
  EXPECT_EQ(t, 2500000);
}

// gzip cannot seek: the log is inflated whole (several members read as one text).
TEST(LogTail, GzipLogIsInflatedToItsLastRecord) {
  std::string text;
  for (int i = 1; i <= 5000; ++i) text += std::to_string(i * 500) + ", 0, 4096, 0, 0, 0, 7\n";
  int64_t t = 0;
  ASSERT_TRUE(ReadLastStamp(WriteTempFile("tail_f.log.gz", GzipText(text)), &t));
  EXPECT_EQ(t, 2500000);
  ASSERT_TRUE(ReadLastStamp(
      WriteTempFile("tail_g.log.gz", GzipText(text) + GzipText("2500500, 1, 4096, 3, 4\n")), &t));
  EXPECT_EQ(t, 2500500);
  // A cut last line: the last whole record counts.
  ASSERT_TRUE(ReadLastStamp(WriteTempFile("tail_h.log.gz", GzipText(text + "25")), &t));
  EXPECT_EQ(t, 2500000);
}

TEST(LogTail, DamagedGzipAndMissingFilesCannotTell) {
  int64_t t = 0;
  EXPECT_FALSE(
      ReadLastStamp(WriteTempFile("tail_d.log.gz", std::string("\x1f\x8b\x08\x00", 4)), &t));
  EXPECT_FALSE(ReadLastStamp(::testing::TempDir() + "/no-such-log", &t));
  EXPECT_FALSE(ReadLastStamp(WriteTempFile("tail_e.log", ""), &t));
}

}  // namespace
}  // namespace fiohist
