#include "stats/resolution_sink.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "base/test_util.h"
#include "stats/collecting_sink.h"
#include "stats/pipeline.h"

namespace fiohist {
namespace {

std::vector<std::string> SharedLogs() {
  const std::string dir = FIOHIST_TEST_DATA "/fio-logs/epoch2/";
  return {dir + "epoch2_clat_hist.1.log.hostX", dir + "epoch2_clat_hist.2.log.hostX",
          dir + "epoch2_clat_hist.1.log.hostY", dir + "epoch2_clat_hist.2.log.hostY"};
}

// One read line: `count` I/Os in bucket 300, fio3 layout.
std::string Line(int64_t t, int count) {
  std::string s = std::to_string(t) + ", 0, 4096";
  for (int c = 0; c < 1856; ++c) s += c == 300 ? ", " + std::to_string(count) : ", 0";
  return s + "\n";
}

using Key = std::tuple<int64_t, int, std::string, std::string, int>;
Key KeyOf(const ScopeResult& r) {
  return {r.start_ms, static_cast<int>(r.kind), r.host, r.job, static_cast<int>(r.direction)};
}

void ExpectClose(double got, double want, const char* what) {
  EXPECT_LE(std::fabs(got - want), 1e-9 * std::max(std::fabs(want), 1e-300)) << what;
}

// A coarse window holds what the pipeline computes with the window as its quantum.
TEST(ResolutionSink, CoarseWindowsEqualTheLogsAtThatQuantum) {
  PipelineOptions fine;
  fine.scopes = {true, true, true};
  CollectingSink collected;
  ResolutionSink sink(&collected, {5, 10});
  RunSummary summary;
  ASSERT_TRUE(RunPipeline(fine, SharedLogs(), &sink, &summary).ok());
  EXPECT_EQ(collected.info.resolutions, (std::vector<int>{1, 5, 10}));

  for (int multiple : {5, 10}) {
    PipelineOptions coarse = fine;
    coarse.quantum_ms = 1000 * multiple;
    CollectingSink reference;
    RunSummary ref_summary;
    ASSERT_TRUE(RunPipeline(coarse, SharedLogs(), &reference, &ref_summary).ok());
    std::map<Key, const ScopeResult*> want;
    for (const ScopeResult& r : reference.quanta) want[KeyOf(r)] = &r;
    size_t compared = 0;
    for (const ScopeResult& r : collected.quanta) {
      if (r.resolution != multiple) continue;
      EXPECT_EQ(r.end_ms - r.start_ms, 1000 * multiple);
      auto it = want.find(KeyOf(r));
      ASSERT_NE(it, want.end()) << "no reference for a window at " << r.start_ms;
      const LatencyStats& a = r.stats;
      const LatencyStats& b = it->second->stats;
      ExpectClose(a.samples, b.samples, "samples");
      ExpectClose(a.min_ns, b.min_ns, "min");
      ExpectClose(a.max_ns, b.max_ns, "max");
      ExpectClose(a.mean_ns, b.mean_ns, "mean");
      for (size_t i = 0; i < b.percentile_ns.size(); ++i) {
        ExpectClose(a.percentile_ns[i], b.percentile_ns[i], "percentile");
      }
      ++compared;
    }
    // Every window of the reference has its coarse result, and no more.
    EXPECT_EQ(compared, reference.quanta.size()) << "multiple " << multiple;
  }
}

TEST(ResolutionSink, ParsesAndChecksTheMultiples) {
  std::vector<int> m;
  EXPECT_TRUE(ParseResolutions("10,60,600", &m).ok());
  EXPECT_EQ(m, (std::vector<int>{10, 60, 600}));
  EXPECT_TRUE(ParseResolutions("none", &m).ok());
  EXPECT_TRUE(m.empty());
  EXPECT_FALSE(ParseResolutions("10,25", &m).ok());  // 25 is no multiple of 10
  EXPECT_FALSE(ParseResolutions("60,10", &m).ok());
  EXPECT_FALSE(ParseResolutions("1", &m).ok());
  EXPECT_FALSE(ParseResolutions("10,,60", &m).ok());
  EXPECT_FALSE(ParseResolutions("ten", &m).ok());
  EXPECT_TRUE(CheckResolutions(DefaultCoarseResolutions()).ok());
}

// A window is partial when it holds a partial quantum or lacks one; its coverage is the
// time share its quanta cover.
TEST(ResolutionSink, WindowsWithPartialQuantaArePartial) {
  std::string a, b;
  for (int k = 1; k <= 5; ++k) a += Line(k * 1000 + 1, 10);
  b = Line(3001, 10) + Line(4001, 10) + Line(4007, 10);
  PipelineOptions o;
  o.grid.mode = GridChoice::Mode::kEpoch;  // windows on even seconds
  o.log_hist_msec = 1000;
  o.directions = {true, false, false, false};
  CollectingSink collected;
  ResolutionSink sink(&collected, {2});
  RunSummary summary;
  ASSERT_TRUE(
      RunPipeline(o, {WriteTempFile("rs_a.log", a), WriteTempFile("rs_b.log", b)}, &sink, &summary)
          .ok());
  std::map<int64_t, const ScopeResult*> windows;
  for (const ScopeResult& r : collected.quanta) {
    if (r.resolution == 2) windows[r.start_ms] = &r;
  }
  ASSERT_EQ(windows.size(), 3u);
  ASSERT_TRUE(windows.count(0) && windows.count(2000) && windows.count(4000));
  // Quanta cover 999, 1000 | 1999, 2000 | 1007, 1 ms of 2000 (two logs).
  EXPECT_TRUE(windows[0]->partial);
  EXPECT_DOUBLE_EQ(windows[0]->coverage, (999 + 1000) / 4000.0);
  EXPECT_FALSE(windows[2000]->partial);
  EXPECT_DOUBLE_EQ(windows[2000]->coverage, (1999 + 2000) / 4000.0);
  EXPECT_TRUE(windows[4000]->partial);
  EXPECT_DOUBLE_EQ(windows[4000]->coverage, (1007 + 1) / 4000.0);
}

// Records which coarse windows (resolution, start, direction) come in which group: between
// two results of the quantum grid, or at the end (DocumentSink writes a group's windows as
// one document per window).
class WindowGroups : public ResultSink {
 public:
  Status Begin(const RunInfo&) override { return Status(); }
  Status Quantum(const ScopeResult& r) override {
    if (r.resolution == 1) {
      ++group;
      return Status();
    }
    const auto key = std::make_pair(r.resolution, r.start_ms);
    if (groups.count(key) && groups[key] != group) split.push_back(key);
    groups[key] = group;
    directions[key].push_back(r.direction);
    return Status();
  }
  Status WholeRun(const ScopeResult&) override { return Status(); }
  Status End(const RunSummary&) override {
    ++group;
    return Status();
  }
  int group = 0;
  std::map<std::pair<int, int64_t>, int> groups;
  std::map<std::pair<int, int64_t>, std::vector<Direction>> directions;
  std::vector<std::pair<int, int64_t>> split;  // windows whose directions came apart
};

// An entity's windows of every direction close together, in the call that hands on its
// first quantum of a later window: also a direction without any quantum there (read stops
// after 3 s, write goes on), whose window would otherwise wait for its own next quantum or
// the end of the run.
TEST(ResolutionSink, AnEntitysDirectionsCloseTogether) {
  WindowGroups groups;
  ResolutionSink sink(&groups, {5, 10});
  RunInfo info;
  info.quantum_ms = 1000;
  ASSERT_TRUE(sink.Begin(info).ok());
  for (int q = 0; q < 30; ++q) {
    for (Direction d : {Direction::kRead, Direction::kWrite, Direction::kAll}) {
      if (d == Direction::kRead && q >= 3) continue;
      ScopeResult r;
      r.start_ms = q * 1000;
      r.end_ms = r.start_ms + 1000;
      r.direction = d;
      r.logs = 1;
      ASSERT_TRUE(sink.Quantum(r).ok());
    }
  }
  ASSERT_TRUE(sink.End(RunSummary()).ok());
  EXPECT_TRUE(groups.split.empty())
      << groups.split.size() << " windows split, e.g. res " << groups.split.front().first << " at "
      << groups.split.front().second;
  // Read's first windows of both levels come with write's and all's, before the next quantum.
  for (int res : {5, 10}) {
    const auto key = std::make_pair(res, int64_t{0});
    EXPECT_EQ(groups.directions[key].size(), 3u) << res;
    EXPECT_LT(groups.groups[key], 30 * 2) << res;  // not at the end
  }
}

// Keeps the summary End() receives.
class SummarySink : public CollectingSink {
 public:
  Status End(const RunSummary& s) override {
    summary = s;
    return Status();
  }
  RunSummary summary;
};

// A resolution whose level below holds the whole run in one window would repeat it: left
// out, and that window is the widest the run writes (dashboards draw it at any larger
// interval). The first coarser resolution is always written.
TEST(ResolutionSink, LevelsRepeatingTheWholeRunAreLeftOut) {
  std::string a, b;
  for (int k = 1; k <= 5; ++k) a += Line(k * 1000 + 1, 10);  // quanta 0..4 s
  b = Line(3001, 10) + Line(4001, 10);
  PipelineOptions o;
  o.log_hist_msec = 1000;
  o.directions = {true, false, false, false};
  o.scopes = {true, false, true};
  const std::vector<std::string> logs = {WriteTempFile("rs_wa.log", a),
                                         WriteTempFile("rs_wb.log", b)};
  struct Case {
    std::vector<int> multiples, written;
    int widest;  // the resolution whose windows are marked widest (0: none)
  };
  for (const Case& c : {Case{{2, 10, 100, 1000}, {1, 2, 10}, 10},  // 2: 3 windows; 10: one
                        Case{{10, 100}, {1, 10}, 10},  // the first coarser one stays
                        Case{{2, 4}, {1, 2, 4}, 0}}) {  // 4: two windows, the last asked for
    SummarySink collected;
    ResolutionSink sink(&collected, c.multiples);
    RunSummary summary;
    ASSERT_TRUE(RunPipeline(o, logs, &sink, &summary).ok());
    EXPECT_EQ(collected.summary.resolutions, c.written);
    std::map<int, int> windows, widest;  // per resolution: results, results marked widest
    for (const ScopeResult& r : collected.quanta) {
      ++windows[r.resolution];
      if (r.widest) ++widest[r.resolution];
    }
    for (int m : c.multiples) {
      const bool written = std::count(c.written.begin(), c.written.end(), m) > 0;
      EXPECT_EQ(windows[m] > 0, written) << "resolution " << m;
      // Each of the 3 series (cluster, two jobs) has one widest window, nothing else is.
      EXPECT_EQ(widest[m], m == c.widest ? 3 : 0) << "resolution " << m;
      if (m == c.widest) {
        EXPECT_EQ(windows[m], 3) << "resolution " << m;
      }
    }
  }
}

// A level whose windows, clipped to the run, have the same boundaries as the next finer
// one's would repeat its numbers (a short run across a boundary of several levels, like a
// 30 s run over 10:00:00): left out. The coarser level drawn after it starts where the
// finer written one ends (zoom_from), and the coarsest written is the widest.
TEST(ResolutionSink, LevelsWithTheBoundariesOfAFinerOneAreLeftOut) {
  std::string a;
  for (int k = 18; k <= 23; ++k) a += Line(k * 1000 + 1, 10);  // quanta 17..23 s
  PipelineOptions o;
  o.grid.mode = GridChoice::Mode::kEpoch;
  o.log_hist_msec = 1000;
  o.directions = {true, false, false, false};
  o.scopes = {true, false, false};
  // Windows: 2 s: 16..22 (4); 10 s: 10, 20 (2); 20 s: 0, 20 (2, as 10 s: left out);
  // 40 s and 80 s: 0 (one; 80 repeats 40).
  SummarySink collected;
  ResolutionSink sink(&collected, {2, 10, 20, 40, 80});
  RunSummary summary;
  ASSERT_TRUE(RunPipeline(o, {WriteTempFile("rs_cross.log", a)}, &sink, &summary).ok());
  EXPECT_EQ(collected.summary.resolutions, (std::vector<int>{1, 2, 10, 40}));
  std::map<int, std::vector<const ScopeResult*>> by;
  for (const ScopeResult& r : collected.quanta) by[r.resolution].push_back(&r);
  EXPECT_EQ(by[2].size(), 4u);
  ASSERT_EQ(by[10].size(), 2u);
  EXPECT_EQ(by[20].size(), 0u);
  ASSERT_EQ(by[40].size(), 1u);
  EXPECT_EQ(by[80].size(), 0u);
  for (const ScopeResult* r : by[10]) {
    EXPECT_FALSE(r->widest);
    EXPECT_EQ(r->zoom_from, 2);
  }
  EXPECT_TRUE(by[40][0]->widest);
  EXPECT_EQ(by[40][0]->zoom_from, 10);  // 20 s left out: drawn right after 10 s
  for (const ScopeResult* r : by[1]) EXPECT_EQ(r->zoom_from, -1);
}

// Job windows of the job resolution are the job scope's finest percentiles: drawn from
// interval 0. Finer job windows are summed but not handed on; the job quanta still are
// (bucket documents), and RunInfo tells the sink behind.
TEST(ResolutionSink, JobPercentilesStartAtTheJobResolution) {
  PipelineOptions o;
  o.scopes = {true, true, true};
  SummarySink collected;
  ResolutionSink sink(&collected, {2, 10, 100}, 10);
  RunSummary summary;
  ASSERT_TRUE(RunPipeline(o, SharedLogs(), &sink, &summary).ok());
  EXPECT_EQ(collected.info.job_resolution, 10);
  std::map<std::pair<int, int>, int> n;  // (scope, resolution) -> results
  auto at = [&n](ScopeKind kind, int resolution) {
    return n[std::make_pair(static_cast<int>(kind), resolution)];
  };
  for (const ScopeResult& r : collected.quanta) {
    ++n[std::make_pair(static_cast<int>(r.kind), r.resolution)];
    if (r.resolution == 1) continue;
    const bool job = r.kind == ScopeKind::kJob;
    const std::map<int, int> finer = {{2, 1}, {10, 2}, {100, 10}};
    EXPECT_EQ(r.zoom_from, job && r.resolution == 10 ? 0 : finer.at(r.resolution))
        << ScopeName(r.kind) << " " << r.resolution;
  }
  EXPECT_GT(at(ScopeKind::kJob, 1), 0);  // quanta: for bucket documents
  EXPECT_EQ(at(ScopeKind::kJob, 2), 0);
  EXPECT_GT(at(ScopeKind::kJob, 10), 0);
  EXPECT_GT(at(ScopeKind::kHost, 2), 0);
  // A job resolution that is not a level: every job result, as before.
  CollectingSink plain;
  ResolutionSink as_before(&plain, {2, 10}, 60);
  ASSERT_TRUE(RunPipeline(o, SharedLogs(), &as_before, &summary).ok());
  EXPECT_EQ(plain.info.job_resolution, 1);
  int jobs2 = 0;
  for (const ScopeResult& r : plain.quanta) jobs2 += r.kind == ScopeKind::kJob && r.resolution == 2;
  EXPECT_GT(jobs2, 0);
  int parsed = 0;
  EXPECT_TRUE(ParseJobResolution("", {10, 60}, &parsed).ok());
  EXPECT_EQ(parsed, 10);
  EXPECT_TRUE(ParseJobResolution("1", {10, 60}, &parsed).ok());
  EXPECT_EQ(parsed, 1);
  EXPECT_TRUE(ParseJobResolution("", {}, &parsed).ok());
  EXPECT_EQ(parsed, 1);
  EXPECT_FALSE(ParseJobResolution("30", {10, 60}, &parsed).ok());
}

// Takes job results log by log (ResultSink::takes_jobs_by_log), as the document sink does.
class ByLogSink : public SummarySink {
 public:
  bool takes_jobs_by_log() const override { return true; }
  Status JobDone(const std::string& host, const std::string& job) override {
    done.push_back(host + "/" + job);
    return Status();
  }
  std::vector<std::string> done;
};

// Every field a document takes from a result, as text, sorted: the results as a set.
std::vector<std::string> ResultSet(const std::vector<ScopeResult>& results) {
  std::vector<std::string> out;
  for (const ScopeResult& r : results) {
    char line[512];
    std::snprintf(line, sizeof line, "%lld %lld %d %s %s %d %d %d %d %d %a %a %a %a %a",
                  static_cast<long long>(r.start_ms), static_cast<long long>(r.end_ms),
                  static_cast<int>(r.kind), r.host.c_str(), r.job.c_str(),
                  static_cast<int>(r.direction), r.resolution, r.widest ? 1 : 0, r.partial ? 1 : 0,
                  r.logs, r.coverage, r.stats.samples, r.stats.mean_ns, r.stats.max_ns,
                  r.stats.percentile_ns.empty() ? 0 : r.stats.percentile_ns[0]);
    out.push_back(line);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// With many logs the pipeline hands the job scope on log by log after the other scopes'
// quanta, and JobDone() closes a job's windows then: the same coarse results (widest
// marks, partial windows, levels left out) as when every series closes at the end.
TEST(ResolutionSink, JobsDoneOneByOneCloseAsTheEndDoes) {
  std::vector<std::string> logs;  // logs starting and ending at different times
  for (int i = 0; i < 6; ++i) {
    std::string text;
    for (int k = 1 + 3 * i; k <= 20 + 7 * i; ++k) text += Line(k * 1000 + 1, 10 + k);
    logs.push_back(
        WriteTempFile("rs_bylog_" + std::to_string(i) + ".log.host" + std::to_string(i % 3), text));
  }
  PipelineOptions o;
  o.scopes = {true, true, true};
  o.log_hist_msec = 1000;
  for (const std::vector<int>& multiples :
       {std::vector<int>{5, 10}, std::vector<int>{2, 10, 100, 1000}, std::vector<int>{60, 600}}) {
    o.spill_min_logs = 0;
    SummarySink at_end;
    ResolutionSink in_step(&at_end, multiples);
    RunSummary s1;
    ASSERT_TRUE(RunPipeline(o, logs, &in_step, &s1).ok());
    o.spill_min_logs = 1;
    ByLogSink by_log;
    ResolutionSink one_by_one(&by_log, multiples);
    RunSummary s2;
    ASSERT_TRUE(RunPipeline(o, logs, &one_by_one, &s2).ok());
    EXPECT_EQ(by_log.done.size(), logs.size());  // passed on to the sink behind
    EXPECT_EQ(by_log.summary.resolutions, at_end.summary.resolutions);
    const std::vector<std::string> want = ResultSet(at_end.quanta);
    EXPECT_GT(want.size(), 100u);
    EXPECT_EQ(ResultSet(by_log.quanta), want) << multiples.size() << " resolutions";
    EXPECT_EQ(ResultSet(by_log.whole), ResultSet(at_end.whole));
  }
}

}  // namespace
}  // namespace fiohist
