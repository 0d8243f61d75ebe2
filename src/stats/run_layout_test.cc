#include "stats/run_layout.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "base/test_util.h"
#include "stats/collecting_sink.h"
#include "stats/pipeline.h"

namespace fiohist {
namespace {

// A line of fio 3's layout (1856 bucket counts) with `count` I/Os in one bucket.
std::string Line(int64_t t, int count, int columns = 1856) {
  std::string s = std::to_string(t) + ", 0, 4096";
  for (int c = 0; c < columns; ++c) s += c == 3 ? ", " + std::to_string(count) : ", 0";
  return s + "\n";
}

// Relative stamps placed by --start-time: the anchor, the inferred log_hist_msec, each
// log's offset and the logs in host order.
TEST(RunLayout, RelativeLogsOnTheStartTime) {
  PipelineOptions o;
  o.has_start_time = true;
  o.start_time_ms = 1795306120000;
  o.find_fio_json = false;
  const std::string two = Line(1000, 5) + Line(2000, 5) + Line(3000, 5);
  RunLayout layout;
  RunSummary summary;
  ASSERT_TRUE(LayOutRun(o,
                        {WriteTempFile("layout_clat_hist.1.log.hostB", two),
                         WriteTempFile("layout_clat_hist.1.log.hostA", two)},
                        &layout, &summary)
                  .ok());
  EXPECT_EQ(layout.info.anchor, "start-time");
  EXPECT_TRUE(layout.info.absolute);
  EXPECT_EQ(layout.info.log_hist_msec, 1000);
  EXPECT_TRUE(layout.info.log_hist_msec_inferred);
  ASSERT_EQ(layout.info.logs.size(), 2u);
  EXPECT_EQ(layout.info.logs[0].host, "hostA");  // by host, then job
  ASSERT_EQ(layout.setups.size(), 2u);
  EXPECT_EQ(layout.setups[1].offset_ms, o.start_time_ms);
}

// Logs of two layouts cannot be added up: the error names both files.
TEST(RunLayout, LogsOfDifferentLayoutsAreRefused) {
  PipelineOptions o;
  o.find_fio_json = false;
  const std::string fio3 = WriteTempFile("l3_clat_hist.1.log.h", Line(1000, 1) + Line(2000, 1));
  const std::string other =
      WriteTempFile("lo_clat_hist.1.log.h", Line(1000, 1, 1216) + Line(2000, 1, 1216));
  RunLayout layout;
  RunSummary summary;
  const Status s = LayOutRun(o, {fio3, other}, &layout, &summary);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("logs of different layouts cannot be added up"), std::string::npos)
      << s.message();
}

// The recorded fio 3.33 run of tests/data/fio-timeline/plain, made relative as fio writes it
// without log_unix_epoch (each job's stamps minus its epoch), in a folder of its own beside
// `json` (the run's JSON output, possibly edited). Returns the logs' paths.
const int64_t kTimelineEpochs[] = {1795816744824, 1795816745838, 1795816742827, 1795816750064};

std::vector<std::string> RelativeTimelineRun(
    const std::string& dir, const std::string& json, const std::string& run = "plain",
    const std::vector<int64_t>& epochs = std::vector<int64_t>(std::begin(kTimelineEpochs),
                                                              std::end(kTimelineEpochs))) {
  const std::string data = std::string(FIOHIST_TEST_DATA) + "/fio-timeline/" + run + "/";
  const std::string out = ::testing::TempDir() + "/" + dir;
  ::mkdir(out.c_str(), 0755);
  std::vector<std::string> paths;
  for (int j = 1; j <= static_cast<int>(epochs.size()); ++j) {
    const std::string name = "h_clat_hist." + std::to_string(j) + ".log";
    std::ifstream in(data + name);
    std::ofstream o(out + "/" + name);
    std::string line;
    while (std::getline(in, line)) {
      const size_t comma = line.find(',');
      o << std::stoll(line.substr(0, comma)) - epochs[static_cast<size_t>(j - 1)]
        << line.substr(comma) << "\n";
    }
    paths.push_back(out + "/" + name);
  }
  std::ofstream(out + "/fio.json") << json;
  return paths;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Each job of a fio 3.33 run (ramp_time, startdelay, an early end, two stonewall groups)
// placed by the JSON beside its relative log within 250 ms of its log_unix_epoch truth; the
// summary notes name every job's anchor and bound.
TEST(RunLayout, JobsOfFio333PlacedOnTheirTimeline) {
  const std::string json =
      ReadText(std::string(FIOHIST_TEST_DATA) + "/fio-timeline/plain/out.json");
  PipelineOptions o;
  RunLayout layout;
  RunSummary summary;
  const Status s = LayOutRun(o, RelativeTimelineRun("timeline_ok", json), &layout, &summary);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(layout.info.anchor, "fio-json");
  ASSERT_EQ(layout.setups.size(), 4u);
  for (size_t j = 0; j < 4; ++j) {
    EXPECT_LE(std::llabs(layout.setups[j].offset_ms - kTimelineEpochs[j]), 250) << "job " << j;
    EXPECT_EQ(layout.setups[j].floor_ms, layout.setups[j].offset_ms);
  }
  ASSERT_EQ(layout.info.job_anchors.size(), 4u);
  const std::string note = FormatPlacedJob(layout.info.job_anchors[1]);
  EXPECT_NE(note.find("h_clat_hist.2 (job b): 2026-"), std::string::npos) << note;
  EXPECT_NE(note.find("startdelay 1 s"), std::string::npos);
}

// group_reporting over two stonewall groups of two clones each (tests/data/fio-timeline/
// stonewalled): each group's logs at that group's start, not all at the first one's.
TEST(RunLayout, GroupReportingPlacesEachGroupAtItsStart) {
  const std::vector<int64_t> epochs = {1795820957342, 1795820957343, 1795820960563, 1795820960563};
  const std::string json =
      ReadText(std::string(FIOHIST_TEST_DATA) + "/fio-timeline/stonewalled/out.json");
  PipelineOptions o;
  RunLayout layout;
  RunSummary summary;
  const Status s = LayOutRun(o, RelativeTimelineRun("stonewalled", json, "stonewalled", epochs),
                             &layout, &summary);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(layout.setups.size(), 4u);
  for (size_t j = 0; j < 4; ++j) {
    EXPECT_LE(std::llabs(layout.setups[j].offset_ms - epochs[j]), 250)
        << "job " << j << ": " << layout.setups[j].offset_ms - epochs[j];
  }
  ASSERT_EQ(layout.info.job_anchors.size(), 4u);
  EXPECT_EQ(layout.info.job_anchors[2].fio_job, "g2");
}

// A JSON listing fewer jobs than the logs name is refused, naming the log, the JSON and
// its jobs.
TEST(RunLayout, JsonWithFewerJobsThanTheLogsIsRefused) {
  std::string json = ReadText(std::string(FIOHIST_TEST_DATA) + "/fio-timeline/plain/out.json");
  // Cut the jobs array after job c: the last job object starts at `"jobname" : "d"`.
  const size_t d = json.find("\"jobname\" : \"d\"");
  ASSERT_NE(d, std::string::npos);
  const size_t open = json.rfind('{', d);
  const size_t comma = json.rfind(',', open);
  const size_t close = json.find("\n  ]", d);
  ASSERT_NE(close, std::string::npos);
  json = json.substr(0, comma) + json.substr(close);
  PipelineOptions o;
  RunLayout layout;
  RunSummary summary;
  const Status s = LayOutRun(o, RelativeTimelineRun("timeline_bad", json), &layout, &summary);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("h_clat_hist.4.log: is the log of fio's job 4, but"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("lists 3 job(s) (a, b, c)"), std::string::npos) << s.message();
}

// Stamps far beyond log_hist_msec (CLOCK_MONOTONIC: the machine's uptime) with no JSON are
// refused with the reason, not read as ms since the job started.
TEST(RunLayout, StampsOfAnotherClockWithoutJsonAreRefused) {
  PipelineOptions o;
  o.find_fio_json = false;
  const int64_t up = 5 * 3600 * 1000;
  RunLayout layout;
  RunSummary summary;
  const Status s =
      LayOutRun(o, {WriteTempFile("mono_clat_hist.1.log", Line(up + 1000, 1) + Line(up + 2000, 1))},
                &layout, &summary);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("neither relative"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace fiohist

namespace fiohist {
namespace {

// smallfile response-time files of three ops, two of them writes (create, append): each op
// is a direction of its own, its I/Os in its own histogram, never merged into write.
TEST(RunLayout, SmallfileOpsAreDirectionsOfTheirOwn) {
  std::vector<std::string> paths;
  // op -> (lines, response time in s): distinct latencies tell the histograms apart.
  const std::vector<std::tuple<std::string, int, const char*>> ops = {
      {"create", 30, "0.002000"}, {"append", 20, "0.000100"}, {"read", 10, "0.000010"}};
  for (const char* thread : {"00", "01"}) {
    for (const auto& [op, lines, rsp] : ops) {
      std::string text;
      for (int i = 0; i < lines; ++i) {
        text += op + ", " + std::to_string(i / 10) + ".000000, " + rsp + "\n";
      }
      paths.push_back(WriteTempFile(
          std::string("rsptimes_") + thread + "_sfops_" + op + "_1700000000.csv", text));
    }
  }
  PipelineOptions o;
  o.find_fio_json = false;
  o.scopes = {true, false, true};
  ASSERT_TRUE(MakePercentiles({50, 99}, &o.percentiles).ok());
  CollectingSink sink;
  RunSummary summary;
  Status s = RunPipeline(o, paths, &sink, &summary);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(sink.info.directions.Name(Direction::kRead), "read");
  EXPECT_EQ(sink.info.directions.Name(Direction::kWrite), "append");
  EXPECT_EQ(sink.info.directions.Name(Direction::kTrim), "create");
  std::map<std::string, double> samples, p50_us;
  for (const ScopeResult& r : sink.whole) {
    if (r.kind != ScopeKind::kCluster) continue;
    const std::string name(sink.info.directions.Name(r.direction));
    samples[name] = r.stats.samples;
    p50_us[name] = r.stats.percentile_ns[0] / 1000;
  }
  EXPECT_EQ(samples, (std::map<std::string, double>{
                         {"create", 60}, {"append", 40}, {"read", 20}, {"all", 120}}));
  EXPECT_NEAR(p50_us["create"], 2000, 2000 / 32.0);
  EXPECT_NEAR(p50_us["append"], 100, 100 / 32.0);
  EXPECT_NEAR(p50_us["read"], 10, 1);
  // Job scope: each thread's op alone, in its op's direction.
  int jobs = 0;
  for (const ScopeResult& r : sink.whole) {
    if (r.kind != ScopeKind::kJob || r.direction == Direction::kAll) continue;
    ++jobs;
    const std::string op(sink.info.directions.Name(r.direction));
    EXPECT_EQ(r.job.substr(r.job.rfind('_') + 1), op) << r.job;
  }
  EXPECT_EQ(jobs, 6);
}

}  // namespace
}  // namespace fiohist
