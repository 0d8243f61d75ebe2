#include "queued_indexer.h"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

namespace fiohist {
namespace {

BulkAction Doc(int i) {
  BulkAction a;
  a.index = "idx";
  a.id = "id" + std::to_string(i);
  a.source = R"({"n":)" + std::to_string(i) + "}";
  return a;
}

std::string Ok(size_t items) {
  std::string s = R"({"errors":false,"items":[)";
  for (size_t i = 0; i < items; ++i) s += std::string(i ? "," : "") + R"({"index":{"status":201}})";
  return s + "]}";
}

size_t Lines(const std::string& body) {
  size_t n = 0;
  for (char c : body) n += c == '\n';
  return n;
}

// Every action reaches the server once, in order, in bounded batches, then the refresh.
TEST(QueuedIndexer, SendsEverythingInOrderFromItsThread) {
  std::mutex m;
  std::vector<std::string> bodies, paths;
  BulkOptions o;
  o.max_batch_docs = 7;
  BulkIndexer bulk(
      [&](const std::string&, const std::string& path, const std::string& body) {
        std::lock_guard<std::mutex> lock(m);
        paths.push_back(path);
        bodies.push_back(body);
        return HttpResult{200, body.empty() ? "{}" : Ok(Lines(body) / 2), ""};
      },
      [](double) {}, o);
  QueuedIndexer q(&bulk, o);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(q.Add(Doc(i)).ok());
  ASSERT_TRUE(q.Finish().ok());
  EXPECT_EQ(bulk.stats().indexed, 100u);
  std::string all;
  for (size_t i = 0; i + 1 < bodies.size(); ++i) {
    EXPECT_LE(Lines(bodies[i]), 14u);
    all += bodies[i];
  }
  size_t at = 0;
  for (int i = 0; i < 100; ++i) {
    at = all.find("\"id" + std::to_string(i) + "\"", at);
    ASSERT_NE(at, std::string::npos) << i;
  }
  EXPECT_EQ(paths.back(), "/idx/_refresh?ignore_unavailable=true");
}

// A server that stops answering ends the producer's Add() with that error.
TEST(QueuedIndexer, AFatalErrorStopsTheProducer) {
  BulkOptions o;
  o.max_batch_docs = 2;
  o.max_attempts = 1;
  BulkIndexer bulk(
      [](const std::string&, const std::string&, const std::string&) {
        return HttpResult{0, "", "refused"};
      },
      [](double) {}, o);
  QueuedIndexer q(&bulk, o);
  Status s;
  for (int i = 0; i < 100000 && s.ok(); ++i) s = q.Add(Doc(i));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("stopped answering"), std::string::npos) << s.message();
  EXPECT_FALSE(q.Finish().ok());
  EXPECT_GT(bulk.stats().failed, 0u);
}

}  // namespace
}  // namespace fiohist
