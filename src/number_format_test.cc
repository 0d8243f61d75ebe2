#include "number_format.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace fiohist
