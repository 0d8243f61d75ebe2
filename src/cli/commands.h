// The table of fiohist's commands: `fiohist COMMAND ...` runs the entry whose name matches.
#pragma once

#include <string>
#include <vector>

namespace fiohist {

/// One subcommand: its name, its line in `fiohist --help`, and its entry point, which takes
/// the arguments after `fiohist` (argv[0] is the command's name) and returns the exit code.
struct Command {
  const char* name;
  const char* help;
  int (*run)(int argc, char** argv);
};

/// Every command, in the order `fiohist --help` lists them.
const std::vector<Command>& Commands();

/// Runs `fiohist ARGS...` (argv[0] is the program): --help, --version, or a command of
/// the table. Returns the process exit code. Used by main() and the test CLI alike.
int RunFiohist(int argc, char** argv);

/// `fiohist pctiles`: percentiles per quantum as CSV or NDJSON.
int RunPctilesCommand(int argc, char** argv);
/// `fiohist report`: an HTML page (and PNGs) of a run, from logs or bucket documents.
int RunReportCommand(int argc, char** argv);
/// `fiohist push`: compute everything and index it (or write bulk NDJSON).
int RunPushCommand(int argc, char** argv);
/// `fiohist follow STREAM...`: live mode on fio's json+ status streams.
int RunFollowCommand(int argc, char** argv);
/// `fiohist load DIR`: sends a directory of bulk NDJSON files (see es/ndjson_dir.h).
int RunLoadCommand(int argc, char** argv);
/// `fiohist setup`: installs the index templates and creates the indices.
int RunSetupCommand(int argc, char** argv);
/// `fiohist runs`: lists the runs stored (table, or NDJSON with --json).
int RunRunsCommand(int argc, char** argv);
/// `fiohist compare RUN BASELINE...`: a verdict on whether RUN is worse than its baselines.
int RunCompareCommand(int argc, char** argv);
/// `fiohist history --tag TAG`: a tag's runs as points with intervals, and change points.
int RunHistoryCommand(int argc, char** argv);
/// `fiohist delete --run NAME`: removes one run's documents from the three indices.
int RunDeleteCommand(int argc, char** argv);

}  // namespace fiohist
