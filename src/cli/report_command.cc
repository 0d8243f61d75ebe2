// `fiohist report`: one self-contained HTML page (and PNGs on request) of a run, or of a
// run against a baseline, from logs or from the run's bucket documents.
#include <sys/stat.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/accuracy_flags.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "cli/pipeline_flags.h"
#include "cli/read_back.h"
#include "cli/command_progress.h"
#include "cli/run_inputs.h"
#include "es/run_catalog.h"
#include "es/run_reader.h"
#include "output/fanout_sink.h"
#include "output/sla_report.h"
#include "output/summary_sink.h"
#include "report/report_charts.h"
#include "report/report_json.h"
#include "report/report_page.h"
#include "report/report_png.h"
#include "report/report_sink.h"
#include "stats/resolution_sink.h"
#include "stats/run_cells.h"
#include "stats/run_comparison.h"

namespace po = boost::program_options;

namespace fiohist {
namespace {

const char kReportUsage[] =
    "Usage: fiohist report [options] LOGS...\n"
    "       fiohist report --run NAME --es-url URL [options]\n"
    "\n"
    "Writes one HTML page of a run that opens offline in any browser (the chart library,\n"
    "Apache ECharts, and the data are inlined): cluster latency percentiles over time per\n"
    "direction with partial quanta shaded and SLA thresholds, IOPS, a latency heatmap of\n"
    "fio's buckets, each host's p99 against the cluster's (hosts ordered by how far they\n"
    "stray), the whole-run table, SLA breaches, warnings (partial or missing quanta,\n"
    "clamped values, skipped input) and where the data came from. Zooming in or out draws\n"
    "exact percentiles of each window: the page holds coarser resolutions computed from\n"
    "the summed histograms (10 s, 1 min, 10 min, 1 h, 10 h with 1 s quanta).\n"
    "From logs the page holds both placements of the I/Os, a toggle switching the charts:\n"
    "where they completed and where they were issued (--place: the one it opens on; fio\n"
    "JSON inputs have no issue view, the page says why). With --run: as pushed.\n"
    "\n"
    "Input: what `fiohist pctiles` reads (histogram logs, fio json+ status files,\n"
    "client/server outputs), or with --run NAME the run's\n"
    "bucket documents in Elasticsearch/OpenSearch (--from, --to, --host, --job narrow it).\n"
    "LOGS are files and directories: a directory gives its histogram logs (*_hist.*,\n"
    "subdirectories too), or where it has none its fio JSON outputs; what it gave is printed.\n"
    "\n"
    "Baselines, as `fiohist compare` takes them: --baseline PATH (repeatable) names a\n"
    "baseline run: a directory or NAME=PATH is one run each, and the files given alone\n"
    "together are one run; --baseline-run NAME (repeatable) a stored run; --tag TAG with\n"
    "--run takes the last --last N (default 5) finished runs of TAG before it. The first\n"
    "baseline (with --tag: the latest) is overlaid on elapsed time; the verdict table is\n"
    "compare's, against all of them (one baseline: every verdict inconclusive). All must\n"
    "have the run's bucket layout.\n"
    "With --png DIR every chart is also saved as DIR/CHART.png, screenshot by headless\n"
    "Chromium (/usr/bin/chromium, or FIOHIST_CHROMIUM).\n"
    "\n"
    "Examples:\n"
    "  fiohist report -o run1.html run1/*_clat_hist.*.log*\n"
    "  fiohist report --sla p99=2ms --png run1-png -o run1.html run1/*.log.gz\n"
    "  fiohist report --es-url http://127.0.0.1:9200 --run nightly --baseline-run last-week\n"
    "  fiohist report -o cmp.html results/today --baseline results/mon --baseline results/tue\n"
    "  fiohist report --es-url http://127.0.0.1:9200 --run nightly-42 --tag nightly --last 5\n"
    "\n"
    "Exit status: 0 report written, all input used; 1 error; 2 bad usage; 3 report written\n"
    "but bad lines were skipped (--skip-bad-lines); 4 report written, and some quantum\n"
    "breached an --sla threshold.\n";

// What the command line of `report` asks for.
struct ReportArgs {
  PipelineOptions options;
  std::vector<std::string> logs;
  /// The inputs as typed (before directories were searched): the run's name in compare.
  std::vector<std::string> typed;
  std::string output = "fiohist-report.html";
  std::string name;
  std::string png_dir;
  bool quiet = false;
  /// Read-back (--run): from bucket documents instead of logs.
  ReadBackFlags back;
  EsConnectionOptions conn;
  /// --baseline: directories, NAME=PATH (a run each) and files (together one run).
  std::vector<std::string> baseline_logs;
  std::vector<std::string> baseline_runs;
  std::string baseline_name;
  /// --accuracy: the page adds charts of the cluster's windows sized to it.
  AccuracyFlags accuracy;
  std::vector<std::string> accuracy_texts;
  std::string tag;
  size_t last = 5;
  bool Compared() const {
    return !baseline_logs.empty() || !baseline_runs.empty() || !tag.empty();
  }
};

int ParseReportArgs(int argc, char** argv, ReportArgs* args) {
  po::options_description desc("Options");
  po::positional_options_description positional;
  // clang-format off
  desc.add_options()
      ("version", "print the version")
      ("output,o", po::value(&args->output)->default_value(args->output),
       "the HTML file to write")
      ("name", po::value(&args->name), "the run's name on the page (default: --run, else "
       "the logs' directory)")
      ("png", po::value(&args->png_dir), "also save every chart as DIR/CHART.png (headless "
       "Chromium)")
      ("baseline", po::value(&args->baseline_logs)->composing(),
       "a baseline run (repeatable): a directory or NAME=PATH is a run each, files given "
       "alone are together one run")
      ("baseline-run", po::value(&args->baseline_runs)->composing(),
       "a baseline run's bucket documents (repeatable; needs --es-url)")
      ("tag", po::value(&args->tag), "with --run: the baselines are the last runs carrying TAG")
      ("last", po::value(&args->last)->default_value(5), "with --tag: how many runs")
      ("baseline-name", po::value(&args->baseline_name), "the overlaid baseline's name on the "
       "page")
      ("quiet", po::bool_switch(), "no summary on stderr (warnings still go there)");
  // clang-format on
  po::options_description back("From Elasticsearch (read-back)");
  AddReadBackOptions(&back, &args->back);
  AddEsConnectionOptions(&back, &args->conn);
  desc.add(back);
  AddPipelineOptions(&desc, &positional);
  AddAccuracyOptions(&desc);
  po::variables_map vm;
  const int rc = ParseCommandLine(argc, argv, kReportUsage, desc, &positional, &vm);
  if (rc >= 0) return rc;
  if (vm.count("version")) {
    std::cout << "fiohist " << FIOHIST_VERSION << "\n";
    return kExitOk;
  }
  Status s = ReadBackFromVariables(&vm, &args->back);
  if (s.ok() && !args->tag.empty() && !args->back.read_back) {
    s = Status::Error("--tag takes the baselines of a stored run: give --run NAME and --es-url "
                      "(from files, give each baseline with --baseline)");
  }
  if (s.ok() && (args->back.read_back || !args->baseline_runs.empty()) &&
      !ResolveEsUrl(&args->conn)) {
    s = Status::Error("--run and --baseline-run need --es-url URL (or FIOHIST_ES_URL)");
  }
  if (s.ok()) {
    s = PipelineOptionsFromVariables(vm, "cluster,host", &args->options, &args->logs,
                                     !args->back.read_back);
  }
  if (s.ok() && args->back.read_back && args->options.place_issue) {
    s = Status::Error(
        "--place issue: a stored run is read back as it was pushed (its run document's "
        "`placement`); place from the logs instead");
  }
  if (s.ok()) s = AccuracyFromVariables(vm, args->options.percentiles, &args->accuracy);
  if (s.ok() && vm.count("accuracy")) {
    args->accuracy_texts = vm["accuracy"].as<std::vector<std::string>>();
  }
  // Windows differ between two runs (each as long as its own I/Os need), so there is no
  // elapsed-time overlay of them: refused before any work rather than drawn for one run.
  if (s.ok() && !args->accuracy.targets.empty() && args->Compared()) {
    s = Status::Error(
        "--accuracy draws one run's windows; it cannot be combined with --baseline, "
        "--baseline-run or --tag (make the run's accuracy report without the baseline)");
  }
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist report: %s\n", s.message().c_str());
    return kExitUsage;
  }
  // The page draws the cluster and each host; jobs would only make it bigger.
  args->options.scopes = {true, true, false};
  args->quiet = vm["quiet"].as<bool>();
  return -1;
}

// A name for a run of logs: the directory of the first log, else "report".
std::string NameOfLogs(const std::vector<std::string>& logs) {
  if (logs.empty()) return "report";
  std::string dir = logs[0];
  const size_t slash = dir.rfind('/');
  dir = slash == std::string::npos ? "." : dir.substr(0, slash);
  if (dir == ".") {
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) != nullptr) dir = cwd;
  }
  const size_t last = dir.rfind('/');
  const std::string base = last == std::string::npos ? dir : dir.substr(last + 1);
  return base.empty() ? "report" : base;
}

