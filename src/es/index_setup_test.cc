// Unit tests of IndexSetup's response interpretation, on answers recorded from real clusters.
#include "es/index_setup.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(IndexSetup, LacksHistogramType) {
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

TEST(IndexSetup, ParseTemplateSettings) {
  IndexSettings s;
  const char kV2[] =
      R"({"index_templates":[{"name":"fiohist-pctiles","index_template":{"version":2,)"
      R"("template":{"settings":{"index":{"number_of_shards":"3",)"
      R"("auto_expand_replicas":"0-1"}}}}}]})";
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

TEST(IndexSetup, TemplateRefusedSaysWhatToDo) {
  HttpResult r;
  r.status = 403;
  r.body = R"({"error":{"type":"security_exception","reason":)"
           R"("action [indices:admin/index_template/put] is unauthorized"}})";
  std::string m = TemplateRefusedMessage("fiohist-pctiles", r);
  EXPECT_NE(m.find("manage_index_templates"), std::string::npos) << m;
  r.status = 400;
  r.body =
      R"({"error":"no handler found for uri [/_index_template/fiohist-pctiles] and method [PUT]"})";
  m = TemplateRefusedMessage("fiohist-pctiles", r);
  EXPECT_NE(m.find("Elasticsearch 7.8 or later"), std::string::npos) << m;
}

}  // namespace
}  // namespace fiohist
