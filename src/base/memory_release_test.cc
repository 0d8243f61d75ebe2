#include "base/memory_release.h"

#include <gtest/gtest.h>

#include <cstdlib>  // defines __GLIBC__ where it applies
#include <fstream>
#include <memory>
#include <string>
#include <vector>

// A sanitizer brings its own allocator, which ignores glibc's tuning and trimming.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FIOHIST_OWN_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FIOHIST_OWN_ALLOCATOR 1
#endif

namespace fiohist {
namespace {

// Callable at any time, also with nothing to give back, and the heap stays usable.
TEST(MemoryRelease, HeapStaysUsable) {
#if defined(FIOHIST_OWN_ALLOCATOR)
  SetUpAllocator();  // refused by the sanitizer's allocator: it must only do no harm
#else
  EXPECT_TRUE(SetUpAllocator());
#endif
  ReleaseFreeMemory();
  for (int round = 0; round < 3; ++round) {
    auto big = std::make_unique<std::string>(8 << 20, 'x');
    big.reset();
    ReleaseFreeMemory();
    std::string after(1 << 20, 'y');
    EXPECT_EQ(after[12345], 'y');
  }
}

// glibc's allocator only: a sanitizer's own allocator does not hear malloc_trim.
#if defined(__GLIBC__) && !defined(FIOHIST_OWN_ALLOCATOR)
// Resident pages of this process (Linux).
long ResidentPages() {
  std::ifstream statm("/proc/self/statm");
  long size = 0, resident = 0;
  statm >> size >> resident;
  return resident;
}

// The release really happens: freed pages in the middle of the heap (kept from the top by
// a few live blocks) go back to the system. Before, a misplaced platform test had compiled
// both functions to nothing, and nothing noticed.
TEST(MemoryRelease, FreedPagesInsideTheHeapGoBack) {
  std::vector<std::unique_ptr<char[]>> blocks;
  const size_t kBlock = 4000, kBlocks = 16000;  // 64 MB, below the mapping threshold each
  for (size_t i = 0; i < kBlocks; ++i) {
    blocks.emplace_back(new char[kBlock]);
    for (size_t j = 0; j < kBlock; j += 512) blocks.back()[j] = 1;  // touch its pages
  }
  for (size_t i = 0; i < kBlocks; ++i) {
    if (i % 1000 != 999) blocks[i].reset();  // every 1000th stays: the heap cannot shrink
  }
  const long before = ResidentPages();
  ReleaseFreeMemory();
  const long after = ResidentPages();
  // About 64 MB were freed inside the heap; at least half of it must leave.
  EXPECT_LT(after, before - (32L << 20) / 4096) << "before " << before << ", after " << after;
}
#endif

}  // namespace
}  // namespace fiohist
