// Why a line that is not a histogram record is not one: fio's other logs and known bugs.
#pragma once

#include <string>
#include <string_view>

namespace fiohist {

/// Explains a line of a histogram log that failed to parse (`what`: the parser's message)
/// when it is recognisably something else: a record fio 3.33 and 3.42 write with
/// log_compression (`time, <memory address>, 0, 4096, 0`: fio writes the histogram
/// buffer's address instead of its counts), an averaged latency log's window mean
/// (log_avg_msec > 0), or a per-I/O log line in a file not named as fio names them.
/// Returns `what`, extended by what the line is and what to do.
std::string ExplainBadHistLine(std::string_view line, const std::string& what);

}  // namespace fiohist
