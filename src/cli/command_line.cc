#include "cli/command_line.h"

#include <iostream>
#include <string>

#include "cli/exit_code.h"

namespace po = boost::program_options;

namespace fiohist {

int ParseCommandLine(int argc, const char* const* argv, const char* usage,
                     po::options_description& desc,
                     const po::positional_options_description* positional, po::variables_map* vm) {
  desc.add_options()("help,h", "show this help");
  try {
    po::command_line_parser parser(argc, argv);
    parser.options(desc);
    if (positional != nullptr) parser.positional(*positional);
    po::store(parser.run(), *vm);
    // --help wins over missing required options, so it is checked before notify().
    if (vm->count("help")) {
      std::cout << usage << "\n" << desc << "\n";
      return kExitOk;
    }
    po::notify(*vm);
  } catch (const po::error& e) {
    // The first line of the usage is enough here; --help has the rest.
    const std::string text = usage;
    std::cerr << "fiohist " << (argc > 0 ? argv[0] : "") << ": " << e.what() << "\n"
              << text.substr(0, text.find('\n')) << "\n(--help for the options)\n";
    return kExitUsage;
  }
  return -1;
}

}  // namespace fiohist
