// The `fiohist pctiles` command: percentiles per quantum as CSV or NDJSON.
#pragma once

namespace fiohist {

/// Runs `fiohist pctiles` with the arguments after the command name.
int RunPctilesCommand(int argc, const char* const* argv);

}  // namespace fiohist
