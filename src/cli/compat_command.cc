#include "cli/compat_command.h"

#include <cstdio>

#include "base/status.h"
#include "cli/exit_code.h"
#include "compat/compat_pctiles.h"

namespace fiohist {
namespace {

const char kCompatUsage[] =
    "Usage: fiohist pctiles --compat fio-histo-log-pctiles [options] [--] LOGS...\n"
    "\n"
    "Reproduces fio's tools/hist/fio-histo-log-pctiles.py: the same options, parameter\n"
    "lines and CSV (msec-since-start, samples, percentiles...), with the same numbers.\n"
    "Read and write lines are summed; trim lines and coarsened logs are rejected, as the\n"
    "reference does. Unlike the reference, records of hosts that started before the common\n"
    "window are skipped (not added to the last quanta), and bad options are clear errors.\n"
    "\n"
    "Options (the reference's syntax; --percentiles takes several values, so put '--'\n"
    "before the logs when it comes last):\n"
    "  --fio-version 2|3        fio that wrote the logs (default 3; 2 forces 19 groups)\n"
    "  --bucket-groups N        histogram bucket groups (default 29)\n"
    "  --bucket-bits N          log2 of buckets per group (default 6)\n"
    "  --percentiles P...       percentiles, 0..100 (default 0 50 95 99 100)\n"
    "  --time-quantum N         quantum in whole seconds (default 1)\n"
    "  --log-hist-msec N        log_hist_msec of the job (epoch logs start N ms before\n"
    "                           their first stamp; else one record interval before)\n"
    "  --output-unit usec|msec  unit of the printed latencies (default usec)\n"
    "  -h, --help               this help\n"
    "\n"
    "Errors go to stderr, naming the file and line (the reference prints 'ERROR: ...' on\n"
    "stdout); exit status 1 for bad input, 2 for bad usage.\n";

}  // namespace

int RunCompatPctiles(int argc, const char* const* argv) {
  const char* const prog = "fiohist pctiles --compat fio-histo-log-pctiles";
  compat::PctilesOptions options;
  Status s = compat::ParsePctilesArgs(argc, argv, &options);
  if (!s.ok()) {
    std::fprintf(stderr, "%s: %s (see --help)\n", prog, s.message().c_str());
    return kExitUsage;
  }
  if (options.help) {
    std::fputs(kCompatUsage, stdout);
    return kExitOk;
  }
  compat::PctilesResult result;
  s = compat::ComputePctiles(options, &result);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist: error: %s\n", s.message().c_str());
    return kExitError;
  }
  // The warnings come before any of the output.
  if (result.zero_length > 0) {
    std::fprintf(stderr, "fiohist: warning: %lld zero-length records (a repeated stamp) dropped\n",
                 result.zero_length);
  }
  if (result.no_successor > 0) {
    std::fprintf(stderr,
                 "fiohist: warning: %lld records had no record of their direction within 3 "
                 "lines; they run to the end of the last quantum\n",
                 result.no_successor);
  }
  s = compat::WritePctiles(options, result, stdout);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist: %s\n", s.message().c_str());
    return kExitError;
  }
  return kExitOk;
}

}  // namespace fiohist
