#include "base/spill_file.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(SpillFile, ReadsAheadAsFarAsTheFileGoes) {
  SpillFile f;
  ASSERT_TRUE(f.Create().ok());
  ASSERT_TRUE(f.Append("0123456789").ok());
  ASSERT_TRUE(f.Flush().ok());
  std::string got;
  ASSERT_TRUE(f.ReadAhead(2, 3, 4, &got).ok());
  EXPECT_EQ(got, "2345678");  // the 3 bytes asked for and 4 more
  ASSERT_TRUE(f.ReadAhead(6, 3, 100, &got).ok());
  EXPECT_EQ(got, "6789");  // the file ends first
  ASSERT_TRUE(f.ReadAhead(7, 3, 100, &got).ok());
  EXPECT_EQ(got, "789");
  EXPECT_FALSE(f.ReadAhead(8, 3, 100, &got).ok());  // the bytes asked for must be there
}

TEST(SpillFile, ReadsBackWhatWasAppended) {
  SpillFile f;
  ASSERT_TRUE(f.Create().ok());
  const std::string big(3 << 20, 'x');  // past the write buffer
  ASSERT_TRUE(f.Append("hello").ok());
  EXPECT_EQ(f.size(), 5u);
  ASSERT_TRUE(f.Append(big).ok());
  ASSERT_TRUE(f.Append("world").ok());
  ASSERT_TRUE(f.Flush().ok());
  std::string got;
  ASSERT_TRUE(f.ReadAt(0, 5, &got).ok());
  EXPECT_EQ(got, "hello");
  ASSERT_TRUE(f.ReadAt(5 + big.size(), 5, &got).ok());
  EXPECT_EQ(got, "world");
  Status s = f.ReadAt(f.size() - 2, 5, &got);
  EXPECT_FALSE(s.ok());
}

}  // namespace
}  // namespace fiohist
