#include "compat/numpy_math.h"

#include <algorithm>
#include <cmath>

namespace fiohist {
namespace compat {

double NumpyPairwiseSum(const double* a, size_t n) {
  if (n < 8) {
    // Summed from -0.0 (numpy's identity for an add reduction); x + -0.0 == x.
    double res = -0.0;
    for (size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (size_t j = 0; j < 8; ++j) r[j] = a[j];
    size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (size_t j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  size_t n2 = n / 2;
  n2 -= n2 % 8;
  return NumpyPairwiseSum(a, n2) + NumpyPairwiseSum(a + n2, n - n2);
}

double NumpyInterp(double x, const double* xp, const double* fp, size_t n) {
  if (std::isnan(x)) return x;
  if (x < xp[0]) return fp[0];
  if (x >= xp[n - 1]) return fp[n - 1];
  // xp[0] <= x < xp[n-1]: the last j with xp[j] <= x exists and j + 1 < n.
  const size_t j = static_cast<size_t>(std::upper_bound(xp, xp + n, x) - xp) - 1;
  if (xp[j] == x) return fp[j];
  const double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
  double v = slope * (x - xp[j]) + fp[j];
  if (std::isnan(v)) {
    v = slope * (x - xp[j + 1]) + fp[j + 1];
    if (std::isnan(v) && fp[j] == fp[j + 1]) v = fp[j];
  }
  return v;
}

}  // namespace compat
}  // namespace fiohist
