// The process exit codes every fiohist command returns.
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
  /// Everything went in, and some cluster quantum breached an --sla threshold (the stderr
  /// lines say which). Any other failure takes precedence: its code says more.
  kExitSlaBreached = 4,
  /// `compare`: the run is worse than its baseline by at least the minimum effect, with
  /// evidence (some metric's verdict is regression).
  kExitRegression = 5,
  /// `compare`: the data cannot decide (an interval too wide to tell at the minimum
  /// effect, a run still running, no baseline runs of the tag).
  kExitInconclusive = 6,
};

}  // namespace fiohist
