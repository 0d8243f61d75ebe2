// fiologparser_hist.py's default, weighted mode (output_weighted_interval_data), for the
// drop-in of fiologparser_hist.h: each bucket of a record ending at T spread over
// [T - I/2 - v, T], intervals [kI, (k+1)I] from the logs' start.
#pragma once

#include "base/status.h"
#include "compat/fiologparser_hist_parts.h"

namespace fiohist {
namespace compat {

/// Writes the rows of weighted mode for `logs` (opened, not yet read) through `printer`.
Status RunFlhWeighted(const FlhOptions& options, const FlhBins& bins, FlhMergedLogs* logs,
                      FlhPrinter* printer);

}  // namespace compat
}  // namespace fiohist
