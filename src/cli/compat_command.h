// The `fiohist pctiles --compat fio-histo-log-pctiles` and `--compat fiologparser_hist`
// commands: the compat library's runs behind a command line, with the references' options
// and the process's exit codes.
#pragma once

namespace fiohist {

/// Runs `fiohist pctiles --compat fio-histo-log-pctiles ARGS...`: accepts the reference
/// tool's options in its own syntax and prints its CSV. `argv` holds the arguments after
/// the compat switch (argv[0] is the command name). Returns the process exit code.
int RunCompatPctiles(int argc, const char* const* argv);

/// Runs `fiohist pctiles --compat fiologparser_hist ARGS...`: fio's fiologparser_hist.py,
/// its options and CSV. `argv` as for RunCompatPctiles. Returns the process exit code.
int RunCompatFiologparserHist(int argc, const char* const* argv);

/// Checks that `args` (the command line without the --compat switch) holds only options
/// of fiologparser_hist.py before any `--`: a fiohist option there is bad usage, reported
/// on stderr. Returns -1 when all is well, else the exit code.
int RefuseNonFlhOptions(int argc, const char* const* argv);

}  // namespace fiohist
