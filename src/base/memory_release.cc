#include "base/memory_release.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace fiohist {

void ReleaseFreeMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace fiohist
