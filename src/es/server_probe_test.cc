// Unit tests of the server probe's response interpretation, on answers recorded from real
// clusters.
#include "es/server_probe.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(ServerProbe, ParseServerRoot) {
  ServerInfo info;
  // OpenSearch 2.19.1 integ-test build, GET / (shortened).
  EXPECT_TRUE(ParseServerRoot(
      R"({"name":"n","version":{"distribution":"opensearch","number":"2.19.1","build_type":"zip"},)"
      R"("tagline":"The OpenSearch Project: https://opensearch.org/"})",
      &info));
  EXPECT_EQ(info.product, "OpenSearch");
  EXPECT_EQ(info.version, "2.19.1");
  EXPECT_EQ(info.source, "GET /");
  EXPECT_TRUE(
      ParseServerRoot(R"({"version":{"number":"8.19.21","build_flavor":"default"}})", &info));
  EXPECT_EQ(info.product, "Elasticsearch");
  // The Elasticsearch integ-test build's 405 for GET /.
  EXPECT_FALSE(ParseServerRoot(
      R"({"error":"Incorrect HTTP method for uri [/] and method [GET], allowed: [DELETE]",)"
      R"("status":405})",
      &info));
}

TEST(ServerProbe, ParseNodesInfo) {
  ServerInfo info;
  // GET /_nodes/_local?filter_path=nodes.*.version,nodes.*.build_flavor of both engines.
  EXPECT_TRUE(ParseNodesInfo(
      R"({"nodes":{"gTQQFOVAQMmF2ryy7T3J9Q":{"version":"8.19.21","build_flavor":"default"}}})",
      &info));
  EXPECT_EQ(info.product, "Elasticsearch");
  EXPECT_EQ(info.version, "8.19.21");
  EXPECT_EQ(info.source, "GET /_nodes/_local");
  EXPECT_TRUE(
      ParseNodesInfo(R"({"nodes":{"Vbwi5a9fRlqTEVcq-v-lmQ":{"version":"2.19.1"}}})", &info));
  EXPECT_EQ(info.product, "OpenSearch");
  EXPECT_FALSE(ParseNodesInfo(R"({"nodes":{}})", &info));
  EXPECT_FALSE(ParseNodesInfo("not json", &info));
}

TEST(ServerProbe, DescribeServerDecisions) {
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

}  // namespace
}  // namespace fiohist
