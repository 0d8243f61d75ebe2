// fiohist: fio latency histogram logs -> cluster-wide percentiles per time quantum.
#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "cli/es_commands.h"
#include "cli/exit_code.h"
#include "cli/pctiles_command.h"
#include "cli/push_command.h"

namespace {

const char kUsage[] =
    "fiohist %s: fio latency histogram logs -> cluster-wide latency percentiles\n"
    "\n"
    "Usage: fiohist COMMAND [options] ...\n"
    "\n"
    "Commands:\n"
    "  pctiles   percentiles per time quantum (cluster, host, job) as CSV or NDJSON\n"
    "  push      compute everything and index it into Elasticsearch (or write bulk NDJSON)\n"
    "  load      index a directory of bulk NDJSON written by push --out\n"
    "  setup     install the index templates\n"
    "  runs      list the runs stored in Elasticsearch\n"
    "  delete    delete one run's documents\n"
    "\n"
    "Run 'fiohist COMMAND --help' for the options of a command.\n";

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
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::printf(kUsage, FIOHIST_VERSION);
    return argc < 2 ? fiohist::kExitUsage : fiohist::kExitOk;
  }
  const std::string command = argv[1];
  if (command == "--version" || command == "version") {
    std::printf("fiohist %s\n", FIOHIST_VERSION);
    return fiohist::kExitOk;
  }
  RaiseOpenFileLimit();
  const int sub_argc = argc - 1;
  char** sub_argv = argv + 1;
  if (command == "pctiles") return fiohist::RunPctilesCommand(sub_argc, sub_argv);
  if (command == "push") return fiohist::RunPushCommand(sub_argc, sub_argv);
  if (command == "load") return fiohist::RunLoadCommand(sub_argc, sub_argv);
  if (command == "setup") return fiohist::RunSetupCommand(sub_argc, sub_argv);
  if (command == "runs") return fiohist::RunRunsCommand(sub_argc, sub_argv);
  if (command == "delete") return fiohist::RunDeleteCommand(sub_argc, sub_argv);
  std::fprintf(stderr, "fiohist: unknown command '%s' (see fiohist --help)\n", command.c_str());
  return fiohist::kExitUsage;
}