// Which baseline the page overlays: the first named, or with --tag alone the latest run.
size_t OverlaidBaseline(const ReportArgs& args, size_t count) {
  const bool tag_only =
      !args.tag.empty() && args.baseline_logs.empty() && args.baseline_runs.empty();
  return tag_only && count > 0 ? count - 1 : 0;
}

// One run (or baseline) collected for the page.
struct CollectedRun {
  /// `name`: the run's name in the comparison, as fiohist compare names it (the path or
  /// NAME as given, the stored run's name): the bootstrap's random draws depend on it, so
  /// the verdicts equal compare's only under the same name.
  explicit CollectedRun(std::string name) : cells(std::move(name), QuantumWindow()) {}
  ReportSink sink;
  ReportSource source;
  RunSummary summary;
  /// The hosts' histograms per full quantum, for the verdicts against a baseline.
  RunCellsSink cells;
};

// Collects a run from `logs` or, when `run` is not empty, from its bucket documents.
// `extra` (may be null) also sees the results (SLA lines on stderr). `other`: the run's
// other placement (the page's toggle): no progress line, warnings nor comparison cells.
Status Collect(const ReportArgs& args, const std::vector<std::string>& logs,
               const BucketQuery* query, HttpClient* client, ResultSink* extra, CollectedRun* out,
               bool other = false) {
  ResolutionSink resolutions(&out->sink, DefaultCoarseResolutions());
  CommandProgress progress(ProgressMeter::WantedOnStderr(args.quiet || other));
  std::vector<ResultSink*> sinks = {progress.StopAtEnd(), &resolutions};
  // The hosts' histograms per quantum are kept only for a comparison (they are large).
  if (args.Compared() && !other) sinks.push_back(&out->cells);
  if (extra != nullptr) sinks.push_back(extra);
  // --accuracy (the run, not its baseline): the cluster's windows sized to it.
  ReportWindowSink window_rows(&out->sink);
  std::unique_ptr<AccuracyWindowSink> windows;
  if (extra != nullptr && !args.accuracy.targets.empty()) {
    windows = std::make_unique<AccuracyWindowSink>(&window_rows, args.accuracy.targets,
                                                   args.accuracy.max_quanta);
    sinks.push_back(windows.get());
  }
  FanoutSink fanout(sinks);
  Status s;
  if (query != nullptr) {
    ReadBackFacts facts;
    BucketReadProgress read;
    progress.StartReadBack(&read);
    s = ReadBackRun(client, args.conn.index_prefix, *query, args.options, args.back.quantum_given,
                    &fanout, &facts, &read);
    progress.Stop();  // before `read` goes
    out->source.kind = "elasticsearch";
    out->source.es_url = args.conn.urls.empty() ? "" : args.conn.urls[0];
    out->source.documents = facts.documents;
    out->source.run = query->run;
    if (!s.ok()) return Status::Error("run '" + query->run + "': " + s.message());
  } else {
    // The inputs pctiles and push take: histogram logs, fio json+ status files and
    // client/server outputs, fio JSON beside logs as their fio output.
    PipelineOptions options = args.options;
    const InputPlan plan = PlanInputs(logs, &options);
    progress.StartReading(plan.inputs, plan.fio_json, nullptr);
    s = RunInputs(options, plan, &fanout, &out->summary);
    progress.Stop();
    if (!other) PrintWarnings(stderr, out->summary);
    if (!s.ok()) return s;
  }
  if (windows) {
    out->sink.set_accuracy(args.accuracy_texts);
    if (!windows->inaccurate().empty()) {
      std::fprintf(stderr,
                   "fiohist report: %zu --accuracy window(s) did not reach the targets (the "
                   "run's last, or cut at --accuracy-max-quanta %d)\n",
                   windows->inaccurate().size(), args.accuracy.max_quanta);
    }
  }
  // A window without any I/O draws nothing: say so instead of an empty page.
  bool any = false;
  for (const ReportSeries& series : out->sink.data().series) {
    for (const ReportPoint& p : series.points) any = any || p.samples > 0;
  }
  if (!any) {
    return Status::Error((query ? "run '" + query->run + "'" : std::string("the logs")) +
                         ": no I/O in the window read: nothing to draw");
  }
  return Status();
}

