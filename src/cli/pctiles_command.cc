#include <sys/stat.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include "cli/accuracy_flags.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/compat_command.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "cli/pipeline_flags.h"
#include "cli/read_back.h"
#include "cli/command_progress.h"
#include "cli/run_inputs.h"
#include "es/bucket_reader.h"
#include "output/csv_sink.h"
#include "output/fanout_sink.h"
#include "output/row_json_sink.h"
#include "output/sla_report.h"
#include "output/summary_sink.h"

namespace po = boost::program_options;

namespace fiohist {
namespace {

const char kPctilesUsage[] =
    "Usage: fiohist pctiles [options] LOGS...\n"
    "       fiohist pctiles --compat fio-histo-log-pctiles [its options] -- LOGS...\n"
    "       fiohist pctiles --compat fiologparser_hist [its options] -- LOGS...\n"
    "\n"
    "Reads fio latency histogram logs (write_hist_log, plain or .gz, from any number of\n"
    "jobs and hosts), places every record on one grid of fixed time quanta (a record\n"
    "stamped t covers the interval since the previous record of its direction; counts are\n"
    "spread over the quanta it overlaps in proportion to overlap), adds the histograms up\n"
    "per quantum and scope, and prints percentiles by linear interpolation inside fio's\n"
    "buckets. Histograms add up across threads and hosts; percentiles do not.\n"
    "\n"
    "Examples:\n"
    "  fiohist pctiles run1/*_clat_hist.*.log*\n"
    "  fiohist pctiles --scope cluster,host --quantum 10 --unit ms host*/*.log\n"
    "  fiohist pctiles --start-time 2026-11-22T10:00:00Z --format ndjson -o out.ndjson *.log\n"
    "\n"
    "Output columns (CSV): start (ISO 8601 when times are absolute), start_ms, end_ms,\n"
    "elapsed_s (since the first quantum), scope, host, job, direction, logs (logs with data\n"
    "in the quantum), samples (weighted I/O count), iops, min, mean, max, the percentiles,\n"
    "top_bucket (I/Os in fio's last, clamped bucket) and lower_bound (values that fell into\n"
    "that bucket: only lower bounds). A summary goes to stderr.\n"    "\n"
    "LOGS may instead be fio JSON outputs, as `fiohist push --help` describes: status files,\n"
    "plain json+ results or client/server outputs (decided per file by its content).\n"
    "\n"
    "Read-back: with --run NAME and --es-url URL (or FIOHIST_ES_URL) instead of LOGS, the\n"
    "histograms are rebuilt from the run's bucket documents (any form fiohist wrote, on any\n"
    "server) and the same statistics printed: --host H and --job J (repeatable) select\n"
    "series, --from T / --to T a time window (ISO 8601 or Unix epoch s or ms), --quantum\n"
    "a multiple of the push quantum (default: the push quantum). Job documents of the\n"
    "compact form (a server without the histogram type) hold the logs' own records, so\n"
    "read-back equals `pctiles` of the logs; the histogram form holds fixed-point counts\n"
    "(1/5000 I/O by default, remainders carried: any window is within one unit per bucket\n"
    "and stored series of the logs' sums, whole runs exact). Coverage and partial are\n"
    "reported as the logs give them.\n"
    "With --sla p99=2ms (repeatable) every quantum whose cluster percentile breaches a\n"
    "threshold gets a line on stderr, and a last line says whether the SLA held.\n"
    "\n"
    "Exit status: 0 all input used; 1 error (file:line: what was expected); 2 bad usage;\n"
    "3 finished but bad lines were skipped (--skip-bad-lines); 4 all input used, and some\n"
    "quantum breached an --sla threshold.\n";

// `--compat fio-histo-log-pctiles` hands the rest of the command line to the compat
// mode. Returns -1 when the switch is absent, else the exit code.
int RunCompatIfAsked(int argc, char** argv) {
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a != "--compat" && a.rfind("--compat=", 0) != 0) continue;
    std::string mode = a == "--compat" ? (i + 1 < argc ? argv[i + 1] : "") : a.substr(9);
    if (mode != "fio-histo-log-pctiles" && mode != "fiologparser_hist") {
      std::fprintf(stderr,
                   "fiohist pctiles: --compat: the modes are fio-histo-log-pctiles and "
                   "fiologparser_hist, got '%s'\n",
                   mode.c_str());
      return kExitUsage;
    }
    if (mode == "fiologparser_hist") {
      std::vector<const char*> rest;
      for (int j = 0; j < argc; ++j) {
        if (j == i || (a == "--compat" && j == i + 1)) continue;
        rest.push_back(argv[j]);
      }
      return RunCompatFiologparserHist(static_cast<int>(rest.size()), rest.data());
    }
    // Options the reference has no counterpart for: its output stays byte-identical, so
    // asking for them is a mistake in the command, not something to ignore.
    struct Refused {
      const char* option;
      const char* why;
    };
    static const Refused kRefused[] = {
        {"--grid",
         "compat mode keeps the reference's quanta (from the start of the window where all "
         "logs have data) so that its output stays byte-identical"},
        {"--confidence", "the reference's output has no confidence intervals"},
    };
    for (int j = 0; j < argc && std::string(argv[j]) != "--"; ++j) {
      const std::string b = argv[j];
      for (const Refused& r : kRefused) {
        const std::string o = r.option;
        if (b == o || b.rfind(o + "=", 0) == 0) {
          std::fprintf(stderr, "fiohist pctiles: %s cannot be combined with --compat: %s\n",
                       r.option, r.why);
          return kExitUsage;
        }
      }
    }
    std::vector<const char*> rest;
    for (int j = 0; j < argc; ++j) {
      if (j == i || (a == "--compat" && j == i + 1)) continue;
      rest.push_back(argv[j]);
    }
    return RunCompatPctiles(static_cast<int>(rest.size()), rest.data());
  }
  return -1;
}

