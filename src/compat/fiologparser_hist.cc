#include "compat/fiologparser_hist.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <queue>

#include "base/file_write.h"
#include "compat/fiologparser_hist_parts.h"
#include "compat/fiologparser_hist_weighted.h"

namespace fiohist {
namespace compat {
namespace {

// fio's stat.h layout the script hard-codes: 64 buckets per group (FIO_IO_U_PLAT_BITS 6).
constexpr int kPlatBits = 6;
constexpr int64_t kPlatVal = int64_t{1} << kPlatBits;

// The value at `edge` (0: lower, 1: upper) of fine bucket `idx` (fio's plat_idx_to_val).
double PlatIdxToVal(int64_t idx, double edge) {
  if (idx < (kPlatVal << 1)) return static_cast<double>(idx);
  const int64_t error_bits = (idx >> kPlatBits) - 1;
  const int64_t base = int64_t{1} << (error_bits + kPlatBits);
  const int64_t k = idx % kPlatVal;
  return static_cast<double>(base) +
         (static_cast<double>(k) + edge) * static_cast<double>(int64_t{1} << error_bits);
}

// --noweight (output_interval_data): a record goes whole to the first multiple E of the
// interval with T + 10 < E, and not before the record before it in its file; a record
// stamped 0 stops its file (the script's `if ts` treats 0 as no record).
Status RunUnweighted(const FlhOptions& options, FlhMergedLogs* logs, size_t files,
                     FlhPrinter* printer) {
  const int64_t interval = options.interval_ms;
  const size_t n = printer->bins->mid.size();
  struct Sums {
    std::vector<double> hist[kSlots];
  };
  std::map<int64_t, Sums> pending;
  std::vector<int64_t> last_end(files, 0);
  std::vector<bool> stopped(files, false);
  auto flush_before = [&](int64_t limit) {
    while (!pending.empty() && pending.begin()->first < limit) {
      const int64_t end = pending.begin()->first;
      Sums& sums = pending.begin()->second;
      for (int sl = 0; sl < kSlots; ++sl) {
        const std::vector<double>& h = sums.hist[sl];
        if (!printer->printed[sl] || h.empty()) continue;
        int64_t total = 0;
        size_t lo = n, hi = 0;
        for (size_t j = 0; j < n; ++j) {
          if (h[j] == 0) continue;
          total += static_cast<int64_t>(h[j]);
          lo = std::min(lo, j);
          hi = j;
        }
        if (total <= 0) continue;
        printer->Row(end, sl, total, printer->bins->mid[lo], printer->bins->mid[hi], h, true);
      }
      pending.erase(pending.begin());
    }
  };
  LogRecord record;
  size_t file = 0;
  while (logs->Next(&record, &file)) {
    if (stopped[file]) continue;
    if (record.time_ms == 0) {
      stopped[file] = true;
      continue;
    }
    const int64_t own = ((record.time_ms + 10) / interval + 1) * interval;
    const int64_t end = std::max(own, last_end[file]);
    last_end[file] = end;
    Sums& sums = pending[end];
    for (int sl : {static_cast<int>(kMixed), SlotOf(record.direction)}) {
      if (!printer->printed[sl]) continue;
      std::vector<double>& h = sums.hist[sl];
      if (h.empty()) h.assign(n, 0.0);
      // Counts stay exact as doubles below 2^53.
      for (const auto& [bucket, count] : record.counts) h[bucket] += static_cast<double>(count);
    }
    // No later record of any file can go before the interval of this stamp.
    flush_before(((record.time_ms + 10) / interval + 1) * interval);
  }
  if (!logs->status().ok()) return logs->status();
  flush_before(std::numeric_limits<int64_t>::max());
  return Status();
}

}  // namespace

Status MakeFlhBins(int64_t group_nr, int columns, FlhBins* bins) {
  std::vector<int64_t> counts;
  if (group_nr < 19 || group_nr > 26) {
    counts.push_back(group_nr * kPlatVal);
  } else {
    for (int64_t c = 1216; c <= 1664; c += 64) counts.push_back(c);
  }
  // The first fit by coarseness 0..8, then by count (the script's np.where order).
  int64_t max_cols = 0;
  for (int x = 0; x <= 8 && max_cols == 0; ++x) {
    for (int64_t c : counts) {
      if (c % (int64_t{1} << x) == 0 && columns > 0 && c / (int64_t{1} << x) == columns) {
        max_cols = c;
        break;
      }
    }
  }
  if (max_cols == 0) {
    std::string known;
    for (int64_t c : counts) known += (known.empty() ? "" : ", ") + std::to_string(c);
    return Status::Error(std::to_string(columns) +
                         " bucket counts per line fit no histogram of --group_nr " +
                         std::to_string(group_nr) + " (" + known +
                         " buckets, or those halved up to 8 times by log_hist_coarseness)");
  }
  int coarseness = 0;
  while ((int64_t{columns} << (coarseness + 1)) <= max_cols) ++coarseness;
  const int64_t stride = int64_t{1} << coarseness;
  bins->mid.resize(static_cast<size_t>(columns));
  bins->lower.resize(static_cast<size_t>(columns));
  bins->upper.resize(static_cast<size_t>(columns));
  for (int64_t j = 0; j < columns; ++j) {
    // plat_idx_to_val_coarse: the lower edge of the coarse bucket's first fine bucket and
    // the upper edge of the fine bucket right after it (half a bucket high, kept).
    const double lower = PlatIdxToVal(j * stride, 0.0);
    const double upper = PlatIdxToVal(j * stride + stride, 1.0);
    bins->lower[static_cast<size_t>(j)] = lower;
    bins->upper[static_cast<size_t>(j)] = upper;
    bins->mid[static_cast<size_t>(j)] = lower + (upper - lower) * 0.5;
  }
  return Status();
}

Status RunFiologparserHist(const FlhOptions& options, std::FILE* out) {
  FlhMergedLogs logs;
  Status s = logs.Open(options.files);
  if (!s.ok()) return s;
  if (logs.FirstColumns() == 0) {
    return Status::InputError(options.files.front(), 0,
                              "no records (fiologparser_hist.py reads the bucket count from "
                              "the first line of the first log)");
  }
  FlhBins bins;
  s = MakeFlhBins(options.group_nr, logs.FirstColumns(), &bins);
  if (!s.ok()) return Status::InputError(options.files.front(), 1, s.message());
  std::string text;
  FlhPrinter printer;
  printer.options = &options;
  printer.bins = &bins;
  printer.out = &text;
  const std::string& d = options.directions;
  printer.dir_column = !d.empty();
  printer.printed[kMixed] = d.empty() || d.find('m') != std::string::npos;
  printer.printed[kReadSlot] = d.find('r') != std::string::npos;
  printer.printed[kWriteSlot] = d.find('w') != std::string::npos;
  printer.printed[kTrimSlot] = d.find('t') != std::string::npos;
  text = printer.dir_column ? "end-time, dir, samples, min, avg, median"
                            : "end-time, samples, min, avg, median";
  for (const std::string& p : options.percentile_texts) text += ", " + p + "%";
  text += ", max\n";
  if (options.noweight) {
    s = RunUnweighted(options, &logs, options.files.size(), &printer);
  } else {
    s = RunFlhWeighted(options, bins, &logs, &printer);
  }
  if (!s.ok()) return s;
  s = WriteText(out, text);
  return s.ok() ? FlushText(out) : s;
}

}  // namespace compat
}  // namespace fiohist
