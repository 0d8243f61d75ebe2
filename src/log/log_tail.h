// The last stamp of a log, read from its end without reading it all (plain text).
#pragma once

#include <cstdint>
#include <string>

namespace fiohist {

/// The stamp of the last complete record of the log at `path`: of a plain-text log its last
/// 64 KiB are read; a gzip log is inflated whole (gzip cannot seek). False when it cannot
/// tell: no complete record in that tail (or in the whole gzip log, or damaged gzip data),
/// or the file cannot be read.
bool ReadLastStamp(const std::string& path, int64_t* time_ms);

}  // namespace fiohist
