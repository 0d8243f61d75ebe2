#include "base/spill_file.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

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
