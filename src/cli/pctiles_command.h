// The `fiohist pctiles` command: percentiles per quantum as CSV or NDJSON.
#pragma once

namespace fiohist {

/// Exit codes of every fiohist command.
enum ExitCode {
  kExitOk = 0,
  /// Stopped by an error; the message says which file and line.
  kExitError = 1,
  /// Bad command line.
  kExitUsage = 2,
  /// Finished, but some input was skipped (--skip-bad-lines) or some documents did not go in.
  kExitIncomplete = 3,
};

/// Runs `fiohist pctiles` with the arguments after the command name.
int RunPctilesCommand(int argc, const char* const* argv);

}  // namespace fiohist
