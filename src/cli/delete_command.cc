// `fiohist delete`: one run (--run), or retention (--older-than AGE [--dry-run]).
#include <boost/program_options.hpp>
#include <algorithm>
#include <chrono>
#include <iostream>

#include "cli/bulk_report.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "es/change_point_index.h"
#include "es/index_templates.h"
#include "es/retention.h"
#include "es/run_catalog.h"

namespace po = boost::program_options;

namespace fiohist {

namespace {

const char kDeleteUsage[] =
    "usage: fiohist delete --run NAME [--es-url URL]...\n"
    "       fiohist delete --older-than AGE [--dry-run] [--es-url URL]...\n"
    "--run deletes one run's documents in every index of the prefix. --older-than (e.g. 90d;\n"
    "units s, m (minutes), h, d, w) removes every run that ended more than AGE ago: whole\n"
    "monthly indices where all their runs did, run by run elsewhere (the month holding the\n"
    "cutoff, indices of before partitioning). --dry-run lists what would go. Change points\n"
    "and history points (history --annotate) go with the run where they start: --run deletes\n"
    "those of the run, --older-than those whose run started before the cutoff.";

// Says how deleting change points went (`st`, `n` of them); the exit code.
int DeleteChanges(const Status& st, uint64_t n, bool dry_run) {
  if (!st.ok()) {
    std::cerr << "fiohist delete: " << st.message() << "\n";
    return kExitIncomplete;
  }
  if (n > 0) {
    std::cout << (dry_run ? "would delete " : "deleted ") << n
              << " change points and history points\n";
  }
  return kExitOk;
}

// Deletes one run; the exit code.
int DeleteOneRun(RunCatalog* catalog, const std::string& run, const std::string& prefix,
                 const BulkOptions& bulk) {
  uint64_t before = 0;
  Status st = catalog->CountRunDocuments(run, &before);
  if (!st.ok()) {
    std::cerr << "fiohist delete: " << st.message() << "\n";
    return kExitError;
  }
  if (before == 0) {
    std::cerr << "fiohist delete: no documents of run '" << run << "' in "
              << AllIndexPatterns(prefix) << "\n";
    return kExitError;
  }
  DeleteReport report;
  st = catalog->DeleteRun(run, bulk, &report);
  BulkStats shown;
  shown.errors = report.errors;
  shown.failed = report.failed;
  PrintBulkErrors(shown);
  std::cout << "deleted " << report.deleted << ", retried " << report.retried << ", failed "
            << report.failed << " ("
            << (report.used_delete_by_query ? "_delete_by_query" : "search + bulk delete") << ")\n";
  if (!st.ok()) {
    std::cerr << "fiohist delete: " << st.message() << "\n";
    return kExitError;
  }
  if (report.remaining > 0) {
    std::cerr << "fiohist delete: " << report.remaining << " documents of run '" << run
              << "' remain\n";
    return kExitIncomplete;
  }
  return report.failed == 0 ? kExitOk : kExitIncomplete;
}

// Retention: plans, prints the plan, applies it unless `dry_run`; the exit code.
int DeleteOlderThan(Retention* retention, int64_t cutoff_ms, bool dry_run,
                    const BulkOptions& bulk) {
  RetentionPlan plan;
  Status st = retention->Plan(cutoff_ms, &plan);
  if (!st.ok()) {
    std::cerr << "fiohist delete: " << st.message() << "\n";
    return kExitError;
  }
  const char* verb = dry_run ? "would drop" : "dropping";
  for (const std::string& index : plan.drop_indices) std::cout << verb << " index " << index << "\n";
  verb = dry_run ? "would delete" : "deleting";
  for (const StoredRun& r : plan.delete_runs) {
    std::cout << verb << " run " << r.run << " (ended " << r.end << ", " << r.documents
              << " documents)\n";
  }
  if (plan.drop_indices.empty() && plan.delete_runs.empty()) {
    std::cout << "nothing ended before the cutoff\n";
    return kExitOk;
  }
  if (dry_run) return kExitOk;
  uint64_t deleted = 0;
  st = retention->Apply(plan, bulk, &deleted);
  std::cout << "dropped " << plan.drop_indices.size() << " indices (" << plan.drop_months.size()
            << " months), deleted " << plan.delete_runs.size() << " runs (" << deleted
            << " documents)\n";
  if (!st.ok()) {
    std::cerr << "fiohist delete: " << st.message() << "\n";
    return kExitIncomplete;
  }
  return kExitOk;
}

}  // namespace

int RunDeleteCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  BulkOptions bulk;
  std::string run, older_than;
  bool dry_run = false;
  po::options_description desc("delete options");
  AddEsConnectionOptions(&desc, &conn);
  // clang-format off
  desc.add_options()
      ("run", po::value(&run), "name of the run to delete")
      ("older-than", po::value(&older_than),
       "delete every run that ended more than AGE ago (e.g. 90d; s, m, h, d, w)")
      ("dry-run", po::bool_switch(&dry_run), "with --older-than: list, delete nothing");
  // clang-format on
  po::variables_map vm;
  int rc = ParseCommandLine(argc, argv, kDeleteUsage, desc, nullptr, &vm);
  if (rc >= 0) return rc;
  // Everything that can be judged without the cluster is judged before any request.
  int64_t age_s = 0;
  if (run.empty() == older_than.empty()) {
    std::cerr << "fiohist delete: give exactly one of --run NAME and --older-than AGE\n";
    return kExitUsage;
  }
  if (!older_than.empty()) {
    if (Status st = ParseAge("--older-than", older_than, &age_s); !st.ok()) {
      std::cerr << "fiohist delete: " << st.message() << "\n";
      return kExitUsage;
    }
  } else if (dry_run) {
    std::cerr << "fiohist delete: --dry-run goes with --older-than\n";
    return kExitUsage;
  }
  std::unique_ptr<HttpClient> client = ConnectOrComplain("delete", &conn);
  if (!client) return kExitError;
  uint64_t changes = 0;
  if (!run.empty()) {
    RunCatalog catalog(client.get(), conn.index_prefix);
    rc = DeleteOneRun(&catalog, run, conn.index_prefix, bulk);
    if (rc == kExitError) return rc;
    Status st = DeleteChangePointsOfRun(client.get(), conn.index_prefix, run, &changes);
    return std::max(rc, DeleteChanges(st, changes, false));
  }
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  const int64_t cutoff_ms = now_ms - age_s * 1000;
  Retention retention(client.get(), conn.index_prefix);
  rc = DeleteOlderThan(&retention, cutoff_ms, dry_run, bulk);
  if (rc == kExitError) return rc;
  Status st =
      DeleteChangePointsBefore(client.get(), conn.index_prefix, cutoff_ms, dry_run, &changes);
  return std::max(rc, DeleteChanges(st, changes, dry_run));
}

}  // namespace fiohist
