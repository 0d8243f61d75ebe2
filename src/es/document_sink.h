// Turning results into Elasticsearch bulk actions: the "documents" stage of the pipeline.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "es/bulk_indexer.h"
#include "output/bucket_carry.h"
#include "output/documents.h"
#include "output/hist_code.h"
#include "stats/accuracy_windows.h"
#include "stats/result_sink.h"

namespace fiohist {

/// Where bulk actions go: an NdjsonDirWriter or a BulkIndexer.
using ActionConsumer = std::function<Status(BulkAction)>;

/// Which per-quantum results get a bucket document, and in which form.
struct BucketOptions {
  /// By ScopeKind. Job documents alone hold everything: a host's or the cluster's
  /// histogram is their sum (docs/documents.md says what that costs and saves).
  std::array<bool, 3> scopes = {false, false, true};
  /// By Direction: the real ones; `all` is their sum.
  std::array<bool, 4> directions = {true, true, true, false};
  BucketForm form = BucketForm::kHistogram;
  /// Counts are in units of 1/scale I/O (BucketCarry): 5000 keeps percentiles of summed
  /// documents within 0.1 % of fiohist's own (docs/documents.md has the measurements).
  int64_t scale = 5000;
  /// The record form of a direct push (kCompact, job results with records): one document per
  /// job and window of `window_quanta` quanta holding all of its directions
  /// (kWindowBucketVersion) instead of one per quantum and direction. The server's CPU per
  /// document sets a push's pace (docs/documents.md). Files (kFile) stay per direction.
  bool merge_directions = false;
  /// Quanta per window of merge_directions: windows on the grid of that many quanta from
  /// the run's grid origin (the push's coarser resolutions'), clipped to the run.
  int window_quanta = kBucketWindowQuanta;
};

/// The run document's `bucket_version` of a push with `buckets` (its form decided):
/// kWindowBucketVersion where job documents hold every direction of a window of quanta
/// (merge_directions in the compact form), else kBucketVersion.
int BucketVersionOf(const BucketOptions& buckets);

/// A ResultSink that makes a percentile document of every window (scope, host, job,
/// resolution and start: its results of every direction in one, kPctilesVersion; a
/// ResolutionSink in front hands on an entity's windows together) and a bucket document of
/// every per-quantum result BucketOptions selects and, at the end, the run document and a
/// document per stall of the run (output/stall_document.h), and hands them on as index actions with
/// deterministic ids (a re-push overwrites the same documents). Bucket counts are rounded here, in
/// the results' time order (BucketCarry), except in the record form: job results that carry their
/// log's records (PipelineOptions::keep_records) in the compact form store those, exact.
class DocumentSink : public ResultSink {
 public:
  DocumentSink(std::string index_prefix, RunMeta meta, ActionConsumer consume,
               BucketOptions buckets = BucketOptions());
  /// Sets the bucket form before Begin() (push learns it from the server).
  void set_bucket_form(BucketForm form) { buckets_.form = form; }
  Status Begin(const RunInfo& info) override;
  Status Quantum(const ScopeResult& r) override;
  Status WholeRun(const ScopeResult& r) override;
  Status End(const RunSummary& summary) override;
  /// Builds the percentile document of a result on the pipeline's workers (bucket
  /// documents need the carry, so Quantum() builds them, in order).
  bool prepares() const override { return true; }
  void Prepare(const ScopeResult& r, std::string* prepared) const override;
  /// Job quanta finer than the run's job resolution get a bucket document only, which
  /// reads their samples (known once Begin() has the run's job resolution).
  bool reads_job_quantum_stats() const override { return info_.job_resolution <= 1; }
  /// Documents do not depend on each other's order; a job's bucket carries go with it.
  bool takes_jobs_by_log() const override { return true; }
  /// Hands on the job's documents still being gathered (the job's results are all in).
  Status JobDone(const std::string& host, const std::string& job) override;

  /// A live run (follow): hands on the run document now, from `info`'s hosts and jobs (they
  /// grow as streams start) and the whole-run results so far; End() writes the last one,
  /// under the same id. The percentile documents being gathered go first (whole quanta).
  Status Progress(const RunInfo& info, const RunSummary& summary,
                  const std::vector<ScopeResult>& whole_run);
  /// Takes `info`'s hosts, jobs and fio versions for the run document (a live run learns
  /// them as streams start).
  void UpdateRun(const RunInfo& info);
  /// Hands on the percentile document of accuracy window `w` (AccuracyWindowSink's
  /// result), under DocumentBuilder::WindowId. Call between Begin() and the end of output.
  Status Window(const ScopeResult& w, bool accurate);

  /// False for a job result finer than the run's job resolution (RunInfo::job_resolution):
  /// its bucket document only.
  bool WritesPercentiles(const ScopeResult& r) const;

  /// The run document's `bucket_version` (BucketVersionOf). Known once the form is
  /// (set_bucket_form).
  int bucket_version() const { return BucketVersionOf(buckets_); }

