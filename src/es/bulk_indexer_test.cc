// Unit tests of BulkIndexer's pure logic, driven by a scripted transport (no network).
#include "es/bulk_indexer.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

namespace fiohist {
namespace {

BulkAction Doc(int i, const std::string& index = "idx") {
  BulkAction a;
  a.index = index;
  a.id = "id" + std::to_string(i);
  a.source = R"({"n":)" + std::to_string(i) + "}";
  return a;
}

int CountLines(const std::string& body) {
  int n = 0;
  for (char c : body) n += c == '\n';
  return n;
}

// A _bulk answer with `statuses` per item.
std::string Answer(const std::vector<int>& statuses) {
  std::string body = R"({"errors":false,"items":[)";
  for (size_t i = 0; i < statuses.size(); ++i) {
    if (i > 0) body += ",";
    body += R"({"index":{"status":)" + std::to_string(statuses[i]);
    if (statuses[i] >= 300) body += R"(,"error":{"type":"t","reason":"r"})";
    body += "}}";
  }
  return body + "]}";
}

// Records requests and answers each with the next scripted function (default: all 201).
struct Script {
  std::vector<std::string> bodies;
  std::vector<std::string> paths;
  std::deque<std::function<HttpResult(const std::string& body)>> answers;
  std::vector<double> sleeps;

