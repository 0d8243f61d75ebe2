// `fiohist delete`.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/bulk_report.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "es/es_admin.h"
#include "es/index_templates.h"

namespace po = boost::program_options;

namespace fiohist {

int RunDeleteCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  BulkOptions bulk;
  std::string run;
  po::options_description desc("delete options");
  AddEsConnectionOptions(&desc, &conn);
  desc.add_options()("run", po::value(&run)->required(), "name of the run to delete");
  po::variables_map vm;
  int rc = ParseCommandLine(argc, argv, "usage: fiohist delete --run NAME [--es-url URL]", desc,
                            nullptr, &vm);
  if (rc >= 0) return rc;
  std::unique_ptr<HttpClient> client = ConnectOrComplain("delete", &conn);
  if (!client) return kExitError;
  EsAdmin admin(client.get(), conn.index_prefix);
  uint64_t before = 0;
  Status st = admin.CountRunDocuments(run, &before);
  if (!st.ok()) {
    std::cerr << "fiohist delete: " << st.message() << "\n";
    return kExitError;
  }
  if (before == 0) {
    std::cerr << "fiohist delete: no documents of run '" << run << "' in "
              << AllIndexNames(conn.index_prefix) << "\n";
    return kExitError;
  }
  DeleteReport report;
  st = admin.DeleteRun(run, bulk, &report);
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

}  // namespace fiohist
