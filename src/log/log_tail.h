// The last stamp of a log, read from its end without reading it all.
#pragma once

#include <cstdint>
#include <string>

namespace fiohist {

/// The stamp of the last complete record of the plain-text log at `path` (its last 64 KiB
/// are read). False when it cannot tell cheaply: a gzip log (it would have to be inflated
/// whole), no complete record in that tail, or the file cannot be read.
bool ReadLastStamp(const std::string& path, int64_t* time_ms);

}  // namespace fiohist
