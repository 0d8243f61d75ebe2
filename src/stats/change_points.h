// Where a series of runs changed level: E-divisive means with a permutation test, each run
// weighed by how precisely it was measured; several series of the same runs tested together.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fiohist {

/// How change points are searched.
struct ChangePointOptions {
  /// A split is a change point when at most this share of permuted series has as strong
  /// a split (the permutation test's p-value). With several series it holds over all of
  /// them together (FindJointChangePoints).
  double significance = 0.01;
  /// Random permutations per test where the orders of the points are too many to
  /// enumerate (the smallest p-value is then 1 / (permutations + 1); the joint test needs
  /// them fine-grained: a series' p-value below 1/1000 counts once per series). The first
  /// 999 are a first stage: where no series' p-value from them is below twice the
  /// significance, the test stops there.
  int permutations = 9999;
  /// Enumerate every order of the points (an exact p-value) when there are at most this
  /// many (9! = 362880: nine runs).
  uint64_t max_exact_orders = 362880;
  /// Fewest points on each side of a split.
  int min_segment = 3;
  uint64_t seed = 1;
  /// Weigh points by precision (else every point counts the same, as in Otava).
  bool weighted = true;
};

/// One change point: the series' level differs from point `index` on.
struct ChangePoint {
  /// The first point after the change (0-based).
  size_t index = 0;
  /// The points of the segments either side: [lo, index) and [index, hi).
  size_t lo = 0, hi = 0;
  /// The split's statistic (Matteson & James' q-hat, with weights).
  double q = 0;
  double p_value = 1;
  /// Whether p_value comes from every order of the points (else from random ones).
  bool exact = false;
  /// Weighted means of the segment before and after it (on the series' scale).
  double before = 0, after = 0;
};

/// The precision weights: 1 / (se_i^2 + tau^2), normalised to mean 1, where tau^2 is the
/// spread between points that their own intervals do not explain, estimated robustly
/// from successive differences (median of d^2 / (2 * 0.4549), the median of chi-square
/// with 1 df, minus the median se^2), so a step in the series does not inflate it.
/// A point measured far less precisely than the runs differ anyway weighs less; points
/// more precise than that weigh alike (a p99.9 of ten million I/Os is not worth a
/// thousand runs of ten thousand: the runs differ more than that). `tau` receives tau.
std::vector<double> PrecisionWeights(const std::vector<double>& values,
                                     const std::vector<double>& se, double* tau);

/// One series of a joint analysis: log values (so a step is a ratio) and their standard
/// errors (same length; ignored unless options.weighted).
struct ChangePointSeries {
  std::vector<double> values, se;
};

/// What FindJointChangePoints found.
struct JointChangePoints {
  /// Per series (in the order given), its change points by index.
  std::vector<std::vector<ChangePoint>> found;
  /// The first test (is there a change in any series?): exact (every order enumerated) or
  /// from random permutations, and the smallest p-value it could give on these points:
  /// when exact, the share of orders as extreme as the most extreme order (with equal
  /// weights 2 / C(n, n/2): the orders within each side and the mirrored order have the
  /// same statistic); else 1 / (permutations + 1).
  bool exact = false;
  double smallest_p = 1;
};

/// Finds change points in several series of the same points (runs), with one significance
/// over all of them (`options.significance`): E-divisive means (Matteson & James 2014,
/// alpha = 1; as used by Otava and MongoDB's CI, Daly et al. 2020) in a weighted form
/// (each pair's distance counts w_i w_j), where the first split of each series is tested by
/// Westfall & Young's minP permutation test (Westfall & Young 1993, "Resampling-based
/// multiple testing", algorithm 2.8), a single-step test whose statistic is the largest
/// over all series of each series' statistic made a p-value within its own permutation
/// distribution (max-statistic over series on one scale: series of different spread or
/// shape weigh alike): one permutation of the points is applied to every series at once
/// (so their dependence is kept), and a series' adjusted p-value is the share of
/// permutations whose smallest p-value over all series is at most the series' own. Every
/// order is enumerated when there are at most options.max_exact_orders (exact), else
/// options.permutations random ones with p = (b + 1) / (B + 1) (Phipson & Smyth 2010).
/// Statistics equal up to rounding (sums added in another order) count as ties.
/// A series whose adjusted p-value is at most the significance has its first change
/// point; then, as E-divisive goes on, the best split of any of its segments is tested by
/// permuting the points of that segment, until one is not significant (a further change
/// of a series known to change; not corrected over series). Assumes points are
/// exchangeable under no change (independent runs).
JointChangePoints FindJointChangePoints(const std::vector<ChangePointSeries>& series,
                                        const ChangePointOptions& options);

/// FindJointChangePoints of one series (`values`, `se`): its change points by index.
std::vector<ChangePoint> FindChangePoints(const std::vector<double>& values,
                                          const std::vector<double>& se,
                                          const ChangePointOptions& options);

/// The smallest p-value a permutation test of the best split can give on n points (at
/// least `min_segment` either side), whatever the values and weights: 2 / C(n, n/2), the
/// share of orders that split the same two sets at the middle (the orders within each side
/// and the mirrored order have the same statistic, which depends on the sets alone). 1 when
/// no split is allowed. 9 points: 1/63 = 0.016; 10: 0.0079; 12: 0.0022.
double SmallestPermutationP(size_t n, int min_segment);

/// The statistic of a series' best split of `x` (weights `w`, at least `min_segment` on
/// each side): Matteson & James' q-hat with weights; `at` receives the points before it.
/// -1 when no split is allowed. (For tests: the permutation tests enumerate it.)
double BestSplitStatistic(const std::vector<double>& x, const std::vector<double>& w,
                          int min_segment, size_t* at);

}  // namespace fiohist
