// Compatibility mode: fio's fiologparser_hist.py (Debian: /usr/share/doc/fio/), reproduced
// to the byte, quirks included, because scripts in labs parse its CSV.
//
// Its model, kept on purpose (docs/fiologparser-hist.md lists each quirk):
// - a bucket's value is the mean of its lower edge and the NEXT bucket's upper edge;
// - weighted mode: intervals [kI, (k+1)I] from 0 (or, for logs that start late such as
//   epoch logs, from the first stamp minus --max_latency, rounded down to I); a bucket of
//   value v in a record ending at T is spread evenly over [T - I/2 - v, T]; `samples`
//   counts every I/O of a record bucket that starts before the interval's end;
//   percentiles interpolate a mid-point CDF over all buckets (np.interp);
// - --noweight: a record goes whole to the first multiple E of I with T + 10 < E;
// - min and max: edges of the neighbouring buckets (weighted), the bucket values
//   (--noweight); sums in numpy's pairwise order.
// Its crashes are not kept: bad options, empty files and malformed lines are clear errors
// before any output.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "base/status.h"
#include "compat/fiologparser_hist_args.h"

namespace fiohist {
namespace compat {

/// Bucket values of a log with `columns` buckets: the mean value and the lower and upper
/// edges the script gives each, in bucket units (ns, or us with --usbin).
struct FlhBins {
  std::vector<double> mid;
  std::vector<double> lower;
  std::vector<double> upper;
};

/// The script's bucket values for `columns` buckets: `group_nr` names the uncoarsened
/// count (19..26 allow 1216..1664), the coarseness is the power of 2 that divides it down
/// to `columns`. Fails, listing the counts it knows, when none fits.
Status MakeFlhBins(int64_t group_nr, int columns, FlhBins* bins);

/// Reads `options.files` (one pass, the logs merged by stamp as the script does) and writes
/// the script's CSV to `out`. The text is held until the end, so an error (a bad line, an
/// unreadable file, differing bucket counts) comes before any output.
Status RunFiologparserHist(const FlhOptions& options, std::FILE* out);

}  // namespace compat
}  // namespace fiohist
