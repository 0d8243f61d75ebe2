// The human-readable end-of-run summary printed on stderr.
#pragma once

#include <cstdio>
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
  Status Quantum(const ScopeResult&) override { return Status(); }
  Status WholeRun(const ScopeResult& r) override;
  Status End(const RunSummary& summary) override;

 private:
  // One line per job whose log a fio JSON output counts: the share of its I/Os logged.
  void PrintIoShares(const RunSummary& summary) const;

  std::FILE* out_;
  LatencyUnit unit_;
  RunInfo info_;
  std::vector<ScopeResult> cluster_;
};

/// Prints every warning of `summary` as "fiohist: warning: ..." on `out`. Commands call it
/// once after the pipeline, whatever happened (success, --quiet, an error), so no warning
/// about input is ever lost.
void PrintWarnings(std::FILE* out, const RunSummary& summary);

}  // namespace fiohist
