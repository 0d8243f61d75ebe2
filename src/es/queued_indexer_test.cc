#include "es/queued_indexer.h"

#include <gtest/gtest.h>

#include <memory>
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
  QueuedIndexer q({&bulk}, o);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(q.Add(Doc(i)).ok());
  ASSERT_TRUE(q.Finish().ok());
  EXPECT_EQ(q.stats().indexed, 100u);
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
  QueuedIndexer q({&bulk}, o);
  Status s;
  for (int i = 0; i < 100000 && s.ok(); ++i) s = q.Add(Doc(i));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("stopped answering"), std::string::npos) << s.message();
  EXPECT_FALSE(q.Finish().ok());
  EXPECT_GT(bulk.stats().failed, 0u);
}

// A scripted server for several lanes: records every request (thread-safe) and answers
// each bulk item with `item_status`.
struct Server {
  std::mutex m;
  std::vector<std::string> bodies, paths;
  long item_status = 201;
  BulkTransport transport() {
    return [this](const std::string&, const std::string& path, const std::string& body) {
      std::lock_guard<std::mutex> lock(m);
      paths.push_back(path);
      bodies.push_back(body);
      if (body.empty()) return HttpResult{200, "{}", ""};
      std::string r = R"({"errors":false,"items":[)";
      for (size_t i = 0; i < Lines(body) / 2; ++i) {
        r += std::string(i ? "," : "") + R"({"index":{"status":)" + std::to_string(item_status) +
             "}}";
      }
      return HttpResult{200, r + "]}", ""};
    };
  }
};

// With three lanes every action is sent once; the versions of one document keep their
// order (same lane); the indices of all lanes are refreshed once, after every batch.
TEST(QueuedIndexer, LanesSendEverythingOnceAndKeepEachDocumentsOrder) {
  Server server;
  BulkOptions o;
  o.max_batch_docs = 5;
  std::vector<std::unique_ptr<BulkIndexer>> indexers;
  std::vector<BulkIndexer*> lanes;
  for (int i = 0; i < 3; ++i) {
    indexers.push_back(std::make_unique<BulkIndexer>(
        server.transport(), [](double) {}, o));
    lanes.push_back(indexers.back().get());
  }
  QueuedIndexer q(lanes, o);
  for (int version = 0; version < 3; ++version) {
    for (int i = 0; i < 200; ++i) {
      BulkAction a = Doc(i);
      a.index = i == 7 ? "single" : "idx";  // one index touched by one lane only
      a.source = R"({"v":)" + std::to_string(version) + "}";
      ASSERT_TRUE(q.Add(a).ok());
    }
  }
  ASSERT_TRUE(q.Finish().ok());
  EXPECT_EQ(q.stats().indexed, 600u);
  EXPECT_GE(q.stats().requests, 120u);
  int used_lanes = 0;
  for (const auto& i : indexers) used_lanes += i->stats().indexed > 0;
  EXPECT_EQ(used_lanes, 3);
  // Last request: one refresh of both indices; no other refresh.
  ASSERT_FALSE(server.paths.empty());
  EXPECT_EQ(server.paths.back(), "/idx,single/_refresh?ignore_unavailable=true");
  size_t refreshes = 0;
  for (const std::string& p : server.paths) refreshes += p.find("_refresh") != std::string::npos;
  EXPECT_EQ(refreshes, 1u);
  // Each document's versions arrive in order.
  for (int i = 0; i < 200; ++i) {
    const std::string id = "\"_id\":\"id" + std::to_string(i) + "\"";
    int seen = 0;
    for (const std::string& body : server.bodies) {
      for (size_t at = body.find(id); at != std::string::npos; at = body.find(id, at + 1)) {
        const size_t source = body.find('\n', at) + 1;
        EXPECT_EQ(body.compare(source, 6, R"({"v":)" + std::to_string(seen)), 0) << id;
        ++seen;
      }
    }
    EXPECT_EQ(seen, 3) << id;
  }
}

// A fatal error on one lane stops the producer, and every action added is accounted for:
// acknowledged by the server or counted as failed, none lost.
TEST(QueuedIndexer, AFatalErrorOnOneLaneIsCountedOnAll) {
  Server good;
  BulkOptions o;
  o.max_batch_docs = 3;
  o.max_attempts = 1;
  BulkIndexer healthy(
      good.transport(), [](double) {}, o);
  BulkIndexer broken(
      [](const std::string&, const std::string&, const std::string&) {
        return HttpResult{401, R"({"error":"no"})", ""};
      },
      [](double) {}, o);
  QueuedIndexer q({&healthy, &broken}, o);
  Status s;
  uint64_t added = 0;
  for (int i = 0; i < 100000 && s.ok(); ++i) {
    s = q.Add(Doc(i));
    if (s.ok()) ++added;
  }
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(q.Finish().ok());
  const BulkStats st = q.stats();
  EXPECT_GT(st.failed, 0u);
  EXPECT_EQ(st.indexed + st.failed, added);
  for (const std::string& p : good.paths) EXPECT_EQ(p.find("_refresh"), std::string::npos);
}

}  // namespace
}  // namespace fiohist
