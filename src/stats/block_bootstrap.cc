#include "stats/block_bootstrap.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

#include "stats/percentiles.h"

namespace fiohist {

Status ParseMetricSpec(const std::string& text, MetricSpec* spec) {
  *spec = MetricSpec();
  if (text == "iops") {
    spec->name = "iops";
    spec->iops = true;
    return Status();
  }
  const std::string number = !text.empty() && text[0] == 'p' ? text.substr(1) : text;
  char* end = nullptr;
  const double p = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !(p > 0) || !(p < 100)) {
    return Status::Error("expected a percentile such as p99.9 (between 0 and 100) or iops, got '" +
                         text + "'");
  }
  spec->percentile = p;
  spec->name = "p" + number;
  return Status();
}

void MetricValues(const Histogram& h, const BucketLayout& layout, double seconds,
                  const std::vector<MetricSpec>& metrics, std::vector<double>* values,
                  std::vector<bool>* lower_bound) {
  std::vector<double> ps;
  for (const MetricSpec& m : metrics) {
    if (!m.iops) ps.push_back(m.percentile);
  }
  LatencyStats s;
  ComputeStats(h, layout, ps, &s, kNoIntervals);  // resamples need point estimates only
  values->assign(metrics.size(), 0.0);
  if (lower_bound) lower_bound->assign(metrics.size(), false);
  size_t k = 0;
  for (size_t i = 0; i < metrics.size(); ++i) {
    if (metrics[i].iops) {
      (*values)[i] = seconds > 0 ? h.total() / seconds : 0;
    } else {
      (*values)[i] = s.percentile_ns[k];
      if (lower_bound) (*lower_bound)[i] = s.lower_bound[k];
      ++k;
    }
  }
}

int AutoBlockLength(const std::vector<double>& x) {
  const size_t n = x.size();
  if (n < 4) return 1;
  double mean = 0;
  for (double v : x) mean += v / static_cast<double>(n);
  auto cov = [&](size_t k) {
    double s = 0;
    for (size_t i = 0; i + k < n; ++i) s += (x[i] - mean) * (x[i + k] - mean);
    return s / static_cast<double>(n);
  };
  const double r0 = cov(0);
  if (!(r0 > 0)) return 1;
  const double nd = static_cast<double>(n);
  const size_t big_k = static_cast<size_t>(std::max(5.0, std::sqrt(std::log10(nd))));
  const double bound = 2 * std::sqrt(std::log10(nd) / nd);
  const size_t max_lag = n - 1;
  std::vector<double> r(max_lag + 1);
  for (size_t k = 0; k <= max_lag; ++k) r[k] = cov(k);
  // m: the first lag after which big_k autocorrelations in a row are insignificant.
  size_t m = max_lag;
  for (size_t j = 0; j + 1 <= max_lag; ++j) {
    bool quiet = true;
    for (size_t k = 1; k <= big_k && quiet; ++k) {
      quiet = j + k > max_lag || std::fabs(r[j + k] / r0) < bound;
    }
    if (quiet) {
      m = j;
      break;
    }
  }
  const size_t big_m = std::min(2 * std::max<size_t>(m, 1), max_lag);
  double g = 0, g0 = 0;
  for (size_t k = 0; k <= big_m; ++k) {
    const double t = static_cast<double>(k) / static_cast<double>(big_m);
    const double lambda = t <= 0.5 ? 1 : 2 * (1 - t);
    const double twice = k == 0 ? 1 : 2;  // lags -k and k
    g += twice * lambda * static_cast<double>(k) * r[k];
    g0 += twice * lambda * r[k];
  }
  const double d = 4.0 / 3.0 * g0 * g0;
  const double b_max = std::ceil(std::min(3 * std::sqrt(nd), nd / 3));
  if (!(d > 0)) return 1;
  const double b = std::cbrt(2 * g * g / d) * std::cbrt(nd);
  return static_cast<int>(std::clamp(std::round(b), 1.0, b_max));
}

