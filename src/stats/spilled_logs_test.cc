#include "stats/spilled_logs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/test_util.h"
#include "stats/pipeline.h"

namespace fiohist {
namespace {

// Every field of every result (histograms and placed records too, where the sink gets
// them) as text, so runs can be compared whole.
class FingerprintSink : public ResultSink {
 public:
  explicit FingerprintSink(bool job_histograms, bool by_log = false)
      : job_histograms_(job_histograms), by_log_(by_log) {}
  Status Begin(const RunInfo& info) override {
    lines.push_back("begin " + std::to_string(info.start_ms) + " " +
                    std::to_string(info.first_quantum_ms));
    return Status();
  }
  Status Quantum(const ScopeResult& r) override { return Add("q", r); }
  Status WholeRun(const ScopeResult& r) override { return Add("w", r); }
  Status End(const RunSummary&) override { return Status(); }
  bool reads_job_histograms() const override { return job_histograms_; }
  bool takes_jobs_by_log() const override { return by_log_; }
  Status JobDone(const std::string& host, const std::string& job) override {
    lines.push_back("done " + host + " " + job);
    return Status();
  }

  std::vector<std::string> lines;

 private:
  Status Add(const char* what, const ScopeResult& r) {
    char head[512];
    std::snprintf(head, sizeof head,
                  "%s %lld %lld %.17g %d %s %s %d %d %.17g %d %.17g %.17g %.17g", what,
                  static_cast<long long>(r.start_ms), static_cast<long long>(r.end_ms),
                  r.elapsed_s, static_cast<int>(r.kind), r.host.c_str(), r.job.c_str(),
                  static_cast<int>(r.direction), r.logs, r.coverage, r.partial ? 1 : 0,
                  r.straddled, r.stats.samples, r.stats.max_ns);
    std::string line = head;
    for (double p : r.stats.percentile_ns) {
      char v[32];
      std::snprintf(v, sizeof v, " %a", p);
      line += v;
    }
    if (r.histogram != nullptr) {
      const Histogram& h = *r.histogram;
      char n[64];
      std::snprintf(n, sizeof n, " h%d-%d:%a", h.begin_column(), h.end_column(), h.total());
      line += n;
      for (int c = h.begin_column(); c < h.end_column(); ++c) {
        std::snprintf(n, sizeof n, ",%a", h.at(c));
        line += n;
      }
    }
    if (r.records != nullptr) {
      for (const PlacedRecord& p : *r.records) {
        line += " r" + std::to_string(static_cast<int>(p.direction)) + ":" +
                std::to_string(p.span.start_ms) + "-" + std::to_string(p.span.end_ms);
        for (const auto& [c, n] : p.counts) {
          line += "," + std::to_string(c) + "=" + std::to_string(n);
        }
      }
    }
    lines.push_back(line);
    return Status();
  }
  bool job_histograms_;
  bool by_log_;
};

struct Outcome {
  std::vector<std::string> lines;
  std::vector<std::string> warnings;
  std::string error;
};

Outcome RunOnce(PipelineOptions o, const std::vector<std::string>& logs, bool spill,
                bool job_histograms, bool by_log = false) {
  o.spill_min_logs = spill ? 1 : 0;
  FingerprintSink sink(job_histograms, by_log);
  RunSummary summary;
  Status s = RunPipeline(o, logs, &sink, &summary);
  return {sink.lines, summary.warnings, s.ok() ? "" : s.message()};
}

// Spilled or read in step, every option mix gives the same results, bit for bit.
void ExpectSameEitherWay(PipelineOptions o, const std::vector<std::string>& logs) {
  for (bool job_histograms : {true, false}) {
    for (bool keep_records : {false, true}) {
      for (int threads : {1, 3}) {
        o.keep_records = keep_records;
        o.threads = threads;
        const Outcome in_step = RunOnce(o, logs, false, job_histograms);
        const Outcome spilled = RunOnce(o, logs, true, job_histograms);
        ASSERT_GT(in_step.lines.size(), 3u);
        EXPECT_EQ(in_step.lines, spilled.lines)
            << logs[0] << " histograms " << job_histograms << " records " << keep_records;
        EXPECT_EQ(in_step.warnings, spilled.warnings);
        EXPECT_EQ(in_step.error, spilled.error);
      }
    }
  }
}

const std::string kData = FIOHIST_TEST_DATA "/fio-logs/";

TEST(SpilledLogs, SameResultsAsReadingInStep) {
  PipelineOptions o;
  o.scopes = {true, true, true};
  const std::string d = kData + "epoch2/";
  ExpectSameEitherWay(o, {d + "epoch2_clat_hist.1.log.hostX", d + "epoch2_clat_hist.2.log.hostX",
                          d + "epoch2_clat_hist.1.log.hostY", d + "epoch2_clat_hist.2.log.hostY"});
  const std::string r = kData + "randrw4/";
  ExpectSameEitherWay(o, {r + "randrw4_clat_hist.1.log", r + "randrw4_clat_hist.2.log",
                          r + "randrw4_clat_hist.3.log", r + "randrw4_clat_hist.4.log"});
  o.scopes = {true, false, false};
  o.grid.mode = GridChoice::Mode::kEpoch;  // records split across quanta
  ExpectSameEitherWay(o, {r + "randrw4_clat_hist.1.log", r + "randrw4_clat_hist.3.log"});
}

// One line: `count` I/Os in bucket 300, fio3 layout.
std::string Line(int64_t t, int dir, int count) {
  std::string s = std::to_string(t) + ", " + std::to_string(dir) + ", 4096";
  for (int c = 0; c < 1856; ++c) s += c == 300 ? ", " + std::to_string(count) : ", 0";
  return s + "\n";
}

TEST(SpilledLogs, StallsGapsAndSkippedLinesAsInStep) {
  // Writes stall from 1001 to 9001 (their closing line comes late); log b starts late,
  // has a gap and a bad line.
  std::string a = Line(1001, 0, 10) + Line(1001, 1, 10);
  for (int k = 2; k <= 10; ++k) {
    a += Line(k * 1000 + 1, 0, 10);
    if (k == 9) a += Line(9001, 1, 800);
  }
  std::string b = Line(3001, 0, 5) + Line(4001, 0, 7) + "4500, 0, oops\n" + Line(7001, 0, 9) +
                  Line(8001, 1, 3);
  const std::vector<std::string> logs = {WriteTempFile("spill_a.log.h1", a),
                                         WriteTempFile("spill_b.log.h2", b)};
  PipelineOptions o;
  o.scopes = {true, true, true};
  o.skip_bad_lines = true;
  o.grid.mode = GridChoice::Mode::kEpoch;
  ExpectSameEitherWay(o, logs);
  // Without --skip-bad-lines the bad line ends the run the same way (the spill gives way
  // to reading in step, which reports it).
  o.skip_bad_lines = false;
  const Outcome in_step = RunOnce(o, logs, false, true);
  const Outcome spilled = RunOnce(o, logs, true, true);
  EXPECT_NE(in_step.error, "");
  EXPECT_EQ(in_step.error, spilled.error);
  EXPECT_EQ(in_step.lines, spilled.lines);
  // A bad line past what the probe reads is met while streaming: the quanta before it are
  // written out and the run ends with the same error.
  std::string c;
  for (int k = 1; k <= 80; ++k) c += k == 75 ? "75001, 0, oops\n" : Line(k * 1000 + 1, 0, k);
  const std::vector<std::string> late = {logs[0], WriteTempFile("spill_c.log.h3", c)};
  const Outcome late_in_step = RunOnce(o, late, false, true);
  const Outcome late_spilled = RunOnce(o, late, true, true);
  EXPECT_NE(late_in_step.error.find("spill_c.log.h3:75"), std::string::npos)
      << late_in_step.error;
  EXPECT_EQ(late_in_step.error, late_spilled.error);
  EXPECT_GT(late_in_step.lines.size(), 50u);
  EXPECT_EQ(late_in_step.lines, late_spilled.lines);
}

// The field of a fingerprint line holding the scope kind (2: job), and its host and job.
bool IsJobQuantum(const std::string& line) {
  std::istringstream in(line);
  std::string what, start, end, elapsed, kind;
  in >> what >> start >> end >> elapsed >> kind;
  return what == "q" && kind == "2";
}
// A whole-run job line without its histogram: a sink that takes jobs by log gets none
// there (ResultSink::takes_jobs_by_log).
std::string WithoutWholeJobHistogram(const std::string& line) {
  std::istringstream in(line);
  std::string what, start, end, elapsed, kind;
  in >> what >> start >> end >> elapsed >> kind;
  if (what != "w" || kind != "2") return line;
  // The histogram is the last field: " h<lo>-<hi>:..." (<lo> may be negative). No
  // std::regex: GCC 12 warns inside it under the sanitizers' -Werror build.
  for (size_t at = line.find(" h"); at != std::string::npos; at = line.find(" h", at + 1)) {
    size_t i = at + 2;
    if (i < line.size() && line[i] == '-') ++i;
    const size_t lo = i;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
    if (i == lo || i >= line.size() || line[i] != '-') continue;
    const size_t hi = ++i;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
    if (i > hi && i < line.size() && line[i] == ':') return line.substr(0, at);
  }
  return line;
}
std::string JobOf(const std::string& line) {
  std::istringstream in(line);
  std::string f[7];
  for (std::string& x : f) in >> x;
  return f[5] + " " + f[6];
}

// A sink that takes the job scope log by log (ResultSink::takes_jobs_by_log) gets, with
// spilled logs, the same results as in step: the cluster's and hosts' quanta in the same
// order, then each job's quanta in time order, with JobDone after its last one, then the
// whole run as ever; and the same order whatever the thread count. More logs than the
// pipeline reads at once (its lanes), of different lengths, on three hosts.
TEST(SpilledLogs, JobsByLogAreTheJobResultsInStep) {
  std::vector<std::string> logs;
  for (int i = 0; i < 11; ++i) {
    std::string text;
    for (int k = 1 + i % 3; k <= 4 + 2 * i; ++k) {
      text += Line(k * 1000 + 1 + 37 * i, k % 2, 10 + k);
    }
    logs.push_back(
        WriteTempFile("bylog_" + std::to_string(i) + ".log.h" + std::to_string(i % 3), text));
  }
  PipelineOptions o;
  o.scopes = {true, true, true};
  o.log_hist_msec = 1000;
  for (bool keep_records : {false, true}) {
    o.keep_records = keep_records;
    o.threads = 1;
    const Outcome in_step = RunOnce(o, logs, false, true);
    const Outcome by_log = RunOnce(o, logs, true, true, true);
    ASSERT_EQ(by_log.error, "");
    o.threads = 3;
    EXPECT_EQ(RunOnce(o, logs, true, true, true).lines, by_log.lines) << "3 threads";

    // In step, less the jobs' quanta: the same lines in the same order.
    std::vector<std::string> others, jobs_in_step, others_by_log, jobs_by_log;
    std::map<std::string, std::vector<std::string>> per_job_in_step, per_job_by_log;
    for (const std::string& l : in_step.lines) {
      if (IsJobQuantum(l)) {
        jobs_in_step.push_back(l);
        per_job_in_step[JobOf(l)].push_back(l);
      } else {
        others.push_back(WithoutWholeJobHistogram(l));
      }
    }
    size_t first_job = by_log.lines.size(), last_job = 0, first_whole = by_log.lines.size();
    std::map<std::string, int> done;
    for (size_t i = 0; i < by_log.lines.size(); ++i) {
      const std::string& l = by_log.lines[i];
      if (l.rfind("done ", 0) == 0) {
        const std::string job = l.substr(5);
        ++done[job];
        // After its job's last quantum.
        EXPECT_EQ(per_job_by_log[job].size(), per_job_in_step[job].size()) << l;
        continue;
      }
      if (IsJobQuantum(l)) {
        jobs_by_log.push_back(l);
        per_job_by_log[JobOf(l)].push_back(l);
        first_job = std::min(first_job, i);
        last_job = i;
      } else {
        others_by_log.push_back(l);
        if (l[0] == 'w') first_whole = std::min(first_whole, i);
        if (l[0] == 'w' && l != WithoutWholeJobHistogram(l)) ADD_FAILURE() << l;
      }
    }
    ASSERT_GT(jobs_by_log.size(), 100u);
    EXPECT_EQ(others_by_log, others);
    EXPECT_EQ(per_job_by_log, per_job_in_step);  // each job's quanta in time order
    EXPECT_EQ(done.size(), logs.size());
    for (const auto& [job, n] : done) EXPECT_EQ(n, 1) << job;
    EXPECT_LT(last_job, first_whole);
    // Every cluster and host quantum before the first job's.
    size_t last_other_quantum = 0;
    for (size_t i = 0; i < by_log.lines.size(); ++i) {
      if (by_log.lines[i][0] == 'q' && !IsJobQuantum(by_log.lines[i])) last_other_quantum = i;
    }
    EXPECT_LT(last_other_quantum, first_job);
    EXPECT_EQ(by_log.warnings, in_step.warnings);
  }
}

}  // namespace
}  // namespace fiohist
