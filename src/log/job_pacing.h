// The gaps in a fio job's I/O that its options ask for (thinktime, rate limits): which spans
// without a completion are the job idling, not a stall.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <string>

namespace fiohist {

/// What a job's options say about pauses in its I/O, as fio's JSON output lists them
/// (`job options`, strings as the user wrote them).
struct JobPacing {
  /// thinktime (fio's unit: microseconds without a suffix), in ms; 0: none.
  double thinktime_ms = 0;
  /// The lowest non-zero rate limit of its directions in I/Os per second (rate_iops, or
  /// rate in bytes/s over bs); 0: none. rate_min and rate_iops_min ask for no gap.
  double rate_iops = 0;
  /// iodepth (1 without it).
  int iodepth = 1;

  /// The gap between completions a rate limit asks for (ms): fio issues I/Os 1/rate apart,
  /// up to iodepth of them at once, so a job waiting on its limiter completes nothing for
  /// about iodepth/rate; 0 without a limit.
  double RateGapMs() const;
  /// The longest span without a completion these options explain (ms): twice the rate's gap,
  /// and a thinktime's own length (with a tenth and 100 ms of slack, plus the rate's gap,
  /// for the I/O that ends it); 0: none. A longer span is a stall whatever the options.
  double LongestIdleMs() const;
};

/// The pacing of a job from its `job options` and the global ones (either may be null or
/// not an object); a job's own option overrides the global one.
JobPacing JobPacingOf(const rapidjson::Value* global, const rapidjson::Value* job);

/// fio's size text ("4k", "1m", "4096", "2MiB") in bytes (k = 1024, as fio's default
/// kb_base); the first of a per-direction list ("4k,8k"); 0 where it is not a size.
double ParseFioBytes(const std::string& text);

/// fio's time text ("2.5s", "250ms", "2500000": microseconds without a unit) in ms; 0 where
/// it is not a time.
double ParseFioTimeMs(const std::string& text);

}  // namespace fiohist
