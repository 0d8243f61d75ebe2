// The human-readable end-of-run summary printed on stderr.
#pragma once

#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include "output/latency_unit.h"
#include "stats/result_sink.h"

namespace fiohist {

/// Prints what was read (logs, records, quanta, time anchor) and the whole-run cluster
/// statistics per direction as a small table. Warnings are not its job: PrintWarnings
/// prints them on every path, with or without this summary.
class SummarySink : public ResultSink {
 public:
  SummarySink(std::FILE* out, LatencyUnit unit) : out_(out), unit_(std::move(unit)) {}
  Status Begin(const RunInfo& info) override;
  /// Notes the cluster's partial quanta (the summary names them).
  Status Quantum(const ScopeResult& r) override;
  Status WholeRun(const ScopeResult& r) override;
  /// The summary table is of the cluster's whole run only.
  bool reads_whole_run(ScopeKind kind) const override { return kind == ScopeKind::kCluster; }
  Status End(const RunSummary& summary) override;
  bool reads_job_histograms() const override { return false; }
  bool reads_job_quantum_stats() const override { return false; }
  /// Reads cluster results only.
  bool takes_jobs_by_log() const override { return true; }

 private:
  // One line per job whose log a fio JSON output counts: the share of its I/Os logged.
  void PrintIoShares(const RunSummary& summary) const;
  // One line per stall or idle gap (host and cluster scope).
  void PrintStalls(const RunSummary& summary) const;

  std::FILE* out_;
  LatencyUnit unit_;
  RunInfo info_;
  std::vector<ScopeResult> cluster_;
  // The cluster's partial quanta: elapsed seconds and coverage, the first few of them.
  std::vector<std::pair<double, double>> partial_;
  long long partial_count_ = 0;
  // --place issue: the quanta lacking I/Os that completed after the logs end, and the
  // first one's elapsed seconds and complete_to_ms.
  long long incomplete_count_ = 0;
  double incomplete_from_s_ = 0;
  int64_t incomplete_from_ms_ = 0;
  int64_t last_partial_ms_ = INT64_MIN;
};

/// Prints every warning of `summary` as "fiohist: warning: ..." on `out`. Commands call it
/// once after the pipeline, whatever happened (success, --quiet, an error), so no warning
/// about input is ever lost.
void PrintWarnings(std::FILE* out, const RunSummary& summary);

}  // namespace fiohist
