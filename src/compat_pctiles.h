// Compatibility mode: fio's tools/hist/fio-histo-log-pctiles.py, reproduced.
#pragma once

namespace fiohist {

/// Runs `fiohist pctiles --compat fio-histo-log-pctiles ARGS...`: accepts the reference
/// tool's options in its own syntax and prints its CSV. `argv` holds the arguments after
/// the compat switch (argv[0] is the command name). Returns the process exit code.
int RunCompatPctiles(int argc, const char* const* argv);

}  // namespace fiohist
