// Unit tests of index naming and template loading (with the repository's mappings/).
#include "es/index_templates.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

namespace fiohist {
namespace {

TEST(IndexPrefix, Validation) {
  for (const char* ok : {"fiohist", "a", "lab-1.test_x", "9x"}) {
    EXPECT_TRUE(ValidateIndexPrefix(ok).ok()) << ok;
  }
  for (const char* bad : {"", "Fiohist", "-x", "_x", ".x", "a b", "a*", "a/b", "a,b", "a:b"}) {
    EXPECT_FALSE(ValidateIndexPrefix(bad).ok()) << bad;
  }
  EXPECT_FALSE(ValidateIndexPrefix(std::string(101, 'a')).ok());
  EXPECT_EQ(IndexName("fiohist", DocKind::kPercentiles), "fiohist-pctiles");
  EXPECT_EQ(AllIndexNames("p"), "p-pctiles,p-buckets,p-runs");
  EXPECT_EQ(TemplateFileName(DocKind::kBuckets, true), "fiohist-buckets-nohistogram.json");
}

TEST(IndexTemplates, LoadRewritesPatterns) {
  std::string dir = std::string(FIOHIST_SOURCE_DIR) + "/mappings";
  for (DocKind kind : {DocKind::kPercentiles, DocKind::kBuckets, DocKind::kRun}) {
    for (bool fallback : {false, true}) {
      if (fallback && kind != DocKind::kBuckets) continue;
      std::string body;
      Status st = LoadIndexTemplate(dir, TemplateFileName(kind, fallback), "lab", kind, &body);
      ASSERT_TRUE(st.ok()) << st.message();
      rapidjson::Document doc;
      doc.Parse(body.c_str());
      ASSERT_FALSE(doc.HasParseError());
      ASSERT_TRUE(doc["index_patterns"].IsArray());
      ASSERT_EQ(doc["index_patterns"].Size(), 1u);
      EXPECT_EQ(std::string(doc["index_patterns"][0].GetString()), IndexName("lab", kind));
      EXPECT_TRUE(doc.HasMember("template"));
    }
  }
  std::string body;
  Status st = LoadIndexTemplate(dir, "nope.json", "lab", DocKind::kRun, &body);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("--mappings"), std::string::npos);
}

TEST(IndexTemplates, DefaultDirHasTheTemplates) {
  std::string body;
  EXPECT_TRUE(
      LoadIndexTemplate("", TemplateFileName(DocKind::kRun), "fiohist", DocKind::kRun, &body).ok())
      << DefaultMappingsDir();
}

TEST(IndexTemplates, RewriteIndexPrefix) {
  EXPECT_EQ(RewriteIndexPrefix("fiohist-pctiles", "lab"), "lab-pctiles");
  EXPECT_EQ(RewriteIndexPrefix("other-x-runs", "lab"), "lab-runs");
  EXPECT_EQ(RewriteIndexPrefix("fiohist-buckets", "fiohist"), "fiohist-buckets");
  EXPECT_EQ(RewriteIndexPrefix("unrelated", "lab"), "unrelated");
}

}  // namespace
}  // namespace fiohist
