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
  EXPECT_EQ(TemplateFileName(DocKind::kBuckets, true), "fiohist-buckets-nohistogram.json");
}

TEST(IndexNames, MonthOfTheRunsStart) {
  EXPECT_EQ(IndexBaseName("fiohist", DocKind::kPercentiles), "fiohist-pctiles");
  // 2026-11-23T14:00:00Z
  EXPECT_EQ(IndexName("fiohist", DocKind::kPercentiles, 1795442400000), "fiohist-pctiles-2026.11");
  EXPECT_EQ(IndexName("p", DocKind::kRun, 0), "p-runs-1970.01");
  EXPECT_EQ(IndexName("p", DocKind::kBuckets, -1), "p-buckets-1969.12");
  // 2024-02-29T23:59:59.999Z and the next millisecond.
  EXPECT_EQ(IndexName("p", DocKind::kBuckets, 1709251199999), "p-buckets-2024.02");
  EXPECT_EQ(IndexName("p", DocKind::kBuckets, 1709251200000), "p-buckets-2024.03");
  EXPECT_EQ(IndexPattern("p", DocKind::kRun), "p-runs,p-runs-*");
  EXPECT_EQ(AllIndexPatterns("p"),
            "p-pctiles,p-pctiles-*,p-buckets,p-buckets-*,p-runs,p-runs-*,"
            "p-stalls,p-stalls-*");
  EXPECT_EQ(MonthEndMs(2024, 2), 1709251200000);
  EXPECT_EQ(MonthEndMs(2025, 12), 1767225600000);  // 2026-01-01
  EXPECT_EQ(MonthEndMs(1970, 1), 31LL * 86400000);
}

TEST(IndexNames, ParseIndexName) {
  IndexNameParts parts;
  ASSERT_TRUE(ParseIndexName("fiohist", "fiohist-buckets-2026.03", &parts));
  EXPECT_EQ(parts.kind, DocKind::kBuckets);
  EXPECT_TRUE(parts.monthly);
  EXPECT_EQ(parts.year, 2026);
  EXPECT_EQ(parts.month, 3);
  ASSERT_TRUE(ParseIndexName("fiohist", "fiohist-runs", &parts));
  EXPECT_EQ(parts.kind, DocKind::kRun);
  EXPECT_FALSE(parts.monthly);
  // Retention drops a month's stalls index with the month's other indices.
  ASSERT_TRUE(ParseIndexName("fiohist", "fiohist-stalls-2026.11", &parts));
  EXPECT_EQ(parts.kind, DocKind::kStalls);
  EXPECT_TRUE(parts.monthly);
  EXPECT_EQ(parts.month, 11);
  for (const char* other : {"fiohist-runs-2026.13", "fiohist-runs-2026.1", "fiohist-runsx",
                            "fiohist-runs-x026.01", "other-runs-2026.01", "fiohist-pctiles-blocked"}) {
    EXPECT_FALSE(ParseIndexName("fiohist", other, &parts)) << other;
  }
}

TEST(IndexSettings, Parse) {
  IndexSettings s;
  ASSERT_TRUE(ParseIndexSettings(false, 0, "", &s).ok());
  EXPECT_TRUE(s.empty());
  ASSERT_TRUE(ParseIndexSettings(true, 3, "auto", &s).ok());
  EXPECT_EQ(s.shards, 3);
  EXPECT_EQ(s.replicas, "auto");
  ASSERT_TRUE(ParseIndexSettings(false, 0, "01", &s).ok());
  EXPECT_EQ(s.replicas, "1");
  Status st = ParseIndexSettings(true, 0, "", &s);
  EXPECT_NE(st.message().find("--shards: expected a number of primary shards from 1"),
            std::string::npos)
      << st.message();
  EXPECT_FALSE(ParseIndexSettings(true, -2, "", &s).ok());
  EXPECT_FALSE(ParseIndexSettings(true, 5000, "", &s).ok());
  for (const char* bad : {"-1", "x", "17", "1.5", "auto-ish", " 1"}) {
    st = ParseIndexSettings(false, 0, bad, &s);
    EXPECT_NE(st.message().find("--replicas: expected 'auto'"), std::string::npos) << bad;
  }
}

