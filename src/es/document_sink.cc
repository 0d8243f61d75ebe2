#include "es/document_sink.h"

#include <string_view>

#include "es/index_templates.h"

namespace fiohist {

DocumentSink::DocumentSink(std::string index_prefix, RunMeta meta, ActionConsumer consume)
    : prefix_(std::move(index_prefix)), meta_(std::move(meta)), consume_(std::move(consume)) {}

Status DocumentSink::Begin(const RunInfo& info) {
  info_ = info;
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
  a.index = IndexName(prefix_, DocKind::kPercentiles);
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
  b.index = IndexName(prefix_, DocKind::kBuckets);
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

void DocumentSink::UpdateRun(const RunInfo& info) {
  // Only the lists the run document reads change; the builder's fixed fragments stay valid.
  info_.hosts = info.hosts;
  info_.logs = info.logs;
  info_.fio_versions = info.fio_versions;
}

Status DocumentSink::Progress(const RunInfo& info, const RunSummary& summary,
                              const std::vector<ScopeResult>& whole_run) {
  UpdateRun(info);
  BulkAction a;
  a.index = IndexName(prefix_, DocKind::kRun);
  a.id = builder_->RunId();
  a.source = builder_->Run(summary, whole_run);
  return consume_(std::move(a));
}

Status DocumentSink::End(const RunSummary& summary) {
  BulkAction a;
  a.index = IndexName(prefix_, DocKind::kRun);
  a.id = builder_->RunId();
  a.source = builder_->Run(summary, whole_run_);
  return consume_(std::move(a));
}

}  // namespace fiohist
