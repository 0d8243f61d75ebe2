// Stalls named: spans in which a host or the whole cluster completed no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "histogram/bucket_layout.h"
#include "log/log_report.h"
#include "log/log_source.h"

namespace fiohist {

/// A span longer than twice log_hist_msec in which no log of a scope completed any I/O.
struct Stall {
  /// The host; empty for the cluster (no host completed anything).
  std::string host;
  /// Estimated start (the pauses' start: log_report.h) and end: the first completion after
  /// it in the scope.
  int64_t start_ms = 0, end_ms = 0;
  /// I/Os stuck in it in the scope (LogReport::Pause::stuck_ios): the ones that ended each
  /// log's pause, and those of the records after whose latency says they were issued
  /// before it.
  double stuck_ios = 0;
  /// The upper edge of the highest bucket of those I/Os: their latency, to a bucket.
  double slowest_ns = 0;
  /// The jobs' options explain a gap this long (fio's thinktime or rate options): idle, not
  /// a stall.
  bool idle = false;
  /// Seconds from start to end.
  double seconds() const { return static_cast<double>(end_ms - start_ms) / 1000.0; }
};

/// The spans (start, end) longer than `min_ms` in which no log of the scope completed
/// anything, per host (in the order of `logs`' host indices) then for the cluster, from
/// each log's pauses (`reports` parallel to `logs`). A log completes nothing where all of
/// its directions pause at once; a host where all its logs do; the cluster where all do.
/// `idle_ms[i]` (may be empty): the longest span without a completion log i's job options
/// explain (thinktime, a rate limit: JobPacing::LongestIdleMs); a span is `idle` where it is
/// no longer than that for every log of its scope, else a stall (a freeze during a
/// rate-limited job is longer than its limiter's gaps).
std::vector<Stall> FindStalls(const std::vector<LogSource>& logs,
                              const std::vector<LogReport>& reports, const BucketLayout& layout,
                              int64_t min_ms, const std::vector<double>& idle_ms = {});

}  // namespace fiohist
