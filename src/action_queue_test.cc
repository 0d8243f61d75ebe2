#include "action_queue.h"

#include <gtest/gtest.h>

#include <thread>

namespace fiohist {
namespace {

TEST(ActionQueue, HandsOverInOrderThroughASmallBuffer) {
  ActionQueue q(3);
  std::vector<std::string> got;
  std::thread consumer([&] {
    BulkAction a;
    while (q.Pop(&a)) got.push_back(a.id);
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
    BulkAction a;
    q.Pop(&a);
    q.Fail(Status::Error("server gone"));
  });
  Status s;
  for (int i = 0; i < 1000 && s.ok(); ++i) s = q.Push(BulkAction());
  consumer.join();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "server gone");
}

}  // namespace
}  // namespace fiohist
