#include "stats/job_replay.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/test_util.h"
#include "log/quantum_grid.h"
#include "stats/pipeline.h"
#include "stats/run_layout.h"

namespace fiohist {
namespace {

// One read line: `count` I/Os in bucket 300, fio3 layout.
std::string Line(int64_t t, int count) {
  std::string s = std::to_string(t) + ", 0, 4096";
  for (int c = 0; c < 1856; ++c) s += c == 300 ? ", " + std::to_string(count) : ", 0";
  return s + "\n";
}

// Notes what it gets: "log/start" per result, "done host job" per job done.
class TraceSink : public ResultSink {
 public:
  Status Begin(const RunInfo&) override { return Status(); }
  Status Quantum(const ScopeResult& r) override {
    lines.push_back(r.host + "/" + r.job + " " + std::to_string(r.start_ms));
    return Status();
  }
  Status WholeRun(const ScopeResult&) override { return Status(); }
  Status End(const RunSummary&) override { return Status(); }
  Status JobDone(const std::string& host, const std::string& job) override {
    lines.push_back("done " + host + "/" + job);
    return Status();
  }
  std::vector<std::string> lines;
};

// Every log's quanta once, in time order, JobDone after each log's last; more logs than
// lanes, logs of different lengths; the same order on 1 and 3 workers.
TEST(JobReplay, EachLogsQuantaInOrderThenJobDone) {
  std::vector<std::string> paths;
  std::map<std::string, int> records;  // per path: a record per second
  for (int i = 0; i < 11; ++i) {
    std::string text;
    const int first = 1 + i % 4, last = 3 + 3 * i;
    for (int k = first; k <= last; ++k) text += Line(k * 1000 + 1, 10 + k);
    paths.push_back(
        WriteTempFile("replay_" + std::to_string(i) + ".log.h" + std::to_string(i % 3), text));
    records[paths.back()] = last - first + 1;
  }
  PipelineOptions o;
  o.log_hist_msec = 1000;
  RunLayout layout;
  RunSummary summary;
  ASSERT_TRUE(LayOutRun(o, paths, &layout, &summary).ok());
  const QuantumGrid grid(layout.info.grid_origin_ms, o.quantum_ms);
  std::vector<std::string> first_order;
  for (int threads : {1, 3}) {
    WorkerPool pool(threads);
    SpilledLogs spill;
    ASSERT_TRUE(spill.Write(layout.info.logs, layout.setups, grid, {}, &pool).ok());
    TraceSink sink;
    const std::vector<LogSource>& logs = layout.info.logs;
    Status s = ReplayJobsByLog(
        spill, logs, false,
        [&](size_t log, int64_t q, const ScopeHistograms& mine, std::vector<PlacedRecord>*,
            Histogram*, std::vector<ScopeResult>* out) {
          out->resize(1);
          (*out)[0].host = logs[log].host;
          (*out)[0].job = logs[log].job;
          (*out)[0].start_ms = grid.Start(q);
          EXPECT_TRUE(mine.any());
        },
        &pool, &sink);
    ASSERT_TRUE(s.ok()) << s.message();
    std::map<std::string, int64_t> last_start;
    std::map<std::string, int> seen, done;
    for (const std::string& l : sink.lines) {
      if (l.rfind("done ", 0) == 0) {
        const std::string job = l.substr(5);
        EXPECT_EQ(done[job]++, 0) << l;
        EXPECT_GT(seen[job], 0) << l;
        continue;
      }
      const std::string job = l.substr(0, l.find(' '));
      const int64_t start = std::stoll(l.substr(l.find(' ') + 1));
      EXPECT_EQ(done[job], 0) << "a result after JobDone: " << l;
      if (seen[job]++ > 0) {
        EXPECT_EQ(start, last_start[job] + 1000) << l;  // the next quantum: time order
      }
      last_start[job] = start;
    }
    EXPECT_EQ(done.size(), logs.size());
    for (const LogSource& log : logs) {  // at least a quantum per record
      ASSERT_EQ(records.count(log.path), 1u) << log.path;
      EXPECT_GE(seen[log.host + "/" + log.job], records[log.path]) << log.path;
    }
    if (first_order.empty()) {
      first_order = sink.lines;
    } else {
      EXPECT_EQ(sink.lines, first_order) << threads << " workers";
    }
  }
}

}  // namespace
}  // namespace fiohist
