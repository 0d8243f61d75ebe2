// The SLA report on stderr: a line per breaching quantum and a closing summary line.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "stats/result_sink.h"
#include "stats/sla.h"

namespace fiohist {

/// Prints, for every cluster result of resolution 1 that breaches a threshold of
/// RunInfo::sla, one line (written at once, so a CI log shows breaches while the run goes
/// on):
///   fiohist: SLA breach: run 'R' 2026-11-23T14:00:05.000Z..2026-11-23T14:00:06.000Z read: p99 2.312 ms > 2 ms (95% interval 2.228 ms..2.359 ms: beyond sampling noise)
/// (several thresholds of one direction share its line, separated by "; "), and at the end
/// one line saying whether the SLA held, with the count per threshold, and one per cluster
/// stall (RunSummary::stalls, not idle gaps) that breaching quanta touch: those breaches are
/// the stall's (its stuck I/Os), not the steady state's. Without thresholds it prints
/// nothing. Breach lines are not silenced by --quiet: they are the result.
class SlaReportSink : public ResultSink {
 public:
  SlaReportSink(std::FILE* out, std::string run) : out_(out), run_(std::move(run)) {}
  Status Begin(const RunInfo& info) override;
  Status Quantum(const ScopeResult& r) override;
  Status WholeRun(const ScopeResult&) override { return Status(); }
  bool reads_whole_run(ScopeKind) const override { return false; }
  Status End(const RunSummary& summary) override;
  bool reads_job_histograms() const override { return false; }
  bool reads_job_quantum_stats() const override { return false; }
  /// Checks cluster results only.
  bool takes_jobs_by_log() const override { return true; }

  /// Breaching results so far (RunSummary::sla_breaches once the run ended).
  long long breaches() const { return breaches_; }
  /// Of them, those beyond sampling noise (SlaChecker::Breaches).
  long long beyond_noise() const { return beyond_noise_; }

  /// The breach line of `r` (without newline), "" when it breaches nothing.
  static std::string BreachLine(const std::string& run, bool absolute, const SlaChecker& checker,
                                const ScopeResult& r);

 private:
  std::FILE* out_;
  std::string run_;
  bool absolute_ = false;
  SlaChecker checker_;
  std::vector<long long> per_threshold_;
  long long breaches_ = 0;
  long long beyond_noise_ = 0;  // breaches beyond sampling noise
  double confidence_ = 0.95;
  long long checked_ = 0;
  std::vector<std::pair<int64_t, int64_t>> breached_spans_;  // (start, end) of breaching quanta
};

}  // namespace fiohist