  BulkTransport Transport() {
    return [this](const std::string&, const std::string& path, const std::string& body) {
      paths.push_back(path);
      if (path.find("_refresh") != std::string::npos) return HttpResult{200, "{}", ""};
      bodies.push_back(body);
      if (!answers.empty()) {
        auto f = answers.front();
        answers.pop_front();
        return f(body);
      }
      return HttpResult{200, Answer(std::vector<int>(CountLines(body) / 2, 201)), ""};
    };
  }
  BulkSleeper Sleeper() {
    return [this](double s) { sleeps.push_back(s); };
  }
};

BulkOptions NoWait() {
  BulkOptions o;
  o.initial_backoff_s = 0.001;
  return o;
}

TEST(BulkEncode, IndexAndDeleteLines) {
  std::string lines;
  ASSERT_TRUE(EncodeBulkAction(Doc(1), &lines).ok());
  EXPECT_EQ(lines, "{\"index\":{\"_index\":\"idx\",\"_id\":\"id1\"}}\n{\"n\":1}\n");
  BulkAction del;
  del.op = BulkAction::Op::kDelete;
  del.index = "idx";
  del.id = "a\"b";
  ASSERT_TRUE(EncodeBulkAction(del, &lines).ok());
  EXPECT_EQ(lines, "{\"delete\":{\"_index\":\"idx\",\"_id\":\"a\\\"b\"}}\n");
  del.id.clear();
  EXPECT_FALSE(EncodeBulkAction(del, &lines).ok());
}

TEST(BulkEncode, PlainNamesTakeTheShortPathToTheSameLine) {
  // Plain index names and ids are appended as they are; anything JSON must escape goes
  // through the writer. Both give what the writer gives for the plain case.
  BulkAction a = Doc(7);
  a.index = "fiohist-buckets-2026.11";
  a.id = "0123456789abcdef:r/x";
  std::string line;
  ASSERT_TRUE(EncodeBulkActionLine(a, &line).ok());
  EXPECT_EQ(
      line,
      "{\"index\":{\"_index\":\"fiohist-buckets-2026.11\",\"_id\":\"0123456789abcdef:r/x\"}}\n");
  a.id.clear();
  ASSERT_TRUE(EncodeBulkActionLine(a, &line).ok());
  EXPECT_EQ(line, "{\"index\":{\"_index\":\"fiohist-buckets-2026.11\"}}\n");
  a.id = std::string("tab\there\\") + char(0x7f) + "\xc3\xa9";
  ASSERT_TRUE(EncodeBulkActionLine(a, &line).ok());
  EXPECT_EQ(line, "{\"index\":{\"_index\":\"fiohist-buckets-2026.11\",\"_id\":\"tab\\there\\\\" +
                      std::string(1, char(0x7f)) + "\xc3\xa9\"}}\n");
  a.index.clear();
  EXPECT_FALSE(EncodeBulkActionLine(a, &line).ok());
  EXPECT_TRUE(IsOneLineObject("{\"a\":1}"));
  EXPECT_FALSE(IsOneLineObject(" {\"a\":1}"));
  EXPECT_FALSE(IsOneLineObject("{\n}"));
  EXPECT_FALSE(IsOneLineObject(""));
}

TEST(BulkEncode, PrettySourceIsCompactedAndGarbageRefused) {
  BulkAction a = Doc(1);
  a.source = "{\n  \"a\": 1,\n  \"b\": [1, 2]\n}\n";
  std::string lines;
  ASSERT_TRUE(EncodeBulkAction(a, &lines).ok());
  EXPECT_EQ(lines.substr(lines.find('\n') + 1), "{\"a\":1,\"b\":[1,2]}\n");
  a.source = "[1,2]";
  EXPECT_FALSE(EncodeBulkAction(a, &lines).ok());
  a.source = "{\n broken";
  EXPECT_FALSE(EncodeBulkAction(a, &lines).ok());
}

TEST(BulkBackoff, GrowsCapsAndJitters) {
  BulkOptions o;
  o.initial_backoff_s = 0.1;
  o.max_backoff_s = 1.0;
  EXPECT_DOUBLE_EQ(BackoffSeconds(1, o, 0.999999), 0.1 * (0.5 + 0.5 * 0.999999));
  EXPECT_DOUBLE_EQ(BackoffSeconds(1, o, 0.0), 0.05);
  EXPECT_DOUBLE_EQ(BackoffSeconds(3, o, 0.0), 0.2);
  EXPECT_DOUBLE_EQ(BackoffSeconds(10, o, 0.0), 0.5);  // capped at 1.0, half by jitter
  EXPECT_LE(BackoffSeconds(50, o, 1.0), 1.0);
}

TEST(BulkRetryable, Statuses) {
  for (long s : {429, 502, 503, 504}) EXPECT_TRUE(IsRetryableStatus(s)) << s;
  for (long s : {200, 400, 401, 403, 404, 409, 413, 500}) EXPECT_FALSE(IsRetryableStatus(s)) << s;
}

TEST(BulkParse, ItemsAndReasons) {
  std::vector<BulkItemResult> items;
  ASSERT_TRUE(
      ParseBulkResponse(
          R"({"errors":true,"items":[{"index":{"status":201}},)"
          R"({"delete":{"status":404}},{"index":{"status":400,"error":{"type":)"
          R"("document_parsing_exception","reason":"bad","caused_by":{"reason":"why"}}}}]})",
          &items)
          .ok());
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].status, 201);
  EXPECT_FALSE(items[1].has_error);
  EXPECT_EQ(items[2].reason, "document_parsing_exception: bad (caused by: why)");
  EXPECT_FALSE(ParseBulkResponse("<html>", &items).ok());
  std::string long_reason(1000, 'x');
  ASSERT_TRUE(ParseBulkResponse(R"({"items":[{"index":{"status":429,"error":{"type":"t",)"
                                R"("reason":")" +
                                    long_reason + R"("}}}]})",
                                &items)
                  .ok());
  EXPECT_EQ(items[0].reason.size(), 303u);  // cut at 300 characters + "..."
}

TEST(BulkIndexer, BatchesByCountAndBytes) {
  Script script;
  BulkOptions o = NoWait();
  o.max_batch_docs = 4;
  BulkIndexer bulk(script.Transport(), script.Sleeper(), o);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(bulk.Add(Doc(i)).ok());
  ASSERT_TRUE(bulk.Finish().ok());
  ASSERT_EQ(script.bodies.size(), 3u);
  EXPECT_EQ(CountLines(script.bodies[0]), 8);
  EXPECT_EQ(CountLines(script.bodies[2]), 4);
  EXPECT_EQ(bulk.stats().indexed, 10u);
  EXPECT_EQ(script.paths.back(), "/idx/_refresh?ignore_unavailable=true");
  EXPECT_NE(script.paths[0].find("filter_path=errors,items.*.status"), std::string::npos);

  std::string one;
  ASSERT_TRUE(EncodeBulkAction(Doc(0), &one).ok());
  Script by_bytes;
  o.max_batch_docs = 1000;
  o.max_batch_bytes = one.size() * 3 + 1;  // 3 docs fit, the 4th does not
  BulkIndexer bulk2(by_bytes.Transport(), by_bytes.Sleeper(), o);
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(bulk2.Add(Doc(i)).ok());
  ASSERT_TRUE(bulk2.Finish().ok());
  ASSERT_EQ(by_bytes.bodies.size(), 3u);
  for (const std::string& b : by_bytes.bodies) EXPECT_LE(b.size(), o.max_batch_bytes);
}

