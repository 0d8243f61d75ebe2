// fio's latency_target reset in a histogram log (fio 3.33 and 3.42 alike): when the
// latency target search converges, fio resets the job's statistics but not the histogram
// log's previous snapshot, so the next line holds negative differences wrapped near 2^64
// and the lines after it restart their stamps at 0, one line per I/O.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace fiohist {

/// True when `line` is the line of such a reset: counts of 2^63 or more (negative
/// differences wrapped near 2^64; a real count that large would take centuries of I/O), in
/// at least two buckets, or in one when the line's stamp `went_back` (is before the previous
/// record of its direction: the job's clock restarted). A single huge count in a line that
/// keeps time is damage, not a reset. `*wrapped` gets how many counts wrapped. Only worth
/// asking about a line that failed to parse (its counts add up to more than 64 bits).
bool IsStatsResetLine(std::string_view line, bool went_back, int* wrapped);

/// What the log holds from the reset line on.
struct StatsResetTail {
  /// Lines from the reset line to the end (the reset line included).
  long long lines = 0;
  /// I/Os fio completed after its reset, as the log itself counts them: the wrapped line
  /// undone against the sum of the lines before it of its direction (fio's previous
  /// snapshot: new = old + difference, modulo 2^64), plus the counts of every line after.
  double ios = 0;
};

/// Reads `path` again and counts what the lines from `reset_line` (1-based) on hold.
Status CountStatsResetTail(const std::string& path, long long reset_line, StatsResetTail* tail);

/// Says what the reset line is and what to do, for a line with `wrapped` wrapped counts.
std::string StatsResetMessage(int wrapped);

}  // namespace fiohist
