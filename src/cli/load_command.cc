// `fiohist load`.
#include <rapidjson/document.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <vector>

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
#include "output/run_document.h"

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

/// The bucket_version a document of the files shows, 0 when it shows none: a bucket
/// document holds a job's window of quanta (kWindowBucketVersion: push --out
/// --bucket-form compact), or its records are an object by direction in one per job and
/// quantum (kMergedBucketVersion), else per direction (kBucketVersion); a run document
/// says it (absent: 1). The files are fiohist's own output, so the keys are found by
/// their text.
int FilesBucketVersion(const std::string& index, const std::string& source,
                       const std::string& buckets, const std::string& runs) {
  if (index.compare(0, buckets.size(), buckets) == 0) {
    if (source.find("\"quanta\":[") != std::string::npos) return kWindowBucketVersion;
    return source.find("\"records\":{") != std::string::npos ? kMergedBucketVersion
                                                             : kBucketVersion;
  }
  if (index.compare(0, runs.size(), runs) != 0) return 0;
  const size_t key = source.find("\"bucket_version\":");
  return key == std::string::npos ? 1 : std::atoi(source.c_str() + key + 17);
}

/// The pctiles_version of a percentile document of the files: kPctilesVersion where it says
/// so, else 1 (one per direction); 0 for another kind of document.
int FilesPctilesVersion(const std::string& index, const std::string& source,
                        const std::string& pctiles) {
  if (index.compare(0, pctiles.size(), pctiles) != 0) return 0;
  return source.find("\"pctiles_version\":") != std::string::npos ? kPctilesVersion : 1;
}

/// A run stored with another bucket_version or pctiles_version than the files' has other
/// document ids, so it is deleted before the files' documents of it go in: read-back would
/// count both.
Status DeleteRunOfOtherShape(HttpClient* client, const std::string& prefix, const std::string& run,
                             int files_version, int files_pctiles, const BulkOptions& bulk) {
  RunCatalog catalog(client, prefix);
  // Documents of another version have other ids: the stored run goes before the files load.
  const auto delete_run = [&](const char* field, int stored, int files, const char* kind) {
    std::fprintf(stderr,
                 "fiohist load: run '%s' is stored with %s %d, the files hold %d (other %s "
                 "document ids): deleting it before loading it\n",
                 run.c_str(), field, stored, files, kind);
    DeleteReport deleted;
    return catalog.DeleteRun(run, bulk, &deleted);
  };
  int version = 0;
  Status s = catalog.RunBucketVersion(run, &version);
  if (s.ok() && version > 0 && files_pctiles > 0) {
    // Percentile documents of the other layout have other ids as well (pctiles_version).
    int pctiles = 0;
    s = catalog.RunPctilesVersion(run, &pctiles);
    if (s.ok() && pctiles != files_pctiles) {
      return delete_run("pctiles_version", pctiles, files_pctiles, "percentile");
    }
  }
  if (!s.ok() || version == 0 || version == files_version) return s;
  return delete_run("bucket_version", version, files_version, "bucket");
}

/// The most documents of one run held back while the files have not yet said its
/// bucket_version (its first quantum's percentile documents come before its first bucket
/// document); beyond it the run is loaded without the check.
constexpr size_t kMaxHeldDocuments = 200000;

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
  // The next files are read while earlier batches are on the wire. A run's documents wait
  // until the files show its bucket_version (DeleteRunOfOtherShape).
  const std::string runs = IndexBaseName(conn.index_prefix, DocKind::kRun);
  const std::string pctiles_index = IndexBaseName(conn.index_prefix, DocKind::kPercentiles);
  std::set<std::string> decided;
  std::map<std::string, std::vector<BulkAction>> held;
  auto release = [&](const std::string& of) {
    Status s;
    for (BulkAction& a : held[of]) {
      if (s.ok()) s = sender->queue().Add(std::move(a));
    }
    held.erase(of);
    return s;
  };
  std::string run;
  st = ReadNdjsonDir(dir, [&](BulkAction action) {
    action.index = RewriteIndexPrefix(action.index, conn.index_prefix);
    if (LoadedDocumentRun(action.source, &run) && decided.count(run) == 0) {
      const int version = FilesBucketVersion(action.index, action.source, buckets, runs);
      if (version == 0 && held[run].size() < kMaxHeldDocuments) {
        held[run].push_back(std::move(action));
        return Status();
      }
      decided.insert(run);
      // The percentile layout of the files: their run's first quantum's percentile
      // documents come first (held, or this one).
      int pctiles_layout = FilesPctilesVersion(action.index, action.source, pctiles_index);
      for (const BulkAction& h : held[run]) {
        if (pctiles_layout == 0)
          pctiles_layout = FilesPctilesVersion(h.index, h.source, pctiles_index);
      }
      Status s = version == 0 ? Status()
                              : DeleteRunOfOtherShape(client.get(), conn.index_prefix, run, version,
                                                      pctiles_layout, bulk);
      if (s.ok()) s = release(run);
      if (!s.ok()) return s;
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
  // Runs whose files hold neither a bucket nor a run document: nothing to double count.
  while (st.ok() && !held.empty()) st = release(held.begin()->first);
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