namespace {

// FNV-1a: a stream per run and direction that does not depend on the order of runs.
uint64_t Mix(uint64_t seed, const std::string& text) {
  uint64_t h = 1469598103934665603ull ^ seed;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// A uniform index below n. mt19937_64's output is fixed by the standard (unlike the
// library's distributions), so replicates are the same on every platform; the modulo bias
// is below n / 2^64.
size_t Draw(std::mt19937_64& rng, size_t n) { return static_cast<size_t>(rng() % n); }

}  // namespace

Status EstimateRun(const RunCells& run, const std::vector<MetricSpec>& metrics,
                   const BootstrapOptions& options, RunEstimate* est) {
  *est = RunEstimate();
  const size_t n = run.quanta();
  const size_t hosts = run.hosts.size();
  if (n == 0 || hosts == 0) return Status::Error("run '" + run.run + "': no full quantum");
  const double quantum_s = static_cast<double>(run.quantum_ms) / 1000.0;
  const Histogram whole = run.Whole();
  est->ios = whole.total();
  est->quanta = static_cast<int>(n);
  MetricValues(whole, run.layout, static_cast<double>(n) * quantum_s, metrics, &est->value,
               &est->lower_bound);
  const double inf = std::numeric_limits<double>::infinity();
  est->log_var.assign(metrics.size(), inf);

  int block = options.block_quanta;
  if (block <= 0) {
    // The longest block any metric's per-quantum series asks for (cluster of all hosts).
    std::vector<std::vector<double>> series(metrics.size());
    std::vector<double> values;
    for (size_t q = 0; q < n; ++q) {
      Histogram h;
      for (const Histogram& c : run.cells[q]) h.Merge(c);
      if (!(h.total() > 0)) continue;
      MetricValues(h, run.layout, quantum_s, metrics, &values, nullptr);
      for (size_t m = 0; m < metrics.size(); ++m) {
        if (values[m] > 0) series[m].push_back(std::log(values[m]));
      }
    }
    block = 1;
    for (const std::vector<double>& s : series) block = std::max(block, AutoBlockLength(s));
  }
  block = std::max(1, std::min<int>(block, static_cast<int>(n)));
  if (options.block_quanta <= 0 && n >= static_cast<size_t>(kMinBlocks) &&
      block > static_cast<int>(n) / kMinBlocks) {
    est->note = "run '" + run.run + "': its quanta are correlated over about " +
                std::to_string(block) + " quanta, but " + std::to_string(n) +
                " quanta allow blocks of " + std::to_string(n / kMinBlocks) +
                ": its interval may be too narrow (a longer run helps)";
    block = static_cast<int>(n) / kMinBlocks;
  }
  const size_t blocks = n / static_cast<size_t>(block);
  est->block_quanta = block;
  est->blocks = static_cast<int>(blocks);
  est->hosts_resampled = options.resample_hosts == 1 ||
                         (options.resample_hosts < 0 && hosts >= kMinHostsToResample);
  if (blocks < static_cast<size_t>(kMinBlocks)) {
    est->note = "run '" + run.run + "': " + std::to_string(n) + " full quanta make " +
                std::to_string(blocks) + " blocks of " + std::to_string(block) +
                ": too few to know its noise (at least " + std::to_string(kMinBlocks) + ")";
    return Status();
  }
  // Block b holds quanta [b*n/B, (b+1)*n/B): sizes differ by at most one.
  std::vector<std::vector<Histogram>> per_host(blocks, std::vector<Histogram>(hosts));
  std::vector<Histogram> per_block(blocks);
  std::vector<double> block_s(blocks);
  for (size_t b = 0; b < blocks; ++b) {
    const size_t lo = b * n / blocks, hi = (b + 1) * n / blocks;
    block_s[b] = static_cast<double>(hi - lo) * quantum_s;
    for (size_t q = lo; q < hi; ++q) {
      for (size_t h = 0; h < hosts; ++h) per_host[b][h].Merge(run.cells[q][h]);
    }
    for (size_t h = 0; h < hosts; ++h) per_block[b].Merge(per_host[b][h]);
  }

  std::mt19937_64 rng(Mix(options.seed, run.run + "/" + DirectionName(run.direction)));
  std::vector<double> sum(metrics.size(), 0.0), sum2(metrics.size(), 0.0);
  std::vector<int> valid(metrics.size(), 0);
  std::vector<double> values;
  std::vector<int> host_count(hosts);
  Histogram rep;
  for (int r = 0; r < options.replicates; ++r) {
    rep.Clear();
    double seconds = 0;
    if (est->hosts_resampled) {
      std::fill(host_count.begin(), host_count.end(), 0);
      for (size_t i = 0; i < hosts; ++i) ++host_count[Draw(rng, hosts)];
    }
    for (size_t i = 0; i < blocks; ++i) {
      const size_t b = Draw(rng, blocks);
      seconds += block_s[b];
      if (!est->hosts_resampled) {
        rep.Merge(per_block[b]);
        continue;
      }
      for (size_t h = 0; h < hosts; ++h) {
        for (int c = 0; c < host_count[h]; ++c) rep.Merge(per_host[b][h]);
      }
    }
    MetricValues(rep, run.layout, seconds, metrics, &values, nullptr);
    for (size_t m = 0; m < metrics.size(); ++m) {
      if (!(values[m] > 0)) continue;
      const double l = std::log(values[m]);
      sum[m] += l;
      sum2[m] += l * l;
      ++valid[m];
    }
  }
  for (size_t m = 0; m < metrics.size(); ++m) {
    // A metric that is 0 in more than 1% of the replicates (no I/O in the resample) has no
    // log-scale spread worth the name.
    if (!(est->value[m] > 0) || valid[m] < 2 || valid[m] < options.replicates * 99 / 100) continue;
    const double k = valid[m];
    const double mean = sum[m] / k;
    const double var = std::max(0.0, (sum2[m] - k * mean * mean) / (k - 1));
    est->log_var[m] = var * static_cast<double>(blocks) / static_cast<double>(blocks - 1);
  }
  return Status();
}

}  // namespace fiohist
