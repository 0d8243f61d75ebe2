#include "base/varint.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace fiohist {
namespace {

TEST(Varint, RoundTripsUnsignedSignedAndDoubles) {
  std::string s;
  const uint64_t us[] = {0, 1, 127, 128, 300, uint64_t{1} << 40, UINT64_MAX};
  const int64_t ss[] = {0, -1, 1, -64, 64, INT64_MIN, INT64_MAX};
  const double ds[] = {0.0, 1.0, 12345.0, 0.25, 1e300, -0.0, 4503599627370496.0, 1.0 / 3};
  for (uint64_t v : us) PutVarint(v, &s);
  for (int64_t v : ss) PutSignedVarint(v, &s);
  for (double v : ds) PutDouble(v, &s);
  const char* p = s.data();
  const char* end = s.data() + s.size();
  for (uint64_t v : us) {
    uint64_t got = 0;
    ASSERT_TRUE(GetVarint(&p, end, &got));
    EXPECT_EQ(got, v);
  }
  for (int64_t v : ss) {
    int64_t got = 0;
    ASSERT_TRUE(GetSignedVarint(&p, end, &got));
    EXPECT_EQ(got, v);
  }
  for (double v : ds) {
    double got = 0;
    ASSERT_TRUE(GetDouble(&p, end, &got));
    EXPECT_EQ(std::memcmp(&got, &v, sizeof v), 0) << v;
  }
  EXPECT_EQ(p, end);
}

TEST(Varint, EncodeWritesWhatPutAppends) {
  for (uint64_t v : {uint64_t{0}, uint64_t{127}, uint64_t{128}, uint64_t{1} << 63, UINT64_MAX}) {
    std::string put;
    PutVarint(v, &put);
    char room[kMaxVarintBytes];
    const char* end = EncodeVarint(v, room);
    EXPECT_EQ(std::string(static_cast<const char*>(room), end), put) << v;
  }
}

TEST(Varint, CutInputIsRefused) {
  std::string s;
  PutVarint(uint64_t{1} << 40, &s);
  PutDouble(0.5, &s);
  const char* p = s.data();
  uint64_t v;
  EXPECT_FALSE(GetVarint(&p, s.data() + 2, &v));
  p = s.data();
  ASSERT_TRUE(GetVarint(&p, s.data() + s.size(), &v));
  double d;
  EXPECT_FALSE(GetDouble(&p, s.data() + s.size() - 1, &d));
}

}  // namespace
}  // namespace fiohist
