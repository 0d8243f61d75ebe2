// Parsing a subcommand's command line with Boost.Program_options, the same way everywhere.
#pragma once

#include <boost/program_options.hpp>

namespace fiohist {

/// Adds --help to `desc` and parses argv (argv[0] = the subcommand) into `vm`. Prints
/// `usage` and the options on --help, or the error and `usage` on a bad command line.
/// Returns -1 to go on, else the exit code to return (0 after --help, 2 on errors).
int ParseCommandLine(int argc, const char* const* argv, const char* usage,
                     boost::program_options::options_description& desc,
                     const boost::program_options::positional_options_description* positional,
                     boost::program_options::variables_map* vm);

}  // namespace fiohist