TEST(BulkIndexer, OversizedSingleDocumentGoesAlone) {
  Script script;
  BulkOptions o = NoWait();
  o.max_batch_bytes = 100;
  BulkIndexer bulk(script.Transport(), script.Sleeper(), o);
  BulkAction big = Doc(1);
  big.source = R"({"x":")" + std::string(500, 'a') + "\"}";
  ASSERT_TRUE(bulk.Add(Doc(0)).ok());
  ASSERT_TRUE(bulk.Add(big).ok());
  ASSERT_TRUE(bulk.Add(Doc(2)).ok());
  ASSERT_TRUE(bulk.Finish().ok());
  EXPECT_EQ(script.bodies.size(), 3u);
  EXPECT_EQ(bulk.stats().indexed, 3u);
}

TEST(BulkIndexer, ItemLevel429IsRetriedOnlyForThoseItems) {
  Script script;
  script.answers.push_back([](const std::string&) {
    return HttpResult{200, Answer({201, 429, 201, 503}), ""};
  });
  BulkIndexer bulk(script.Transport(), script.Sleeper(), NoWait());
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(bulk.Add(Doc(i)).ok());
  ASSERT_TRUE(bulk.Finish().ok());
  ASSERT_EQ(script.bodies.size(), 2u);
  EXPECT_EQ(CountLines(script.bodies[1]), 4);  // ids 1 and 3
  EXPECT_NE(script.bodies[1].find("\"id1\""), std::string::npos);
  EXPECT_NE(script.bodies[1].find("\"id3\""), std::string::npos);
  EXPECT_EQ(bulk.stats().indexed, 4u);
  EXPECT_EQ(bulk.stats().retried, 2u);
  EXPECT_EQ(script.sleeps.size(), 1u);
}

TEST(BulkIndexer, BodiesHoldEachActionsLinesAndRetriesResendThemExactly) {
  // Lines go into the request body as they are added; a retry gathers exactly the lines of
  // the items retried, whatever way each was encoded (as it is, compacted, a delete).
  Script script;
  script.answers.push_back([](const std::string&) {
    return HttpResult{200, Answer({201, 429, 201, 503}), ""};
  });
  script.answers.push_back([](const std::string&) {
    return HttpResult{200, Answer({201, 200}), ""};
  });
  BulkIndexer bulk(script.Transport(), script.Sleeper(), NoWait());
  std::vector<BulkAction> actions = {Doc(0), Doc(1), Doc(2), Doc(3)};
  actions[1].source = "{\n  \"n\": 1\n}";  // pretty: compacted
  actions[3].op = BulkAction::Op::kDelete;
  actions[3].source.clear();
  std::string expected_first, expected_retry;
  for (size_t i = 0; i < actions.size(); ++i) {
    std::string lines;
    ASSERT_TRUE(EncodeBulkAction(actions[i], &lines).ok());
    expected_first += lines;
    if (i == 1 || i == 3) expected_retry += lines;
    ASSERT_TRUE(bulk.Add(actions[i]).ok());
  }
  ASSERT_TRUE(bulk.Finish().ok());
  ASSERT_EQ(script.bodies.size(), 2u);
  EXPECT_EQ(script.bodies[0], expected_first);
  EXPECT_EQ(script.bodies[1], expected_retry);
  EXPECT_EQ(bulk.stats().indexed, 3u);
  EXPECT_EQ(bulk.stats().deleted, 1u);
}

TEST(BulkIndexer, GivesUpAfterMaxAttempts) {
  Script script;
  for (int i = 0; i < 10; ++i) {
    script.answers.push_back([](const std::string&) { return HttpResult{0, "", "refused"}; });
  }
  BulkOptions o = NoWait();
  o.max_attempts = 3;
  BulkIndexer bulk(script.Transport(), script.Sleeper(), o);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(bulk.Add(Doc(i)).ok());
  bulk.Finish();
  EXPECT_EQ(script.bodies.size(), 3u);
  EXPECT_EQ(bulk.stats().failed, 5u);
  EXPECT_EQ(bulk.stats().retried, 10u);
  ASSERT_EQ(script.sleeps.size(), 2u);
  EXPECT_EQ(bulk.stats().errors[0].reason, "gave up after 3 attempts: refused");
}

