// The command line of fio's fiologparser_hist.py: its options, their defaults and checks,
// and the fio job file it may read the interval from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace fiohist {
namespace compat {

/// The script's options, with its defaults.
struct FlhOptions {
  /// Log files in command-line order (a file given twice is read twice, as the script does).
  std::vector<std::string> files;
  /// --buff_size: rows pandas reads at a time (no effect on the output; must be >= 1).
  int64_t buff_size = 10000;
  /// --max_latency: seconds of records read ahead of an interval's end.
  double max_latency_s = 20.0;
  /// -i/--interval in ms; 0: not given (then --job-file's log_hist_msec, else 1000).
  int64_t interval_ms = 0;
  /// --noweight: whole records to the interval after their stamp.
  bool noweight = false;
  /// -d/--divisor: every value is divided by it; > 1 prints min and max as floats.
  int64_t divisor = 1;
  /// --decimals: digits after the point.
  int decimals = 3;
  /// --warn: warnings to stderr (the script's only one concerns empty files).
  bool warn = false;
  /// --group_nr: FIO_IO_U_PLAT_GROUP_NR, to recognise the bucket count.
  int64_t group_nr = 29;
  /// --job-file: the fio job file, read for log_hist_msec when -i is not given.
  std::string job_file;
  /// --percentiles split at ',' and ':', as given: the header shows these texts.
  std::vector<std::string> percentile_texts = {"90", "95", "99"};
  /// The percentiles computed: 50 (the median column), then those of --percentiles.
  std::vector<double> percentiles = {50.0, 90.0, 95.0, 99.0};
  /// --usbin: bucket values are microseconds (fio < 2.99), not nanoseconds.
  bool usbin = false;
  /// --directions, lowercased; empty: the mixed rows only, without a dir column.
  std::string directions;
  /// -h/--help was given: print the usage and nothing else.
  bool help = false;
};

/// Parses the script's argparse syntax (`--interval=1000`, `-i 1000`, unique prefixes such
/// as `--inter`) and checks every value before any file is read. Bad usage is an error.
Status ParseFlhArgs(int argc, const char* const* argv, FlhOptions* options);

/// True when `name` (without leading dashes) is one of the script's long option names, or
/// an abbreviation argparse would accept for exactly one of them.
bool IsFlhOption(const std::string& name);

/// The interval the script uses: -i, else the last log_hist_msec of the job file's sections
/// (configparser syntax: `key = value` or `key: value`, `#`/`;` comment lines; a duplicate
/// section or option, or a line before any section, is an error there and here), else 1000.
Status ResolveInterval(FlhOptions* options);

}  // namespace compat
}  // namespace fiohist
