#include "stats/pipeline.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "base/test_util.h"
#include "stats/collecting_sink.h"

namespace fiohist {
namespace {

const std::string kData = FIOHIST_TEST_DATA "/fio-logs";

std::vector<std::string> Logs(const std::string& dir, const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& n : names) out.push_back(kData + "/" + dir + "/" + n);
  return out;
}

rapidjson::Document ReadJson(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  rapidjson::Document d;
  d.Parse(s.str().c_str());
  return d;
}

// Checks whole-run job percentiles against fio's own JSON: the logs lack only fio's last,
// partial interval, and fio reports bucket middles where we interpolate.
void CheckAgainstFioJson(const std::vector<std::string>& logs, const std::string& json_path,
                         const std::string& host) {
  PipelineOptions o;
  o.scopes = {false, false, true};
  ASSERT_TRUE(MakePercentiles({50, 90, 99}, &o.percentiles).ok());
  CollectingSink sink;
  RunSummary summary;
  Status s = RunPipeline(o, logs, &sink, &summary);
  ASSERT_TRUE(s.ok()) << s.message();
  rapidjson::Document fio = ReadJson(json_path);
  ASSERT_TRUE(fio.IsObject()) << json_path;
  const auto& jobs = fio["jobs"];
  int checked = 0;
  for (size_t j = 0; j < logs.size(); ++j) {
    // Log N of a job file is fio's job N-1.
    const std::string job_name = logs[j].substr(logs[j].find_last_of('/') + 1);
    const size_t dot = job_name.find("_clat_hist.") + 11;
    const int n = std::atoi(job_name.c_str() + dot);
    const auto& job = jobs[static_cast<rapidjson::SizeType>(n - 1)];
    for (const char* dir : {"read", "write"}) {
      const auto& clat = job[dir]["clat_ns"];
      const double fio_ios = job[dir]["total_ios"].GetDouble();
      if (fio_ios == 0) continue;
      const ScopeResult* r = sink.FindWhole(ScopeKind::kJob, host, dir, n);
      ASSERT_NE(r, nullptr) << logs[j] << " " << dir;
      const double missing = 100.0 * (fio_ios - r->stats.samples) / fio_ios;
      std::printf(
          "%s %s: logs hold %.0f of fio's %.0f I/Os (%.2f%% in the unlogged last "
          "interval)\n",
          job_name.c_str(), dir, r->stats.samples, fio_ios, missing);
      EXPECT_LT(missing, 10.0) << "the logs should miss only the last partial interval";
      EXPECT_GE(missing, -0.001) << "the logs cannot hold more I/Os than fio counted";
      const char* keys[3] = {"50.000000", "90.000000", "99.000000"};
      const Histogram& h = sink.whole_histograms[static_cast<size_t>(r - sink.whole.data())];
      // fio's value is a bucket middle; a coarsened log's bucket is 2^k fine buckets wide.
      const double width = (1 << sink.info.layout.coarseness) / 64.0;
      const double tolerance = std::max(0.02, width);
      for (int p = 0; p < 3; ++p) {
        const double want = clat["percentile"][keys[p]].GetDouble();
        const double got = r->stats.percentile_ns[static_cast<size_t>(p)];
        ++checked;
        if (std::fabs(got / want - 1.0) <= tolerance) continue;
        // The logs lack fio's last partial interval: fio's p-th percentile has rank p*N of
        // fio's N I/Os, which is somewhere in [p*N - missing, p*N] of the n I/Os logged.
        const double pct = std::atof(keys[p]);
        const double lo_rank = std::max(
            0.0, (pct * fio_ios / 100 - (fio_ios - r->stats.samples)) / r->stats.samples * 100);
        const double hi_rank = std::min(100.0, pct * fio_ios / 100 / r->stats.samples * 100);
        const LatencyStats bounds = ComputeStats(h, sink.info.layout, {lo_rank, hi_rank});
        std::printf(
            "  %s p%s: fiohist %.0f ns vs fio %.0f ns (%.1f%% off): the %.2f%% of I/Os "
            "missing from the logs allow fio's value anywhere in [%.0f, %.0f] ns\n",
            dir, keys[p], got, want, 100 * (got / want - 1), missing, bounds.percentile_ns[0],
            bounds.percentile_ns[1]);
        EXPECT_GE(want, bounds.percentile_ns[0] * (1 - tolerance)) << job_name << " " << dir;
        EXPECT_LE(want, bounds.percentile_ns[1] * (1 + tolerance)) << job_name << " " << dir;
      }
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(PipelineGolden, Randrw4MatchesFioJson) {
  CheckAgainstFioJson(Logs("randrw4", {"randrw4_clat_hist.1.log", "randrw4_clat_hist.2.log",
                                       "randrw4_clat_hist.3.log", "randrw4_clat_hist.4.log"}),
                      kData + "/randrw4/fio.json", "localhost");
}

TEST(PipelineGolden, CoarsenedLogsMatchFioJson) {
  CheckAgainstFioJson(Logs("coarse", {"coarse_clat_hist.1.log", "coarse_clat_hist.2.log"}),
                      kData + "/coarse/fio.json", "localhost");
}

TEST(PipelineGolden, EpochHostsMatchFioJson) {
  for (const std::string h : {"hostX", "hostY"}) {
    CheckAgainstFioJson(
        Logs("epoch2", {"epoch2_clat_hist.1.log." + h, "epoch2_clat_hist.2.log." + h}),
        kData + "/epoch2/fio-" + h + ".json", h);
  }
}

TEST(Pipeline, ClusterIsTheSumOfHostsAndJobs) {
  PipelineOptions o;
  o.scopes = {true, true, true};
  CollectingSink sink;
  RunSummary summary;
  const auto logs =
      Logs("epoch2", {"epoch2_clat_hist.1.log.hostX", "epoch2_clat_hist.2.log.hostX",
                      "epoch2_clat_hist.1.log.hostY", "epoch2_clat_hist.2.log.hostY"});
  ASSERT_TRUE(RunPipeline(o, logs, &sink, &summary).ok());
  std::map<std::pair<int64_t, std::string>, double> cluster, hosts, jobs;
  for (const ScopeResult& r : sink.quanta) {
    const auto key = std::make_pair(r.start_ms, std::string(DirectionName(r.direction)));
    if (r.kind == ScopeKind::kCluster) cluster[key] += r.stats.samples;
    if (r.kind == ScopeKind::kHost) hosts[key] += r.stats.samples;
    if (r.kind == ScopeKind::kJob) jobs[key] += r.stats.samples;
  }
  ASSERT_FALSE(cluster.empty());
  for (const auto& [key, v] : cluster) {
    EXPECT_NEAR(hosts[key], v, 1e-6 * v + 1e-9);
    EXPECT_NEAR(jobs[key], v, 1e-6 * v + 1e-9);
  }
  // Quanta sit on the grid chosen from the records (origin + k s); host Y started 2 s
  // later, so the first quanta have fewer contributing logs (ramp-up is shown, not cut
  // away).
  EXPECT_EQ(sink.info.grid, "logs");
  EXPECT_EQ((sink.quanta.front().start_ms - sink.info.grid_origin_ms) % 1000, 0);
  EXPECT_EQ(sink.quanta.front().logs, 2);
  EXPECT_TRUE(sink.info.absolute);
  EXPECT_EQ(sink.info.anchor, "epoch");
  EXPECT_EQ(sink.info.log_hist_msec, 500);
}

TEST(Pipeline, NoIoIsLostOnTheGrid) {
  // Every I/O in the logs ends up in exactly one place, whatever the quantum.
  for (int64_t quantum : {250, 1000, 7000}) {
    PipelineOptions o;
    o.quantum_ms = quantum;
    CollectingSink sink;
    RunSummary summary;
    const auto logs = Logs("randrw4", {"randrw4_clat_hist.1.log", "randrw4_clat_hist.4.log"});
    ASSERT_TRUE(RunPipeline(o, logs, &sink, &summary).ok());
    double sum = 0, whole = 0, reported = 0;
    for (const ScopeResult& r : sink.quanta) {
      if (r.kind == ScopeKind::kCluster && r.direction == Direction::kAll) sum += r.stats.samples;
    }
    for (const ScopeResult& r : sink.whole) {
      if (r.kind == ScopeKind::kCluster && r.direction == Direction::kAll) whole = r.stats.samples;
    }
    for (const LogReport& r : summary.reports) reported += r.total_ios;
    EXPECT_NEAR(sum, reported, 1e-6 * reported) << quantum;
    EXPECT_NEAR(whole, reported, 1e-6 * reported) << quantum;
  }
}

TEST(Pipeline, SharesOfFioIosPerJob) {
  // The fio.json beside the logs is found; job J of it goes with `..._clat_hist.J.log`.
  PipelineOptions o;
  CollectingSink sink;
  RunSummary summary;
  const auto logs = Logs("randrw4", {"randrw4_clat_hist.1.log", "randrw4_clat_hist.4.log"});
  ASSERT_TRUE(RunPipeline(o, logs, &sink, &summary).ok());
  EXPECT_EQ(sink.info.anchor, "fio-json");
  ASSERT_EQ(summary.io_shares.size(), 2u);
  EXPECT_EQ(summary.io_shares[0].job, "randrw4_clat_hist.1");
  EXPECT_EQ(summary.io_shares[0].fio, 198811.0 + 198638.0);
  EXPECT_EQ(summary.io_shares[0].logged, summary.reports[0].total_ios);
  EXPECT_EQ(summary.io_shares[1].fio, 197242.0 + 198079.0);
  EXPECT_TRUE(summary.warnings.empty());  // 96.6 % and 100 %

  // Another run's JSON: more I/Os logged than it counts, which is warned about.
  o.fio_json = {std::string(FIOHIST_TEST_DATA) + "/fio-logs/coarse/fio.json"};
  RunSummary other;
  ASSERT_TRUE(RunPipeline(o, {logs[0]}, &sink, &other).ok());
  ASSERT_EQ(other.io_shares.size(), 1u);
  EXPECT_GT(other.io_shares[0].share(), 1.01);
  // Its job ran 20 s, the log 30 s: the log's length is trusted for placing the job, which
  // the log knows only to its last interval (fio leaves out the last partial one): the
  // job's bound is that wide, and warned about.
  ASSERT_EQ(other.warnings.size(), 3u);
  EXPECT_NE(other.warnings[0].find("its records end 29"), std::string::npos) << other.warnings[0];
  EXPECT_NE(other.warnings[0].find("the log's length is taken for the job's"), std::string::npos);
  EXPECT_NE(other.warnings[1].find("places this job only within"), std::string::npos)
      << other.warnings[1];
  EXPECT_NE(other.warnings[2].find("is that JSON the output of this run and job?"),
            std::string::npos);
}

}  // namespace
}  // namespace fiohist

namespace fiohist {
namespace {

TEST(Pipeline, ResultsAreBitIdenticalWhateverTheThreadCount) {
  std::vector<std::vector<double>> runs;
  for (int threads : {1, 2, 3}) {
    PipelineOptions o;
    o.scopes = {true, true, true};
    o.threads = threads;
    CollectingSink sink;
    RunSummary summary;
    const std::string d = FIOHIST_TEST_DATA "/fio-logs/epoch2/";
    ASSERT_TRUE(
        RunPipeline(o,
                    {d + "epoch2_clat_hist.1.log.hostX", d + "epoch2_clat_hist.2.log.hostX",
                     d + "epoch2_clat_hist.1.log.hostY", d + "epoch2_clat_hist.2.log.hostY"},
                    &sink, &summary)
            .ok());
    std::vector<double> values;
    for (const ScopeResult& r : sink.quanta) {
      values.push_back(r.stats.samples);
      values.insert(values.end(), r.stats.percentile_ns.begin(), r.stats.percentile_ns.end());
    }
    runs.push_back(values);
  }
  EXPECT_EQ(runs[0], runs[1]);
  EXPECT_EQ(runs[0], runs[2]);
}

// A sink that does not read job histograms: the pipeline reuses each log's histograms
// before the quantum is written out, so job results come without them.
class StatsOnlySink : public CollectingSink {
 public:
  Status Quantum(const ScopeResult& r) override {
    if (r.kind == ScopeKind::kJob && r.histogram != nullptr) ++job_histograms_seen;
    return CollectingSink::Quantum(r);
  }
  bool reads_job_histograms() const override { return false; }
  int job_histograms_seen = 0;
};

// The four logs of the shared epoch2 run (two hosts, two jobs each).
std::vector<std::string> Epoch2Logs() {
  const std::string d = FIOHIST_TEST_DATA "/fio-logs/epoch2/";
  return {d + "epoch2_clat_hist.1.log.hostX", d + "epoch2_clat_hist.2.log.hostX",
          d + "epoch2_clat_hist.1.log.hostY", d + "epoch2_clat_hist.2.log.hostY"};
}

// What two result lists are compared on: scope, direction, samples and percentiles.
std::vector<double> StatValues(const std::vector<ScopeResult>& rs) {
  std::vector<double> v;
  for (const ScopeResult& r : rs) {
    v.push_back(static_cast<double>(r.kind));
    v.push_back(static_cast<double>(r.direction));
    v.push_back(r.stats.samples);
    v.insert(v.end(), r.stats.percentile_ns.begin(), r.stats.percentile_ns.end());
  }
  return v;
}

TEST(Pipeline, SinksWithoutJobHistogramsGetTheSameStatistics) {
  const std::vector<std::string> logs = Epoch2Logs();
  PipelineOptions o;
  o.scopes = {true, true, true};
  CollectingSink full;
  RunSummary summary;
  ASSERT_TRUE(RunPipeline(o, logs, &full, &summary).ok());
  for (int threads : {1, 3}) {
    o.threads = threads;
    StatsOnlySink lean;
    RunSummary lean_summary;
    ASSERT_TRUE(RunPipeline(o, logs, &lean, &lean_summary).ok());
    EXPECT_EQ(lean.job_histograms_seen, 0);
    ASSERT_GT(lean.quanta.size(), 10u);
    EXPECT_EQ(StatValues(full.quanta), StatValues(lean.quanta));
    EXPECT_EQ(StatValues(full.whole), StatValues(lean.whole));
  }
}

// A sink that reads only the samples of job quanta (as push's documents with job
// percentiles at 10 quanta): those get no percentiles, everything else is as before.
class JobSamplesSink : public CollectingSink {
 public:
  bool reads_job_quantum_stats() const override { return false; }
};

TEST(Pipeline, JobQuantaGetOnlyTheirSamplesWhereNoSinkReadsMore) {
  const std::vector<std::string> logs = Epoch2Logs();
  PipelineOptions o;
  o.scopes = {true, true, true};
  for (size_t spill_min_logs : {size_t{0}, size_t{1}}) {  // in step, and spilled
    o.spill_min_logs = spill_min_logs;
    CollectingSink full;
    RunSummary summary;
    ASSERT_TRUE(RunPipeline(o, logs, &full, &summary).ok());
    JobSamplesSink lean;
    RunSummary lean_summary;
    ASSERT_TRUE(RunPipeline(o, logs, &lean, &lean_summary).ok());
    ASSERT_EQ(full.quanta.size(), lean.quanta.size());
    int jobs = 0;
    for (size_t i = 0; i < full.quanta.size(); ++i) {
      const ScopeResult& f = full.quanta[i];
      const ScopeResult& l = lean.quanta[i];
      ASSERT_EQ(f.kind, l.kind);
      EXPECT_EQ(f.stats.samples, l.stats.samples);
      if (f.kind == ScopeKind::kJob) {
        ++jobs;
        EXPECT_TRUE(l.stats.percentile_ns.empty());
        EXPECT_EQ(l.stats.max_ns, 0);
      } else {
        EXPECT_EQ(f.stats.percentile_ns, l.stats.percentile_ns);
        EXPECT_EQ(f.stats.percentile_high_ns, l.stats.percentile_high_ns);
      }
    }
    EXPECT_GT(jobs, 10);
    EXPECT_EQ(StatValues(full.whole), StatValues(lean.whole));  // whole runs: every statistic
  }
}

// A sink that reads the cluster's whole run only (as pctiles' summary does).
class ClusterWholeRunSink : public CollectingSink {
 public:
  bool reads_whole_run(ScopeKind kind) const override { return kind == ScopeKind::kCluster; }
};

TEST(Pipeline, WholeRunsOfScopesNoSinkReadsAreNotMade) {
  // The hosts' and jobs' whole runs are skipped (with spilled logs the jobs' would be read
  // again from the temporary file); quanta and the cluster's whole run are unchanged.
  const std::vector<std::string> logs = Epoch2Logs();
  for (size_t spill : {size_t{0}, size_t{2}}) {
    PipelineOptions o;
    o.scopes = {true, true, true};
    o.spill_min_logs = spill;
    CollectingSink full;
    RunSummary summary;
    ASSERT_TRUE(RunPipeline(o, logs, &full, &summary).ok());
    ClusterWholeRunSink lean;
    RunSummary lean_summary;
    ASSERT_TRUE(RunPipeline(o, logs, &lean, &lean_summary).ok());
    std::vector<ScopeResult> cluster_whole;
    for (const ScopeResult& r : full.whole) {
      if (r.kind == ScopeKind::kCluster) cluster_whole.push_back(r);
    }
    ASSERT_LT(cluster_whole.size(), full.whole.size());  // hosts and jobs were there
    EXPECT_EQ(StatValues(lean.whole), StatValues(cluster_whole)) << "spill " << spill;
    EXPECT_EQ(StatValues(lean.quanta), StatValues(full.quanta)) << "spill " << spill;
  }
}

}  // namespace
}  // namespace fiohist

#include <zlib.h>

namespace fiohist {
namespace {

// One line: `count` I/Os in bucket 300, fio3 layout.
std::string Line(int64_t t, int dir, int count) {
  std::string s = std::to_string(t) + ", " + std::to_string(dir) + ", 4096";
  for (int c = 0; c < 1856; ++c) s += c == 300 ? ", " + std::to_string(count) : ", 0";
  return s + "\n";
}

TEST(Pipeline, ADirectionThatStallsIsPlacedExactly) {
  // Reads every second; writes at 1001, then nothing until 9001: the write line closing
  // the stall comes after seven read lines, yet its I/Os belong to quanta before them.
  std::string text = Line(1001, 0, 10) + Line(1001, 1, 10);
  for (int k = 2; k <= 10; ++k) {
    text += Line(k * 1000 + 1, 0, 10);
    if (k == 9) text += Line(9001, 1, 800);
  }
  const std::string plain = WriteTempFile("stall.log", text);
  const std::string gz = ::testing::TempDir() + "/stall_gz.log.gz";
  gzFile f = gzopen(gz.c_str(), "wb");
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  for (const std::string& path : {plain, gz}) {
    PipelineOptions o;
    o.grid.mode = GridChoice::Mode::kEpoch;  // quanta on whole seconds, records across them
    CollectingSink sink;
    RunSummary summary;
    ASSERT_TRUE(RunPipeline(o, {path}, &sink, &summary).ok()) << path;
    std::map<int64_t, double> writes;
    for (const ScopeResult& r : sink.quanta) {
      if (r.direction == Direction::kWrite) writes[r.start_ms] = r.stats.samples;
    }
    // fio's rule (interval_model.h): the record's deadline was 2001, so 799 of its I/Os
    // completed in (1001, 2001], the one that wrote it at 9001; quanta 3..8 saw none.
    EXPECT_NEAR(writes[1000], 10 * 1.0 / 1000 + 799 * 999.0 / 1000, 1e-9) << path;
    EXPECT_NEAR(writes[2000], 799 * 1.0 / 1000, 1e-9) << path;
    for (int64_t q = 3; q <= 8; ++q) EXPECT_EQ(writes[q * 1000], 0.0) << path << q;
    EXPECT_NEAR(writes[9000], 1.0, 1e-9) << path;
    EXPECT_EQ(summary.reports[0].late_ios, 0) << path;
    EXPECT_EQ(summary.reports[0].records, 12) << path;
  }
}

// Coverage: log A runs (1, 5001]; log B starts at 2001 and its last record covers only
// (4001, 4007] (fio drops its last partial interval). A quantum is partial where the two
// logs together cover less than its time (1 ms per log of rounding allowed).
std::vector<std::string> CoverageLogs() {
  std::string a, b;
  for (int k = 1; k <= 5; ++k) a += Line(k * 1000 + 1, 0, 10);
  b = Line(3001, 0, 10) + Line(4001, 0, 10) + Line(4007, 0, 10);
  return {WriteTempFile("cover_a.log", a), WriteTempFile("cover_b.log", b)};
}

TEST(Pipeline, QuantaReportTheirCoverageAndPartialOnes) {
  PipelineOptions o;
  o.grid.mode = GridChoice::Mode::kEpoch;  // quanta on whole seconds
  o.scopes = {true, false, true};
  o.log_hist_msec = 1000;
  o.directions = {true, false, false, false};
  CollectingSink sink;
  RunSummary summary;
  ASSERT_TRUE(RunPipeline(o, CoverageLogs(), &sink, &summary).ok());
  std::map<int64_t, const ScopeResult*> cluster, job_b;
  for (const ScopeResult& r : sink.quanta) {
    if (r.kind == ScopeKind::kCluster) cluster[r.start_ms] = &r;
    if (r.kind == ScopeKind::kJob && r.job == "cover_b") job_b[r.start_ms] = &r;
  }
  // Covered ms of A + B per quantum, of 2000.
  const std::map<int64_t, std::pair<int, bool>> want = {
      {0, {999, true}},      {1000, {1000, true}}, {2000, {1999, false}},
      {3000, {2000, false}}, {4000, {1007, true}}, {5000, {1, true}}};
  ASSERT_EQ(cluster.size(), want.size());
  for (const auto& [start, w] : want) {
    ASSERT_TRUE(cluster.count(start)) << start;
    EXPECT_DOUBLE_EQ(cluster[start]->coverage, w.first / 2000.0) << start;
    EXPECT_EQ(cluster[start]->partial, w.second) << start;
  }
  ASSERT_TRUE(job_b.count(4000));
  EXPECT_DOUBLE_EQ(job_b[4000]->coverage, 7 / 1000.0);
  EXPECT_TRUE(job_b[4000]->partial);
  EXPECT_DOUBLE_EQ(job_b[3000]->coverage, 1.0);
  EXPECT_FALSE(job_b[3000]->partial);
  // The whole run: 5000 + 2006 ms of 2 x 6000.
  ASSERT_FALSE(sink.whole.empty());
  EXPECT_EQ(sink.whole[0].kind, ScopeKind::kCluster);
  EXPECT_DOUBLE_EQ(sink.whole[0].coverage, (5000 + 2006) / 12000.0);
  EXPECT_TRUE(sink.whole[0].partial);
}

// Records ending at .200 of every second (fio started at a phase, as with its JSON or
// epoch stamps): 100 I/Os in the first second, 300 in the next, 100 in the third.
std::string PhasedLog() {
  return Line(1200, 0, 100) + Line(2200, 0, 300) + Line(3200, 0, 100) + Line(4200, 0, 100);
}

TEST(Pipeline, GridFollowsTheRecordsEnds) {
  PipelineOptions o;
  o.log_hist_msec = 1000;
  o.find_fio_json = false;
  o.directions = {true, false, false, false};
  CollectingSink sink;
  RunSummary summary;
  ASSERT_TRUE(RunPipeline(o, {WriteTempFile("phased_grid.log", PhasedLog())}, &sink, &summary).ok());
  EXPECT_EQ(sink.info.grid, "logs");
  EXPECT_EQ(sink.info.grid_origin_ms, 200);
  std::map<int64_t, const ScopeResult*> q;
  for (const ScopeResult& r : sink.quanta) q[r.start_ms] = &r;
  // Each record fills one quantum exactly: nothing is spread over an edge.
  ASSERT_EQ(q.size(), 4u);
  ASSERT_TRUE(q.count(1200));
  EXPECT_DOUBLE_EQ(q[1200]->stats.samples, 300);
  EXPECT_DOUBLE_EQ(q[1200]->straddled, 0);
  EXPECT_TRUE(summary.warnings.empty());
  // Whole-run straddled share: none either.
  ASSERT_FALSE(sink.whole.empty());
  EXPECT_DOUBLE_EQ(sink.whole[0].straddled, 0);
}

// Reads only, 1 s records, no fio JSON, quanta on whole seconds.
PipelineOptions EpochGridReads() {
  PipelineOptions o;
  o.grid.mode = GridChoice::Mode::kEpoch;
  o.log_hist_msec = 1000;
  o.find_fio_json = false;
  o.directions = {true, false, false, false};
  return o;
}

TEST(Pipeline, EpochGridSplitsRecordsAndSaysHowMuch) {
  const PipelineOptions o = EpochGridReads();
  CollectingSink sink;
  RunSummary summary;
  ASSERT_TRUE(RunPipeline(o, {WriteTempFile("phased_epoch.log", PhasedLog())}, &sink, &summary).ok());
  EXPECT_EQ(sink.info.grid, "epoch");
  EXPECT_EQ(sink.info.grid_origin_ms, 0);
  std::map<int64_t, const ScopeResult*> q;
  for (const ScopeResult& r : sink.quanta) q[r.start_ms] = &r;
  // (1200, 2200] puts 80 % of its 300 I/Os in [1000, 2000), 20 % in [2000, 3000).
  ASSERT_TRUE(q.count(1000) && q.count(2000));
  EXPECT_DOUBLE_EQ(q[1000]->stats.samples, 0.2 * 100 + 0.8 * 300);
  EXPECT_DOUBLE_EQ(q[2000]->stats.samples, 0.2 * 300 + 0.8 * 100);
  // Every record crossing an edge adds the smaller side of its split: 20 % of its I/Os.
  EXPECT_DOUBLE_EQ(q[1000]->straddled, 0.2 * (100 + 300) / 260);
  EXPECT_DOUBLE_EQ(q[2000]->straddled, 0.2 * (300 + 100) / 140);
  // The summary names the host whose records end far from the grid's edges.
  ASSERT_EQ(summary.warnings.size(), 1u);
  EXPECT_NE(summary.warnings[0].find("200 ms after the grid's quantum edges"), std::string::npos)
      << summary.warnings[0];
}

TEST(Pipeline, StraddledShareIsSummedPerScope) {
  // Host A's records end 200 ms after the whole seconds, host B's on them: on the epoch grid
  // only A's I/Os are spread over edges, and each scope's share counts its own I/Os.
  PipelineOptions o = EpochGridReads();
  o.scopes = {true, true, true};
  CollectingSink sink;
  RunSummary summary;
  const std::string aligned = Line(2000, 0, 100) + Line(3000, 0, 100) + Line(4000, 0, 100);
  ASSERT_TRUE(RunPipeline(o,
                          {WriteTempFile("straddle_clat_hist.1.log.hostA", PhasedLog()),
                           WriteTempFile("straddle_clat_hist.1.log.hostB", aligned)},
                          &sink, &summary)
                  .ok());
  std::map<std::pair<int, std::string>, const ScopeResult*> q;  // quantum [1000, 2000)
  for (const ScopeResult& r : sink.quanta) {
    if (r.start_ms == 1000) q[{static_cast<int>(r.kind), r.host}] = &r;
  }
  const auto at = [&q](ScopeKind kind, const std::string& host) {
    auto it = q.find({static_cast<int>(kind), host});
    return it == q.end() ? -1.0 : it->second->straddled;
  };
  // A: 20 % of (200, 1200]'s 100 I/Os and of (1200, 2200]'s 300 lie across an edge, of its
  // 0.2 * 100 + 0.8 * 300 = 260 in the quantum; B: (1000, 2000] fills it, 100 I/Os.
  EXPECT_DOUBLE_EQ(at(ScopeKind::kHost, "hostA"), 80.0 / 260);
  EXPECT_DOUBLE_EQ(at(ScopeKind::kJob, "hostA"), 80.0 / 260);
  EXPECT_DOUBLE_EQ(at(ScopeKind::kHost, "hostB"), 0);
  EXPECT_DOUBLE_EQ(at(ScopeKind::kJob, "hostB"), 0);
  EXPECT_DOUBLE_EQ(at(ScopeKind::kCluster, ""), 80.0 / 360);
}

TEST(Pipeline, AnOriginGivenSetsThePhase) {
  PipelineOptions o;
  ASSERT_TRUE(ParseGridChoice("0.7", &o.grid).ok());  // 700 ms of the logs' time line
  o.log_hist_msec = 1000;
  o.find_fio_json = false;
  CollectingSink sink;
  RunSummary summary;
  ASSERT_TRUE(RunPipeline(o, {WriteTempFile("phased_origin.log", PhasedLog())}, &sink, &summary).ok());
  EXPECT_EQ(sink.info.grid, "origin");
  EXPECT_EQ(sink.info.grid_origin_ms, 700);
  for (const ScopeResult& r : sink.quanta) EXPECT_EQ((r.start_ms % 1000 + 1000) % 1000, 700);
}

}  // namespace
}  // namespace fiohist
