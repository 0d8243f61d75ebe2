#include "es/document_sink.h"

#include <string_view>

#include "es/index_templates.h"

namespace fiohist {

DocumentSink::DocumentSink(std::string index_prefix, RunMeta meta, ActionConsumer consume)
    : prefix_(std::move(index_prefix)), meta_(std::move(meta)), consume_(std::move(consume)) {}

Status DocumentSink::Begin(const RunInfo& info) {
  info_ = info;
  // Every document of the run goes to the month of its start: a run is never split.
  for (DocKind kind : kAllDocKinds) {
    index_[static_cast<int>(kind)] = IndexName(prefix_, kind, info.first_quantum_ms);
  }
  builder_ = std::make_unique<DocumentBuilder>(info_, meta_);
  return Status();
}

void DocumentSink::Prepare(const ScopeResult& r, std::string* prepared) const {
  // Id and source of both documents, one per line: ids are hex and JSON text has no raw
  // newline. Coarser resolutions have percentile documents only: sums of the quanta's
  // bucket documents give their histograms exactly.
  prepared->clear();
  builder_->AppendId(DocKind::kPercentiles, r, prepared);
  prepared->push_back('\n');
  builder_->AppendPercentiles(r, prepared);
  if (r.resolution != 1) return;
  prepared->push_back('\n');
  builder_->AppendId(DocKind::kBuckets, r, prepared);
  prepared->push_back('\n');
  builder_->AppendBuckets(r, prepared);
}

Status DocumentSink::Quantum(const ScopeResult& r) {
  std::string prepared;
  const std::string* p = &r.prepared;
  if (r.prepared.empty()) {
    Prepare(r, &prepared);
    p = &prepared;
  }
  std::string_view rest = *p;
  auto next_line = [&rest] {
    const size_t nl = rest.find('\n');
    std::string line(rest.substr(0, nl));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    return line;
  };
  BulkAction a;
  a.index = index_name(DocKind::kPercentiles);
  a.id = next_line();
  a.source = next_line();
  Status s = consume_(std::move(a));
  if (!s.ok()) return s;
  ++percentile_docs_;
  if (r.resolution != 1) {
    ++coarse_docs_;
    return s;
  }
  BulkAction b;
  b.index = index_name(DocKind::kBuckets);
  b.id = next_line();
  b.source = next_line();
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
  a.index = index_name(DocKind::kRun);
  a.id = builder_->RunId();
  a.source = builder_->Run(summary, whole_run_);
  return consume_(std::move(a));
}

}  // namespace fiohist
