// Unit tests of RunCatalog's queries and response interpretation, on answers recorded from
// real clusters.
#include "es/run_catalog.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(RunCatalog, RunTermQueryEscapes) {
  EXPECT_EQ(RunTermQuery("a\"b\\c"), R"({"query":{"term":{"run":"a\"b\\c"}}})");
}

TEST(RunCatalog, LacksEndpoint) {
  // Elasticsearch 8.19.21 integ-test build, POST /a,b/_delete_by_query.
  HttpResult r{
      400, R"({"error":"no handler found for uri [/a,b/_delete_by_query] and method [POST]"})", ""};
  EXPECT_TRUE(LacksEndpoint(r));
  r = {405,
       R"({"error":"Incorrect HTTP method for uri [/_reindex] and method [POST], allowed: [GET]",)"
       R"("status":405})",
       ""};
  EXPECT_TRUE(LacksEndpoint(r));
  r = {400, R"({"error":{"type":"parsing_exception","reason":"unknown query [tem]"},"status":400})",
       ""};
  EXPECT_FALSE(LacksEndpoint(r));
  r = {401, R"({"error":"no handler found"})", ""};
  EXPECT_FALSE(LacksEndpoint(r));
}

TEST(RunCatalog, ParseDeleteByQuery) {
  // The shape documented for _delete_by_query (Elasticsearch 8.x).
  std::string body =
      R"({"took":147,"timed_out":false,"total":120,"deleted":119,"batches":1,)"
      R"("version_conflicts":0,"noops":0,"retries":{"bulk":0,"search":0},)"
      R"("throttled_millis":0,"requests_per_second":-1.0,"throttled_until_millis":0,)"
      R"("failures":[{"index":"fiohist-pctiles","id":"abc","status":409,"cause":)"
      R"({"type":"version_conflict_engine_exception","reason":"[abc]: version conflict"}}]})";
  DeleteReport report;
  ASSERT_TRUE(ParseDeleteByQuery(body, 10, &report).ok());
  EXPECT_TRUE(report.used_delete_by_query);
  EXPECT_EQ(report.deleted, 119u);
  EXPECT_EQ(report.failed, 1u);
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].id, "abc");
  EXPECT_EQ(report.errors[0].status, 409);
  EXPECT_EQ(report.errors[0].reason, "version_conflict_engine_exception: [abc]: version conflict");
  DeleteReport none;
  EXPECT_FALSE(ParseDeleteByQuery("{}", 10, &none).ok());
  EXPECT_FALSE(ParseDeleteByQuery("<html>", 10, &none).ok());
}

}  // namespace
}  // namespace fiohist