// The run placed the other way than --place asks (the page's toggle): collected from the
// same logs into `*run`, or refused (fio JSON inputs have no issue placement) with the reason.
ReportOtherPlacement OtherPlacement(const ReportArgs& args, std::unique_ptr<CollectedRun>* run) {
  ReportOtherPlacement other;
  ReportArgs flipped = args;
  flipped.options.place_issue = !args.options.place_issue;
  other.placement = flipped.options.place_issue ? "issue" : "completion";
  PipelineOptions options = flipped.options;
  if (flipped.options.place_issue && PlanInputs(args.logs, &options).fio_json) {
    other.refused =
        "the input is fio JSON output (status reports or client/server output): a report "
        "holds latency bins counted since the previous one, with no I/O's completion time nor "
        "a record's span to shift back by its latency; histogram logs (write_hist_log) or "
        "per-I/O logs (write_lat_log) give both";
    return other;
  }
  *run = std::make_unique<CollectedRun>(other.placement);
  const Status s = Collect(flipped, args.logs, nullptr, nullptr, nullptr, run->get(), true);
  if (!s.ok()) {
    other.refused = s.message();
    run->reset();
    return other;
  }
  other.data = &(*run)->sink.data();
  return other;
}

// One baseline run: its name and inputs (files), or a stored run's name.
struct BaselineInput {
  std::string name;
  /// Its name in the comparison (compare's: the path or NAME as given, the stored run).
  std::string compare_name;
  std::vector<std::string> inputs;
  std::string es_run;
};

