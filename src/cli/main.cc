// fiohist: fio latency histogram logs -> cluster-wide percentiles per time quantum.
#include "base/memory_release.h"
#include "base/open_files.h"
#include "cli/commands.h"

int main(int argc, char** argv) {
  // Thousands of logs are read at once: allow as many open files as the system permits;
  // readers beyond that budget open their file for each read.
  fiohist::RaiseOpenFileLimit();
  fiohist::SetUpAllocator();  // a failure only costs memory
  return fiohist::RunFiohist(argc, argv);
}
