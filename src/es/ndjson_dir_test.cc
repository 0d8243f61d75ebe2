// Unit tests of the bulk NDJSON directory format: chunking and round trip.
#include "es/ndjson_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

namespace fiohist {
namespace {

std::string FreshDir(const char* name) {
  std::string dir = testing::TempDir() + "/fiohist-ndjson-" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

TEST(NdjsonDir, RoundTripAcrossFiles) {
  std::string dir = FreshDir("roundtrip");
  NdjsonDirWriter writer(dir, 1000);
  ASSERT_TRUE(writer.Open().ok());
  std::vector<BulkAction> written;
  for (int i = 0; i < 100; ++i) {
    BulkAction a;
    a.index = i % 2 ? "fiohist-pctiles" : "fiohist-buckets";
    a.id = "id-" + std::to_string(i);
    a.source = R"({"i":)" + std::to_string(i) + R"(,"s":"a\nb"})";
    if (i == 50) {
      a.op = BulkAction::Op::kDelete;
      a.source.clear();
    }
    if (i == 60) a.id = "quote\"d";               // escaped by the writer
    if (i == 70) a.source = "{\n  \"i\": 70\n}";  // compacted, not written as it is
    ASSERT_TRUE(writer.Add(a).ok());
    written.push_back(a);
  }
  ASSERT_TRUE(writer.Close().ok());
  EXPECT_EQ(writer.actions(), 100u);
  EXPECT_GT(writer.files(), 5);
  for (int n = 1; n <= writer.files(); ++n) {
    std::string path = dir + "/" + NdjsonFileName(n);
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    EXPECT_LE(std::filesystem::file_size(path), 1000u);
  }
  std::vector<BulkAction> read;
  ASSERT_TRUE(ReadNdjsonDir(dir, [&](BulkAction a) {
                read.push_back(std::move(a));
                return Status();
              }).ok());
  ASSERT_EQ(read.size(), written.size());
  for (size_t i = 0; i < read.size(); ++i) {
    EXPECT_EQ(read[i].op, written[i].op);
    EXPECT_EQ(read[i].index, written[i].index);
    EXPECT_EQ(read[i].id, written[i].id);
    EXPECT_EQ(read[i].source, i == 70 ? std::string("{\"i\":70}") : written[i].source);
  }
  // A second Open clears the old files.
  NdjsonDirWriter again(dir, 1000);
  ASSERT_TRUE(again.Open().ok());
  EXPECT_FALSE(std::filesystem::exists(dir + "/" + NdjsonFileName(1)));
}

TEST(NdjsonDir, ErrorsNameFileAndLine) {
  std::string dir = FreshDir("errors");
  std::filesystem::create_directories(dir);
  EXPECT_FALSE(ReadNdjsonDir(dir, [](BulkAction) { return Status(); }).ok());  // empty
  {
    std::ofstream(dir + "/bulk-000001.ndjson") << "{\"index\":{\"_index\":\"a\",\"_id\":\"1\"}}\n{"
                                                  "\"x\":1}\n{\"update\":{\"_index\":\"a\"}}\n";
  }
  int seen = 0;
  Status st = ReadNdjsonDir(dir, [&](BulkAction) {
    ++seen;
    return Status();
  });
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(seen, 1);
  EXPECT_NE(st.message().find("bulk-000001.ndjson:3: unsupported bulk action 'update'"),
            std::string::npos)
      << st.message();
  { std::ofstream(dir + "/bulk-000001.ndjson") << "{\"index\":{\"_index\":\"a\"}}\n"; }
  st = ReadNdjsonDir(dir, [](BulkAction) { return Status(); });
  EXPECT_NE(st.message().find(":1: action line without a document line"), std::string::npos)
      << st.message();
}

TEST(NdjsonDir, GzipFilesRoundTripAndMixWithPlainOnes) {
  std::string dir = FreshDir("gzip");
  std::vector<BulkAction> written;
  {
    NdjsonDirWriter writer(dir, 1000, kBulkFileGzipLevel);
    ASSERT_TRUE(writer.Open().ok());
    for (int i = 0; i < 200; ++i) {
      BulkAction a;
      a.index = "fiohist-pctiles";
      a.id = "id-" + std::to_string(i);
      a.source = R"({"i":)" + std::to_string(i) + R"(,"pad":"xxxxxxxxxxxxxxxxxxxxxxxx"})";
      ASSERT_TRUE(writer.Add(a).ok());
      written.push_back(a);
    }
    ASSERT_TRUE(writer.Close().ok());
    EXPECT_GT(writer.files(), 5);
    for (int n = 1; n <= writer.files(); ++n) {
      const std::string path = dir + "/" + NdjsonFileName(n, true);
      ASSERT_TRUE(std::filesystem::exists(path)) << path;
      EXPECT_LT(std::filesystem::file_size(path), 1000u);  // compressed
    }
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + NdjsonFileName(1)));
  }
  // A plain file after them (its name sorts last) is read too, in name order.
  { std::ofstream(dir + "/zz.ndjson") << "{\"delete\":{\"_index\":\"a\",\"_id\":\"z\"}}\n"; }
  std::vector<BulkAction> read;
  ASSERT_TRUE(ReadNdjsonDir(dir, [&](BulkAction a) {
                read.push_back(std::move(a));
                return Status();
              }).ok());
  ASSERT_EQ(read.size(), written.size() + 1);
  for (size_t i = 0; i < written.size(); ++i) {
    EXPECT_EQ(read[i].id, written[i].id);
    EXPECT_EQ(read[i].source, written[i].source);
  }
  EXPECT_EQ(read.back().op, BulkAction::Op::kDelete);
  // A plain writer's Open clears the compressed files too.
  NdjsonDirWriter plain(dir, 1000);
  ASSERT_TRUE(plain.Open().ok());
  EXPECT_FALSE(std::filesystem::exists(dir + "/" + NdjsonFileName(1, true)));
}

TEST(NdjsonDir, DamagedGzipFileIsNamed) {
  std::string dir = FreshDir("gzip-damaged");
  {
    NdjsonDirWriter writer(dir, 1 << 20, kBulkFileGzipLevel);
    ASSERT_TRUE(writer.Open().ok());
    for (int i = 0; i < 100; ++i) {
      BulkAction a;
      a.index = "a";
      a.id = std::to_string(i);
      a.source = R"({"i":)" + std::to_string(i * 7919) + "}";
      ASSERT_TRUE(writer.Add(a).ok());
    }
    ASSERT_TRUE(writer.Close().ok());
  }
  const std::string path = dir + "/" + NdjsonFileName(1, true);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);  // cut short
  Status st = ReadNdjsonDir(dir, [](BulkAction) { return Status(); });
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("bulk-000001.ndjson.gz"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace fiohist
