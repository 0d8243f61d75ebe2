#include "log/fio_snapshot.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace fiohist {
namespace {

Status Decode(const std::string& text, FioSnapshot* out) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  EXPECT_FALSE(doc.HasParseError()) << text;
  return DecodeFioSnapshot(doc, BucketLayout(), out);
}

TEST(FioSnapshot, DecodesJobsBinsAndRuntime) {
  FioSnapshot s;
  Status st = Decode(
      R"({"fio version":"fio-3.33","timestamp_ms":1795391079428,"jobs":[)"
      R"({"jobname":"live","eta":3,"job_runtime":893,)"
      R"("read":{"total_ios":5,"clat_ns":{"N":5,"bins":{"24960":2,"24704":3}}},)"
      R"("write":{"total_ios":0,"clat_ns":{"N":0}}}]})",
      &s);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(s.timestamp_ms, 1795391079428);
  EXPECT_EQ(s.fio_version, "fio-3.33");
  ASSERT_EQ(s.jobs.size(), 1u);
  EXPECT_EQ(s.jobs[0].name, "live");
  EXPECT_EQ(s.jobs[0].number, 1);
  EXPECT_EQ(s.jobs[0].runtime_ms, 893);
  EXPECT_FALSE(s.all_done());
  // Sorted by column: 24704 ns is column 608, 24960 ns column 609.
  ASSERT_EQ(s.jobs[0].bins[0].size(), 2u);
  EXPECT_EQ(s.jobs[0].bins[0][0], (std::pair<uint32_t, uint64_t>(608, 3)));
  EXPECT_EQ(s.jobs[0].bins[0][1], (std::pair<uint32_t, uint64_t>(609, 2)));
  EXPECT_TRUE(s.jobs[0].bins[1].empty());
}

TEST(FioSnapshot, RefusesOtherJson) {
  FioSnapshot s;
  Status st = Decode(R"({"hello":"world"})", &s);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("not fio's json+ output"), std::string::npos) << st.message();
}

TEST(FioSnapshot, RefusesValueThatIsNoBucket) {
  FioSnapshot s;
  Status st = Decode(R"({"timestamp_ms":1,"jobs":[{"jobname":"j","job_runtime":5,)"
                     R"("read":{"total_ios":1,"clat_ns":{"bins":{"24705":1}}}}]})",
                     &s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("jobs[0].read.clat_ns.bins: key '24705'"), std::string::npos)
      << st.message();
}

TEST(FioSnapshot, RefusesJsonWithoutBins) {
  // --output-format=json (no "+"): percentiles only, no histogram.
  FioSnapshot s;
  Status st = Decode(R"({"timestamp_ms":1,"jobs":[{"jobname":"j","job_runtime":5,)"
                     R"("read":{"total_ios":7,"clat_ns":{"N":7}}}]})",
                     &s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("json+"), std::string::npos) << st.message();
}

TEST(FioSnapshot, RealStatusStreamCountsMatchFio) {
  std::ifstream in(FIOHIST_TEST_DATA "/fio-status/randrw-4s-status1.json");
  ASSERT_TRUE(in) << "tests/data/fio-status/randrw-4s-status1.json is part of the repository";
  std::stringstream text;
  text << in.rdbuf();
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseStopWhenDoneFlag>(text.str().c_str());
  ASSERT_FALSE(doc.HasParseError());
  FioSnapshot s;
  ASSERT_TRUE(DecodeFioSnapshot(doc, BucketLayout(), &s).ok());
  uint64_t reads = 0;
  for (const auto& c : s.jobs[0].bins[0]) reads += c.second;
  EXPECT_EQ(reads, 21029u);  // the first report's read total_ios
}

}  // namespace
}  // namespace fiohist
