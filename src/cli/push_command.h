// The `fiohist push` command: compute everything and index it (or write bulk NDJSON).
#pragma once

namespace fiohist {

/// Runs `fiohist push` with the arguments after the command name.
int RunPushCommand(int argc, char** argv);

}  // namespace fiohist
