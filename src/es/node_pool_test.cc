// Unit tests of NodePool: the order nodes are tried in, dead nodes skipped and brought back.
#include "es/node_pool.h"

#include <gtest/gtest.h>

#include <thread>

namespace fiohist {
namespace {

TEST(NodePool, LiveFirstInRingOrderThenDead) {
  NodePool pool({"a", "b", "c"}, std::chrono::milliseconds(60000));
  EXPECT_EQ(pool.Order(1), (std::vector<size_t>{1, 2, 0}));
  EXPECT_TRUE(pool.MarkDead(2));
  EXPECT_FALSE(pool.MarkDead(2));  // already known: said once
  EXPECT_EQ(pool.Order(1), (std::vector<size_t>{1, 0, 2}));
  EXPECT_TRUE(pool.MarkDead(0));
  EXPECT_EQ(pool.Order(0), (std::vector<size_t>{1, 2, 0}));  // dead: the earliest failed first
  pool.MarkAlive(2);
  EXPECT_EQ(pool.Order(0), (std::vector<size_t>{1, 2, 0}));
}

TEST(NodePool, DeadNodesComeBackAfterAWhile) {
  NodePool pool({"a", "b"}, std::chrono::milliseconds(20));
  pool.MarkDead(0);
  EXPECT_EQ(pool.Order(0), (std::vector<size_t>{1, 0}));
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  EXPECT_EQ(pool.Order(0), (std::vector<size_t>{0, 1}));
}

TEST(NodePool, StartsGoRound) {
  NodePool pool({"a", "b", "c"}, std::chrono::milliseconds(1000));
  EXPECT_EQ(pool.NextStart(), 0u);
  EXPECT_EQ(pool.NextStart(), 1u);
  EXPECT_EQ(pool.NextStart(), 2u);
  EXPECT_EQ(pool.NextStart(), 0u);
}

}  // namespace
}  // namespace fiohist
