// Unit tests of the JSON helpers the administration requests share.
#include "es/admin_json.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(AdminJson, ParseJsonWantsAnObject) {
  rapidjson::Document doc;
  EXPECT_TRUE(ParseJson(HttpResult{200, R"({"count":3})", ""}, "counting", &doc).ok());
  Status st = ParseJson(HttpResult{200, "[1]", ""}, "counting", &doc);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "counting: the response is not a JSON object");
  EXPECT_FALSE(ParseJson(HttpResult{200, "<html>", ""}, "counting", &doc).ok());
}

TEST(AdminJson, MissingOrMistypedFieldsGiveTheFallback) {
  rapidjson::Document doc;
  doc.Parse(R"({"n":2.5,"s":"x","ns":"3"})");
  EXPECT_EQ(NumberOr(doc, "n", 0), 2.5);
  EXPECT_EQ(NumberOr(doc, "ns", -1), -1);
  EXPECT_EQ(NumberOr(doc, "absent", 7), 7);
  EXPECT_EQ(StringOr(doc, "s"), "x");
  EXPECT_EQ(StringOr(doc, "n"), "");
  EXPECT_EQ(StringOr(doc["s"], "s"), "");  // not an object
}

TEST(AdminJson, AggTimeFromTheNumericValue) {
  rapidjson::Document doc;
  // A max aggregation over indices where `end` is mapped in some only: no value_as_string.
  doc.Parse(R"({"end":{"value":1795306120457.0},"none":{"value":null}})");
  EXPECT_EQ(AggTime(doc["end"]), "2026-11-22T00:08:40.457Z");
  EXPECT_EQ(AggTime(doc["none"]), "");
}

}  // namespace
}  // namespace fiohist
