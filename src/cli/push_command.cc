#include "cli/push_command.h"

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "cli/es_commands.h"
#include "cli/pctiles_command.h"
#include "es/document_sink.h"
#include "es/es_admin.h"
#include "es/ndjson_dir.h"
#include "cli/command_line.h"
#include "cli/pipeline_flags.h"
#include "es/queued_indexer.h"
#include "output/summary_sink.h"

namespace po = boost::program_options;

namespace fiohist {
namespace {

const char kUsage[] =
    "Usage: fiohist push --run NAME [--tag T]... [--label K=V]... [--es-url URL | --out DIR]\n"
    "                    [pctiles options] LOGS...\n"
    "\n"
    "Computes what `fiohist pctiles` computes for every scope (cluster, each host, each job)\n"
    "and direction, and indexes percentile documents, bucket documents (the sparse histogram\n"
    "of each quantum) and one run document into Elasticsearch (PREFIX-pctiles, -buckets,\n"
    "-runs; templates are installed first). Without --es-url (or FIOHIST_ES_URL) the same\n"
    "bulk NDJSON is written to --out DIR (default ./fiohist-out/NAME) for `fiohist load`.\n"
    "Document ids are deterministic: pushing the same run again overwrites, never doubles.\n"
    "Credentials come from FIOHIST_ES_PASSWORD / --password-file or FIOHIST_ES_API_KEY /\n"
    "--api-key-file, never from the command line.\n"
    "\n"
    "Exit status: 0 everything indexed; 1 error; 2 bad usage; 3 finished but some input\n"
    "was skipped or some documents were rejected.\n";

}  // namespace

int RunPushCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  BulkOptions bulk;
  std::string run, out_dir, mappings;
  std::vector<std::string> tags, labels;
  po::options_description desc("Options");
  po::positional_options_description positional;
  desc.add_options()
      ("run", po::value(&run), "run name (required): the key of every document")
      ("tag", po::value(&tags)->composing(), "a tag for the run (repeatable)")
      ("label", po::value(&labels)->composing(), "K=V label for the run (repeatable)")
      ("out", po::value(&out_dir), "write bulk NDJSON here instead of indexing")
      ("mappings", po::value(&mappings), "folder of the index templates (default: built in)")
      ("quiet", po::bool_switch(), "no summary on stderr");
  AddEsConnectionOptions(&desc, &conn);
  AddBulkOptions(&desc, &bulk);
  AddPipelineOptions(&desc, &positional);
  po::variables_map vm;
  const int rc = ParseCommandLine(argc, argv, kUsage, desc, &positional, &vm);
  if (rc >= 0) return rc;
  PipelineOptions options;
  std::vector<std::string> logs;
  Status s = PipelineOptionsFromVariables(vm, "cluster,host,job", &options, &logs);
  if (s.ok() && run.empty()) s = Status::Error("--run NAME is required");
  if (s.ok()) s = CheckBulkOptions(bulk);
  RunMeta meta;
  meta.run = run;
  meta.tags = tags;
  for (const std::string& l : labels) {
    const size_t eq = l.find('=');
    if (s.ok() && (eq == std::string::npos || eq == 0)) {
      s = Status::Error("--label: expected KEY=VALUE, got '" + l + "'");
    } else if (s.ok()) {
      meta.labels.emplace_back(l.substr(0, eq), l.substr(eq + 1));
    }
  }
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist push: %s\n", s.message().c_str());
    return kExitUsage;
  }

  const bool to_es = out_dir.empty() && ResolveEsUrl(&conn);
  std::unique_ptr<HttpClient> client;
  std::unique_ptr<NdjsonDirWriter> writer;
  std::unique_ptr<EsSender> sender;
  ActionConsumer consume;
  if (to_es) {
    s = MakeEsClient(conn, &client);
    if (s.ok()) {
      EsAdmin admin(client.get(), conn.index_prefix);
      TemplateReport report;
      s = admin.InstallTemplates(mappings, &report);
      if (s.ok()) PrintServerDecisions(client.get(), report);
    }
    if (!s.ok()) {
      std::fprintf(stderr, "fiohist push: %s\n", s.message().c_str());
      return kExitError;
    }
    s = EsSender::Create(client.get(), bulk, &sender);
    if (!s.ok()) {
      std::fprintf(stderr, "fiohist push: %s\n", s.message().c_str());
      return kExitError;
    }
    // Documents are computed while earlier batches are on the wire.
    consume = [&](BulkAction a) { return sender->queue().Add(std::move(a)); };
  } else {
    if (out_dir.empty()) out_dir = "fiohist-out/" + run;
    writer = std::make_unique<NdjsonDirWriter>(out_dir);
    s = writer->Open();
    if (!s.ok()) {
      std::fprintf(stderr, "fiohist push: %s\n", s.message().c_str());
      return kExitError;
    }
    consume = [&](BulkAction a) { return writer->Add(a); };
  }

  DocumentSink documents(conn.index_prefix, meta, consume);
  SummarySink summary_sink(stderr, LatencyUnit());
  std::vector<ResultSink*> sinks = {&documents};
  if (!vm["quiet"].as<bool>()) sinks.push_back(&summary_sink);
  FanoutSink sink(sinks);
  RunSummary summary;
  s = RunPipeline(options, logs, &sink, &summary);
  Status finished = sender ? sender->queue().Finish() : writer->Close();
  const BulkStats stats = sender ? sender->queue().stats() : BulkStats();
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist: error: %s\n", s.message().c_str());
    return kExitError;
  }
  if (!finished.ok()) {
    if (sender) PrintBulkErrors(stats);
    std::fprintf(stderr, "fiohist push: %s\n", finished.message().c_str());
    return kExitError;
  }
  const unsigned long long docs = documents.percentile_docs() + documents.bucket_docs() + 1;
  if (sender) {
    PrintBulkErrors(stats);
    std::fprintf(stderr, "fiohist push: run '%s': %llu documents (%llu percentile, %llu bucket, "
                         "1 run); %s\n",
                 run.c_str(), docs, static_cast<unsigned long long>(documents.percentile_docs()),
                 static_cast<unsigned long long>(documents.bucket_docs()),
                 FormatBulkSummary(stats).c_str());
    if (stats.failed > 0) return kExitIncomplete;
  } else {
    std::fprintf(stderr, "fiohist push: run '%s': %llu documents (%llu percentile, %llu bucket, "
                         "1 run) written to %s/ (index them with: fiohist load %s --es-url URL)\n",
                 run.c_str(), docs, static_cast<unsigned long long>(documents.percentile_docs()),
                 static_cast<unsigned long long>(documents.bucket_docs()), out_dir.c_str(),
                 out_dir.c_str());
  }
  return summary.incomplete ? kExitIncomplete : kExitOk;
}

}  // namespace fiohist