TEST(BulkIndexer, ServerGoneFailsLaterBatchesAtOnce) {
  Script script;
  for (int i = 0; i < 10; ++i) {
    script.answers.push_back([](const std::string&) { return HttpResult{0, "", "refused"}; });
  }
  BulkOptions o = NoWait();
  o.max_attempts = 2;
  o.max_batch_docs = 2;
  BulkIndexer bulk(script.Transport(), script.Sleeper(), o);
  for (int i = 0; i < 6; ++i) bulk.Add(Doc(i));
  Status st = bulk.Finish();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("stopped answering: refused"), std::string::npos) << st.message();
  EXPECT_EQ(script.bodies.size(), 2u);  // the first batch's two attempts only
  EXPECT_EQ(bulk.stats().failed, 6u);
}

TEST(BulkIndexer, GarbledAnswersAreNotAGoneServer) {
  Script script;
  for (int i = 0; i < 2; ++i) {
    script.answers.push_back([](const std::string&) { return HttpResult{200, "{\"ite", ""}; });
  }
  BulkOptions o = NoWait();
  o.max_attempts = 2;
  o.max_batch_docs = 2;
  BulkIndexer bulk(script.Transport(), script.Sleeper(), o);
  for (int i = 0; i < 4; ++i) bulk.Add(Doc(i));
  EXPECT_TRUE(bulk.Finish().ok());
  EXPECT_EQ(bulk.stats().failed, 2u);
  EXPECT_EQ(bulk.stats().indexed, 2u);  // the second batch still went in
}

TEST(BulkIndexer, RetryTimeBoundStopsRetrying) {
  Script script;
  for (int i = 0; i < 1000; ++i) {
    script.answers.push_back([](const std::string&) { return HttpResult{503, "{}", ""}; });
  }
  BulkOptions o;
  o.initial_backoff_s = 1;
  o.max_backoff_s = 4;
  o.max_attempts = 1000;
  o.max_retry_time_s = 10;  // measured on the (fake) sleeps: 0.5..1, 1..2, 2..4, 2..4, ...
  BulkIndexer bulk(script.Transport(), script.Sleeper(), o);
  ASSERT_TRUE(bulk.Add(Doc(0)).ok());
  bulk.Finish();
  EXPECT_EQ(bulk.stats().failed, 1u);
  EXPECT_LE(script.bodies.size(), 8u);
  double slept = 0;
  for (double s : script.sleeps) slept += s;
  EXPECT_LE(slept, 10 + 4);
  EXPECT_NE(bulk.stats().errors[0].reason.find("retry time limit"), std::string::npos);
}

TEST(BulkIndexer, TooLargeSplitsInHalves) {
  Script script;
  std::string one;
  ASSERT_TRUE(EncodeBulkAction(Doc(0), &one).ok());
  size_t limit = one.size() * 3;
  // The "server" takes at most 3 docs per request.
  for (int i = 0; i < 50; ++i) {
    script.answers.push_back([limit](const std::string& body) {
      if (body.size() > limit) return HttpResult{413, "", ""};
      return HttpResult{200, Answer(std::vector<int>(CountLines(body) / 2, 201)), ""};
    });
  }
  BulkIndexer bulk(script.Transport(), script.Sleeper(), NoWait());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(bulk.Add(Doc(i)).ok());
  ASSERT_TRUE(bulk.Finish().ok());
  EXPECT_EQ(bulk.stats().indexed, 10u);
  EXPECT_EQ(bulk.stats().failed, 0u);
  EXPECT_EQ(bulk.stats().retried, 0u);
  EXPECT_EQ(bulk.stats().splits, 3u);  // 10 -> 5+5 -> (2+3)+(2+3)
  EXPECT_TRUE(script.sleeps.empty());
  // Every id was accepted exactly once, in order.
  std::string accepted;
  for (const std::string& b : script.bodies) {
    if (b.size() <= limit) accepted += b;
  }
  for (int i = 0; i < 10; ++i) {
    EXPECT_NE(accepted.find("\"id" + std::to_string(i) + "\""), std::string::npos);
  }
}

