#include "cli/commands.h"

#include <cstdio>
#include <cstring>

#include "cli/exit_code.h"

namespace fiohist {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"pctiles", "percentiles per time quantum (cluster, host, job) as CSV or NDJSON",
       RunPctilesCommand},
      {"report", "one self-contained HTML page (and PNGs) of a run or a run against a baseline",
       RunReportCommand},
      {"push", "compute everything and index it into Elasticsearch (or write bulk NDJSON)",
       RunPushCommand},
      {"follow", "live mode: follow fio json+ status streams while fio runs, indexing each quantum",
       RunFollowCommand},
      {"load", "index a directory of bulk NDJSON written by push --out", RunLoadCommand},
      {"setup", "install the index templates", RunSetupCommand},
      {"runs", "list the runs stored in Elasticsearch", RunRunsCommand},
      {"compare", "is a run worse than its baseline runs? a verdict with intervals (exit 5/6)",
       RunCompareCommand},
      {"history", "a tag's runs, one point per run with its interval, and their change points",
       RunHistoryCommand},
      {"delete", "delete one run, or every run older than an age", RunDeleteCommand},
  };
  return commands;
}

namespace {

void PrintUsage() {
  std::printf(
      "fiohist %s: fio latency histogram logs -> cluster-wide latency percentiles\n"
      "\n"
      "Usage: fiohist COMMAND [options] ...\n"
      "\n"
      "Commands:\n",
      FIOHIST_VERSION);
  for (const Command& c : Commands()) std::printf("  %-10s%s\n", c.name, c.help);
  std::printf(
      "\nRun 'fiohist COMMAND --help' for the options of a command.\n"
      "\n"
      "Exit status: 0 everything went in; 1 error; 2 bad command line; 3 finished, but some\n"
      "input was skipped or some documents were rejected; 4 everything went in, and some\n"
      "quantum breached an --sla threshold; compare: 5 regression, 6 inconclusive.\n");
}

}  // namespace

int RunFiohist(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    PrintUsage();
    return argc < 2 ? kExitUsage : kExitOk;
  }
  const char* name = argv[1];
  if (std::strcmp(name, "--version") == 0 || std::strcmp(name, "version") == 0) {
    std::printf("fiohist %s\n", FIOHIST_VERSION);
    return kExitOk;
  }
  for (const Command& c : Commands()) {
    if (std::strcmp(name, c.name) == 0) return c.run(argc - 1, argv + 1);
  }
  std::fprintf(stderr, "fiohist: unknown command '%s' (see fiohist --help)\n", name);
  return kExitUsage;
}

}  // namespace fiohist
