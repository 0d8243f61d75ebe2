// `fiohist follow`: live mode. Follows fio's json+ status streams (one per host) while fio
// runs and writes each quantum as soon as every stream has passed its end.
//
// Why status streams and not the histogram logs: fio (3.33) writes write_hist_log files only
// when the job ends, so they cannot be followed; `--status-interval=N --output-format=json+`
// prints a complete JSON object every N seconds whose clat_ns.bins are the cumulative
// histograms, and the difference of two of them is exactly the I/Os completed in between.
//
// Telling fio's final report from a status report: the JSON does not say. Compared on fio
// 3.33 (randrw 4 s, and two jobs of 3 s and 2 s): the final object has exactly the keys of
// the status objects (disk_util is in every one), and `eta` is already 0 in the last status
// report or two. What does differ is only what follows: nothing. So a stream counts as
// finished when its last report has every job's eta at 0 and then the stream closes (pipe,
// stdin) or stays silent for 1.5 status intervals (a file); it is aborted when it closes or
// is silent for --give-up seconds with a job still expecting time (eta > 0), or with a JSON
// object cut in the middle.

#include <poll.h>
#include <sys/stat.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli/accuracy_flags.h"
#include "cli/bulk_report.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "cli/pipeline_flags.h"
#include "cli/status_input.h"
#include "es/document_sink.h"
#include "es/index_setup.h"
#include "es/index_templates.h"
#include "es/ndjson_dir.h"
#include "log/log_name.h"
#include "log/smallfile_line.h"
#include "log/time_anchor.h"
#include "output/csv_sink.h"
#include "output/fanout_sink.h"
#include "output/sla_report.h"
#include "stats/live_aggregator.h"
#include "stats/resolution_sink.h"

namespace po = boost::program_options;

