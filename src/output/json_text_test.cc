#include "output/json_text.h"

#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

namespace fiohist {
namespace {

// The text std::to_chars gives, with ".0" after whole numbers: what documents promise.
std::string ReferenceDouble(double v) {
  char buf[64];
  char* end = std::to_chars(buf, buf + sizeof(buf), v).ptr;
  std::string s(buf, end);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string Formatted(double v) {
  char buf[64];
  return std::string(buf, FormatJsonDouble(buf, v));
}

TEST(JsonText, DoublesAreExactlyToCharsText) {
  std::mt19937_64 g(7);
  for (int i = 0; i < 200000; ++i) {
    uint64_t bits = g();
    double any;
    std::memcpy(&any, &bits, sizeof any);
    if (std::isfinite(any)) {
      ASSERT_EQ(Formatted(any), ReferenceDouble(any)) << any;
    }
    // Short decimals and weighted counts, where the fast path answers, and their neighbours.
    const double w = static_cast<double>(g() % 1000000) / 1e6 * static_cast<double>(g() % 5000);
    const double dec = static_cast<double>(g() % 100000000) / std::pow(10.0, g() % 16);
    for (double v : {w, dec, std::nextafter(dec, 0.0), std::nextafter(dec, 1e300), -dec}) {
      ASSERT_EQ(Formatted(v), ReferenceDouble(v)) << v;
    }
  }
  for (double v : {0.0, -0.0, 1.0, 1e-7, 9.99e-8, 1e14, 1e15, 999999999999999.9, 1e16, 1e21,
                   1e22, 1e23, 0.1, 0.3, 100000.0, 1000000.0, 12000000.0, 5e-324, 1.5e300}) {
    EXPECT_EQ(Formatted(v), ReferenceDouble(v)) << v;
    EXPECT_EQ(Formatted(-v), ReferenceDouble(-v)) << v;
  }
  EXPECT_EQ(Formatted(1000000.0), "1e+06");  // to_chars' choice, kept as it was
  EXPECT_EQ(Formatted(2.0), "2.0");
}

// Every byte, escaped as rapidjson's Writer escapes it: documents built with json_text and
// with the Writer (the run document) stay byte-identical.
TEST(JsonText, StringsAreEscapedAsRapidjsonDoes) {
  std::string every_byte;
  for (int c = 0; c < 256; ++c) every_byte += static_cast<char>(c);
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.String(every_byte.data(), static_cast<rapidjson::SizeType>(every_byte.size()));
  EXPECT_EQ(json_text::StringText(every_byte.data(), every_byte.size()),
            std::string(buf.GetString(), buf.GetSize()));
  EXPECT_LE(json_text::StringText(every_byte.data(), every_byte.size()).size(),
            json_text::StringRoom(every_byte.size()));
  EXPECT_EQ(json_text::KeyText("p99_9"), "\"p99_9\":");
}

// Numbers that are not finite are null; lists are written in place.
TEST(JsonText, NumbersAndLists) {
  char buf[256];
  EXPECT_EQ(std::string(buf, json_text::PutNum(buf, NAN)), "null");
  EXPECT_EQ(std::string(buf, json_text::PutNum(buf, 2.5)), "2.5");
  const int64_t cols[] = {3, 4, 5, 9, 10, 20};
  EXPECT_EQ(std::string(buf, json_text::PutRuns(buf, 6, [&](size_t i) { return cols[i]; })),
            "[3,3,4,2,10,1]");
  EXPECT_EQ(std::string(buf, json_text::PutRuns(buf, 0, [&](size_t i) { return cols[i]; })),
            "[]");
  EXPECT_EQ(std::string(buf, json_text::PutInts(buf, 3, [&](size_t i) { return cols[i] * 2; })),
            "[6,8,10]");
  EXPECT_EQ(std::string(buf, json_text::PutInts(buf, 0, [&](size_t i) { return cols[i]; })),
            "[]");
}

}  // namespace
}  // namespace fiohist
