// A sink for unit tests that keeps every result.
#pragma once

#include <string>
#include <vector>

#include "stats/result_sink.h"

namespace fiohist {

/// Keeps every result (histograms dropped) for inspection.
class CollectingSink : public ResultSink {
 public:
  Status Begin(const RunInfo& i) override {
    info = i;
    return Status();
  }
  Status Quantum(const ScopeResult& r) override {
    quanta.push_back(r);
    quanta.back().histogram = nullptr;
    return Status();
  }
  Status WholeRun(const ScopeResult& r) override {
    whole.push_back(r);
    whole_histograms.push_back(r.histogram ? *r.histogram : Histogram());
    whole.back().histogram = nullptr;
    return Status();
  }
  Status End(const RunSummary&) override { return Status(); }

  /// The whole-run result of a job scope whose job name ends in ".N" (fio's job number).
  const ScopeResult* FindWhole(ScopeKind kind, const std::string& host, const std::string& dir,
                               int job_number) const {
    const std::string suffix = "." + std::to_string(job_number);
    for (const ScopeResult& r : whole) {
      if (r.kind == kind && r.host == host && dir == DirectionName(r.direction) &&
          r.job.size() >= suffix.size() &&
          r.job.compare(r.job.size() - suffix.size(), suffix.size(), suffix) == 0) {
        return &r;
      }
    }
    return nullptr;
  }

  RunInfo info;
  std::vector<ScopeResult> quanta;
  std::vector<ScopeResult> whole;
  std::vector<Histogram> whole_histograms;  // parallel to `whole`
};

}  // namespace fiohist
