// A tag's history judged by compare's rules: the level shifts of its series (change points
// of E-divisive means, one significance over all series) and which of them are changes as
// large as `compare` would call a regression or an improvement, the others drifts.
#pragma once

#include <string>
#include <vector>

#include "stats/change_points.h"
#include "stats/run_comparison.h"

namespace fiohist {

/// One series of a tag's history: a metric in one direction, one point per run (every
/// series of one analysis has the same runs).
struct HistorySeries {
  /// The metric with its minimum effect and assumed spread (compare's --min-effect and
  /// --run-spread).
  CompareMetric metric;
  /// Log values and their bootstrap variances, one per run, oldest first.
  std::vector<double> log, var;
};

/// A level shift of a series and compare's verdict on it.
struct HistoryShift {
  ChangePoint split;
  /// The change from the segment before it to the one after (log scale) with its interval
  /// at HistoryAnalysis::level (CombineSegments).
  LogChange change;
  /// Decide() on the change (flipped for the I/O rate): regression or improvement make a
  /// change point; pass or inconclusive a drift (too small, or too uncertain, for a change).
  Verdict verdict = Verdict::kInconclusive;
  bool change_point = false;
  std::string reason;
};

/// What AnalyseHistory found.
struct HistoryAnalysis {
  /// Per series (in the order given): its shifts by run index.
  std::vector<std::vector<HistoryShift>> shifts;
  /// The confidence of each change's interval: 1 - significance / series (Bonferroni over
  /// the series, as compare splits its confidence over metrics and directions).
  double level = 0;
  /// The joint test: exact (every order of the runs enumerated) or not, and the smallest
  /// p-value it could give on these runs.
  bool exact = false;
  double smallest_p = 1;
};

/// Finds the level shifts of `series` jointly (FindJointChangePoints: one significance over
/// all of them) and judges each by compare's rules: a change point where the ratio of the
/// levels is at least 1 + the metric's min_effect and its interval excludes no change.
HistoryAnalysis AnalyseHistory(const std::vector<HistorySeries>& series,
                               const ChangePointOptions& options);

}  // namespace fiohist
