#include "es/document_sink.h"

#include <algorithm>
#include <utility>

#include "es/index_templates.h"
#include "log/quantum_grid.h"
#include "output/hist_code.h"
#include "output/stall_document.h"

namespace fiohist {

DocumentSink::DocumentSink(std::string index_prefix, RunMeta meta, ActionConsumer consume,
                           BucketOptions buckets)
    : prefix_(std::move(index_prefix)),
      meta_(std::move(meta)),
      consume_(std::move(consume)),
      buckets_(buckets),
      carry_(buckets.scale) {}

Status DocumentSink::Begin(const RunInfo& info) {
  info_ = info;
  // Every document of the run goes to the month of its start: a run is never split.
  for (DocKind kind : kAllDocKinds) {
    index_[static_cast<int>(kind)] = IndexName(prefix_, kind, info.first_quantum_ms);
  }
  builder_ = std::make_unique<DocumentBuilder>(info_, meta_, 1000.0, buckets_.form);
  return Status();
}

bool DocumentSink::WritesPercentiles(const ScopeResult& r) const {
  // Job percentiles start at the run's job resolution: finer ones come from the bucket
  // documents on read-back (docs/documents.md).
  return r.kind != ScopeKind::kJob || r.resolution >= info_.job_resolution;
}

void DocumentSink::Prepare(const ScopeResult& r, std::string* prepared) const {
  // The direction's object of the window's document (QuantumPercentiles merges them).
  prepared->clear();
  if (!WritesPercentiles(r)) return;
  builder_->AppendDirectionPart(r, prepared);
}

Status DocumentSink::Window(const ScopeResult& w, bool accurate) {
  BulkAction a;
  a.index = index_name(DocKind::kPercentiles);
  a.id = builder_->WindowId(w);
  text_.clear();
  builder_->AppendWindow(w, accurate, &text_);
  a.source = text_;
  Status s = consume_(std::move(a));
  if (!s.ok()) return s;
  ++percentile_docs_;
  ++window_docs_;
  return s;
}

Status WindowDocumentSink::Begin(const RunInfo& info) {
  indices_.clear();
  const std::vector<double>& v = info.percentiles.values;
  for (const AccuracyTarget& t : targets_) {
    indices_.push_back(
        static_cast<size_t>(std::find(v.begin(), v.end(), t.percentile) - v.begin()));
  }
  return Status();
}

int BucketVersionOf(const BucketOptions& buckets) {
  return buckets.merge_directions && buckets.form == BucketForm::kCompact ? kWindowBucketVersion
                                                                          : kBucketVersion;
}

Status DocumentSink::Quantum(const ScopeResult& r) {
  Status s = WritesPercentiles(r) ? QuantumPercentiles(r) : Status();
  if (!s.ok() || r.resolution != 1) return s;
  // A cluster or host result of a quantum comes after every job result of the quanta
  // before it (or before any job result): the open windows that end by it are complete.
  if (r.kind != ScopeKind::kJob && r.start_ms >= windows_end_) {
    s = FlushBucketWindows(r.start_ms);
    if (!s.ok()) return s;
  }
  // Coarser resolutions have percentile documents only: sums of the quanta's bucket
  // documents give their histograms. Unselected scopes and directions are sums too.
  if (!buckets_.scopes[static_cast<size_t>(r.kind)] ||
      !buckets_.directions[static_cast<size_t>(r.direction)]) {
    return s;
  }
  return QuantumBuckets(r);
}

namespace {

// The window of a percentile document: scope, host, job, resolution and start.
bool SameWindow(const ScopeResult& a, const ScopeResult& b) {
  return a.start_ms == b.start_ms && a.resolution == b.resolution && a.kind == b.kind &&
         a.job == b.job && a.host == b.host;
}

// The key of r's window among the coarse windows being gathered.
std::string WindowKey(const ScopeResult& r) {
  std::string key = std::to_string(r.resolution) + '\x1f' + std::to_string(r.start_ms) + '\x1f';
  key += static_cast<char>('0' + static_cast<int>(r.kind));
  key += r.host;
  key += '\x1f';
  key += r.job;
  return key;
}

}  // namespace

void DocumentSink::PendingWindow::Take(const ScopeResult& r, const DocumentBuilder& builder) {
  // The fields all directions share come from the first result, and from `all` (a window
  // of coarser resolution sums each direction's quanta: `all` has them all).
  if (!parts.any() || r.direction == Direction::kAll) {
    CopyPlace(r, &head);
    head.resolution = r.resolution;
    head.widest = r.widest;
    head.zoom_from = r.zoom_from;
  }
  const size_t d = static_cast<size_t>(r.direction);
  if (d >= parts.present.size()) return;
  parts.text[d].clear();
  if (r.prepared.empty()) {
    builder.AppendDirectionPart(r, &parts.text[d]);
  } else {
    parts.text[d] = r.prepared;
  }
  parts.present[d] = true;
  builder.AddSla(r, &parts);
}

Status DocumentSink::QuantumPercentiles(const ScopeResult& r) {
  if (r.resolution != 1) {
    // Coarse windows: every direction of one is handed on between two results of the quantum
    // grid (ResolutionSink closes an entity's windows together), JobDone() or End().
    PendingWindow& w = coarse_[WindowKey(r)];
    w.Take(r, *builder_);
    return Status();
  }
  // The quantum grid's results of a scope, host and job come one direction after another:
  // another window closes the one gathered, and the coarse windows closed meanwhile.
  Status s = FlushCoarse();
  if (!s.ok()) return s;
  if (fine_.parts.any() && !SameWindow(fine_.head, r)) {
    s = FlushWindow(&fine_);
    if (!s.ok()) return s;
  }
  fine_.Take(r, *builder_);
  return Status();
}

Status DocumentSink::FlushWindow(PendingWindow* w) {
  if (!w->parts.any()) return Status();
  BulkAction a;
  a.index = index_name(DocKind::kPercentiles);
  builder_->AppendMergedId(w->head, &a.id);
  text_.clear();
  builder_->AppendMergedPercentiles(w->head, w->parts, &text_);
  a.source = text_;
  const bool coarse = w->head.resolution != 1;
  w->parts.Clear();
  Status s = consume_(std::move(a));
  if (!s.ok()) return s;
  ++percentile_docs_;
  if (coarse) ++coarse_docs_;
  return s;
}

Status DocumentSink::FlushCoarse() {
  for (auto& [key, w] : coarse_) {
    Status s = FlushWindow(&w);
    if (!s.ok()) return s;
  }
  coarse_.clear();
  return Status();
}

Status DocumentSink::FlushPercentiles() {
  Status s = FlushWindow(&fine_);
  return s.ok() ? FlushCoarse() : s;
}

bool DocumentSink::MergesDirections(const ScopeResult& r) const {
  return buckets_.merge_directions && buckets_.form == BucketForm::kCompact && r.records &&
         r.direction != Direction::kAll;
}

Status DocumentSink::GatherBucketWindow(const ScopeResult& r) {
  const int64_t length = info_.quantum_ms * buckets_.window_quanta;
  const QuantumGrid grid(info_.grid_origin_ms, length);
  const int64_t window = grid.Start(grid.IndexOf(r.start_ms));
  OpenWindow* w = last_window_;
  if (w == nullptr || w->place.job != r.job || w->place.host != r.host) {
    auto it = windows_.find(std::make_pair(r.host, r.job));
    w = it == windows_.end() ? nullptr : &it->second;
  }
  if (w != nullptr && w->end_ms <= r.start_ms) {  // the job's next window starts
    Status s = FlushBucketWindow(w);
    if (!s.ok()) return s;
    w = nullptr;
  }
  if (w == nullptr) {
    w = &windows_[std::make_pair(r.host, r.job)];
    CopyPlace(r, &w->place);
    w->end_ms = window + length;
    if (!spare_windows_.empty()) {
      w->records = std::move(spare_windows_.back());
      spare_windows_.pop_back();
    }
    w->records.Clear();
    // Clipped to the run: its first window starts at its first quantum.
    w->records.start_ms = std::max(window, info_.first_quantum_ms);
    windows_end_ = std::min(windows_end_, w->end_ms);
  }
  last_window_ = w;
  JobQuantumRecords& parts = w->records.At(r.start_ms, r.end_ms, r.coverage).parts;
  const size_t d = static_cast<size_t>(r.direction);
  mine_.clear();
  for (const PlacedRecord& rec : *r.records) {
    if (rec.direction == r.direction) mine_.push_back(&rec);
  }
  // As text now: the records live in the pipeline's buffers only while r is handed on.
  parts.records[d].clear();
  parts.end_ms[d] = builder_->AppendRecordList(r, mine_, &parts.records[d]);
  parts.samples[d] = r.stats.samples;
  parts.present[d] = true;
  return Status();
}

Status DocumentSink::FlushBucketWindow(OpenWindow* w) {
  BulkAction b;
  text_.clear();
  builder_->AppendJobWindow(w->place, w->records, &text_);
  b.source = text_;
  b.index = index_name(DocKind::kBuckets);
  builder_->AppendJobWindowId(w->place, w->records, &b.id);
  // Its storage goes to the next window (a few kept: they hold a window of records text).
  if (spare_windows_.size() < 16) spare_windows_.push_back(std::move(w->records));
  if (last_window_ == w) last_window_ = nullptr;
  windows_.erase(std::make_pair(w->place.host, w->place.job));
  Status s = consume_(std::move(b));
  if (s.ok()) ++bucket_docs_;
  return s;
}

Status DocumentSink::FlushBucketWindows(int64_t t_ms) {
  int64_t earliest = INT64_MAX;
  for (auto it = windows_.begin(); it != windows_.end();) {
    OpenWindow* w = &it->second;
    ++it;  // FlushBucketWindow erases w
    if (w->end_ms > t_ms) {
      earliest = std::min(earliest, w->end_ms);
      continue;
    }
    Status s = FlushBucketWindow(w);
    if (!s.ok()) return s;
  }
  windows_end_ = earliest;
  return Status();
}

Status DocumentSink::JobDone(const std::string& host, const std::string& job) {
  carry_.ForgetJob(host, job);
  Status s = FlushPercentiles();
  if (!s.ok()) return s;
  auto it = windows_.find(std::make_pair(host, job));
  return it == windows_.end() ? Status() : FlushBucketWindow(&it->second);
}

Status DocumentSink::QuantumBuckets(const ScopeResult& r) {
  if (MergesDirections(r)) return GatherBucketWindow(r);
  BulkAction b;
  text_.clear();
  if (buckets_.form != BucketForm::kHistogram && r.records) {
    // The record form: the log's own integer counts, exact. A quantum where none of the
    // job's records starts still gets its document (no records; its share comes from
    // earlier ones): one per quantum, job and direction, with the quantum's `samples`.
    mine_.clear();
    for (const PlacedRecord& rec : *r.records) {
      if (rec.direction == r.direction) mine_.push_back(&rec);
    }
    // Files (push --out) also carry the scaled counts a histogram-form push would have
    // written, rounded in the same order, for `load` into a server with that type.
    const bool file = buckets_.form == BucketForm::kFile;
    if (file) carry_.Round(r, &ints_);
    builder_->AppendRecords(r, mine_, &text_, file ? &ints_ : nullptr);
  } else {
    carry_.Round(r, &ints_);
    builder_->AppendBuckets(r, ints_, &text_);
  }
  b.source = text_;
  b.index = index_name(DocKind::kBuckets);
  builder_->AppendId(DocKind::kBuckets, r, &b.id);
  Status s = consume_(std::move(b));
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
  // A live run publishes now: the percentile documents gathered so far are complete (the
  // aggregator hands on whole quanta), so they go too rather than wait for the next one.
  Status flushed = FlushPercentiles();
  if (!flushed.ok()) return flushed;
  UpdateRun(info);
  BulkAction a;
  a.index = index_name(DocKind::kRun);
  a.id = builder_->RunId();
  a.source = builder_->Run(summary, whole_run, bucket_version());
  return consume_(std::move(a));
}

Status DocumentSink::End(const RunSummary& summary) {
  Status flushed = FlushPercentiles();
  if (flushed.ok()) flushed = FlushBucketWindows(INT64_MAX);
  if (!flushed.ok()) return flushed;
  // Each stall and idle gap as a document of its own (what Grafana draws as annotations),
  // then the run document, which keeps their summary.
  for (const Stall& stall : summary.stalls) {
    BulkAction s;
    s.index = index_name(DocKind::kStalls);
    s.id = StallId(meta_.run, stall);
    s.source = StallDocument(stall, meta_, info_.absolute, 1000.0);
    Status st = consume_(std::move(s));
    if (!st.ok()) return st;
    ++stall_docs_;
  }
  BulkAction a;
  a.index = index_name(DocKind::kRun);
  a.id = builder_->RunId();
  a.source = builder_->Run(summary, whole_run_, bucket_version());
  return consume_(std::move(a));
}

}  // namespace fiohist
