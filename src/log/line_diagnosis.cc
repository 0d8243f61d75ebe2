#include "log/line_diagnosis.h"

#include <cstdint>

#include "log/per_io_line.h"

namespace fiohist {

std::string ExplainBadHistLine(std::string_view line, const std::string& what) {
  uint64_t f[kPerIoMaxColumns];
  int n = 0;
  std::string ignored;
  if (!SplitPerIoLine(line, f, &n, &ignored) || n < 4) return what;
  // A user-space address (0x55..., 0x7f...) where the direction belongs: fio's bug.
  if (n == 5 && f[1] > (1ull << 32) && f[2] == 0 && f[4] == 0) {
    return what +
           ": this is what fio (3.33, 3.42) writes for a histogram log with log_compression "
           "set: the memory address of its histogram (" +
           std::to_string(f[1]) +
           ") instead of the bucket counts, so the histograms are lost; run fio without "
           "log_compression (log_store_compressed and gzip of the finished logs are fine)";
  }
  if (n > 8 || f[2] > 2) return what;
  if (f[3] == 0) {
    return what +
           ": a latency log averaged over windows (fio's log_avg_msec > 0: block size 0, "
           "one line per window)? No percentile can come from window means; run fio with "
           "write_hist_log, or write_lat_log and log_avg_msec=0";
  }
  return what +
         ": a per-I/O latency log (write_lat_log)? fiohist reads those by fio's names, "
         "NAME_clat.N.log, NAME_lat.N.log, NAME_slat.N.log";
}

}  // namespace fiohist
