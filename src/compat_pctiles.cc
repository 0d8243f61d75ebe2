#include "compat_pctiles.h"

#include <cstdio>

namespace fiohist {

int RunCompatPctiles(int, const char* const*) {
  std::fprintf(stderr, "fiohist: --compat fio-histo-log-pctiles is not implemented yet\n");
  return 1;
}

}  // namespace fiohist
