#include "compat/numpy_math.h"

#include <gtest/gtest.h>

#include <vector>

namespace fiohist {
namespace compat {
namespace {

// Expected values printed by numpy 1.24.2 (Debian bookworm) for the same arrays.
TEST(NumpyPairwiseSum, MatchesNumpyWhereSequentialSumsDiffer) {
  std::vector<double> a = {1e16};
  for (int i = 0; i < 200; ++i) a.push_back(1.0);
  for (int i = 0; i < 50; ++i) a.push_back(0.1 * i);
  EXPECT_EQ(NumpyPairwiseSum(a.data(), a.size()), 1.000000000000031e+16);
  double sequential = 0;
  for (double v : a) sequential += v;
  EXPECT_EQ(sequential, 1.0000000000000116e+16);  // what a plain loop gives instead

  std::vector<double> b(1856, 0.1);
  EXPECT_EQ(NumpyPairwiseSum(b.data(), b.size()), 185.60000000000002);
}

TEST(NumpyPairwiseSum, SmallArrays) {
  const double a[] = {1.0, 2.0, 3.0};
  EXPECT_EQ(NumpyPairwiseSum(a, 3), 6.0);
  EXPECT_EQ(NumpyPairwiseSum(a, 0), 0.0);
}

TEST(NumpyInterp, PlateausEdgesAndOutside) {
  // np.interp([-1, 0, 5, 10, 30, 99.5, 100, 101], xp, fp) with repeated xp values.
  const double xp[] = {0, 0, 10, 10, 50, 100};
  const double fp[] = {1, 2, 3, 4, 5, 6};
  const double x[] = {-1, 0, 5, 10, 30, 99.5, 100, 101};
  const double want[] = {1.0, 2.0, 2.5, 4.0, 4.5, 5.99, 6.0, 6.0};
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(NumpyInterp(x[i], xp, fp, 6), want[i]) << "x = " << x[i];
  }
}

}  // namespace
}  // namespace compat
}  // namespace fiohist
