
#include <array>
#include <atomic>
#include <boost/program_options.hpp>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>

#include "cli/accuracy_flags.h"
#include "cli/bulk_report.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "cli/grafana_link.h"
#include "cli/pipeline_flags.h"
#include "cli/command_progress.h"
#include "cli/run_inputs.h"
#include "cli/status_input.h"
#include "es/document_sink.h"
#include "es/es_sender.h"
#include "es/index_setup.h"
#include "es/ndjson_dir.h"
#include "es/push_tuning.h"
#include "es/queued_indexer.h"
#include "es/run_catalog.h"
#include "output/fanout_sink.h"
#include "output/hist_code.h"
#include "output/sla_report.h"
#include "output/summary_sink.h"
#include "stats/resolution_sink.h"

namespace po = boost::program_options;

namespace fiohist {
namespace {

const char kPushUsage[] =
    "Usage: fiohist push --run NAME [--tag T]... [--label K=V]... [--es-url URL | --out DIR]\n"
    "                    [pctiles options] LOGS...\n"
    "\n"
    "Computes what `fiohist pctiles` computes for every scope (cluster, each host, each job)\n"
    "and direction, and indexes percentile documents, bucket documents (the sparse fixed-point\n"
    "histogram of each quantum, by default per job and real direction: --bucket-scopes)\n"
    "and one run document into Elasticsearch (PREFIX-pctiles-YYYY.MM, -buckets-YYYY.MM,\n"
    "-runs-YYYY.MM: the month of the run's start, so a run is never split; templates are\n"
    "installed first). --es-url may name several nodes (repeated or a comma list): a node\n"
    "that stops answering is skipped. Without --es-url (or FIOHIST_ES_URL) the same\n"
    "bulk NDJSON is written to --out DIR (default ./fiohist-out/NAME; gzip files unless\n"
    "--plain-out) for `fiohist load`.\n"
    "Document ids are deterministic: pushing the same run again overwrites, never doubles.\n"
    "Credentials come from FIOHIST_ES_PASSWORD / --password-file or FIOHIST_ES_API_KEY /\n"
    "--api-key-file, never from the command line.\n"
    "\n"
    "LOGS may instead be fio's json+ outputs, one per host (host from --host FILE=HOST, else\n"
    "the file name): a status file (--status-interval=1 --output-format=json+) gives quanta\n"
    "and the whole run, a plain json+ result the whole run only, from fio's exact bins; or\n"
    "fio client/server outputs (fio --client=H job --status-interval=1 ... --output-format=\n"
    "json+): one host per server (hostname, :port where a host ran several).\n"
    "\n"
    "Relative-time logs (fio's default) need an anchor: --start-time, --fio-json, or fio's\n"
    "JSON output next to the logs (found by itself). Without one, push to Elasticsearch\n"
    "refuses (exit 2) unless --unanchored says to index them at 1970-01-01.\n"
    "\n"
    "--sla p99=2ms (repeatable) checks every quantum's cluster percentile: each breaching\n"
    "quantum gets a line on stderr, its percentile documents sla_breach:true, and the run\n"
    "document carries the thresholds (sla) and the count (sla_breaches).\n"
    "\n"
    "Exit status: 0 everything indexed; 1 error; 2 bad usage (or no time anchor); 3 finished\n"
    "but some input was skipped or some documents were rejected; 4 everything indexed, and\n"
    "some quantum breached an --sla threshold.\n";

// What the command line of `push` asks for.
struct PushArgs {
  EsConnectionOptions conn;
  BulkOptions bulk;
  /// --concurrency given: else kLanesPerDataNode per data node.
  bool concurrency_given = false;
  PartitionOptions partition;
  IndexSettings settings;
  RunMeta meta;
  std::string out_dir, mappings, grafana_url;
  /// --plain-out: --out files uncompressed.
  bool plain_out = false;
  /// --keep-refresh: no RefreshPause.
  bool keep_refresh = false;
  bool quiet = false;
  /// --unanchored: index relative-time logs without an anchor (they land at 1970-01-01).
  bool unanchored = false;
  std::vector<int> resolutions = DefaultCoarseResolutions();
  /// --job-resolution: the finest resolution of job percentile documents.
  int job_resolution = DefaultJobResolution(DefaultCoarseResolutions());
  /// Which results get bucket documents; the form is the server's unless --bucket-form.
  BucketOptions buckets;
  /// --bucket-form: "auto" (histogram where the server has the type; kFile for --out),
  /// "histogram" or "compact".
  std::string bucket_form = "auto";
  PipelineOptions options;
  std::vector<std::string> logs;
  /// --accuracy: window documents (as follow writes them) besides the quanta's.
  AccuracyFlags accuracy;
};

// Reads --bucket-scopes (a subset of the reported scopes, or "none"; by default job, else
// the finest scope reported) and the directions of bucket documents (the reported real
// ones, which `all` is the sum of; `all` only when it is all that is reported).
Status ParseBucketScopes(const std::string& text, bool given, PushArgs* args) {
  const std::array<bool, 3>& reported = args->options.scopes;
  std::array<bool, 3>& scopes = args->buckets.scopes;
  scopes = {false, false, false};
  if (!given) {
    for (size_t k = 3; k-- > 0;) {
      if (reported[k]) {
        scopes[k] = true;
        break;
      }
    }
  } else if (text != "none") {
    size_t from = 0;
    while (from <= text.size()) {
      size_t comma = text.find(',', from);
      if (comma == std::string::npos) comma = text.size();
      const std::string name = text.substr(from, comma - from);
      from = comma + 1;
      if (name.empty()) continue;
      size_t k = 0;
      while (k < 3 && name != ScopeName(static_cast<ScopeKind>(k))) ++k;
      if (k == 3) {
        return Status::Error("--bucket-scopes: expected cluster, host, job or none, got '" +
                             name + "'");
      }
      if (!reported[k]) {
        return Status::Error("--bucket-scopes: scope '" + name +
                             "' is not reported (add it to --scope)");
      }
      scopes[k] = true;
    }
  }
  const std::array<bool, 4>& dirs = args->options.directions;
  const bool real = dirs[0] || dirs[1] || dirs[2];
  args->buckets.directions = {dirs[0], dirs[1], dirs[2], !real && dirs[3]};
  if (args->buckets.scale < 1 || args->buckets.scale > 1000000) {
    return Status::Error("--bucket-scale: expected 1 to 1000000");
  }
  if (args->bucket_form == "histogram") {
    args->buckets.form = BucketForm::kHistogram;
  } else if (args->bucket_form == "compact") {
    args->buckets.form = BucketForm::kCompact;
  } else if (args->bucket_form != "auto") {
    return Status::Error("--bucket-form: expected auto, histogram or compact, got '" +
                         args->bucket_form + "'");
  }
  return Status();
}

// Parses the command line. Returns -1 to go on, else the exit code.
int ParsePushArgs(int argc, char** argv, PushArgs* args) {
  std::vector<std::string> labels;
  std::string resolutions, bucket_scopes, job_resolution;
  po::options_description desc("Options");
  po::positional_options_description positional;
  // clang-format off
  desc.add_options()
      ("run", po::value(&args->meta.run), "run name (required): the key of every document")
      ("tag", po::value(&args->meta.tags)->composing(), "a tag for the run (repeatable)")
      ("label", po::value(&labels)->composing(), "K=V label for the run (repeatable)")
      ("out", po::value(&args->out_dir),
       "write bulk NDJSON here instead of indexing (gzip files, bulk-NNNNNN.ndjson.gz)")
      ("keep-refresh", po::bool_switch(&args->keep_refresh),
       "leave the run's indices refreshing every refresh_interval during the push (default: "
       "refresh off until the push ends, then restored: faster, and nothing half-pushed is "
       "searchable)")
      ("plain-out", po::bool_switch(&args->plain_out),
       "--out files as plain NDJSON (bulk-NNNNNN.ndjson, about 9x larger)")
      ("mappings", po::value(&args->mappings), "folder of the index templates (default: built in)")
      ("quiet", po::bool_switch(&args->quiet), "no summary on stderr (warnings still go there)")
      ("unanchored", po::bool_switch(&args->unanchored),
       "index relative-time logs that have no time anchor (no --start-time, no fio JSON): "
       "their documents start at 1970-01-01")
      ("grafana-url", po::value(&args->grafana_url),
       "Grafana whose run overview link is printed after a push to Elasticsearch (default: env "
       "FIOHIST_GRAFANA_URL, else http://127.0.0.1:3000)")
      ("resolutions", po::value(&resolutions),
       "coarser percentile documents as multiples of the quantum, so zoomed-out dashboards stay "
       "exact (default 10,60,600,3600,36000; 'none': quanta only)")
      ("job-resolution", po::value(&job_resolution),
       "the finest resolution of job-scope percentile documents, 1 or one of --resolutions "
       "(default the first, 10; 1: every quantum). Exact job percentiles of any window come "
       "from the bucket documents: fiohist pctiles --run R --es-url URL --job J")
      ("bucket-scopes", po::value(&bucket_scopes),
       "scopes that get bucket documents, among those reported (default job: the others are "
       "sums of it; 'none': no bucket documents)")
      ("bucket-scale", po::value(&args->buckets.scale),
       "bucket documents of scaled counts count in units of 1/N I/O (default 5000: "
       "percentiles of their sums stay within 0.1% of the logs'; 1: whole I/Os)")
      ("bucket-form", po::value(&args->bucket_form),
       "bucket documents' form: auto (a `latency` histogram where the server has the type, "
       "else compact; with --out, files holding both, of which `fiohist load` sends what its "
       "server takes), histogram, or compact (read back by `fiohist pctiles --es-url`: a "
       "job's fio records with their whole counts, exact; scaled counts for host and "
       "cluster scopes)");
  // clang-format on
  AddEsConnectionOptions(&desc, &args->conn);
  AddBulkOptions(&desc, &args->bulk);
  AddPartitionOptions(&desc, &args->partition);
  AddPipelineOptions(&desc, &positional);
  AddAccuracyOptions(&desc);
  po::variables_map vm;
  const int rc = ParseCommandLine(argc, argv, kPushUsage, desc, &positional, &vm);
  if (rc >= 0) return rc;
  Status s = PipelineOptionsFromVariables(vm, "cluster,host,job", &args->options, &args->logs);
  if (s.ok() && args->meta.run.empty()) s = Status::Error("--run NAME is required");
  if (s.ok()) s = CheckBulkOptions(args->bulk);
  args->concurrency_given = !vm["concurrency"].defaulted();
  if (s.ok()) s = CheckPartitionOptions(vm, args->partition, &args->settings);
  if (s.ok() && vm.count("resolutions")) s = ParseResolutions(resolutions, &args->resolutions);
  if (s.ok()) s = ParseJobResolution(job_resolution, args->resolutions, &args->job_resolution);
  if (s.ok()) s = ParseBucketScopes(bucket_scopes, vm.count("bucket-scopes") > 0, args);
  if (s.ok()) s = ParseRunLabels(labels, &args->meta);
  if (s.ok()) s = AccuracyFromVariables(vm, args->options.percentiles, &args->accuracy);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist push: %s\n", s.message().c_str());
    return kExitUsage;
  }
  return -1;
}

// Where the documents go: an Elasticsearch cluster (client + sender) or a directory.
struct Destination {
  std::unique_ptr<HttpClient> client;
  /// Refresh off on the run's indices while documents go in; restored by Finish(), or by
  /// its destructor on any other way out (declared before the sender: destroyed after it).
  std::unique_ptr<RefreshPause> pause;
  std::unique_ptr<EsSender> sender;
  std::unique_ptr<NdjsonDirWriter> writer;
  ActionConsumer consume;
  /// The server has the `histogram` field type (a directory: unknown, see BucketForm::kFile).
  bool histogram = true;
  /// Documents the server took so far (the progress line).
  std::atomic<uint64_t> indexed{0};
  /// Sends what is queued, or closes the last file.
  Status Finish() {
    if (sender) {
      Status s = sender->queue().Finish();
      if (pause) {
        Status r = pause->Restore();
        if (!r.ok()) std::fprintf(stderr, "fiohist push: warning: %s\n", r.message().c_str());
      }
      return s;
    }
    return writer ? writer->Close() : Status();
  }
};

// The form of the push's bucket documents: --bucket-form, or by default what the server
// takes (`histogram`: it has that field type). Files carry both forms' counts: `load`
// sends what its server takes.
BucketForm ChosenBucketForm(const PushArgs& args, bool to_es, bool histogram) {
  if (args.bucket_form != "auto") return args.buckets.form;
  return !to_es ? BucketForm::kFile : histogram ? BucketForm::kHistogram : BucketForm::kCompact;
}

// Connects, installs the templates (saying once what the server is and what was decided
// from it), creates the indices of the month of the run's start and starts the sender.
Status OpenCluster(PushArgs* args, int64_t run_start_ms, Destination* dest) {
  Status s = MakeEsClient(args->conn, &dest->client);
  int data_nodes = 1;
  if (s.ok()) s = CountDataNodes(dest->client.get(), &data_nodes);
  if (s.ok()) {
    IndexSetup setup(dest->client.get(), args->conn.index_prefix);
    TemplateReport report;
    s = setup.InstallTemplates(args->mappings, args->settings, &report);
    // Without --shards, a new index has a primary on every data node.
    const int min_shards = args->settings.shards > 0 ? 0 : ShardsForNodes(data_nodes);
    if (s.ok()) s = setup.CreateRunIndices(run_start_ms, &report, min_shards);
    if (s.ok()) PrintServerDecisions(dest->client.get(), report);
    if (s.ok()) {
      // A run stored with another bucket_version (an earlier fiohist, or `push --out` +
      // `load` against a direct push: per-direction job documents against one per job and
      // quantum) has bucket documents under other ids: the re-push would add its documents
      // beside them (read-back would count both), so they go first.
      RunCatalog catalog(dest->client.get(), args->conn.index_prefix);
      BucketOptions chosen = args->buckets;
      chosen.form = ChosenBucketForm(*args, true, report.histogram_supported);
      const int writes = BucketVersionOf(chosen);
      int version = 0;
      s = catalog.RunBucketVersion(args->meta.run, &version);
      if (s.ok() && version > 0 && version != writes) {
        std::fprintf(
            stderr,
            "fiohist push: run '%s' was pushed %s (bucket_version %d, other document "
            "ids; this push writes %d): deleting it before pushing it again\n",
            args->meta.run.c_str(),
            version < kBucketVersion ? "by an earlier fiohist" : "with other bucket documents",
            version, writes);
        DeleteReport deleted;
        s = catalog.DeleteRun(args->meta.run, args->bulk, &deleted);
        version = 0;
      }
      // Percentile documents of another layout (one per direction, before pctiles_version
      // 2) have other ids too: a re-push would leave them beside the new ones.
      int pctiles = 0;
      if (s.ok() && version > 0) s = catalog.RunPctilesVersion(args->meta.run, &pctiles);
      if (s.ok() && pctiles > 0 && pctiles != kPctilesVersion) {
        std::fprintf(stderr,
                     "fiohist push: run '%s' was pushed with one percentile document per "
                     "direction (pctiles_version %d; this push writes %d): deleting it before "
                     "pushing it again\n",
                     args->meta.run.c_str(), pctiles, kPctilesVersion);
        DeleteReport deleted;
        s = catalog.DeleteRun(args->meta.run, args->bulk, &deleted);
      }
    }
    if (s.ok() && !report.spread.empty() && !args->quiet) {
      std::fprintf(stderr, "fiohist push: %d data nodes: new indices get %d primaries\n",
                   data_nodes, min_shards);
    }
    dest->histogram = report.histogram_supported;
  }
  if (s.ok() && !args->keep_refresh) {
    // Nothing searches the run's documents before the push ends (it refreshes them at the
    // end): periodic refreshes would only make and merge small segments meanwhile.
    dest->pause = std::make_unique<RefreshPause>(dest->client.get());
    for (DocKind kind : {DocKind::kPercentiles, DocKind::kBuckets}) {
      Status p =
          dest->pause->Pause({IndexName(args->conn.index_prefix, kind, run_start_ms)},
                             TemplateRefreshInterval(dest->client.get(),
                                                     IndexBaseName(args->conn.index_prefix, kind)));
      if (!p.ok()) std::fprintf(stderr, "fiohist push: warning: %s\n", p.message().c_str());
    }
    for (const std::string& index : dest->pause->found_paused()) {
      std::fprintf(stderr,
                   "fiohist push: %s had refresh off (a push that was killed): restored after "
                   "this push\n",
                   index.c_str());
    }
  }
  if (s.ok() && !args->concurrency_given) {
    args->bulk.concurrent_requests = std::min(64, kLanesPerDataNode * data_nodes);
  }
  if (s.ok())
    s = EsSender::Create(dest->client.get(), args->bulk, CountIndexed(&dest->indexed),
                         &dest->sender);
  if (!s.ok()) return s;
  // Documents are computed while earlier batches are on the wire.
  EsSender* sender = dest->sender.get();
  dest->consume = [sender](BulkAction a) { return sender->queue().Add(std::move(a)); };
  return Status();
}

// Opens the bulk NDJSON directory (default ./fiohist-out/RUN).
Status OpenDirectory(PushArgs* args, Destination* dest) {
  if (args->out_dir.empty()) args->out_dir = "fiohist-out/" + args->meta.run;
  dest->writer = std::make_unique<NdjsonDirWriter>(args->out_dir, kBulkFileBytes,
                                                   args->plain_out ? 0 : kBulkFileGzipLevel);
  Status s = dest->writer->Open();
  if (!s.ok()) return s;
  NdjsonDirWriter* writer = dest->writer.get();
  dest->consume = [writer](BulkAction a) { return writer->Add(a); };
  return Status();
}

// The closing line: what went where.
void PrintPushSummary(const PushArgs& args, const DocumentSink& documents, const Destination& dest,
                      const BulkStats& stats) {
  const auto pct = static_cast<unsigned long long>(documents.percentile_docs());
  const auto coarse = static_cast<unsigned long long>(documents.coarse_docs());
  const auto bkt = static_cast<unsigned long long>(documents.bucket_docs());
  const auto stalls = static_cast<unsigned long long>(documents.stall_docs());
  const unsigned long long docs = pct + bkt + stalls + 1;
  // Stall documents are named only where the run has some: other runs' line is unchanged.
  char stall_part[64] = "";
  if (stalls > 0) std::snprintf(stall_part, sizeof stall_part, ", %llu stall", stalls);
  char counts[320];
  std::snprintf(counts, sizeof counts,
                "%llu documents (%llu percentile of which %llu at coarser resolutions, %llu "
                "bucket, 1 run%s)",
                docs, pct, coarse, bkt, stall_part);
  if (dest.sender) {
    std::fprintf(stderr, "fiohist push: run '%s': %s; %s\n", args.meta.run.c_str(), counts,
                 FormatBulkSummary(stats).c_str());
  } else {
    std::fprintf(stderr,
                 "fiohist push: run '%s': %s written to %s/ (index them with: fiohist load %s "
                 "--es-url URL)\n",
                 args.meta.run.c_str(), counts, args.out_dir.c_str(), args.out_dir.c_str());
  }
}

// Stands before the document sink: sees where the pipeline placed the logs in time before
// any document is made, refuses an unanchored run for Elasticsearch (nothing is sent, not
// even the templates: the cluster is opened only here) and opens the destination.
class AnchorGate : public ResultSink {
 public:
  AnchorGate(PushArgs* args, bool to_es, Destination* dest, DocumentSink* documents,
             ResultSink* next)
      : args_(args), to_es_(to_es), dest_(dest), documents_(documents), next_(next) {}
  Status Begin(const RunInfo& info) override {
    if (!info.absolute && to_es_ && !args_->unanchored) {
      refused_ = true;
      return Status::Error(
          "the logs have relative time stamps and no time anchor (no --start-time, no "
          "--fio-json, no fio JSON output found next to the logs): indexed as they are they "
          "would start at 1970-01-01, outside any dashboard's time range. Give --start-time T "
          "(ISO 8601 or Unix epoch, when the jobs started) or --fio-json [HOST=]FILE, or "
          "--unanchored to index them at 1970-01-01 anyway");
    }
    if (!info.absolute && !to_es_) {
      std::fprintf(stderr,
                   "fiohist: warning: no time anchor (no --start-time, no fio JSON output): the "
                   "documents start at 1970-01-01; `fiohist load` into Elasticsearch puts them "
                   "outside the dashboards' default time range\n");
    }
    Status s = to_es_ ? OpenCluster(args_, info.first_quantum_ms, dest_)
                      : OpenDirectory(args_, dest_);
    if (!s.ok()) {
      open_failed_ = true;
      return s;
    }
    documents_->set_bucket_form(ChosenBucketForm(*args_, to_es_, dest_->histogram));
    return next_->Begin(info);
  }
  Status Quantum(const ScopeResult& r) override { return next_->Quantum(r); }
  Status WholeRun(const ScopeResult& r) override { return next_->WholeRun(r); }
  Status End(const RunSummary& summary) override { return next_->End(summary); }
  bool prepares() const override { return next_->prepares(); }
  void Prepare(const ScopeResult& r, std::string* prepared) const override {
    next_->Prepare(r, prepared);
  }
  bool takes_jobs_by_log() const override { return next_->takes_jobs_by_log(); }
  bool reads_job_quantum_stats() const override { return next_->reads_job_quantum_stats(); }
  Status JobDone(const std::string& host, const std::string& job) override {
    return next_->JobDone(host, job);
  }
  /// Begin refused an unanchored run (a usage error: the command line lacks an anchor).
  bool refused() const { return refused_; }
  /// Begin could not open the cluster or the directory.
  bool open_failed() const { return open_failed_; }

