// fiohist: fio latency histogram logs -> cluster-wide percentiles per time quantum.
#include <sys/resource.h>

#include "cli/commands.h"

namespace {

// Thousands of logs are read at once: allow as many open files as the system permits.
void RaiseOpenFileLimit() {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

}  // namespace

int main(int argc, char** argv) {
  RaiseOpenFileLimit();
  return fiohist::RunFiohist(argc, argv);
}