// The baselines the command line names, in the order fiohist compare takes them: --baseline
// PATHs (a directory or NAME=PATH a run each, the files together one run, first among them
// where the first --baseline is a file), --baseline-run NAMEs, the runs of --tag (oldest
// first, as compare).
Status BaselinesOf(const ReportArgs& args, HttpClient* client, std::vector<BaselineInput>* out) {
  namespace fs = std::filesystem;
  BaselineInput files;
  size_t files_at = 0;
  for (const std::string& spec : args.baseline_logs) {
    const size_t eq = spec.find('=');
    std::error_code ec;
    const bool named = eq != std::string::npos && !fs::exists(spec, ec) &&
                       fs::exists(spec.substr(eq + 1), ec);
    const std::string path = named ? spec.substr(eq + 1) : spec;
    if (!named && !fs::is_directory(path, ec)) {
      if (files.inputs.empty()) files_at = out->size();
      files.inputs.push_back(path);
      continue;
    }
    BaselineInput run;
    run.name = named ? spec.substr(0, eq) : spec;
    run.compare_name = run.name;
    run.inputs = {path};
    if (!ExpandCommandInputs("report", args.quiet, &run.inputs)) {
      return Status::Error("baseline '" + run.name + "': no input read");
    }
    out->push_back(std::move(run));
  }
  if (!files.inputs.empty()) {
    files.name = NameOfLogs(files.inputs);
    files.compare_name = files.name;
    out->insert(out->begin() + static_cast<std::ptrdiff_t>(files_at), std::move(files));
  }
  for (const std::string& run : args.baseline_runs) out->push_back({run, run, {}, run});
  if (!args.tag.empty()) {
    RunCatalog catalog(client, args.conn.index_prefix);
    std::vector<StoredRun> stored;
    Status s = catalog.ListRuns(&stored);
    if (!s.ok()) return s;
    const StoredRun* self = nullptr;
    for (const StoredRun& r : stored) {
      if (r.run == args.back.query.run) self = &r;
    }
    if (self == nullptr) return Status::Error("no run '" + args.back.query.run + "'");
    size_t found = 0;
    for (const StoredRun& r : RunsOfTag(stored, args.tag, self->start_ms, args.last)) {
      if (r.run == self->run) continue;
      out->push_back({r.run, r.run, {}, r.run});
      ++found;
    }
    if (found == 0) {
      return Status::Error("no finished run with tag '" + args.tag + "' started before '" +
                           self->run + "': nothing to compare with");
    }
    if (found < args.last && !args.quiet) {
      std::fprintf(stderr,
                   "fiohist report: tag '%s': only %zu finished runs before '%s' (asked for "
                   "%zu)\n",
                   args.tag.c_str(), found, self->run.c_str(), args.last);
    }
  }
  if (!out->empty() && !args.baseline_name.empty()) {
    (*out)[OverlaidBaseline(args, out->size())].name = args.baseline_name;
  }
  return Status();
}

}  // namespace

