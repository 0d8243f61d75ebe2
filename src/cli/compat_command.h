// The `fiohist pctiles --compat fio-histo-log-pctiles` command: the compat library's run
// behind a command line, with the reference's options and the process's exit codes.
#pragma once

namespace fiohist {

/// Runs `fiohist pctiles --compat fio-histo-log-pctiles ARGS...`: accepts the reference
/// tool's options in its own syntax and prints its CSV. `argv` holds the arguments after
/// the compat switch (argv[0] is the command name). Returns the process exit code.
int RunCompatPctiles(int argc, const char* const* argv);

}  // namespace fiohist
