#include "es/es_sender.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

// One lane per request in flight, each on a connection of its own; nothing is sent before
// an action is added (the server here does not exist).
TEST(EsSender, SenderOpensOneLanePerRequestInFlight) {
  std::unique_ptr<HttpClient> client;
  HttpOptions http;
  http.urls = {"http://127.0.0.1:9"};
  ASSERT_TRUE(HttpClient::Create(http, &client).ok());
  BulkOptions bulk;
  bulk.concurrent_requests = 3;
  bulk.refresh = false;
  std::unique_ptr<EsSender> sender;
  ASSERT_TRUE(EsSender::Create(client.get(), bulk, {}, &sender).ok());
  EXPECT_TRUE(sender->queue().Finish().ok());
  EXPECT_EQ(sender->queue().stats().requests, 0u);
  bulk.concurrent_requests = 0;
  EXPECT_FALSE(EsSender::Create(client.get(), bulk, {}, &sender).ok());
}

}  // namespace
}  // namespace fiohist