namespace fiohist {
namespace {

const char kFollowUsage[] =
    "Usage: fiohist follow --run NAME [--es-url URL | --out DIR] [--max-lag S] [--give-up S]\n"
    "                      [pctiles options] [HOST=]STREAM...\n"
    "\n"
    "Live mode. A STREAM is fio's json+ status output while fio runs: a file fio is still\n"
    "writing (fio ... --output-format=json+ --status-interval=1 --output=host1.json), `-`\n"
    "(standard input: fio ... | fiohist follow -) or a named pipe; one per host (fio's\n"
    "client/server mode prints only the final report). HOST=STREAM names the host (also\n"
    "--host-map); else the file name without extension does. Files that do not exist yet are\n"
    "waited for. A quantum is written (percentile and bucket documents, indexed and searchable\n"
    "at once) as soon as every stream has passed its end; a stream silent for longer than\n"
    "--max-lag is reported and the quantum goes out without it (its `logs` says how many jobs\n"
    "contributed), to be rewritten under the same ids when its data comes. The run document\n"
    "says state `running`, then `finished`, or `aborted` when a stream ended without fio's\n"
    "final report. follow ends when every stream has finished, closed or been given up.\n"
    "Running it again on the same files rewrites the same documents: nothing doubles.\n"
    "Without --es-url (or FIOHIST_ES_URL) and --out, CSV rows go to stdout as quanta close.\n"
    "\n"
    "--sla p99=2ms (repeatable) checks every quantum's cluster percentile as it is written:\n"
    "a line on stderr per breaching quantum (again if late data rewrites it), the documents'\n"
    "sla_breach fields, which the provisioned Grafana alert rules watch.\n"
    "\n"
    "Exit status: 0 every stream finished and everything went in; 1 error (bad input in a\n"
    "stream: the message names the stream and byte offset); 2 bad usage; 3 a stream was\n"
    "aborted or given up, or some documents were rejected; 4 everything went in, and some\n"
    "quantum breached an --sla threshold.\n";

volatile std::sig_atomic_t g_stop = 0;
void OnSignal(int) { g_stop = 1; }

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Breach lines for quanta written again after late data (SlaReportSink sees each quantum
// once, as first written, and its closing line counts those).
class LateSlaReport : public ResultSink {
 public:
  LateSlaReport(std::string run, const LiveOptions& o)
      : run_(std::move(run)), checker_(o.sla, o.percentiles) {}
  Status Begin(const RunInfo&) override { return Status(); }
  Status Quantum(const ScopeResult& r) override {
    if (!checker_.active() || r.resolution != 1) return Status();
    const std::string line = SlaReportSink::BreachLine(run_, true, checker_, r);
    if (!line.empty()) std::fprintf(stderr, "%s (written again after late data)\n", line.c_str());
    return Status();
  }
  Status WholeRun(const ScopeResult&) override { return Status(); }
  Status End(const RunSummary&) override { return Status(); }

 private:
  std::string run_;
  SlaChecker checker_;
};

// What the command line asks for.
struct FollowArgs {
  EsConnectionOptions conn;
  BulkOptions bulk;
  RunMeta meta;
  std::string out_dir, mappings;
  bool quiet = false;
  bool progress = false;
  std::vector<int> resolutions = DefaultCoarseResolutions();
  /// --job-resolution: the finest resolution of job percentile documents.
  int job_resolution = DefaultJobResolution(DefaultCoarseResolutions());
  double max_lag_s = 5;
  double give_up_s = 60;
  PipelineOptions options;
  std::vector<std::string> streams;
  /// --accuracy: the CSV on stdout gets windows sized to its targets instead of quanta;
  /// documents (Elasticsearch, --out) get window documents besides the quanta's.
  AccuracyFlags accuracy;
};

int ParseFollowArgs(int argc, char** argv, FollowArgs* args) {
  std::vector<std::string> labels;
  std::string resolutions, job_resolution;
  po::options_description desc("Options");
  po::positional_options_description positional;
  // clang-format off
  desc.add_options()
      ("run", po::value(&args->meta.run), "run name (required): the key of every document")
      ("tag", po::value(&args->meta.tags)->composing(), "a tag for the run (repeatable)")
      ("label", po::value(&labels)->composing(), "K=V label for the run (repeatable)")
      ("out", po::value(&args->out_dir), "write bulk NDJSON here instead of indexing")
      ("mappings", po::value(&args->mappings), "folder of the index templates (default: built in)")
      ("quiet", po::bool_switch(&args->quiet),
       "no closing summary on stderr (warnings still go there)")
      ("resolutions", po::value(&resolutions),
       "coarser percentile documents as multiples of the quantum, written as their windows "
       "close (default 10,60,600,3600,36000; 'none': quanta only)")
      ("job-resolution", po::value(&job_resolution),
       "the finest resolution of job-scope percentile documents, 1 or one of --resolutions "
       "(default the first, 10; 1: every quantum)")
      ("progress", po::bool_switch(&args->progress),
       "a line on stderr per batch of quanta written: how long after their end, and how long "
       "indexing took")
      ("max-lag", po::value(&args->max_lag_s)->default_value(5, "5"),
       "seconds a stream may stay silent before quanta go out without it")
      ("give-up", po::value(&args->give_up_s)->default_value(60, "60"),
       "seconds of silence (or of waiting for a stream to appear) after which a stream is "
       "given up as aborted");
  // clang-format on
  AddEsConnectionOptions(&desc, &args->conn);
  AddBulkOptions(&desc, &args->bulk);
  AddPipelineOptions(&desc, &positional);
  AddAccuracyOptions(&desc);
  po::variables_map vm;
  const int rc = ParseCommandLine(argc, argv, kFollowUsage, desc, &positional, &vm);
  if (rc >= 0) return rc;
  Status s =
      PipelineOptionsFromVariables(vm, "cluster,host,job", &args->options, &args->streams, false);
  if (s.ok() && args->streams.empty()) {
    s = Status::Error("no streams given: name the files fio writes with --status-interval=1 "
                      "--output-format=json+ --output=FILE, or - (see --help)");
  }
  for (const char* unused :
       {"start-time", "fio-json", "log-hist-msec", "layout", "skip-bad-lines", "place"}) {
    if (s.ok() && vm.count(unused) && !vm[unused].defaulted()) {
      s = Status::Error(std::string("--") + unused +
                        " is for histogram logs; fio's status reports carry their own time and "
                        "layout");
    }
  }
  if (s.ok() && args->meta.run.empty()) s = Status::Error("--run NAME is required");
  if (s.ok() && !(args->max_lag_s > 0)) s = Status::Error("--max-lag: expected seconds > 0");
  if (s.ok() && !(args->give_up_s > args->max_lag_s)) {
    s = Status::Error("--give-up: expected more seconds than --max-lag");
  }
  if (s.ok()) s = ParseRunLabels(labels, &args->meta);
  if (s.ok() && vm.count("resolutions")) s = ParseResolutions(resolutions, &args->resolutions);
  if (s.ok()) s = ParseJobResolution(job_resolution, args->resolutions, &args->job_resolution);
  if (s.ok()) s = AccuracyFromVariables(vm, args->options.percentiles, &args->accuracy);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist follow: %s\n", s.message().c_str());
    return kExitUsage;
  }
  return -1;
}

// One stream being followed and what is known about it.
struct Followed {
  std::unique_ptr<FioStatusStream> stream;
  std::string host;
  int64_t passed_ms = INT64_MIN;  // timestamp_ms of its last report
  Clock::time_point last_data;    // when it last delivered a report (or follow started)
  bool done = false;
  bool aborted = false;
  bool lagging = false;
};

// Where the documents or rows go.
struct LiveDestination {
  std::unique_ptr<HttpClient> client;
  std::unique_ptr<BulkIndexer> indexer;
  std::unique_ptr<NdjsonDirWriter> writer;
  std::unique_ptr<DocumentSink> documents;
  std::unique_ptr<ResolutionSink> resolutions;  // in front of documents
  std::unique_ptr<CsvSink> csv;
  ResultSink* sink = nullptr;  // documents (through resolutions) or csv
  ResultSink* late = nullptr;  // documents or csv, for quanta written out of time order
  // Sends what is queued and makes it searchable now (the templates refresh every 5 s).
  Status Publish() {
    if (!indexer) return Status();
    Status s = indexer->Drain();
    if (s.ok()) s = indexer->Refresh(indexer->touched_indices());
    return s;
  }
};

Status OpenDestination(FollowArgs* args, LiveDestination* dest) {
  const bool to_es = args->out_dir.empty() && ResolveEsUrl(&args->conn);
  ActionConsumer consume;
  bool histogram = true;  // the server has the `histogram` field type (a directory: unknown)
  if (to_es) {
    Status s = MakeEsClient(args->conn, &dest->client);
    if (!s.ok()) return s;
    IndexSetup setup(dest->client.get(), args->conn.index_prefix);
    TemplateReport report;
    // Installed templates keep their shard and replica settings (push and setup set them);
    // the run's monthly indices are created from them by the first bulk request.
    s = setup.InstallTemplates(args->mappings, IndexSettings(), &report);
    if (!s.ok()) return s;
    PrintServerDecisions(dest->client.get(), report);
    histogram = report.histogram_supported;
    BulkOptions bulk = args->bulk;
    bulk.refresh = true;
    dest->indexer = std::make_unique<BulkIndexer>(dest->client.get(), bulk);
    BulkIndexer* indexer = dest->indexer.get();
    consume = [indexer](BulkAction a) { return indexer->Add(std::move(a)); };
  } else if (!args->out_dir.empty()) {
    dest->writer = std::make_unique<NdjsonDirWriter>(args->out_dir);
    Status s = dest->writer->Open();
    if (!s.ok()) return s;
    NdjsonDirWriter* writer = dest->writer.get();
    consume = [writer](BulkAction a) { return writer->Add(a); };
  } else {
    dest->csv = std::make_unique<CsvSink>(stdout, LatencyUnit(), RowSelection::kQuanta);
    dest->sink = dest->csv.get();
    dest->late = dest->csv.get();
    return Status();
  }
  dest->documents =
      std::make_unique<DocumentSink>(args->conn.index_prefix, args->meta, std::move(consume));
  // Bucket documents in the form the server keeps best (see push --bucket-form); files in
  // the form `load` turns into either.
  dest->documents->set_bucket_form(!to_es       ? BucketForm::kFile
                                   : histogram ? BucketForm::kHistogram
                                               : BucketForm::kCompact);
  dest->resolutions = std::make_unique<ResolutionSink>(dest->documents.get(), args->resolutions,
                                                       args->job_resolution);
  dest->sink = dest->resolutions.get();
  dest->late = dest->documents.get();
  return Status();
}

class Follower {
 public:
  Follower(FollowArgs* args, std::vector<Followed> streams, LiveAggregator* agg,
           LiveDestination* dest)
      : args_(args), streams_(std::move(streams)), agg_(agg), dest_(dest) {}
  // Follows until every stream is done (or a signal). Returns the first output error.
  Status Run();
  bool any_aborted() const { return aborted_; }
  bool any_failed() const { return failed_; }

