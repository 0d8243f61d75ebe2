// Latency SLA thresholds (`--sla p99=2ms`): parsing them, and checking the cluster's
// percentiles of a quantum against them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "log/log_line.h"
#include "stats/percentiles.h"
#include "stats/scope_result.h"

namespace fiohist {

/// One threshold: the `percentile` of `direction` must stay at or below `limit_ns`.
struct SlaThreshold {
  /// The direction whose results it applies to; kAll (the sum of all directions) when the
  /// text names none.
  Direction direction = Direction::kAll;
  /// In [0, 100].
  double percentile = 99;
  /// Whole nanoseconds (fio's resolution), at least 1.
  double limit_ns = 0;
  /// The normalized text, the same for every spelling of the same threshold:
  /// `p99<=2ms`, `read.p99_9<=5ms` (percentile as its field name, the limit in the largest
  /// unit that keeps it at least 1, shortest digits). Documents and messages carry it.
  std::string text;
};

/// Parses `[DIR.]pNN[.N]=VALUE[UNIT]` (also `pNN_N`, and `<=` for `=`, so a normalized
/// text reads back): DIR read, write, trim or all; UNIT ns, us, ms or s (default us, the
/// documents' unit). Errors name `option` (e.g. "--sla") and say what is expected.
Status ParseSlaThreshold(const std::string& text, const std::string& option, SlaThreshold* out);

/// Parses every text of a repeatable option; the same threshold twice is an error, two
/// limits on the same percentile and direction too (which one would hold?).
Status ParseSlaThresholds(const std::vector<std::string>& texts, const std::string& option,
                          std::vector<SlaThreshold>* out);

/// Appends to `list` each threshold's percentile it lacks, so every result has a value to
/// check (after the user's own, so their columns keep their places).
void AddSlaPercentiles(const std::vector<SlaThreshold>& thresholds, PercentileList* list);

/// Checks results against thresholds. Built once per run from the run's percentile list,
/// which must hold every threshold's percentile (AddSlaPercentiles).
class SlaChecker {
 public:
  SlaChecker() = default;
  SlaChecker(std::vector<SlaThreshold> thresholds, const PercentileList& percentiles);

  /// True when there is any threshold (documents then carry the SLA fields).
  bool active() const { return !thresholds_.empty(); }
  const std::vector<SlaThreshold>& thresholds() const { return thresholds_; }

  /// True when thresholds apply to `r` at all: a cluster-scope result (SLAs are about
  /// what the cluster delivers, not one host) of a direction some threshold names.
  bool Applies(const ScopeResult& r) const;

  /// Appends to `breached` the indices (into thresholds()) of the thresholds `r` breaches:
  /// its percentile's value is above the limit. A result without samples breaches
  /// nothing. A percentile that lies in fio's clamped last bucket (>= ~17 s) is only a
  /// lower bound of the true value: it breaches when that lower bound already exceeds the
  /// limit (then the true value does too); one at or below the limit is not reported,
  /// since the logs cannot tell. Returns whether any was breached. Results of other
  /// scopes breach nothing.
  /// With `beyond_noise`, the breached thresholds whose percentile's confidence interval
  /// lies above the limit too (its lower bound, LatencyStats::percentile_low_ns, is above
  /// it) are appended there as well: breaches that sampling noise does not explain. The
  /// others are within the noise: another sample of I/Os could have met the limit.
  bool Breaches(const ScopeResult& r, std::vector<size_t>* breached,
                std::vector<size_t>* beyond_noise = nullptr) const;
  /// True when `r` breaches some threshold beyond sampling noise (see Breaches).
  bool BreachesBeyondNoise(const ScopeResult& r) const;

  /// The value of threshold `i`'s percentile in `r`, in ns (`r` must have samples).
  double Value(const ScopeResult& r, size_t i) const;
  /// The lower confidence bound of threshold `i`'s percentile in `r`, in ns.
  double Low(const ScopeResult& r, size_t i) const;
  /// The upper confidence bound of threshold `i`'s percentile in `r`, in ns, or -1 where
  /// the percentile rests on too few I/Os to have one.
  double High(const ScopeResult& r, size_t i) const;

 private:
  std::vector<SlaThreshold> thresholds_;
  std::vector<size_t> index_;  // per threshold: its percentile's index in the run's list
};

/// Formats `ns` as fiohist's SLA texts do: "2ms", "2.31ms", "950us": the largest of s,
/// ms, us, ns that keeps the number at least 1, in shortest round-trip digits, or with
/// `significant` > 0 rounded to that many significant digits ("2.312 ms" for messages).
/// With `space`, a space before the unit.
std::string FormatSlaLatency(double ns, int significant = 0, bool space = false);

}  // namespace fiohist