TEST(IndexTemplates, SettingsGoIntoTheTemplate) {
  std::string dir = std::string(FIOHIST_SOURCE_DIR) + "/mappings";
  IndexSettings s;
  ASSERT_TRUE(ParseIndexSettings(true, 4, "2", &s).ok());
  for (DocKind kind : kAllDocKinds) {
    std::string body;
    ASSERT_TRUE(LoadIndexTemplate(dir, TemplateFileName(kind), "lab", kind, s, &body).ok());
    rapidjson::Document doc;
    doc.Parse(body.c_str());
    const rapidjson::Value& index = doc["template"]["settings"]["index"];
    // A runs (stalls) index holds one (a few) documents per run: one shard whatever
    // --shards says.
    EXPECT_EQ(index["number_of_shards"].GetInt(),
              kind == DocKind::kRun || kind == DocKind::kStalls ? 1 : 4);
    EXPECT_EQ(index["number_of_replicas"].GetInt(), 2);
    EXPECT_EQ(std::string(index["auto_expand_replicas"].GetString()), "false");
  }
  ASSERT_TRUE(ParseIndexSettings(false, 0, "auto", &s).ok());
  std::string body;
  ASSERT_TRUE(LoadIndexTemplate(dir, TemplateFileName(DocKind::kPercentiles), "lab",
                                DocKind::kPercentiles, s, &body)
                  .ok());
  rapidjson::Document doc;
  doc.Parse(body.c_str());
  const rapidjson::Value& index = doc["template"]["settings"]["index"];
  EXPECT_FALSE(index.HasMember("number_of_replicas"));
  EXPECT_EQ(std::string(index["auto_expand_replicas"].GetString()), "0-1");
}

TEST(IndexTemplates, LoadRewritesPatterns) {
  std::string dir = std::string(FIOHIST_SOURCE_DIR) + "/mappings";
  for (DocKind kind : kAllDocKinds) {
    for (bool fallback : {false, true}) {
      if (fallback && kind != DocKind::kBuckets) continue;
      std::string body;
      Status st = LoadIndexTemplate(dir, TemplateFileName(kind, fallback), "lab", kind,
                                    IndexSettings(), &body);
      ASSERT_TRUE(st.ok()) << st.message();
      rapidjson::Document doc;
      doc.Parse(body.c_str());
      ASSERT_FALSE(doc.HasParseError());
      ASSERT_TRUE(doc["index_patterns"].IsArray());
      // The single index of before partitioning and the monthly ones, of this prefix only.
      ASSERT_EQ(doc["index_patterns"].Size(), 2u);
      EXPECT_EQ(std::string(doc["index_patterns"][0].GetString()), IndexBaseName("lab", kind));
      EXPECT_EQ(std::string(doc["index_patterns"][1].GetString()),
                IndexBaseName("lab", kind) + "-*");
      EXPECT_TRUE(doc.HasMember("template"));
      // The files' defaults: right on one node and on many.
      const rapidjson::Value& index = doc["template"]["settings"]["index"];
      EXPECT_EQ(std::string(index["auto_expand_replicas"].GetString()), "0-1");
      EXPECT_FALSE(index.HasMember("number_of_replicas"));
    }
  }
  std::string body;
  Status st = LoadIndexTemplate(dir, "nope.json", "lab", DocKind::kRun, IndexSettings(), &body);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("--mappings"), std::string::npos);
}

TEST(IndexTemplates, DefaultDirHasTheTemplates) {
  std::string body;
  EXPECT_TRUE(
      LoadIndexTemplate("", TemplateFileName(DocKind::kRun), "fiohist", DocKind::kRun,
                        IndexSettings(), &body)
          .ok())
      << DefaultMappingsDir();
}

TEST(IndexTemplates, RewriteIndexPrefix) {
  EXPECT_EQ(RewriteIndexPrefix("fiohist-pctiles", "lab"), "lab-pctiles");
  EXPECT_EQ(RewriteIndexPrefix("other-x-runs", "lab"), "lab-runs");
  // Stall documents of push --out files go to the loading prefix's stalls index (load).
  EXPECT_EQ(RewriteIndexPrefix("fiohist-stalls-2026.11", "lab"), "lab-stalls-2026.11");
  EXPECT_EQ(RewriteIndexPrefix("fiohist-buckets", "fiohist"), "fiohist-buckets");
  EXPECT_EQ(RewriteIndexPrefix("unrelated", "lab"), "unrelated");
  EXPECT_EQ(RewriteIndexPrefix("fiohist-pctiles-2026.11", "lab"), "lab-pctiles-2026.11");
  EXPECT_EQ(RewriteIndexPrefix("a-b-runs-1999.01", "lab"), "lab-runs-1999.01");
}

}  // namespace
}  // namespace fiohist
