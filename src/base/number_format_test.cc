#include "base/number_format.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

namespace fiohist {
namespace {

std::string Repr(double v) {
  std::string s;
  AppendPythonRepr(&s, v);
  return s;
}

TEST(NumberFormat, PythonRepr) {
  EXPECT_EQ(Repr(1.0), "1.0");
  EXPECT_EQ(Repr(0.6), "0.6");
  EXPECT_EQ(Repr(333.15617391304386), "333.15617391304386");
  EXPECT_EQ(Repr(4096.000000000278), "4096.000000000278");
  EXPECT_EQ(Repr(5505.024), "5505.024");
  EXPECT_EQ(Repr(1e-05), "1e-05");
  EXPECT_EQ(Repr(0.0001), "0.0001");
  EXPECT_EQ(Repr(1e16), "1e+16");
  EXPECT_EQ(Repr(1.5e16), "1.5e+16");
  EXPECT_EQ(Repr(123456789012345.0), "123456789012345.0");
  EXPECT_EQ(Repr(0.0), "0.0");
  EXPECT_EQ(Repr(-2.5), "-2.5");
}

TEST(NumberFormat, Shortest) {
  std::string s;
  AppendShortest(&s, 0.1);
  EXPECT_EQ(s, "0.1");
}

// WriteShortest's fast path must write exactly what std::to_chars writes: values of every
// kind fiohist prints (weighted counts, latencies, rates, whole numbers, tiny and huge
// ones, negatives) and random bit patterns.
TEST(NumberFormat, WriteShortestIsToChars) {
  std::mt19937_64 rng(5);
  auto check = [](double v) {
    if (!std::isfinite(v)) return;
    char want[64], got[kShortestMaxBytes];
    const std::string a(want, std::to_chars(want, want + sizeof(want), v).ptr);
    const std::string b(got, WriteShortest(got, v));
    ASSERT_EQ(a, b) << "bits " << std::hex << [&] {
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      return bits;
    }();
  };
  for (double v : {0.0, -0.0, 1.0, 0.1, 100.0, 1e15, 1e15 - 1, 999999999999999.0, 1e-7,
                   9.99999999999e-8, 123456789012345.0, 1234567890123456.0, 5e-324, 1e308,
                   0.30000000000000004, 2.5, -2.5, 1e21, 1e22, 1e23}) {
    check(v);
  }
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < 300000; ++i) {
    const double c = static_cast<double>(rng() % 100000);
    check(c * unit(rng));                            // overlap-weighted counts
    check(c * (static_cast<double>(rng() % 1000) / 1000.0));
    check(static_cast<double>(rng() % 100000000) / 1000.0);  // latencies in us
    check(c / (static_cast<double>(1 + rng() % 5000) / 1000.0));  // rates
    check(-c * unit(rng));
    check(std::ldexp(unit(rng), static_cast<int>(rng() % 120) - 60));
    uint64_t bits = rng();
    double any;
    std::memcpy(&any, &bits, sizeof any);
    check(any);
  }
}

}  // namespace
}  // namespace fiohist
