#include "es/push_tuning.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(PushTuning, DataNodesFromHealth) {
  int n = 0;
  EXPECT_TRUE(ParseDataNodes(R"({"number_of_data_nodes":3})", &n));
  EXPECT_EQ(n, 3);
  EXPECT_FALSE(ParseDataNodes(R"({"status":"green"})", &n));
  EXPECT_FALSE(ParseDataNodes("not json", &n));
}

TEST(PushTuning, OnePrimaryPerDataNodeUpToTheCap) {
  EXPECT_EQ(ShardsForNodes(0), 1);
  EXPECT_EQ(ShardsForNodes(1), 1);
  EXPECT_EQ(ShardsForNodes(3), 3);
  EXPECT_EQ(ShardsForNodes(100), kMaxShardsFromNodes);
}

TEST(PushTuning, RefreshIntervalsPerIndex) {
  // GET /a,b/_settings/index.refresh_interval?flat_settings=true: b has none of its own.
  auto v = ParseRefreshIntervals(
      R"({"a":{"settings":{"index.refresh_interval":"5s"}},"b":{"settings":{}}})");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], std::make_pair(std::string("a"), std::string("5s")));
  EXPECT_EQ(v[1], std::make_pair(std::string("b"), std::string()));
  EXPECT_TRUE(ParseRefreshIntervals("[]").empty());
}

}  // namespace
}  // namespace fiohist