 private:
  PushArgs* args_;
  bool to_es_;
  Destination* dest_;
  DocumentSink* documents_;
  ResultSink* next_;
  bool refused_ = false;
  bool open_failed_ = false;
};

// SIGINT or SIGTERM: the next document is refused, so the push ends through its error path,
// which restores what it changed on the cluster (refresh). A second signal kills at once.
volatile std::sig_atomic_t g_push_interrupted = 0;

extern "C" void OnPushSignal(int sig) {
  g_push_interrupted = sig;
  std::signal(sig, SIG_DFL);
}

}  // namespace

int RunPushCommand(int argc, char** argv) {
  PushArgs args;
  if (int rc = ParsePushArgs(argc, argv, &args); rc >= 0) return rc;
  if (!ExpandCommandInputs("push", args.quiet, &args.logs)) return kExitError;

  Destination dest;
  const bool to_es = args.out_dir.empty() && ResolveEsUrl(&args.conn);
  // The destination opens once the pipeline knows where the logs lie in time (AnchorGate).
  if (to_es) {
    std::signal(SIGINT, OnPushSignal);
    std::signal(SIGTERM, OnPushSignal);
  }
  // Logs with their fio JSON outputs beside them anchor on those; fio json+ outputs alone
  // (status files, plain results) are the run.
  const InputPlan plan = PlanInputs(std::move(args.logs), &args.options);
  const size_t moved = plan.moved_to_fio_json;
  if (moved > 0 && !args.quiet) {
    std::fprintf(stderr,
                 "fiohist push: %zu fio JSON file(s) among the logs taken as their fio output "
                 "(--fio-json)\n",
                 moved);
  }
  // The compact form (and the files' form) stores job documents as their logs' records: the
  // pipeline keeps them wherever that form may be chosen (auto learns the server's types
  // only at Begin()).
  // Under --place issue a record's I/Os are no span (log/issue_stream.h): job documents
  // carry their counts, as the other scopes'.
  args.options.keep_records = args.buckets.scopes[static_cast<size_t>(ScopeKind::kJob)] &&
                              (args.bucket_form == "compact" || args.bucket_form == "auto") &&
                              !args.options.place_issue;
  // The record form: one job document per quantum for all its directions where the form is
  // compact (a direct push to a server without the `histogram` type, or --bucket-form
  // compact); files of the default form (kFile) stay per direction. Status files have no
  // records.
  args.buckets.merge_directions = args.options.keep_records && !plan.fio_json;
  DocumentSink documents(
      args.conn.index_prefix, args.meta,
      [&dest](BulkAction a) {
        if (g_push_interrupted != 0) {
          return Status::Error(std::string("interrupted by ") +
                               (g_push_interrupted == SIGINT ? "SIGINT" : "SIGTERM") +
                               ": the run is incomplete (push it again)");
        }
        return dest.consume(std::move(a));
      },
      args.buckets);
  ResolutionSink resolutions(&documents, args.resolutions, args.job_resolution);
  SummarySink summary_sink(stderr, LatencyUnit());
  SlaReportSink sla_report(stderr, args.meta.run);
  CommandProgress progress(ProgressMeter::WantedOnStderr(args.quiet));
  std::vector<ResultSink*> sinks = {progress.StopAtEnd(), &resolutions};
  // --accuracy: the cluster's windows as window documents (the ids follow gives them).
  WindowDocumentSink window_docs(&documents, args.accuracy.targets);
  AccuracyWindowSink windows(&window_docs, args.accuracy.targets, args.accuracy.max_quanta);
  if (!args.accuracy.targets.empty()) sinks.insert(sinks.begin() + 1, &windows);
  if (!args.quiet) sinks.push_back(&summary_sink);
  sinks.push_back(&sla_report);
  FanoutSink fanout(sinks);
  AnchorGate sink(&args, to_es, &dest, &documents, &fanout);
  RunSummary summary;
  progress.StartReading(plan.inputs, plan.fio_json, to_es ? &dest.indexed : nullptr);
  Status s = RunInputs(args.options, plan, &sink, &summary);
  progress.Stop();
  PrintWarnings(stderr, summary);
  if (dest.sender) {
    progress.StartIndexing(
        documents.percentile_docs() + documents.bucket_docs() + documents.stall_docs() + 1,
        &dest.indexed);
  }
  Status finished = dest.Finish();
  progress.Stop();
  const BulkStats stats = dest.sender ? dest.sender->queue().stats() : BulkStats();

  if (sink.refused() || sink.open_failed()) {
    std::fprintf(stderr, "fiohist push: %s\n", s.message().c_str());
    return sink.refused() ? kExitUsage : kExitError;
  }
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist: error: %s\n", s.message().c_str());
    return kExitError;
  }
  if (dest.sender) PrintBulkErrors(stats);
  if (!finished.ok()) {
    std::fprintf(stderr, "fiohist push: %s\n", finished.message().c_str());
    return kExitError;
  }
  PrintPushSummary(args, documents, dest, stats);
  if (dest.sender && !args.quiet && stats.failed == 0) {
    // Last, so it is the line to click: the run on its own time range.
    std::fprintf(stderr, "fiohist push: dashboard: %s\n",
                 GrafanaRunUrl(ResolveGrafanaUrl(args.grafana_url), args.meta.run,
                               documents.run_start_ms(), summary.end_ms)
                     .c_str());
  }
  if (stats.failed > 0 || summary.incomplete) return kExitIncomplete;
  return summary.sla_breaches > 0 ? kExitSlaBreached : kExitOk;
}

}  // namespace fiohist
