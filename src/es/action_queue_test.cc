#include "es/action_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <thread>
#include <vector>

namespace fiohist {
namespace {

TEST(ActionQueue, HandsOverInOrderThroughASmallBuffer) {
  ActionQueue q(3);
  std::vector<std::string> got;
  std::thread consumer([&] {
    std::deque<BulkAction> taken;
    while (q.PopAll(&taken)) {
      EXPECT_LE(taken.size(), 3u);
      for (; !taken.empty(); taken.pop_front()) got.push_back(taken.front().id);
    }
  });
  for (int i = 0; i < 100; ++i) {
    BulkAction a;
    a.id = std::to_string(i);
    ASSERT_TRUE(q.Push(std::move(a)).ok());
  }
  q.Close();
  consumer.join();
  ASSERT_EQ(got.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(got[static_cast<size_t>(i)], std::to_string(i));
}

TEST(ActionQueue, AFailedSenderStopsTheProducer) {
  ActionQueue q(2);
  std::thread consumer([&] {
    std::deque<BulkAction> taken;
    q.PopAll(&taken);
    q.Fail(Status::Error("server gone"));
  });
  Status s;
  for (int i = 0; i < 1000 && s.ok(); ++i) s = q.Push(BulkAction());
  consumer.join();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "server gone");
}

// The byte bound holds whatever the action bound: a producer waits once ~max_bytes are
// queued, and one action larger than that still goes through.
TEST(ActionQueue, BoundedByBytes) {
  ActionQueue q(1000, 100);
  size_t most = 0;
  std::vector<size_t> sizes;
  std::thread consumer([&] {
    std::deque<BulkAction> taken;
    while (q.PopAll(&taken)) {
      size_t bytes = 0;
      for (const BulkAction& a : taken) bytes += a.source.size();
      most = std::max(most, bytes);
      for (; !taken.empty(); taken.pop_front()) sizes.push_back(taken.front().source.size());
    }
  });
  for (int i = 0; i < 200; ++i) {
    BulkAction a;
    a.source.assign(i == 50 ? 1000 : 30, 'x');
    ASSERT_TRUE(q.Push(std::move(a)).ok());
  }
  q.Close();
  consumer.join();
  EXPECT_EQ(sizes.size(), 200u);
  EXPECT_EQ(sizes[50], 1000u);
  EXPECT_LE(most, 1000u + 120u);  // below the bound plus one action, or the big one alone
}

}  // namespace
}  // namespace fiohist
