#include "compat/python_text.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace compat {
namespace {

TEST(PythonText, IntLikePython) {
  int64_t v = 0;
  EXPECT_TRUE(ParsePythonInt(" -42 ", &v));
  EXPECT_EQ(v, -42);
  EXPECT_FALSE(ParsePythonInt("4.2", &v));
  EXPECT_FALSE(ParsePythonInt("", &v));
  EXPECT_FALSE(ParsePythonInt("99999999999999999999", &v));
}

TEST(PythonText, FloatLikePython) {
  double v = 0;
  EXPECT_TRUE(ParsePythonFloat("99.9", &v));
  EXPECT_EQ(v, 99.9);
  EXPECT_TRUE(ParsePythonFloat("1e1", &v));
  EXPECT_EQ(v, 10.0);
  EXPECT_FALSE(ParsePythonFloat("0x10", &v));
  EXPECT_FALSE(ParsePythonFloat("9o", &v));
}

TEST(PythonText, PercentFormats) {
  // '%d' % 592.9 == '592'; '%.3f' % 0.0005 == '0.001' (correct rounding of the binary value:
  // 0.0005 is slightly above); '%.0f' % 2.5 == '2'.
  EXPECT_EQ(PythonIntegerPart(592.9), "592");
  EXPECT_EQ(PythonIntegerPart(-1.5), "-1");
  EXPECT_EQ(PythonFixed(0.0005, 3), "0.001");
  EXPECT_EQ(PythonFixed(2.5, 0), "2");
  EXPECT_EQ(PythonFixed(351130.9484, 3), "351130.948");
}

}  // namespace
}  // namespace compat
}  // namespace fiohist
