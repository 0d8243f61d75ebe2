// Where a series of runs changed level: E-divisive means with a permutation test, each run
// weighed by how precisely it was measured.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fiohist {

/// How change points are searched.
struct ChangePointOptions {
  /// A split is a change point when at most this share of permuted series has as strong
  /// a split (the permutation test's p-value).
  double significance = 0.01;
  /// Permutations per test (the smallest p-value is 1 / (permutations + 1)).
  int permutations = 999;
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
  /// The split's statistic (Matteson & James' q-hat, with weights).
  double q = 0;
  double p_value = 1;
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

/// Finds change points in `values` (use log values, so a step is a ratio) with standard
/// errors `se` (same length; ignored unless options.weighted). E-divisive means
/// (Matteson & James 2014, alpha = 1; as used by Otava and MongoDB's CI, Daly et al.
/// 2020): the split maximising the energy statistic between the points before and after
/// it, in a weighted form (each pair's distance counts w_i w_j: the energy distance of the
/// two weighted samples); its significance by a permutation test (points and weights
/// permuted together); then recursively the best split of any segment, until the best is
/// not significant. Returns them by index. Assumes points are independent given their
/// levels (one per run).
std::vector<ChangePoint> FindChangePoints(const std::vector<double>& values,
                                          const std::vector<double>& se,
                                          const ChangePointOptions& options);

}  // namespace fiohist
