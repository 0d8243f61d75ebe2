// How precisely one run measures a latency percentile or its I/O rate: a block bootstrap
// over consecutive quanta (and over hosts) that re-merges histograms for every resample.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "stats/run_cells.h"

namespace fiohist {

/// A number read off a run: a latency percentile (ns) or the I/O rate (I/Os per second).
struct MetricSpec {
  /// "p50", "p99.9", "iops".
  std::string name;
  bool iops = false;
  /// The percentile, when not iops.
  double percentile = 0;
};

/// Parses "p99.9" or "iops" (also "99.9").
Status ParseMetricSpec(const std::string& text, MetricSpec* spec);

/// How the bootstrap resamples.
struct BootstrapOptions {
  /// Resamples per run.
  int replicates = 1000;
  /// Fixed, so a verdict is reproducible; each run's stream is derived from it and the
  /// run's name and direction (independent of the order runs are given in).
  uint64_t seed = 1;
  /// Quanta per block; 0: chosen from the run's own autocorrelation (AutoBlockLength).
  int block_quanta = 0;
  /// Resample hosts as well: -1 when the run has at least kMinHostsToResample hosts,
  /// 0 never, 1 always.
  int resample_hosts = -1;
};

/// Fewer hosts than this are kept fixed (strata): resampling two hosts says little about
/// the spread of hosts and doubles one of them half of the time.
constexpr int kMinHostsToResample = 4;
/// Fewer blocks than this give no interval: the run is too short to know its noise.
constexpr int kMinBlocks = 5;

/// A run's metrics and how precise they are.
struct RunEstimate {
  /// Per metric: the whole-run value (all kept quanta and hosts merged).
  std::vector<double> value;
  /// Per metric: the bootstrap variance of log(value) (infinite when unknown).
  std::vector<double> log_var;
  /// Per metric: the value lies in fio's clamped last bucket (a lower bound only).
  std::vector<bool> lower_bound;
  double ios = 0;
  int quanta = 0;
  int blocks = 0;
  int block_quanta = 0;
  bool hosts_resampled = false;
  /// Why an interval is missing or weak, for the report ("" if nothing).
  std::string note;
};

/// Estimates `metrics` of `run` and their log-scale variance by a non-overlapping block
/// bootstrap (Carlstein 1986; Künsch 1989 and Politis & Romano 1994 for the moving and
/// stationary variants, Lahiri 2003 for the theory): the kept quanta are cut into B
/// consecutive blocks of about `block_quanta` quanta, and each replicate draws B blocks
/// with replacement (and, when hosts are resampled, the hosts with replacement: a
/// two-stage cluster bootstrap, Davison & Hinkley 1997 ch. 3.8), merges the chosen
/// blocks' histograms and reads the metrics off the merged histogram with the same code
/// as every other statistic (never averaging percentiles). Blocks keep the correlation of
/// neighbouring quanta (a slow second is followed by another); drawing the same blocks for
/// every host keeps the correlation of hosts at one time. Assumes the run is stationary
/// apart from that short-range dependence (cut ramps off first). The variance is scaled
/// by B/(B-1) for the bias of resampling B blocks.
Status EstimateRun(const RunCells& run, const std::vector<MetricSpec>& metrics,
                   const BootstrapOptions& options, RunEstimate* estimate);

/// The block length for a series by Politis & White (2004), with the correction of
/// Patton, Politis & White (2009): b = (2 G^2 / D)^(1/3) n^(1/3), G and D from the
/// autocovariances under a flat-top lag window whose bandwidth is twice the first lag m
/// after which K = max(5, sqrt(log10 n)) autocorrelations in a row are insignificant
/// (|rho| < 2 sqrt(log10 n / n)); D = (4/3) g(0)^2 as for the circular block bootstrap.
/// At least 1, at most min(3 sqrt(n), n / 3). Longer-lived correlation gives longer blocks.
int AutoBlockLength(const std::vector<double>& series);

/// Reads `metrics` off a merged histogram of `quanta` quanta of `quantum_ms`.
void MetricValues(const Histogram& h, const BucketLayout& layout, double seconds,
                  const std::vector<MetricSpec>& metrics, std::vector<double>* values,
                  std::vector<bool>* lower_bound);

}  // namespace fiohist
