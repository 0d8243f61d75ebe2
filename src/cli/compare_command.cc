// `fiohist compare`: is a run worse than its baseline(s)? A verdict a CI job can gate on.
#include <sys/stat.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/command_line.h"
#include "cli/command_progress.h"
#include "cli/commands.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "cli/metric_flags.h"
#include "cli/run_inputs.h"
#include "es/run_catalog.h"
#include "es/run_reader.h"
#include "log/time_anchor.h"
#include "output/comparison_report.h"
#include "stats/pipeline.h"
#include "stats/run_comparison.h"

namespace po = boost::program_options;

namespace fiohist {
namespace {

const char kCompareUsage[] =
    "Usage: fiohist compare [options] RUN BASELINE...          (log directories or files)\n"
    "       fiohist compare --es-url URL [options] RUN BASELINE...  (stored run names)\n"
    "       fiohist compare --es-url URL [options] RUN --tag TAG [--last N]\n"
    "\n"
    "Is RUN worse than its baseline? For every direction and metric (--metrics, default\n"
    "p50, p99, p99.9 and iops) prints the change (run / baseline - 1) with an interval, and a\n"
    "verdict: regression (the interval lies on the worse side of no change and the change is\n"
    "at least the minimum effect, --min-effect, default 5%), improvement (the same, better),\n"
    "pass (a regression as large as the minimum effect is ruled out) or inconclusive (the\n"
    "interval is too wide to tell at the minimum effect). Overall: regression if any metric\n"
    "is one, else inconclusive if any is, else improvement or pass.\n"
    "\n"
    "The interval comes from a block bootstrap of each run (its full quanta resampled in\n"
    "blocks of consecutive quanta, and its hosts when there are 4 or more; histograms are\n"
    "merged again for each resample, fixed seed) and from the spread between runs: with\n"
    "several baselines it is measured (--run-spread is its least value), with one it cannot\n"
    "be: every verdict is then inconclusive (the intervals shown assume --run-spread; the\n"
    "notes say so). The confidence (--confidence, default 95%) holds over all metrics and\n"
    "directions together. Partial quanta are left out; --skip-start / --skip-end cut the\n"
    "ramps, --from / --to choose a window.\n"
    "\n"
    "From files, RUN and each BASELINE is a directory (its fio histogram logs, *_hist.*, are\n"
    "read, subdirectories too; where it has none, its fio JSON outputs: status streams,\n"
    "client/server outputs) or one input file of any kind, or NAME=PATH. From Elasticsearch\n"
    "(--es-url or FIOHIST_ES_URL) they are run names; --tag TAG compares with the last\n"
    "--last N (default 5) finished runs carrying TAG that started before RUN.\n"
    "\n"
    "Examples:\n"
    "  fiohist compare results/today results/yesterday\n"
    "  fiohist compare --es-url http://127.0.0.1:9200 nightly-42 --tag nightly --last 5 \\\n"
    "      --min-effect p99.9=20% --junit verdict.xml\n"
    "\n"
    "Exit status: 0 pass or improvement; 1 error; 2 bad command line (a baseline that is the\n"
    "run itself); 5 regression; 6 inconclusive (also: a run still running, no baseline\n"
    "runs of the tag).\n";

struct CompareArgs {
  std::string run;
  std::vector<std::string> baselines;
  std::string tag;
  size_t last = 5;
  CompareOptions options;
  QuantumWindow window;
  LatencyUnit unit;
  std::string format = "table";
  std::string json_file, junit_file;
  bool from_es = false;
  EsConnectionOptions conn;
  bool quiet = false;
  int64_t quantum_ms = 1000;
  bool quantum_given = false;
  // --place issue: both runs' I/Os where they were issued (files only).
  bool place_issue = false;
};

int Usage(const std::string& message) {
  std::fprintf(stderr, "fiohist compare: %s\n", message.c_str());
  return kExitUsage;
}

int ParseArgs(int argc, char** argv, CompareArgs* a) {
  po::options_description desc("Options");
  std::string unit = "us", from, to, place = "completion";
  std::vector<std::string> positional_runs;
  MetricFlags metric_flags;
  double skip_start = 0, skip_end = 0, quantum_s = 1;
  int64_t last = 5;
  AddMetricFlags(&desc, &metric_flags);
  // clang-format off
  desc.add_options()
      ("confidence", po::value(&a->options.confidence)->default_value(0.95, "0.95"),
       "confidence over all metrics and directions together")
      ("replicates", po::value(&a->options.bootstrap.replicates)->default_value(1000),
       "bootstrap resamples per run")
      ("seed", po::value(&a->options.bootstrap.seed)->default_value(1), "bootstrap seed")
      ("block-quanta", po::value(&a->options.bootstrap.block_quanta)->default_value(0),
       "quanta per bootstrap block (0: chosen per run from its quanta's autocorrelation, "
       "Politis & White 2004)")
      ("quantum,q", po::value(&quantum_s)->default_value(1.0, "1"),
       "quantum in seconds (from Elasticsearch: a multiple of the push quantum, default it)")
      ("skip-start", po::value(&skip_start)->default_value(0), "leave out the first S seconds")
      ("skip-end", po::value(&skip_end)->default_value(0), "leave out the last S seconds")
      ("from", po::value(&from),
       "only quanta starting at or after T (ISO 8601, epoch s or ms; the baselines' quanta at "
       "the same offset from their first quantum)")
      ("to", po::value(&to), "only quanta starting before T (likewise)")
      ("place", po::value(&place)->default_value(place),
       "completion or issue: count every run's I/Os where they completed or where they were "
       "issued (the same for all; runs from files: stored runs are compared as pushed)")
      ("tag", po::value(&a->tag), "with --es-url: compare with the last runs carrying TAG")
      ("last", po::value(&last)->default_value(5), "with --tag: how many runs")
      ("unit,u", po::value(&unit)->default_value(unit), "latency unit: ns, us, ms, s")
      ("format,f", po::value(&a->format)->default_value(a->format),
       "stdout: table, json or junit")
      ("json", po::value(&a->json_file), "also write the JSON to FILE")
      ("junit", po::value(&a->junit_file), "also write JUnit XML to FILE")
      ("quiet", po::bool_switch(&a->quiet),
       "no progress line and no note of what a directory gave on stderr")
      ("runs", po::value(&positional_runs)->composing(), "RUN BASELINE...");
  // clang-format on
  AddEsConnectionOptions(&desc, &a->conn);
  po::positional_options_description positional;
  positional.add("runs", -1);
  po::variables_map vm;
  const int rc = ParseCommandLine(argc, argv, kCompareUsage, desc, &positional, &vm);
  if (rc >= 0) return rc;
  if (positional_runs.empty()) return Usage("give RUN and its baselines (see --help)");
  a->run = positional_runs[0];
  a->baselines.assign(positional_runs.begin() + 1, positional_runs.end());
  a->from_es = ResolveEsUrl(&a->conn);
  if (place != "completion" && place != "issue") {
    return Usage("--place: expected completion or issue, got '" + place + "'");
  }
  a->place_issue = place == "issue";
  if (a->place_issue && a->from_es) {
    return Usage(
        "--place issue: stored runs are compared as they were pushed (their run "
        "documents' placement); compare the runs' logs instead");
  }
  if (!a->tag.empty() && !a->from_es) return Usage("--tag reads stored runs: give --es-url");
  if (!a->tag.empty() && !a->baselines.empty()) return Usage("give baselines or --tag, not both");
  if (a->tag.empty() && a->baselines.empty()) return Usage("no baseline: give BASELINE or --tag");
  if (last < 1) return Usage("--last: expected at least 1");
  a->last = static_cast<size_t>(last);
  for (const std::string& b : a->baselines) {
    if (b == a->run) return Usage("the baseline '" + b + "' is the run itself");
  }
  Status s = ParseMetricFlags(metric_flags, &a->options.metrics);
  if (!s.ok()) return Usage(s.message());
  if (!(a->options.confidence > 0 && a->options.confidence < 1)) {
    return Usage("--confidence: expected a number between 0 and 1 such as 0.95");
  }
  if (a->options.bootstrap.replicates < 100) return Usage("--replicates: expected at least 100");
  if (!(skip_start >= 0) || !(skip_end >= 0)) return Usage("--skip-start/--skip-end: expected seconds >= 0");
  if (!(quantum_s >= 0.001) || quantum_s > 86400) return Usage("--quantum: expected seconds such as 1 or 0.5");
  a->quantum_ms = static_cast<int64_t>(std::llround(quantum_s * 1000));
  a->quantum_given = !vm["quantum"].defaulted();
  a->window.skip_start_ms = static_cast<int64_t>(std::llround(skip_start * 1000));
  a->window.skip_end_ms = static_cast<int64_t>(std::llround(skip_end * 1000));
  if (!from.empty()) s = ParseStartTime(from, &a->window.from_ms);
  if (s.ok() && !to.empty()) s = ParseStartTime(to, &a->window.to_ms);
  if (!s.ok()) return Usage("--from/--to: " + s.message());
  s = ParseLatencyUnit(unit, &a->unit);
  if (!s.ok()) return Usage(s.message());
  if (a->format != "table" && a->format != "json" && a->format != "junit") {
    return Usage("--format: expected table, json or junit, got '" + a->format + "'");
  }
  return -1;
}

// A run from files: NAME=PATH or PATH (named after it); PATH a directory or one input file,
// read as every command reads its inputs (PlanInputs, RunInputs).
Status LoadFromFiles(const std::string& spec, int64_t quantum_ms, const QuantumWindow& window,
                     bool quiet, bool place_issue, RunData* data) {
  const size_t eq = spec.find('=');
  const std::string name = eq == std::string::npos ? spec : spec.substr(0, eq);
  const std::string dir = eq == std::string::npos ? spec : spec.substr(eq + 1);
  std::vector<std::string> inputs;
  std::vector<DirectoryInputs> directories;
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    return Status::Error(dir + ": neither a directory of fio logs nor an input file");
  }
  Status s = ExpandInputs({dir}, &inputs, &directories);
  if (!s.ok()) return s;
  for (const DirectoryInputs& d : directories) {
    if (!quiet) std::fprintf(stderr, "fiohist compare: %s\n", DescribeDirectoryInputs(d).c_str());
  }
  PipelineOptions options;
  options.quantum_ms = quantum_ms;
  options.place_issue = place_issue;
  options.scopes = {true, true, false};
  options.directions = {true, true, true, false};
  options.percentiles.values = {50};
  options.percentiles.names = {"p50"};
  options.percentiles.field_names = {"p50"};
  RunCellsSink sink(name, window);
  RunSummary summary;
  const InputPlan plan = PlanInputs(std::move(inputs), &options);
  s = RunInputs(options, plan, &sink, &summary);
  if (!s.ok()) return Status::Error("run '" + name + "': " + s.message());
  return sink.TakeAll(data);
}

int Inconclusive(const std::string& message) {
  std::fprintf(stderr, "fiohist compare: %s\nverdict: inconclusive\n", message.c_str());
  return kExitInconclusive;
}

// Reads the run and its baselines from Elasticsearch. Returns -1 to go on, else the exit code.
int LoadFromEs(CompareArgs* a, RunData* run, std::vector<RunData>* baselines) {
  std::unique_ptr<HttpClient> client = ConnectOrComplain("compare", &a->conn);
  if (!client) return kExitError;
  RunCatalog catalog(client.get(), a->conn.index_prefix);
  std::vector<StoredRun> stored;
  Status s = catalog.ListRuns(&stored);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist compare: %s\n", s.message().c_str());
    return kExitError;
  }
  auto find = [&](const std::string& name) -> const StoredRun* {
    for (const StoredRun& r : stored) {
      if (r.run == name) return &r;
    }
    return nullptr;
  };
  const StoredRun* self = find(a->run);
  if (!self) {
    std::fprintf(stderr, "fiohist compare: no run '%s' in %s\n", a->run.c_str(),
                 AllIndexPatterns(a->conn.index_prefix).c_str());
    return kExitError;
  }
  if (self->state == "running") {
    return Inconclusive("run '" + a->run + "' is still running: compare it once it has finished");
  }
  if (!a->tag.empty()) {
    const std::vector<StoredRun> tagged = RunsOfTag(stored, a->tag, self->start_ms, a->last);
    if (tagged.empty()) {
      return Inconclusive("no finished run with tag '" + a->tag + "' started before '" + a->run +
                          "': nothing to compare with");
    }
    for (const StoredRun& r : tagged) {
      if (r.run != a->run) a->baselines.push_back(r.run);
    }
    if (a->baselines.size() < a->last) {
      std::fprintf(stderr, "fiohist compare: tag '%s': only %zu finished runs before '%s' (asked for %zu)\n",
                   a->tag.c_str(), a->baselines.size(), a->run.c_str(), a->last);
    }
  }
  for (const std::string& b : a->baselines) {
    const StoredRun* r = find(b);
    if (!r) {
      std::fprintf(stderr, "fiohist compare: no baseline run '%s' in %s\n", b.c_str(),
                   AllIndexPatterns(a->conn.index_prefix).c_str());
      return kExitError;
    }
    if (r->state == "running") {
      return Inconclusive("baseline '" + b + "' is still running");
    }
  }
  const int64_t quantum = a->quantum_given ? a->quantum_ms : 0;
  // A line per run read back (a run of 4096 jobs is hundreds of thousands of documents).
  CommandProgress progress(ProgressMeter::WantedOnStderr(a->quiet));
  auto read = [&](const std::string& name, const QuantumWindow& window, RunData* data) {
    BucketReadProgress counts;
    progress.StartReadBack(&counts, "run '" + name + "'");
    Status st =
        ReadRunCells(client.get(), a->conn.index_prefix, name, quantum, window, data, &counts);
    progress.Stop();  // before `counts` goes
    return st;
  };
  s = read(a->run, a->window, run);
  for (const std::string& b : a->baselines) {
    if (!s.ok()) break;
    baselines->emplace_back();
    s = read(b, BaselineWindow(a->window, *run), &baselines->back());
  }
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist compare: %s\n", s.message().c_str());
    return kExitError;
  }
  return -1;
}

