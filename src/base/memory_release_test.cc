#include "base/memory_release.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace fiohist {
namespace {

// Callable at any time, also with nothing to give back, and the heap stays usable.
TEST(MemoryRelease, HeapStaysUsable) {
  ReleaseFreeMemory();
  for (int round = 0; round < 3; ++round) {
    auto big = std::make_unique<std::string>(8 << 20, 'x');
    big.reset();
    ReleaseFreeMemory();
    std::string after(1 << 20, 'y');
    EXPECT_EQ(after[12345], 'y');
  }
}

}  // namespace
}  // namespace fiohist
