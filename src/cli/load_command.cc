// `fiohist load`.
#include <rapidjson/document.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <set>

#include "base/progress_meter.h"
#include "cli/bulk_report.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "es/es_sender.h"
#include "es/index_setup.h"
#include "es/index_templates.h"
#include "es/ndjson_dir.h"
#include "es/run_catalog.h"
#include "output/bucket_form_chooser.h"
#include "output/hist_code.h"

namespace po = boost::program_options;

namespace fiohist {
namespace {

/// The `run` of a document's source (its first "run" key: the run's meta comes before
/// any other field that could hold one); false when it has none.
bool LoadedDocumentRun(const std::string& source, std::string* run) {
  const size_t key = source.find("\"run\":\"");
  if (key == std::string::npos) return false;
  const size_t open = key + 6;
  size_t close = open + 1;
  while (close < source.size() && source[close] != '"') close += source[close] == '\\' ? 2 : 1;
  if (close >= source.size()) return false;
  rapidjson::Document d;
  const std::string text = "[" + source.substr(open, close + 1 - open) + "]";
  d.Parse(text.c_str());
  if (d.HasParseError() || !d.IsArray() || d.Empty() || !d[0].IsString()) return false;
  run->assign(d[0].GetString(), d[0].GetStringLength());
  return true;
}

/// Files hold one bucket document per direction (bucket_version 2): a run stored by a
/// direct push with one per job and quantum (kMergedBucketVersion) has other ids, so it is
/// deleted before the files' documents of it go in (read-back would count both).
Status DeleteMergedRun(HttpClient* client, const std::string& prefix, const std::string& run,
                       const BulkOptions& bulk) {
  RunCatalog catalog(client, prefix);
  int version = 0;
  Status s = catalog.RunBucketVersion(run, &version);
  if (!s.ok() || version != kMergedBucketVersion) return s;
  std::fprintf(stderr,
               "fiohist load: run '%s' is stored with one bucket document per job and quantum "
               "(bucket_version %d; the files hold one per direction): deleting it before "
               "loading it\n",
               run.c_str(), version);
  DeleteReport deleted;
  return catalog.DeleteRun(run, bulk, &deleted);
}

}  // namespace

int RunLoadCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  BulkOptions bulk;
  std::string dir, mappings;
  bool no_setup = false, quiet = false;
  po::options_description desc("load options");
  AddEsConnectionOptions(&desc, &conn);
  AddBulkOptions(&desc, &bulk);
  // clang-format off
  desc.add_options()
      ("dir", po::value(&dir)->required(), "directory of bulk-*.ndjson files")
      ("mappings", po::value(&mappings), "folder of the index templates")
      ("no-setup", po::bool_switch(&no_setup), "do not install the index templates first")
      ("quiet", po::bool_switch(&quiet), "no progress line on stderr (errors still go there)");
  // clang-format on
  po::positional_options_description positional;
  positional.add("dir", 1);
  po::variables_map vm;
  int rc = ParseCommandLine(
      argc, argv,
      "usage: fiohist load DIR [--es-url URL]\n"
      "Documents go to PREFIX-pctiles/-buckets/-runs/-stalls (and the month the files "
      "name) whatever prefix the files name. Bucket documents go in the form "
      "a direct push to this server writes (the files of push --out hold both).",
      desc, &positional, &vm);
  if (rc >= 0) return rc;
  if (Status checked = CheckBulkOptions(bulk); !checked.ok()) {
    std::cerr << "fiohist load: " << checked.message() << "\n";
    return kExitUsage;
  }
  std::unique_ptr<HttpClient> client = ConnectOrComplain("load", &conn);
  if (!client) return kExitError;
  // The files carry both forms' counts (BucketForm::kFile): what goes is what a direct push
  // to this server writes, chosen by its templates.
  bool histogram = true;
  {
    IndexSetup setup(client.get(), conn.index_prefix);
    Status st;
    if (!no_setup) {
      TemplateReport report;
      st = setup.InstallTemplates(mappings, IndexSettings(), &report);
      if (st.ok()) PrintServerDecisions(client.get(), report);
      histogram = report.histogram_supported;
    } else {
      st = setup.BucketsTemplateHasHistogram(&histogram);
    }
    if (!st.ok()) {
      std::cerr << "fiohist load: " << st.message() << "\n";
      return kExitError;
    }
  }
  BucketFormChooser chooser(histogram);
  const std::string buckets = IndexBaseName(conn.index_prefix, DocKind::kBuckets);
  std::unique_ptr<EsSender> sender;
  const bool progress = ProgressMeter::WantedOnStderr(quiet);
  Status st = EsSender::Create(
      client.get(), bulk, progress ? MakeBulkProgress() : std::function<void(const BulkStats&)>(),
      &sender);
  if (!st.ok()) {
    std::cerr << "fiohist load: " << st.message() << "\n";
    return kExitError;
  }
  // The next files are read while earlier batches are on the wire.
  std::set<std::string> runs_seen;
  std::string run;
  st = ReadNdjsonDir(dir, [&](BulkAction action) {
    action.index = RewriteIndexPrefix(action.index, conn.index_prefix);
    if (LoadedDocumentRun(action.source, &run) && runs_seen.insert(run).second) {
      Status deleted = DeleteMergedRun(client.get(), conn.index_prefix, run, bulk);
      if (!deleted.ok()) return deleted;
    }
    if (action.index.compare(0, buckets.size(), buckets) == 0) {
      Status chosen = chooser.Choose(&action.source);
      if (!chosen.ok()) {
        return Status::Error("bucket document " + action.id + " in " + dir + ": " +
                             chosen.message());
      }
    }
    return sender->queue().Add(std::move(action));
  });
  Status finished = sender->queue().Finish();
  if (progress) std::fputc('\n', stderr);  // ends the progress line
  const BulkStats stats = sender->queue().stats();
  PrintBulkErrors(stats);
  std::cout << FormatBulkSummary(stats) << "\n";
  if (!st.ok()) {
    std::cerr << "fiohist load: " << st.message() << "\n";
    return kExitError;
  }
  if (!finished.ok()) {
    std::cerr << "fiohist load: " << finished.message() << "\n";
    return kExitError;
  }
  return stats.failed == 0 ? kExitOk : kExitIncomplete;
}

}  // namespace fiohist
