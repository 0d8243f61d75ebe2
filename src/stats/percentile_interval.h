// Distribution-free confidence intervals for quantiles, from order statistics.
//
// Method: for n independent draws and the p-quantile x_p, the number B of draws <= x_p is
// Binomial(n, p), so the r-th smallest draw X(r) is <= x_p exactly when B >= r. Ranks
// l < u with P(l <= B < u) >= 1 - alpha give P(X(l) <= x_p < X(u)) >= 1 - alpha (W. J.
// Conover, Practical Nonparametric Statistics, 3rd ed., 1999, section 3.2; Hahn & Meeker,
// Statistical Intervals, 1991, section 5.2). Both tails get at most alpha/2. The binomial
// cdf comes from Boost.Math (regularized incomplete beta).
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace fiohist {

/// The confidence level used unless --confidence says otherwise.
constexpr double kDefaultConfidence = 0.95;
/// Passed as the confidence to ComputeStats: no intervals (where only point estimates are
/// wanted, e.g. bootstrap resamples).
constexpr double kNoIntervals = 0;

/// Checks a confidence level: it must lie strictly between 0 and 1.
Status CheckConfidence(double confidence);

/// Parses a --confidence value ("0.95", or "95%"); fails naming what was expected.
Status ParseConfidence(const std::string& text, double* confidence);

/// The ranks (1-based, among n I/Os sorted by latency) of an interval's bounds.
struct RankInterval {
  /// Rank of the lower bound's I/O, largest with P(B < lower) <= alpha/2; 0 when even the
  /// fastest I/O is no lower bound at that level (the bound is then 0 ns).
  int64_t lower = 0;
  /// Rank of the upper bound's I/O, smallest with P(B >= upper) <= alpha/2; n + 1 when even
  /// the slowest I/O is no upper bound: the quantile rests on too few I/Os.
  int64_t upper = 0;
};

/// The most I/Os an interval is computed for (2^62): more are taken as this many.
constexpr int64_t kMaxIntervalIos = int64_t{1} << 62;

/// How many whole I/Os a weighted count stands for: records straddling quanta give
/// fractional counts, so n is the count rounded down (only whole I/Os count, which can
/// only widen an interval), with a relative tolerance of 1e-9 for sums of fractions that
/// come out a hair below a whole number; at most kMaxIntervalIos.
int64_t WholeIos(double weighted);

/// The interval ranks for quantile `p` (0..1) of `n` I/Os at `confidence` (0..1, checked
/// by the caller). Exact: searches the binomial cdf, starting from a Cornish-Fisher guess.
/// Results are cached per thread (quanta of a steady load repeat n).
RankInterval QuantileRanks(int64_t n, double p, double confidence);

/// Where QuantileRanks(n, p, confidence) must lie, from the exact ranks at the grid points
/// n0 <= n < n1 around n (every n below 256, else 128 points per power of two): from n to
/// n + 1 each rank stays or grows by one (B(n+1) is B(n) plus one Bernoulli draw, so its cdf
/// is at most B(n)'s at k and at least B(n)'s at k - 1). Where the whole bracket falls in
/// one bucket, the bound is known without searching the cdf; the grid's ranks are cached, so
/// a run pays for a few hundred searches, not one per quantum.
struct RankBracket {
  int64_t lower_min = 0, lower_max = 0;
  int64_t upper_min = 0, upper_max = 0;
};
RankBracket QuantileRankBracket(int64_t n, double p, double confidence);

/// Whether the exact lower rank of QuantileRanks(n, p, confidence) is at least `rank`:
/// P(B <= rank - 1) <= alpha/2, one cdf evaluation. A caller that needs only the bucket of
/// a bound bisects within its RankBracket with this, instead of searching the whole cdf.
bool LowerRankAtLeast(int64_t n, double p, double confidence, int64_t rank);

/// Whether the exact upper rank of QuantileRanks(n, p, confidence) is at most `rank`:
/// P(B >= rank) <= alpha/2, one cdf evaluation (see LowerRankAtLeast).
bool UpperRankAtMost(int64_t n, double p, double confidence, int64_t rank);

/// The confidence actually reached by `r` for `n` and `p`: P(lower <= B < upper).
double RanksCoverage(int64_t n, double p, RankInterval r);

}  // namespace fiohist
