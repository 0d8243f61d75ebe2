// The two numpy reductions fiologparser_hist.py's numbers go through, reproduced to the
// last bit: a drop-in's output is byte-identical only if its float sums are done in the
// same order.
#pragma once

#include <cstddef>

namespace fiohist {
namespace compat {

/// np.sum of a contiguous float64 array: numpy's pairwise summation (blocks of at most
/// 128 summed with 8 accumulators, larger arrays halved at a multiple of 8), which numpy
/// uses for its add reduction (numpy/core/src/umath/loops_utils.h.src, pairwise_sum).
double NumpyPairwiseSum(const double* a, size_t n);

/// np.interp(x, xp, fp) for one x, with xp non-decreasing and n >= 1: fp[0] left of xp,
/// fp[n-1] right of it and at xp[n-1]; else j is the last index with xp[j] <= x, and the
/// value is fp[j] when x == xp[j], else the line through j and j + 1, evaluated as numpy
/// does (slope * (x - xp[j]) + fp[j]; numpy/core/src/multiarray/compiled_base.c).
double NumpyInterp(double x, const double* xp, const double* fp, size_t n);

}  // namespace compat
}  // namespace fiohist
