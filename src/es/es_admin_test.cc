// Unit tests of EsAdmin's response interpretation, on answers recorded from real clusters.
#include "es/es_admin.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(EsAdmin, RunTermQueryEscapes) {
  EXPECT_EQ(RunTermQuery("a\"b\\c"), R"({"query":{"term":{"run":"a\"b\\c"}}})");
}

TEST(EsAdmin, LacksEndpoint) {
  // Elasticsearch 8.19.21 integ-test build, POST /a,b/_delete_by_query.
  HttpResult r{
      400, R"({"error":"no handler found for uri [/a,b/_delete_by_query] and method [POST]"})", ""};
  EXPECT_TRUE(LacksEndpoint(r));
  r = {
      405,
      R"({"error":"Incorrect HTTP method for uri [/_reindex] and method [POST], allowed: [GET]","status":405})",
      ""};
  EXPECT_TRUE(LacksEndpoint(r));
  r = {400, R"({"error":{"type":"parsing_exception","reason":"unknown query [tem]"},"status":400})",
       ""};
  EXPECT_FALSE(LacksEndpoint(r));
  r = {401, R"({"error":"no handler found"})", ""};
  EXPECT_FALSE(LacksEndpoint(r));
}

TEST(EsAdmin, LacksHistogramType) {
  // PUT _index_template on the integ-test build: the cause is nested.
  HttpResult r{400,
               R"({"error":{"type":"illegal_argument_exception","reason":"composable template [t1])"
               R"( template after composition is invalid","caused_by":{"type":)"
               R"("mapper_parsing_exception","reason":"Failed to parse mapping: The mapper type )"
               R"([histogram] declared on field [latency] does not exist."}}},"status":400})",
               ""};
  EXPECT_TRUE(LacksHistogramType(r));
  r.body = R"({"error":{"type":"mapper_parsing_exception","reason":"unknown parameter [x]"}})";
  EXPECT_FALSE(LacksHistogramType(r));
}

TEST(EsAdmin, ParseDeleteByQuery) {
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

TEST(EsAdmin, ParseServerRoot) {
  ServerInfo info;
  // OpenSearch 2.19.1 integ-test build, GET / (shortened).
  EXPECT_TRUE(ParseServerRoot(
      R"({"name":"n","version":{"distribution":"opensearch","number":"2.19.1","build_type":"zip"},)"
      R"("tagline":"The OpenSearch Project: https://opensearch.org/"})",
      &info));
  EXPECT_EQ(info.product, "OpenSearch");
  EXPECT_EQ(info.version, "2.19.1");
  EXPECT_EQ(info.source, "GET /");
  EXPECT_TRUE(ParseServerRoot(R"({"version":{"number":"8.19.21","build_flavor":"default"}})",
                              &info));
  EXPECT_EQ(info.product, "Elasticsearch");
  // The Elasticsearch integ-test build's 405 for GET /.
  EXPECT_FALSE(ParseServerRoot(
      R"({"error":"Incorrect HTTP method for uri [/] and method [GET], allowed: [DELETE]","status":405})",
      &info));
}

TEST(EsAdmin, ParseNodesInfo) {
  ServerInfo info;
  // GET /_nodes/_local?filter_path=nodes.*.version,nodes.*.build_flavor of both engines.
  EXPECT_TRUE(ParseNodesInfo(
      R"({"nodes":{"gTQQFOVAQMmF2ryy7T3J9Q":{"version":"8.19.21","build_flavor":"default"}}})",
      &info));
  EXPECT_EQ(info.product, "Elasticsearch");
  EXPECT_EQ(info.version, "8.19.21");
  EXPECT_EQ(info.source, "GET /_nodes/_local");
  EXPECT_TRUE(ParseNodesInfo(R"({"nodes":{"Vbwi5a9fRlqTEVcq-v-lmQ":{"version":"2.19.1"}}})", &info));
  EXPECT_EQ(info.product, "OpenSearch");
  EXPECT_FALSE(ParseNodesInfo(R"({"nodes":{}})", &info));
  EXPECT_FALSE(ParseNodesInfo("not json", &info));
}

TEST(EsAdmin, DescribeServerDecisions) {
  ServerInfo info{"OpenSearch", "2.19.1", "GET /"};
  TemplateReport report;
  report.histogram_supported = false;
  EXPECT_EQ(DescribeServerDecisions(info, report),
            "server: OpenSearch 2.19.1 (GET /), no `histogram` field type: bucket documents "
            "mapped without it (fiohist-buckets-nohistogram.json)");
  report.histogram_supported = true;
  EXPECT_EQ(DescribeServerDecisions(ServerInfo(), report),
            "server: unknown (neither GET / nor GET /_nodes/_local named it), `histogram` field "
            "type present: bucket documents carry `latency`");
}

TEST(EsAdmin, ParseTemplateSettings) {
  IndexSettings s;
  const char kV2[] =
      R"({"index_templates":[{"name":"fiohist-pctiles","index_template":{"version":2,)"
      R"("template":{"settings":{"index":{"number_of_shards":"3","auto_expand_replicas":"0-1"}}}}}]})";
  ASSERT_TRUE(ParseTemplateSettings(kV2, &s));
  EXPECT_EQ(s.shards, 3);
  EXPECT_EQ(s.replicas, "auto");
  const char kFixed[] =
      R"({"index_templates":[{"name":"x","index_template":{"version":2,)"
      R"("template":{"settings":{"index":{"number_of_shards":"1","number_of_replicas":"2",)"
      R"("auto_expand_replicas":"false"}}}}}]})";
  ASSERT_TRUE(ParseTemplateSettings(kFixed, &s));
  EXPECT_EQ(s.replicas, "2");
  // Version 1 (fiohist before partitioning: replicas fixed at 0): not kept.
  const char kV1[] =
      R"({"index_templates":[{"name":"x","index_template":{"version":1,)"
      R"("template":{"settings":{"index":{"number_of_shards":"1","number_of_replicas":"0"}}}}}]})";
  EXPECT_FALSE(ParseTemplateSettings(kV1, &s));
  EXPECT_FALSE(ParseTemplateSettings("{}", &s));
}

TEST(EsAdmin, TemplateRefusedSaysWhatToDo) {
  HttpResult r;
  r.status = 403;
  r.body = R"({"error":{"type":"security_exception","reason":"action [indices:admin/index_template/put] is unauthorized"}})";
  std::string m = TemplateRefusedMessage("fiohist-pctiles", r);
  EXPECT_NE(m.find("manage_index_templates"), std::string::npos) << m;
  r.status = 400;
  r.body = R"({"error":"no handler found for uri [/_index_template/fiohist-pctiles] and method [PUT]"})";
  m = TemplateRefusedMessage("fiohist-pctiles", r);
  EXPECT_NE(m.find("Elasticsearch 7.8 or later"), std::string::npos) << m;
}

}  // namespace
}  // namespace fiohist