bool WriteFile(const std::string& path, const std::string& text) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "w"), &std::fclose);
  if (!f || std::fwrite(text.data(), 1, text.size(), f.get()) != text.size() ||
      std::fclose(f.release()) != 0) {
    std::fprintf(stderr, "fiohist compare: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace

int RunCompareCommand(int argc, char** argv) {
  CompareArgs a;
  if (int rc = ParseArgs(argc, argv, &a); rc >= 0) return rc;
  RunData run;
  std::vector<RunData> baselines;
  if (a.from_es) {
    if (int rc = LoadFromEs(&a, &run, &baselines); rc >= 0) return rc;
  } else {
    // NAME=PATH may hide that a baseline is the run's own inputs.
    auto dir_of = [](const std::string& spec) {
      const size_t eq = spec.find('=');
      std::error_code ec;
      const std::filesystem::path p =
          std::filesystem::weakly_canonical(eq == std::string::npos ? spec : spec.substr(eq + 1), ec);
      return ec ? spec : p.string();
    };
    for (const std::string& b : a.baselines) {
      if (dir_of(b) == dir_of(a.run)) {
        return Usage("the baseline '" + b + "' is the run itself (the same inputs)");
      }
    }
    Status s = LoadFromFiles(a.run, a.quantum_ms, a.window, a.quiet, a.place_issue, &run);
    for (const std::string& b : a.baselines) {
      if (!s.ok()) break;
      baselines.emplace_back();
      s = LoadFromFiles(b, a.quantum_ms, BaselineWindow(a.window, run), a.quiet, a.place_issue,
                        &baselines.back());
    }
    if (!s.ok()) {
      std::fprintf(stderr, "fiohist compare: %s\n", s.message().c_str());
      return kExitError;
    }
  }
  ComparisonResult result;
  Status s = CompareRuns(run, baselines, a.options, &result);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist compare: %s\n", s.message().c_str());
    return s.message().find("is the run itself") != std::string::npos ? kExitUsage : kExitError;
  }
  if (a.format == "table") {
    WriteComparisonTable(stdout, result, a.unit);
  } else {
    const std::string text = a.format == "json" ? ComparisonJson(result, a.unit) + "\n"
                                                : ComparisonJunit(result, a.unit);
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  if (std::fflush(stdout) != 0) return kExitError;
  if (!a.json_file.empty() && !WriteFile(a.json_file, ComparisonJson(result, a.unit) + "\n")) {
    return kExitError;
  }
  if (!a.junit_file.empty() && !WriteFile(a.junit_file, ComparisonJunit(result, a.unit))) {
    return kExitError;
  }
  if (a.format != "table") {
    std::fprintf(stderr, "fiohist compare: verdict: %s\n", VerdictName(result.overall));
  }
  switch (result.overall) {
    case Verdict::kRegression:
      return kExitRegression;
    case Verdict::kInconclusive:
      return kExitInconclusive;
    default:
      return kExitOk;
  }
}

}  // namespace fiohist