int RunReportCommand(int argc, char** argv) {
  ReportArgs args;
  if (int rc = ParseReportArgs(argc, argv, &args); rc >= 0) return rc;
  args.typed = args.logs;
  if (!args.back.read_back && !ExpandCommandInputs("report", args.quiet, &args.logs)) {
    return kExitError;
  }
  std::unique_ptr<HttpClient> client;
  if (args.back.read_back || !args.baseline_runs.empty()) {
    client = ConnectOrComplain("report", &args.conn);
    if (!client) return kExitError;
  }
  auto fail = [](const std::string& what) {
    std::fprintf(stderr, "fiohist report: error: %s\n", what.c_str());
    return kExitError;
  };
  // compare's name for the run: the one path given as typed, else the logs' directory.
  CollectedRun main_run(args.back.read_back    ? args.back.query.run
                        : args.typed.size() == 1 ? args.typed[0]
                                                 : NameOfLogs(args.logs));
  SlaReportSink sla_report(stderr, args.back.read_back ? args.back.query.run : "");
  Status s = Collect(args, args.logs, args.back.read_back ? &args.back.query : nullptr,
                     client.get(), &sla_report, &main_run);
  if (!s.ok()) return fail(s.message());
  main_run.source.run = !args.name.empty()   ? args.name
                        : args.back.read_back ? args.back.query.run
                                              : NameOfLogs(args.logs);
  // The page's toggle: from logs, the other placement too (or why there is none); a stored
  // run is drawn as its run document says it was pushed.
  ReportOtherPlacement other;
  std::unique_ptr<CollectedRun> other_run;
  if (args.back.read_back) {
    std::string placement;
    s = RunCatalog(client.get(), args.conn.index_prefix)
            .RunPlacement(args.back.query.run, &placement);
    if (!s.ok()) return fail(s.message());
    main_run.sink.set_placement(placement);
  } else {
    other = OtherPlacement(args, &other_run);
  }
  std::vector<BaselineInput> inputs;
  s = BaselinesOf(args, client.get(), &inputs);
  if (!s.ok()) return fail(s.message());
  // Every baseline is collected as the run is (its histograms per quantum for the verdicts);
  // the first is the one the page overlays.
  std::vector<std::unique_ptr<CollectedRun>> baselines;
  const PipelineOptions saved = args.options;
  args.options.sla.clear();  // the SLA is checked on the run, not its baselines
  for (const BaselineInput& in : inputs) {
    baselines.push_back(std::make_unique<CollectedRun>(in.compare_name));
    CollectedRun* baseline = baselines.back().get();
    BucketQuery bq;
    bq.run = in.es_run;
    s = Collect(args, in.inputs, in.es_run.empty() ? nullptr : &bq, client.get(), nullptr,
                baseline);
    if (!s.ok()) return fail("baseline '" + in.name + "': " + s.message());
    baseline->source.run = in.name;  // the page's name (--baseline-name)
    const std::string a = main_run.sink.data().info.layout.Name();
    const std::string b = baseline->sink.data().info.layout.Name();
    if (a != b) {
      return fail("baseline '" + baseline->source.run + "' has bucket layout " + b +
                  ", the run '" + main_run.source.run + "' " + a +
                  ": their latencies are not comparable (give a baseline of the same fio "
                  "build and log_hist_coarseness)");
    }
  }
  args.options = saved;
  const size_t overlay = OverlaidBaseline(args, inputs.size());
  CollectedRun* baseline = baselines.empty() ? nullptr : baselines[overlay].get();
  const ReportData* base_data = baseline ? &baseline->sink.data() : nullptr;
  // The verdict table: fiohist compare's comparison of the runs' full quanta, against every
  // baseline in compare's order.
  ComparisonResult verdicts;
  std::string verdicts_error;
  if (baseline) {
    RunData run;
    std::vector<RunData> bases(baselines.size());
    s = main_run.cells.TakeAll(&run);
    for (size_t i = 0; i < baselines.size() && s.ok(); ++i) {
      s = baselines[i]->cells.TakeAll(&bases[i]);
    }
    if (s.ok()) s = CompareRuns(run, bases, CompareOptions(), &verdicts);
    if (!s.ok()) verdicts_error = s.message();
  }
  const std::string json = ReportJson(main_run.sink.data(), main_run.source, base_data,
                                      baseline ? &baseline->source : nullptr,
                                      baseline && verdicts_error.empty() ? &verdicts : nullptr,
                                      verdicts_error, args.back.read_back ? nullptr : &other);
  const std::string title =
      "fiohist report: " + main_run.source.run +
      (baseline ? " vs " + baseline->source.run +
                       (baselines.size() > 1
                            ? " and " + std::to_string(baselines.size() - 1) + " more"
                            : std::string())
                 : std::string());
  s = WriteReportPage(args.output, title, json);
  if (!s.ok()) return fail(s.message());
  const std::vector<ReportChart> charts = ReportCharts(main_run.sink.data(), base_data);
  if (!args.png_dir.empty()) {
    // The hosts' small multiples: three per row, 240 px each, below the section's head.
    const int host_rows = static_cast<int>((main_run.sink.data().hosts.size() + 2) / 3);
    std::vector<ChartShot> shots;
    for (const ReportChart& c : charts) {
      shots.push_back({c.id, c.kind == "hosts" ? 140 + 240 * host_rows : 700});
    }
    s = ScreenshotCharts(FindChromium(), args.output, shots, args.png_dir);
    if (!s.ok()) return fail(s.message());
  }
  if (!args.quiet) {
    struct stat st {};
    stat(args.output.c_str(), &st);
    std::fprintf(stderr, "fiohist report: wrote %s (%lld bytes, %zu charts)%s\n",
                 args.output.c_str(), static_cast<long long>(st.st_size), charts.size(),
                 args.png_dir.empty() ? "" : (" and their PNGs in " + args.png_dir).c_str());
  }
  if (main_run.summary.incomplete) return kExitIncomplete;
  return sla_report.breaches() > 0 ? kExitSlaBreached : kExitOk;
}

}  // namespace fiohist
