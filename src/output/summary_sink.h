// The human-readable end-of-run summary printed on stderr.
#pragma once

#include <cstdint>
#include <cstdio>
#include <utility>
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
  /// Notes the cluster's partial quanta (the summary names them).
  Status Quantum(const ScopeResult& r) override;
  Status WholeRun(const ScopeResult& r) override;
  Status End(const RunSummary& summary) override;

 private:
  std::FILE* out_;
  LatencyUnit unit_;
  RunInfo info_;
  std::vector<ScopeResult> cluster_;
  // The cluster's partial quanta: elapsed seconds and coverage, the first few of them.
  std::vector<std::pair<double, double>> partial_;
  long long partial_count_ = 0;
  int64_t last_partial_ms_ = INT64_MIN;
};

}  // namespace fiohist
