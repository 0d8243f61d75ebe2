#include "log/gzip_inflater.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/test_util.h"

namespace fiohist {
namespace {

std::string Text() {
  std::string t;
  for (int i = 0; i < 2000; ++i) t += std::to_string(i * 1000) + ", 1, 4096, 0, 5, 17\n";
  return t;
}

// Input a few bytes at a time and output into a small buffer: what comes out is the text,
// and the member ends once, with nothing of the input left over.
TEST(GzipInflaterTest, StreamsThroughSmallPieces) {
  const std::string text = Text(), gz = GzipText(text);
  GzipInflater z;
  std::string got;
  std::vector<char> out(1000);
  size_t fed = 0;
  bool ended = false;
  std::string error;
  while (!ended) {
    if (z.avail_in() == 0) {
      ASSERT_LT(fed, gz.size());
      const size_t n = std::min<size_t>(37, gz.size() - fed);
      z.SetInput(reinterpret_cast<const unsigned char*>(gz.data()) + fed, n);
      fed += n;
    }
    size_t made = 0;
    const GzipInflater::Result r = z.Inflate(out.data(), out.size(), &made, &error);
    ASSERT_NE(r, GzipInflater::Result::kError) << error;
    got.append(out.data(), made);
    ended = r == GzipInflater::Result::kMemberEnd;
  }
  EXPECT_EQ(got, text);
  EXPECT_EQ(fed - z.avail_in(), gz.size());
}

TEST(GzipInflaterTest, BadCheckValueIsNamedAsZlibNamesIt) {
  std::string gz = GzipText(Text());
  gz[gz.size() - 6] ^= 0x55;  // the CRC32 of the trailer
  GzipInflater z;
  z.SetInput(reinterpret_cast<const unsigned char*>(gz.data()), gz.size());
  std::vector<char> out(Text().size() + 100);
  size_t made = 0;
  std::string error;
  GzipInflater::Result r = GzipInflater::Result::kOk;
  for (int i = 0; i < 100 && r == GzipInflater::Result::kOk; ++i) {
    r = z.Inflate(out.data(), out.size(), &made, &error);
  }
  EXPECT_EQ(r, GzipInflater::Result::kError);
  EXPECT_EQ(error, "incorrect data check");
}

TEST(GzipInflaterTest, EngineIsNamed) {
  const std::string engine = GzipInflater::Engine();
  EXPECT_TRUE(engine == "igzip" || engine == "zlib") << engine;
}

}  // namespace
}  // namespace fiohist
