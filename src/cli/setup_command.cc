// `fiohist setup`.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "es/index_setup.h"

namespace po = boost::program_options;

namespace fiohist {

int RunSetupCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  std::string mappings;
  PartitionOptions partition;
  po::options_description desc("setup options");
  AddEsConnectionOptions(&desc, &conn);
  AddPartitionOptions(&desc, &partition);
  desc.add_options()("mappings", po::value(&mappings),
                     "folder of the index templates (default: the installed/source mappings/)");
  po::variables_map vm;
  int rc = ParseCommandLine(argc, argv,
                            "usage: fiohist setup [--es-url URL]... [--mappings DIR] [--shards N] "
                            "[--replicas N|auto]\n"
                            "Installs the index templates; the monthly indices are created by "
                            "push.",
                            desc, nullptr, &vm);
  if (rc >= 0) return rc;
  IndexSettings settings;
  if (Status checked = CheckPartitionOptions(vm, partition, &settings); !checked.ok()) {
    std::cerr << "fiohist setup: " << checked.message() << "\n";
    return kExitUsage;
  }
  std::unique_ptr<HttpClient> client = ConnectOrComplain("setup", &conn);
  if (!client) return kExitError;
  IndexSetup setup(client.get(), conn.index_prefix);
  TemplateReport report;
  Status st = setup.InstallTemplates(mappings, settings, &report);
  if (!st.ok()) {
    std::cerr << "fiohist setup: " << st.message() << "\n";
    return kExitError;
  }
  PrintServerDecisions(client.get(), report);
  std::cout << "installed templates:";
  for (const std::string& name : report.installed) std::cout << " " << name;
  std::cout << "\nhistogram field type: " << (report.histogram_supported ? "yes" : "no") << "\n";
  if (!report.updated.empty()) {
    std::cout << "fields of this fiohist added to existing indices:";
    for (const std::string& name : report.updated) std::cout << " " << name;
    std::cout << "\n";
  }
  return kExitOk;
}

}  // namespace fiohist
