// Turning results into Elasticsearch bulk actions: the "documents" stage of the pipeline.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "es/bulk_indexer.h"
#include "output/documents.h"
#include "stats/result_sink.h"

namespace fiohist {

/// Where bulk actions go: an NdjsonDirWriter or a BulkIndexer.
using ActionConsumer = std::function<Status(BulkAction)>;

/// A ResultSink that makes a percentile and a bucket document of every per-quantum result
/// and, at the end, the run document, and hands them on as index actions with
/// deterministic ids (a re-push overwrites the same documents).
class DocumentSink : public ResultSink {
 public:
  DocumentSink(std::string index_prefix, RunMeta meta, ActionConsumer consume);
  Status Begin(const RunInfo& info) override;
  Status Quantum(const ScopeResult& r) override;
  Status WholeRun(const ScopeResult& r) override;
  Status End(const RunSummary& summary) override;
  /// Builds both documents of a result (the costly part) on the pipeline's workers.
  bool prepares() const override { return true; }
  void Prepare(const ScopeResult& r, std::string* prepared) const override;

  /// A live run (follow): hands on the run document now, from `info`'s hosts and jobs (they
  /// grow as streams start) and the whole-run results so far; End() writes the last one,
  /// under the same id.
  Status Progress(const RunInfo& info, const RunSummary& summary,
                  const std::vector<ScopeResult>& whole_run);
  /// Takes `info`'s hosts, jobs and fio versions for the run document (a live run learns
  /// them as streams start).
  void UpdateRun(const RunInfo& info);

  /// Documents handed on so far, per kind.
  uint64_t percentile_docs() const { return percentile_docs_; }
  uint64_t bucket_docs() const { return bucket_docs_; }
  /// Percentile documents of coarser resolutions among percentile_docs().
  uint64_t coarse_docs() const { return coarse_docs_; }
  /// Start of the run's first quantum (the run document's `start`), once Begin() ran.
  int64_t run_start_ms() const { return info_.first_quantum_ms; }

 private:
  std::string prefix_;
  RunMeta meta_;
  ActionConsumer consume_;
  RunInfo info_;
  std::unique_ptr<DocumentBuilder> builder_;
  std::vector<ScopeResult> whole_run_;
  uint64_t percentile_docs_ = 0;
  uint64_t bucket_docs_ = 0;
  uint64_t coarse_docs_ = 0;
};

}  // namespace fiohist