  /// Documents handed on so far, per kind.
  uint64_t percentile_docs() const { return percentile_docs_; }
  uint64_t bucket_docs() const { return bucket_docs_; }
  /// Stall documents handed on (at End()).
  uint64_t stall_docs() const { return stall_docs_; }
  /// Percentile documents of coarser resolutions among percentile_docs().
  uint64_t coarse_docs() const { return coarse_docs_; }
  /// Accuracy window documents among percentile_docs().
  uint64_t window_docs() const { return window_docs_; }
  /// Start of the run's first quantum (the run document's `start`), once Begin() ran.
  int64_t run_start_ms() const { return info_.first_quantum_ms; }
  /// The index of `kind` the run's documents go to (IndexName() of the run's start), once
  /// Begin() ran.
  const std::string& index_name(DocKind kind) const { return index_[static_cast<int>(kind)]; }

 private:
  // The percentile document of `r`, then (quanta of the selected scopes) its bucket one.
  Status QuantumPercentiles(const ScopeResult& r);
  Status QuantumBuckets(const ScopeResult& r);
  // BucketOptions::merge_directions: adds r's direction to its quantum in the job's open
  // window (windows_). A job's results come quantum by quantum, in time order (all jobs
  // quantum by quantum, or log by log: ResultSink::takes_jobs_by_log), so a window is
  // complete when its job's next window starts, at JobDone(), at a cluster or host result
  // of a quantum past it (those come before the jobs' of their quantum, or before every
  // job result) or at End(): one open window per job at a time.
  bool MergesDirections(const ScopeResult& r) const;
  Status GatherBucketWindow(const ScopeResult& r);
  struct OpenWindow;
  Status FlushBucketWindow(OpenWindow* w);
  // Hands on every open bucket window that ends by `t_ms`.
  Status FlushBucketWindows(int64_t t_ms);
  // One percentile document of a window (kPctilesVersion) being gathered, direction by
  // direction.
  struct PendingWindow {
    ScopeResult head;  // the fields every direction shares (no statistics)
    DirectionParts parts;
    // Adds r's direction (its prepared object, or built now).
    void Take(const ScopeResult& r, const DocumentBuilder& builder);
  };
  // Hands on `w`'s document, if it holds any direction.
  Status FlushWindow(PendingWindow* w);
  // Hands on the coarse windows gathered (all complete: see QuantumPercentiles).
  Status FlushCoarse();
  // Hands on every percentile document being gathered.
  Status FlushPercentiles();

  std::string prefix_;
  std::string index_[kDocKindCount];
  RunMeta meta_;
  ActionConsumer consume_;
  BucketOptions buckets_;
  BucketCarry carry_;
  IntegerBuckets ints_;  // reused
  // A document is made here, then copied into its action: the builder reserves room for
  // the longest text a document could have, and an action queued for sending would keep
  // that capacity (measured: 28 MB of a push's queued documents were such room).
  std::string text_;
  std::vector<const PlacedRecord*> mine_;  // reused: a result's records of its direction
  // The jobs' open windows (merge_directions), by (host, job): the fields of the job's
  // first result in it (no histogram, no records) and its quanta so far.
  struct OpenWindow {
    ScopeResult place;
    int64_t end_ms = 0;  // of the window on the grid (the run may end before)
    JobWindowRecords records;
  };
  std::map<std::pair<std::string, std::string>, OpenWindow> windows_;
  OpenWindow* last_window_ = nullptr;  // the last one gathered into (directions come together)
  int64_t windows_end_ = INT64_MAX;    // the earliest end_ms of an open window
  std::vector<JobWindowRecords> spare_windows_;  // closed ones' storage, for reuse
  PendingWindow fine_;                           // of the quantum grid
  std::map<std::string, PendingWindow> coarse_;  // of coarser resolutions, by window
  RunInfo info_;
  std::unique_ptr<DocumentBuilder> builder_;
  std::vector<ScopeResult> whole_run_;
  uint64_t percentile_docs_ = 0;
  uint64_t bucket_docs_ = 0;
  uint64_t coarse_docs_ = 0;
  uint64_t window_docs_ = 0;
  uint64_t stall_docs_ = 0;
};

/// Takes the windows of an AccuracyWindowSink (put it in front) and hands them to a
/// DocumentSink as window documents, each `accurate` when it meets `targets`
/// (MeetsAccuracy, the test that closed it). The DocumentSink gets the run's results by
/// its own way; this one only adds the windows.
class WindowDocumentSink : public ResultSink {
 public:
  WindowDocumentSink(DocumentSink* documents, std::vector<AccuracyTarget> targets)
      : documents_(documents), targets_(std::move(targets)) {}
  Status Begin(const RunInfo& info) override;
  Status Quantum(const ScopeResult& w) override {
    return documents_->Window(w, MeetsAccuracy(w.stats, targets_, indices_));
  }
  Status WholeRun(const ScopeResult&) override { return Status(); }
  Status End(const RunSummary&) override { return Status(); }
  bool reads_job_histograms() const override { return false; }
  bool reads_whole_run(ScopeKind) const override { return false; }
  bool reads_job_quantum_stats() const override { return false; }

 private:
  DocumentSink* documents_;
  std::vector<AccuracyTarget> targets_;
  std::vector<size_t> indices_;  // of targets_' percentiles in the run's
};

}  // namespace fiohist
