// The human-readable end-of-run summary printed on stderr.
#pragma once

#include <cstdio>
#include <vector>

#include "output/csv_sink.h"
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

/// Forwards every call to several sinks in order; stops at the first error.
class FanoutSink : public ResultSink {
 public:
  explicit FanoutSink(std::vector<ResultSink*> sinks) : sinks_(std::move(sinks)) {}
  Status Begin(const RunInfo& info) override;
  Status Quantum(const ScopeResult& r) override;
  Status WholeRun(const ScopeResult& r) override;
  Status End(const RunSummary& summary) override;
  /// True when exactly one of the sinks prepares (the others then never see prepared
  /// bytes they would not understand: they ignore `prepared`).
  bool prepares() const override;
  void Prepare(const ScopeResult& r, std::string* prepared) const override;

 private:
  std::vector<ResultSink*> sinks_;
};

}  // namespace fiohist