TEST(BulkIndexer, TooLargeSingleDocumentFails) {
  Script script;
  for (int i = 0; i < 5; ++i) {
    script.answers.push_back([](const std::string&) { return HttpResult{413, "", ""}; });
  }
  BulkIndexer bulk(script.Transport(), script.Sleeper(), NoWait());
  ASSERT_TRUE(bulk.Add(Doc(0)).ok());
  ASSERT_TRUE(bulk.Finish().ok());
  EXPECT_EQ(bulk.stats().failed, 1u);
  EXPECT_EQ(bulk.stats().errors[0].status, 413);
}

TEST(BulkIndexer, AuthFailureIsFatalAndStopsSending) {
  Script script;
  script.answers.push_back([](const std::string&) {
    return HttpResult{401, R"({"error":{"type":"security_exception","reason":"nope"}})", ""};
  });
  BulkOptions o = NoWait();
  o.max_batch_docs = 2;
  BulkIndexer bulk(script.Transport(), script.Sleeper(), o);
  EXPECT_TRUE(bulk.Add(Doc(0)).ok());
  Status st = bulk.Add(Doc(1));  // flushes: 401
  EXPECT_FALSE(st.ok());
  EXPECT_FALSE(bulk.Add(Doc(2)).ok());
  Status fin = bulk.Finish();
  EXPECT_FALSE(fin.ok());
  EXPECT_NE(fin.message().find("HTTP 401"), std::string::npos) << fin.message();
  EXPECT_EQ(script.bodies.size(), 1u);
  EXPECT_EQ(bulk.stats().failed, 3u);
}

TEST(BulkIndexer, DeletesCountDeletedAndNotFound) {
  Script script;
  script.answers.push_back([](const std::string&) {
    return HttpResult{200, R"({"items":[{"delete":{"status":200}},{"delete":{"status":404}}]})",
                      ""};
  });
  BulkIndexer bulk(script.Transport(), script.Sleeper(), NoWait());
  for (int i = 0; i < 2; ++i) {
    BulkAction d;
    d.op = BulkAction::Op::kDelete;
    d.index = "idx";
    d.id = std::to_string(i);
    ASSERT_TRUE(bulk.Add(d).ok());
  }
  ASSERT_TRUE(bulk.Finish().ok());
  EXPECT_EQ(bulk.stats().deleted, 1u);
  EXPECT_EQ(bulk.stats().not_found, 1u);
  EXPECT_EQ(bulk.stats().failed, 0u);
}

TEST(BulkIndexer, GarbledResponseIsRetried) {
  Script script;
  script.answers.push_back([](const std::string&) { return HttpResult{200, "{\"ite", ""}; });
  script.answers.push_back([](const std::string&) {
    return HttpResult{200, Answer({201}), ""};
  });  // count mismatch
  BulkIndexer bulk(script.Transport(), script.Sleeper(), NoWait());
  ASSERT_TRUE(bulk.Add(Doc(0)).ok());
  ASSERT_TRUE(bulk.Add(Doc(1)).ok());
  ASSERT_TRUE(bulk.Finish().ok());
  EXPECT_EQ(script.bodies.size(), 3u);
  EXPECT_EQ(bulk.stats().indexed, 2u);
  EXPECT_EQ(bulk.stats().retried, 4u);
}

TEST(BulkIndexer, KeepsOnlyTheFirstErrors) {
  Script script;
  script.answers.push_back([](const std::string& body) {
    return HttpResult{200, Answer(std::vector<int>(CountLines(body) / 2, 400)), ""};
  });
  BulkOptions o = NoWait();
  o.max_kept_errors = 3;
  BulkIndexer bulk(script.Transport(), script.Sleeper(), o);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(bulk.Add(Doc(i)).ok());
  ASSERT_TRUE(bulk.Finish().ok());
  EXPECT_EQ(bulk.stats().failed, 20u);
  ASSERT_EQ(bulk.stats().errors.size(), 3u);
  EXPECT_EQ(bulk.stats().errors[0].id, "id0");
  EXPECT_EQ(bulk.stats().errors[0].reason, "t: r");
}

}  // namespace
}  // namespace fiohist