 private:
  // Reads what stream `i` has now; false when nothing came.
  bool PollStream(size_t i);
  // Decides whether stream `i` is finished, aborted, lagging.
  void Judge(size_t i);
  void Abort(size_t i, const std::string& why);
  // The end up to which every stream still awaited has reported.
  int64_t Until() const;

  FollowArgs* args_;
  std::vector<Followed> streams_;
  LiveAggregator* agg_;
  LiveDestination* dest_;
  bool aborted_ = false;
  bool failed_ = false;
  bool grid_noted_ = false;  // the aggregator's grid note printed
};

bool Follower::PollStream(size_t i) {
  Followed& f = streams_[i];
  std::vector<StatusUpdate> updates;
  Status s = f.stream->Poll(&updates);
  for (const StatusUpdate& u : updates) {
    // Names and whole-run counts come from the newest report, the same for each update.
    agg_->Add(static_cast<int>(i), u, f.stream->differ().last());
    f.passed_ms = u.timestamp_ms;
  }
  if (!updates.empty()) {
    if (f.lagging) {
      std::fprintf(stderr,
                   "fiohist follow: %s: reports again after %.1f s of silence; the quanta written "
                   "without it are rewritten\n",
                   f.stream->name() == "-" ? "stdin" : f.stream->name().c_str(),
                   SecondsSince(f.last_data));
    }
    f.lagging = false;
    f.last_data = Clock::now();
  }
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist follow: error: %s\n", s.message().c_str());
    failed_ = true;
    f.done = true;
    f.aborted = true;
    aborted_ = true;
  }
  return !updates.empty();
}

void Follower::Abort(size_t i, const std::string& why) {
  Followed& f = streams_[i];
  std::string cut;
  if (f.stream->has_partial()) {
    cut = "; the JSON object starting at byte " + std::to_string(f.stream->bytes_used()) +
          " is cut at byte " + std::to_string(f.stream->bytes_read()) + " (" +
          std::to_string(f.stream->bytes_read() - f.stream->bytes_used()) +
          " bytes not used: fio stopped while writing?)";
  }
  std::fprintf(stderr, "fiohist follow: %s%s%s\n", f.stream->Where(f.stream->bytes_read()).c_str(),
               why.c_str(), cut.c_str());
  f.done = true;
  f.aborted = true;
  aborted_ = true;
}

void Follower::Judge(size_t i) {
  Followed& f = streams_[i];
  if (f.done) return;
  const FioStatusStream& st = *f.stream;
  const bool reported = st.differ().reports() > 0;
  const bool all_done = reported && st.differ().last().all_done();
  const double silent = SecondsSince(f.last_data);
  if (st.closed()) {
    if (!reported) {
      Abort(i, "closed without any report (did fio start? --output-format=json+ "
               "--status-interval=1?)");
    } else if (st.has_partial()) {
      Abort(i, "closed in the middle of a JSON object (fio's final report cut?); run state "
               "aborted");
    } else if (!all_done) {
      Abort(i, "closed before fio's final report (a job still expected time: eta > 0); "
               "run state aborted");
    } else {
      f.done = true;
    }
    return;
  }
  const double interval =
      st.differ().interval_ms() > 0 ? static_cast<double>(st.differ().interval_ms()) / 1000.0 : 1.0;
  if (all_done && !st.has_partial() && silent > std::max(1.5 * interval, 1.5)) {
    f.done = true;  // the final report: nothing followed it for 1.5 intervals
    return;
  }
  if (silent > args_->give_up_s) {
    const std::string seconds = std::to_string(static_cast<int>(silent)) + " s";
    if (!st.opened()) {
      Abort(i, "never appeared: given up after " + seconds);
    } else {
      Abort(i, (reported ? "no report for " : "no complete report for ") + seconds +
                   ": given up, run state aborted (fio killed?)");
    }
    return;
  }
  // A stream whose jobs are all done is only waited on to see that nothing follows.
  if (silent > args_->max_lag_s && !f.lagging && !all_done) {
    f.lagging = true;
    std::fprintf(stderr,
                 "fiohist follow: %s%s for %.1f s (more than --max-lag): quanta go out without "
                 "it and are rewritten if its data comes\n",
                 st.Where(st.bytes_read()).c_str(),
                 !st.opened() ? "does not exist yet"
                              : (reported ? "no new report" : "no report yet"),
                 silent);
  }
}

int64_t Follower::Until() const {
  int64_t until = INT64_MAX, latest = INT64_MIN;
  bool waiting = false;
  for (const Followed& f : streams_) {
    latest = std::max(latest, f.passed_ms);
    if (f.done || f.lagging) continue;
    waiting = true;
    until = std::min(until, f.passed_ms);
  }
  return waiting ? until : latest;
}

Status Follower::Run() {
  RunSummary progress;
  progress.state = "running";
  while (true) {
    bool any = false;
    for (size_t i = 0; i < streams_.size(); ++i) {
      if (!streams_[i].done) any = PollStream(i) || any;
    }
    for (size_t i = 0; i < streams_.size(); ++i) Judge(i);
    int written = 0;
    Status s = agg_->EmitUntil(Until(), &written);
    if (!s.ok()) return s;
    if (!grid_noted_ && !agg_->grid_note().empty()) {
      grid_noted_ = true;
      std::fprintf(stderr, "fiohist follow: note: %s\n", agg_->grid_note().c_str());
    }
    if (written > 0 && dest_->documents) {
      const auto publish_start = Clock::now();
      progress.end_ms = agg_->end_ms();
      progress.sla_breaches = agg_->sla_breaches();
      s = dest_->documents->Progress(agg_->info(), progress, agg_->WholeRunSoFar());
      if (s.ok()) s = dest_->Publish();
      if (!s.ok()) return s;
      if (args_->progress) {
        const double now_ms = std::chrono::duration<double, std::milli>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
        std::fprintf(stderr,
                     "fiohist follow: %d quanta written up to %s, %.2f s after that end "
                     "(documents sent and refreshed in %.3f s)\n",
                     written, FormatIsoTime(agg_->end_ms()).c_str(),
                     (now_ms - static_cast<double>(agg_->end_ms())) / 1000.0,
                     SecondsSince(publish_start));
      }
    }
    if (written > 0 && dest_->csv) std::fflush(stdout);
    bool all_done = true;
    for (const Followed& f : streams_) all_done = all_done && f.done;
    if (all_done) return Status();
    if (g_stop) {
      for (size_t i = 0; i < streams_.size(); ++i) {
        if (!streams_[i].done) Abort(i, "interrupted before the stream ended");
      }
      return Status();
    }
    if (!any) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// Logs fio (and smallfile) write only when a job ends cannot be followed: said before any
// work, with what to use instead. Empty for a name that may be a status stream.
std::string NotAStream(const std::string& path) {
  SmallfileName smallfile;
  if (ParseSmallfileName(path, &smallfile)) {
    return "a smallfile response-time file, written when the thread ends: it cannot be "
           "followed; read it after the run (fiohist pctiles/push)";
  }
  switch (ParseLogName(path).type) {
    case LogFileType::kPerIo:
      return "a per-I/O latency log (write_lat_log): fio writes it when the job ends, so it "
             "cannot be followed; read it after the run (fiohist pctiles/push), and follow "
             "fio's json+ status output (--status-interval=1 --output-format=json+) live";
    case LogFileType::kHist:
      return "a histogram log (write_hist_log): fio writes it when the job ends, so it cannot "
             "be followed; read it after the run (fiohist pctiles/push), and follow fio's "
             "json+ status output (--status-interval=1 --output-format=json+) live";
    case LogFileType::kBandwidth:
    case LogFileType::kStoredCompressed:
      return "a fio log, not a json+ status stream (follow reads fio --status-interval=1 "
             "--output-format=json+ output)";
    case LogFileType::kUnknown:
      break;
  }
  return std::string();
}

// Names each stream's host: HOST=STREAM, --host / --host-map, else the file name without
// its extension ("stdin" for `-`). Two streams of one host are refused.
Status NameStreams(const FollowArgs& args, std::vector<Followed>* out,
                   std::vector<LiveStream>* live) {
  for (const std::string& spec : args.streams) {
    std::string host, path = spec;
    const size_t eq = spec.find('=');
    if (eq != std::string::npos && eq > 0 && spec.find('/') > eq) {
      host = spec.substr(0, eq);
      path = spec.substr(eq + 1);
    }
    if (const std::string why = NotAStream(path); !why.empty()) {
      return Status::Error(path + ": " + why);
    }
    if (host.empty()) host = StreamHost(path, args.options.host_mapping);
    for (const LiveStream& other : *live) {
      if (other.name == path) return Status::Error(path + ": the same stream given twice");
      if (other.host == host) {
        return Status::Error(path + ": byte 0: claims host '" + host + "', which stream " +
                             other.name + " already claims (name them: HOST=STREAM)");
      }
    }
    Followed f;
    f.stream = std::make_unique<FioStatusStream>(path, BucketLayout());
    f.host = host;
    f.last_data = Clock::now();
    out->push_back(std::move(f));
    live->push_back({path, host});
  }
  return Status();
}

}  // namespace

int RunFollowCommand(int argc, char** argv) {
  FollowArgs args;
  if (int rc = ParseFollowArgs(argc, argv, &args); rc >= 0) return rc;
  std::vector<Followed> streams;
  std::vector<LiveStream> live;
  Status s = NameStreams(args, &streams, &live);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist follow: %s\n", s.message().c_str());
    return kExitUsage;
  }
  LiveDestination dest;
  s = OpenDestination(&args, &dest);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist follow: %s\n", s.message().c_str());
    return kExitError;
  }
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  const LiveOptions live_options = LiveOptionsFrom(args.options);
  SlaReportSink sla_report(stderr, args.meta.run);
  LateSlaReport late_sla(args.meta.run, live_options);
  // --accuracy: a window is written when it is accurate enough (or reaches
  // --accuracy-max-quanta): the CSV gets a row per window instead of quanta, documents a
  // window document besides the quanta's. Quanta rewritten after late data stay single
  // rows and are not in any window.
  std::unique_ptr<WindowDocumentSink> window_docs;
  std::unique_ptr<AccuracyWindowSink> windows;
  std::vector<ResultSink*> main_sinks = {dest.sink, &sla_report};
  if (!args.accuracy.targets.empty()) {
    if (dest.documents) {
      window_docs =
          std::make_unique<WindowDocumentSink>(dest.documents.get(), args.accuracy.targets);
    }
    windows = std::make_unique<AccuracyWindowSink>(
        window_docs ? static_cast<ResultSink*>(window_docs.get()) : dest.sink,
        args.accuracy.targets, args.accuracy.max_quanta);
    // Before the documents: the run's last windows go out before its run document.
    if (window_docs) {
      main_sinks.insert(main_sinks.begin(), windows.get());
    } else {
      main_sinks[0] = windows.get();
    }
  }
  FanoutSink main_sink(main_sinks);
  FanoutSink late_sink({dest.late, &late_sla});
  LiveAggregator agg(live_options, live, &main_sink);
  // Coarser windows only move forward: quanta rewritten later go to the documents directly.
  agg.set_late_sink(&late_sink);
  Follower follower(&args, std::move(streams), &agg, &dest);
  s = follower.Run();
  RunSummary summary;
  summary.state = follower.any_aborted() ? "aborted" : "finished";
  if (dest.documents) dest.documents->UpdateRun(agg.info());
  if (s.ok()) s = agg.Finish(&summary);
  if (s.ok() && dest.indexer) s = dest.indexer->Finish();
  if (s.ok() && dest.writer) s = dest.writer->Close();
  const BulkStats stats = dest.indexer ? dest.indexer->stats() : BulkStats();
  if (dest.indexer) PrintBulkErrors(stats);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist follow: error: %s\n", s.message().c_str());
    return kExitError;
  }
  if (!args.quiet) {
    std::fprintf(stderr,
                 "fiohist follow: run '%s': %lld quanta written (%lld rewritten after late data), "
                 "state %s%s%s\n",
                 args.meta.run.c_str(), agg.quanta_written(), agg.quanta_rewritten(),
                 summary.state.c_str(), dest.indexer ? "; " : "",
                 dest.indexer ? FormatBulkSummary(stats).c_str() : "");
  }
  if (agg.quanta_out_of_order() > 0 && dest.documents && args.resolutions.size() > 0) {
    std::fprintf(stderr,
                 "fiohist follow: note: %lld quanta were written again after late data; the "
                 "coarser-resolution documents of their windows were written before it came: "
                 "`fiohist push --run %s` on the same status files rewrites them\n",
                 agg.quanta_out_of_order(), args.meta.run.c_str());
  }
  if (agg.late_ios() > 0) {
    std::fprintf(stderr,
                 "fiohist follow: warning: %.0f I/O(s) came for quanta written and dropped from "
                 "memory long before; they are in the whole-run results only\n",
                 agg.late_ios());
  }
  if (agg.quanta_out_of_order() > 0 && !live_options.sla.empty()) {
    std::fprintf(stderr,
                 "fiohist follow: SLA: %lld cluster quanta x directions breach as last written "
                 "(after late data; the line above counts them as first written)\n",
                 agg.sla_breaches());
  }
  if (windows && !windows->inaccurate().empty()) {
    std::fprintf(stderr,
                 "fiohist follow: %zu window(s) did not reach the --accuracy targets (the run's "
                 "last, or cut at --accuracy-max-quanta %d)\n",
                 windows->inaccurate().size(), args.accuracy.max_quanta);
  }
  if (follower.any_failed()) return kExitError;
  if (follower.any_aborted() || stats.failed > 0) return kExitIncomplete;
  return agg.sla_breaches() > 0 ? kExitSlaBreached : kExitOk;
}

}  // namespace fiohist