// What the command line of `pctiles` asks for.
struct PctilesArgs {
  PipelineOptions options;
  std::vector<std::string> logs;
  LatencyUnit unit;
  std::string format;
  std::string output;  // empty: stdout
  RowSelection rows = RowSelection::kQuanta;
  bool quiet = false;
  /// Read-back (--run): from bucket documents instead of logs.
  ReadBackFlags back;
  EsConnectionOptions conn;
  /// --accuracy: rows are then windows sized to its targets, not quanta.
  AccuracyFlags accuracy;
};

// Parses the command line. Returns -1 to go on, else the exit code (--help, --version,
// bad usage).
int ParsePctilesArgs(int argc, char** argv, PctilesArgs* args) {
  po::options_description desc("Options");
  po::positional_options_description positional;
  // clang-format off
  desc.add_options()
      ("version", "print the version")
      ("format,f", po::value<std::string>()->default_value("csv"),
       "csv, ndjson (one JSON object per line) or json (one array)")
      ("output,o", po::value<std::string>(), "write to FILE instead of stdout")
      ("unit,u", po::value<std::string>()->default_value("us"), "latency unit: ns, us, ms, s")
      ("whole-run", po::bool_switch(), "print whole-run statistics per scope instead of quanta")
      ("quiet", po::bool_switch(), "no summary on stderr (warnings still go there)");
  // clang-format on
  po::options_description back("Read-back from bucket documents");
  AddReadBackOptions(&back, &args->back);
  AddEsConnectionOptions(&back, &args->conn);
  desc.add(back);
  AddAccuracyOptions(&desc);
  AddPipelineOptions(&desc, &positional);
  po::variables_map vm;
  const int rc = ParseCommandLine(argc, argv, kPctilesUsage, desc, &positional, &vm);
  if (rc >= 0) return rc;
  if (vm.count("version")) {
    std::cout << "fiohist " << FIOHIST_VERSION << "\n";
    return kExitOk;
  }
  Status s = ReadBackFromVariables(&vm, &args->back);
  if (s.ok() && args->back.read_back && !ResolveEsUrl(&args->conn)) {
    s = Status::Error("--run needs --es-url URL (or FIOHIST_ES_URL)");
  }
  if (s.ok()) {
    s = PipelineOptionsFromVariables(vm, "cluster", &args->options, &args->logs,
                                     !args->back.read_back);
  }
  if (s.ok() && args->back.read_back && args->options.place_issue) {
    s = Status::Error(
        "--place issue: a stored run is read back as it was pushed (its run document's "
        "`placement`); place from the logs instead");
  }
  if (s.ok()) s = ParseLatencyUnit(vm["unit"].as<std::string>(), &args->unit);
  args->format = vm["format"].as<std::string>();
  if (s.ok() && args->format != "csv" && args->format != "ndjson" && args->format != "json") {
    s = Status::Error("--format: expected csv, ndjson or json, got '" + args->format + "'");
  }
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist pctiles: %s\n", s.message().c_str());
    return kExitUsage;
  }
  s = AccuracyFromVariables(vm, args->options.percentiles, &args->accuracy);
  if (s.ok() && !args->accuracy.targets.empty() && vm["whole-run"].as<bool>()) {
    s = Status::Error("--accuracy makes windows of quanta; it cannot be combined with --whole-run");
  }
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist pctiles: %s\n", s.message().c_str());
    return kExitUsage;
  }
  if (vm.count("output")) args->output = vm["output"].as<std::string>();
  args->rows = vm["whole-run"].as<bool>() ? RowSelection::kWholeRun : RowSelection::kQuanta;
  args->quiet = vm["quiet"].as<bool>();
  return -1;
}

// The CSV, NDJSON or JSON sink the arguments ask for, writing to `out`.
std::unique_ptr<ResultSink> MakeTableSink(const PctilesArgs& args, std::FILE* out) {
  if (args.format == "csv") return std::make_unique<CsvSink>(out, args.unit, args.rows);
  return std::make_unique<RowJsonSink>(out, args.unit, args.rows, args.format == "json");
}

