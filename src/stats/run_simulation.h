// Simulated runs with a known answer, for the tests of the comparison statistics.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "histogram/bucket_layout.h"
#include "stats/run_cells.h"

namespace fiohist {

/// A simulated job: log-normal latencies whose scale drifts from quantum to quantum as an
/// AR(1) process (a slow second tends to be followed by another), the same on every host.
struct SimulatedJob {
  double median_us = 50;
  double sigma = 0.5;          ///< sd of log latency within a quantum
  double drift_sd = 0.05;      ///< innovation sd of the log scale per quantum
  double drift_phi = 0.8;      ///< AR(1) coefficient of the log scale
  double run_sd = 0;           ///< sd of a per-run log offset (run-to-run spread)
  int ios_per_quantum = 2000;  ///< per host
  int quanta = 60;
  int hosts = 2;
  double scale = 1;  ///< a true change of every latency
};

/// Draws one run of `job` with its own seed; every I/O lands in its fio bucket.
inline RunCells SimulateRun(const SimulatedJob& job, const std::string& name, uint64_t seed,
                            Direction direction = Direction::kRead) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, 1);
  RunCells run;
  run.run = name;
  run.direction = direction;
  for (int h = 0; h < job.hosts; ++h) run.hosts.push_back("host" + std::to_string(h));
  const std::vector<double>& edges = EdgesNs(run.layout);
  const double run_offset = job.run_sd * normal(rng);
  double a = 0;
  for (int q = 0; q < job.quanta; ++q) {
    a = job.drift_phi * a + job.drift_sd * normal(rng);
    run.starts_ms.push_back(q * run.quantum_ms);
    std::vector<Histogram> row(static_cast<size_t>(job.hosts));
    for (Histogram& cell : row) {
      for (int i = 0; i < job.ios_per_quantum; ++i) {
        const double ns = job.median_us * 1000 * job.scale *
                          std::exp(run_offset + a + job.sigma * normal(rng));
        const auto it = std::upper_bound(edges.begin(), edges.end(), ns);
        const int column =
            std::clamp(static_cast<int>(it - edges.begin()) - 1, 0, run.layout.top_column());
        cell.Add(column, 1);
      }
    }
    run.cells.push_back(std::move(row));
  }
  return run;
}

}  // namespace fiohist
