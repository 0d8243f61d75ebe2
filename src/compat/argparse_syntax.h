// The command-line syntax of fio's Python tools (argparse), for the compat drop-ins.
#pragma once

#include <boost/program_options.hpp>

#include "base/status.h"

namespace fiohist {
namespace compat {

/// Parses argv (argv[0], the command name, is skipped) as argparse would for a tool with
/// the options of `desc` and its file list as the positional option `files`: `--opt value`,
/// `--opt=value`, unique prefixes of long options, `-x value`, and `--` before the files.
/// Switches are notified. Bad usage (an unknown or ambiguous option, a missing value) is
/// an error with boost's message.
Status ParseArgparseSyntax(int argc, const char* const* argv,
                           const boost::program_options::options_description& desc,
                           const char* files, boost::program_options::variables_map* vm);

}  // namespace compat
}  // namespace fiohist