// Read-back: the run's bucket documents through the same statistics into `table`.
int RunReadBack(PctilesArgs* args, ResultSink* table) {
  std::unique_ptr<HttpClient> client = ConnectOrComplain("pctiles", &args->conn);
  if (!client) return kExitError;
  ReadBackFacts facts;
  BucketReadProgress read;
  CommandProgress progress(ProgressMeter::WantedOnStderr(args->quiet));
  progress.StartReadBack(&read);
  const Status s = ReadBackRun(client.get(), args->conn.index_prefix, args->back.query,
                               args->options, args->back.quantum_given, table, &facts, &read);
  progress.Stop();
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist pctiles: run '%s': %s\n", args->back.query.run.c_str(),
                 s.message().c_str());
    return kExitError;
  }
  if (!args->quiet) {
    std::fprintf(stderr, "fiohist pctiles: run '%s': %llu bucket documents (scope %s) read back\n",
                 args->back.query.run.c_str(), static_cast<unsigned long long>(facts.documents),
                 facts.run.scope.c_str());
  }
  return kExitOk;
}

}  // namespace

int RunPctilesCommand(int argc, char** argv) {
  if (int rc = RunCompatIfAsked(argc, argv); rc >= 0) return rc;
  PctilesArgs args;
  if (int rc = ParsePctilesArgs(argc, argv, &args); rc >= 0) return rc;
  if (!args.back.read_back && !ExpandCommandInputs("pctiles", args.quiet, &args.logs)) {
    return kExitError;
  }

  std::FILE* out = stdout;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(nullptr, &std::fclose);
  // -o FILE is written as FILE.partial and renamed when the run ends with a whole output: a
  // run that fails (one log among thousands that cannot be read) leaves no half-written
  // FILE, and a FILE from before stays as it was. Only for regular files: /dev/null or a
  // pipe is written as it is.
  struct stat st;
  const bool regular = !args.output.empty() &&
                       (stat(args.output.c_str(), &st) != 0 || S_ISREG(st.st_mode));
  const std::string partial = regular ? args.output + ".partial" : args.output;
  if (!args.output.empty()) {
    file.reset(std::fopen(partial.c_str(), "w"));
    if (!file) {
      std::fprintf(stderr, "fiohist pctiles: cannot write %s: %s\n", partial.c_str(),
                   std::strerror(errno));
      return kExitError;
    }
    out = file.get();
  }
  auto finish = [&](int rc) {
    if (!file) return rc;
    const bool closed = std::fclose(file.release()) == 0;
    if (rc != kExitError && closed &&
        (!regular || std::rename(partial.c_str(), args.output.c_str()) == 0)) {
      return rc;
    }
    if (rc != kExitError) {
      std::fprintf(stderr, "fiohist: cannot write output %s: %s\n", args.output.c_str(),
                   std::strerror(errno));
    }
    if (regular) std::remove(partial.c_str());
    return static_cast<int>(kExitError);
  };
  std::unique_ptr<ResultSink> table = MakeTableSink(args, out);
  std::unique_ptr<AccuracyWindowSink> windows;
  if (!args.accuracy.targets.empty()) {
    windows = std::make_unique<AccuracyWindowSink>(table.get(), args.accuracy.targets,
                                                   args.accuracy.max_quanta);
  }
  ResultSink* rows = windows ? static_cast<ResultSink*>(windows.get()) : table.get();
  auto report_windows = [&]() {
    if (!windows || windows->inaccurate().empty()) return;
    std::fprintf(stderr,
                 "fiohist pctiles: %zu window(s) did not reach the --accuracy targets (the "
                 "run's last, or cut at --accuracy-max-quanta %d), the first %lld-%lld ms\n",
                 windows->inaccurate().size(), args.accuracy.max_quanta,
                 static_cast<long long>(windows->inaccurate().front().start_ms),
                 static_cast<long long>(windows->inaccurate().front().end_ms));
  };
  if (args.back.read_back) {
    const int rc = RunReadBack(&args, rows);
    report_windows();
    return finish(rc);
  }
  SummarySink summary_sink(stderr, args.unit);
  SlaReportSink sla_report(stderr, "");
  CommandProgress progress(ProgressMeter::WantedOnStderr(args.quiet));
  std::vector<ResultSink*> sinks = {progress.StopAtEnd(), rows};
  if (!args.quiet) sinks.push_back(&summary_sink);
  sinks.push_back(&sla_report);
  FanoutSink sink(sinks);
  RunSummary summary;
  const InputPlan plan = PlanInputs(std::move(args.logs), &args.options);
  if (plan.moved_to_fio_json > 0 && !args.quiet) {
    std::fprintf(stderr,
                 "fiohist pctiles: %zu fio JSON file(s) among the logs taken as their fio output "
                 "(--fio-json)\n",
                 plan.moved_to_fio_json);
  }
  progress.StartReading(plan.inputs, plan.fio_json, nullptr);
  Status s = RunInputs(args.options, plan, &sink, &summary);
  progress.Stop();
  PrintWarnings(stderr, summary);
  if (s.ok()) report_windows();
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist: error: %s\n", s.message().c_str());
    return finish(kExitError);
  }
  if (summary.incomplete) return finish(kExitIncomplete);
  return finish(summary.sla_breaches > 0 ? kExitSlaBreached : kExitOk);
}

}  // namespace fiohist
