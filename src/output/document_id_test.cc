#include "output/document_id.h"

#include <gtest/gtest.h>

#include <string>

namespace fiohist {
namespace {

// An id fed piece by piece equals the hash of the whole key; the separator keeps parts
// apart, so moving a byte from one part to the next changes the id.
TEST(DocumentId, PiecesHashAsTheWholeKey) {
  IdHash pieces;
  pieces.Feed("runs");
  pieces.Sep();
  pieces.Feed(std::string("nightly"));
  std::string hex(32, '0');
  pieces.Hex(hex.data());
  EXPECT_EQ(hex, HashHex128("runs\x1fnightly"));
  EXPECT_NE(HashHex128("a\x1f" "bc"), HashHex128("ab\x1f" "c"));
  EXPECT_EQ(HashHex128("x").find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(HashHex128("x"), HashHex128("x"));
}

}  // namespace
}  // namespace fiohist
