#include "base/memory_release.h"

// A C library header first: it defines __GLIBC__ (without one, the test below was always
// false and both functions did nothing).
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace fiohist {

void ReleaseFreeMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

bool SetUpAllocator() {
#if defined(__GLIBC__)
  return mallopt(M_MMAP_THRESHOLD, 256 * 1024) == 1;
#else
  return true;
#endif
}

}  // namespace fiohist
