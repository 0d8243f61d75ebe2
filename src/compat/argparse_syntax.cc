#include "compat/argparse_syntax.h"

namespace po = boost::program_options;

namespace fiohist {
namespace compat {

Status ParseArgparseSyntax(int argc, const char* const* argv, const po::options_description& desc,
                           const char* files, po::variables_map* vm) {
  po::positional_options_description positional;
  positional.add(files, -1);
  try {
    // unix_style allows guessing: argparse's unique prefixes of long options.
    po::store(po::command_line_parser(argc, argv)
                  .options(desc)
                  .positional(positional)
                  .style(po::command_line_style::unix_style)
                  .run(),
              *vm);
    po::notify(*vm);
  } catch (const po::error& e) {
    return Status::Error(e.what());
  }
  return Status();
}

}  // namespace compat
}  // namespace fiohist
