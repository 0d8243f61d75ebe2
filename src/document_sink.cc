#include "document_sink.h"

namespace fiohist {

DocumentSink::DocumentSink(std::string index_prefix, RunMeta meta, ActionConsumer consume)
    : prefix_(std::move(index_prefix)), meta_(std::move(meta)), consume_(std::move(consume)) {}

Status DocumentSink::Begin(const RunInfo& info) {
  info_ = info;
  builder_ = std::make_unique<DocumentBuilder>(info_, meta_);
  return Status();
}

Status DocumentSink::Quantum(const ScopeResult& r) {
  BulkAction a;
  a.index = prefix_ + "-pctiles";
  a.id = builder_->Id(DocKind::kPercentiles, r);
  a.source = builder_->Percentiles(r);
  Status s = consume_(std::move(a));
  if (!s.ok()) return s;
  ++percentile_docs_;
  BulkAction b;
  b.index = prefix_ + "-buckets";
  b.id = builder_->Id(DocKind::kBuckets, r);
  b.source = builder_->Buckets(r);
  s = consume_(std::move(b));
  if (s.ok()) ++bucket_docs_;
  return s;
}

Status DocumentSink::WholeRun(const ScopeResult& r) {
  whole_run_.push_back(r);
  whole_run_.back().histogram = nullptr;
  return Status();
}

Status DocumentSink::End(const RunSummary& summary) {
  BulkAction a;
  a.index = prefix_ + "-runs";
  a.id = builder_->RunId();
  a.source = builder_->Run(summary, whole_run_);
  return consume_(std::move(a));
}

}  // namespace fiohist
