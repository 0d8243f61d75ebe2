#include "output/fanout_sink.h"

namespace fiohist {

Status FanoutSink::Begin(const RunInfo& info) {
  for (ResultSink* s : sinks_) {
    Status st = s->Begin(info);
    if (!st.ok()) return st;
  }
  return Status();
}

Status FanoutSink::Quantum(const ScopeResult& r) {
  for (ResultSink* s : sinks_) {
    Status st = s->Quantum(r);
    if (!st.ok()) return st;
  }
  return Status();
}

Status FanoutSink::WholeRun(const ScopeResult& r) {
  for (ResultSink* s : sinks_) {
    Status st = s->WholeRun(r);
    if (!st.ok()) return st;
  }
  return Status();
}

bool FanoutSink::prepares() const {
  int n = 0;
  for (const ResultSink* s : sinks_) n += s->prepares() ? 1 : 0;
  return n == 1;
}

bool FanoutSink::reads_job_histograms() const {
  for (const ResultSink* s : sinks_) {
    if (s->reads_job_histograms()) return true;
  }
  return false;
}

bool FanoutSink::reads_whole_run(ScopeKind kind) const {
  for (const ResultSink* s : sinks_) {
    if (s->reads_whole_run(kind)) return true;
  }
  return false;
}

bool FanoutSink::reads_job_quantum_stats() const {
  for (const ResultSink* s : sinks_) {
    if (s->reads_job_quantum_stats()) return true;
  }
  return false;
}

bool FanoutSink::takes_jobs_by_log() const {
  for (const ResultSink* s : sinks_) {
    if (!s->takes_jobs_by_log()) return false;
  }
  return true;
}

Status FanoutSink::JobDone(const std::string& host, const std::string& job) {
  for (ResultSink* s : sinks_) {
    Status st = s->JobDone(host, job);
    if (!st.ok()) return st;
  }
  return Status();
}

void FanoutSink::Prepare(const ScopeResult& r, std::string* prepared) const {
  for (const ResultSink* s : sinks_) {
    if (s->prepares()) s->Prepare(r, prepared);
  }
}

Status FanoutSink::End(const RunSummary& summary) {
  for (ResultSink* s : sinks_) {
    Status st = s->End(summary);
    if (!st.ok()) return st;
  }
  return Status();
}

}  // namespace fiohist
