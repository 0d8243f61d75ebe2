// The human-readable end-of-run summary printed on stderr.
#pragma once

#include <cstdio>
#include <vector>

#include "output/latency_unit.h"
#include "stats/result_sink.h"

namespace fiohist {

/// Prints what was read (logs, records, quanta, time anchor, warnings) and the whole-run
/// cluster statistics per direction as a small table.
class SummarySink : public ResultSink {
 public:
  SummarySink(std::FILE* out, LatencyUnit unit) : out_(out), unit_(std::move(unit)) {}
  Status Begin(const RunInfo& info) override;
  Status Quantum(const ScopeResult&) override { return Status(); }
  Status WholeRun(const ScopeResult& r) override;
  Status End(const RunSummary& summary) override;

 private:
  std::FILE* out_;
  LatencyUnit unit_;
  RunInfo info_;
  std::vector<ScopeResult> cluster_;
};

}  // namespace fiohist
