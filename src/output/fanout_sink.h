// One sink that feeds several: push writes documents and prints the summary in one run.
#pragma once

#include <string>
#include <vector>

#include "stats/result_sink.h"

namespace fiohist {

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
  /// True when any of the sinks reads them.
  bool reads_job_histograms() const override;
  /// True when any of the sinks reads them.
  bool reads_whole_run(ScopeKind kind) const override;
  /// True when any of the sinks reads them.
  bool reads_job_quantum_stats() const override;
  /// True when all of the sinks take them.
  bool takes_jobs_by_log() const override;
  Status JobDone(const std::string& host, const std::string& job) override;

 private:
  std::vector<ResultSink*> sinks_;
};

}  // namespace fiohist
