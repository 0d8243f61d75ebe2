#include "cli/compat_command.h"

#include <cstdio>

#include "base/status.h"
#include "cli/exit_code.h"
#include "compat/compat_pctiles.h"
#include "compat/fiologparser_hist.h"

#include <string>

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

const char kFlhUsage[] =
    "Usage: fiohist pctiles --compat fiologparser_hist [options] [--] LOGS...\n"
    "\n"
    "Reproduces fio's fiologparser_hist.py (Debian: /usr/share/doc/fio/fiologparser_hist.py.gz):\n"
    "the same options and CSV (end-time, samples, min, avg, median, percentiles, max), byte\n"
    "for byte, its quirks included (docs/fiologparser-hist.md lists them). Unlike the script,\n"
    "bad options, empty files and malformed lines are clear errors before any output.\n"
    "\n"
    "Options (the script's syntax; unique prefixes work):\n"
    "  -i, --interval MS       interval width in ms (default: --job-file's log_hist_msec,\n"
    "                          else 1000)\n"
    "  --noweight              whole records to the interval after their stamp\n"
    "  -d, --divisor N         divide every value by N (N > 1: min and max as floats too)\n"
    "  --decimals N            digits after the point (default 3)\n"
    "  --percentiles LIST      ',' or ':' separated (default 90:95:99); median always\n"
    "  --directions [rwtm]...  rows per direction (m: mixed) with a dir column\n"
    "  --usbin                 bucket values in us (fio < 2.99), not ns\n"
    "  --group_nr N            FIO_IO_U_PLAT_GROUP_NR of the fio that wrote the logs (29)\n"
    "  --max_latency S         seconds of records read ahead of an interval (default 20)\n"
    "  --buff_size N           rows read at a time (accepted; no effect on the output)\n"
    "  --job-file FILE         fio job file: its log_hist_msec is the interval when no -i\n"
    "  --warn                  accepted (the script's only warning is about empty files,\n"
    "                          which are errors here)\n"
    "  -h, --help              this help\n"
    "\n"
    "Exit status 1 for bad input (file and line named), 2 for bad usage.\n";

}  // namespace

int RefuseNonFlhOptions(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") break;
    if (a.size() < 2 || a[0] != '-') continue;
    if (a.find_first_not_of("-0123456789.eE") == std::string::npos) continue;  // a number
    bool ok;
    std::string name;
    if (a[1] == '-') {
      name = a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2);
      ok = compat::IsFlhOption(name);
      name = "--" + name;
    } else {
      ok = a[1] == 'i' || a[1] == 'd' || a[1] == 'h';
      name = a.substr(0, 2);
    }
    if (!ok) {
      std::fprintf(stderr,
                   "fiohist pctiles: %s is not an option of fiologparser_hist.py: with --compat "
                   "fiologparser_hist only the script's options are taken (fiohist's own "
                   "options cannot be combined with it; see --compat fiologparser_hist --help)\n",
                   name.c_str());
      return kExitUsage;
    }
  }
  return -1;
}

int RunCompatFiologparserHist(int argc, const char* const* argv) {
  const char* const prog = "fiohist pctiles --compat fiologparser_hist";
  if (int rc = RefuseNonFlhOptions(argc, argv); rc >= 0) return rc;
  compat::FlhOptions options;
  Status s = compat::ParseFlhArgs(argc, argv, &options);
  if (s.ok() && !options.help) s = compat::ResolveInterval(&options);
  if (!s.ok()) {
    std::fprintf(stderr, "%s: %s (see --help)\n", prog, s.message().c_str());
    return kExitUsage;
  }
  if (options.help) {
    std::fputs(kFlhUsage, stdout);
    return kExitOk;
  }
  s = compat::RunFiologparserHist(options, stdout);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist: error: %s\n", s.message().c_str());
    return kExitError;
  }
  return kExitOk;
}

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
