// Elasticsearch documents built from results: percentile, bucket and run documents.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "output/bucket_carry.h"
#include "output/doc_kind.h"
#include "output/run_document.h"
#include "stats/result_sink.h"
#include "stats/sla.h"

namespace fiohist {

/// How a bucket document carries its integer counts (docs/documents.md): as a `latency`
/// histogram (bucket midpoints in us, counts) where the cluster has that field type, else
/// compactly as delta-coded bucket indices and counts that only fiohist reads back. kFile
/// is what `push --out` writes: the compact form, whose record-form documents also carry
/// their scaled counts, so that `fiohist load` can send either form (BucketFormChooser).
enum class BucketForm { kHistogram, kCompact, kFile };

/// A job's records of one quantum, direction by direction: what its one bucket document of
/// kMergedBucketVersion holds (DocumentBuilder::AppendJobRecords). DocumentSink fills it as
/// the job's results of the quantum come, one direction after another; the records are kept
/// as text, so nothing points into the pipeline's buffers once a result is handed on.
struct JobQuantumRecords {
  /// By Direction (the real ones): whether the job has a result of it in the quantum.
  std::array<bool, kLogDirections> present{};
  /// The direction's `samples` (its weighted I/Os in the quantum).
  std::array<double, kLogDirections> samples{};
  /// The end of its last span (the quantum's start when no record starts in it).
  std::array<int64_t, kLogDirections> end_ms{};
  /// Its records as a JSON array (DocumentBuilder::AppendRecordList).
  std::array<std::string, kLogDirections> records;

  bool any() const { return present[0] || present[1] || present[2]; }
  void Clear() { present = {}; }
};

/// A job's records over a window of consecutive quanta: what its one bucket document of
/// kWindowBucketVersion holds (DocumentBuilder::AppendJobWindow), quantum by quantum as
/// one of kMergedBucketVersion held them. DocumentSink fills it as the job's results come.
struct JobWindowRecords {
  /// One quantum of the window where the job has results.
  struct Quantum {
    int64_t start_ms = 0;
    int64_t end_ms = 0;
    double coverage = 1;  // the job's, whatever the direction
    JobQuantumRecords parts;
  };
  /// The window's start (on the 10-quantum grid, clipped to the run's first quantum).
  int64_t start_ms = 0;
  /// Its quanta by start: the first `size` ones (the others keep their storage for reuse).
  std::vector<Quantum> quanta;
  size_t size = 0;

  bool open() const { return size > 0; }
  /// Starts quantum `start_ms` (after the window's last), or returns it when it is the last.
  Quantum& At(int64_t start_ms, int64_t end_ms, double coverage);
  void Clear() { size = 0; }
};

/// The directions of one merged percentile document (DocumentBuilder::
/// AppendMergedPercentiles), by Direction: which are present and each one's object
/// (DocumentBuilder::AppendDirectionPart).
struct DirectionParts {
  std::array<bool, 4> present{};
  std::array<std::string, 4> text;
  /// SLA thresholds (cluster documents of a run with --sla; DocumentBuilder::AddSla): the
  /// thresholds breached and those beyond sampling noise (indices into RunInfo::sla,
  /// ascending; a threshold is of one direction), and the directions breaching beyond it.
  std::vector<size_t> sla_breached, sla_beyond;
  std::array<bool, 4> sla_breach{}, sla_noise{};

  bool any() const { return present[0] || present[1] || present[2] || present[3]; }
  void Clear() {
    present = {};
    sla_breached.clear();
    sla_beyond.clear();
    sla_breach = {};
    sla_noise = {};
  }
};

/// Builds document sources (JSON text) as docs/documents.md describes. Latencies are in
/// microseconds unless another `ns_per_unit` is given (the NDJSON table output).
/// Everything that is the same for every document of the run (meta, field names, the
/// text of each bucket's index and midpoint) is formatted once, in the constructor: `info`
/// must outlive the builder and not change after it is built. The const functions keep
/// no state, so one builder may serve several threads.
class DocumentBuilder {
 public:
  /// Formats the run's fixed fragments (a few hundred microseconds, once per run).
  DocumentBuilder(const RunInfo& info, RunMeta meta, double ns_per_unit = 1000.0,
                  BucketForm form = BucketForm::kHistogram);

  /// The percentile document of `r` alone (pctiles_version 1: the row of `pctiles --format
  /// ndjson`, and accuracy windows).
  std::string Percentiles(const ScopeResult& r) const;
  /// Appends the object of r's direction in its merged percentile document: `samples` and
  /// every statistic that depends on the direction (docs/documents.md).
  void AppendDirectionPart(const ScopeResult& r, std::string* out) const;
  /// Appends the percentile document (kPctilesVersion) of r's scope, host, job, resolution
  /// and window holding the directions of `parts`: the fields that do not depend on the
  /// direction come from `r` (any of the window's results; its `all` where there is one),
  /// then `pctiles_version`, `directions` (their names) and an object per direction.
  void AppendMergedPercentiles(const ScopeResult& r, const DirectionParts& parts,
                               std::string* out) const;
  /// Adds the SLA thresholds r's direction breaches to `parts` (nothing unless r is a
  /// cluster result of a run with thresholds).
  void AddSla(const ScopeResult& r, DirectionParts* parts) const;
  /// Appends the id of AppendMergedPercentiles' document: a percentile document's series
  /// without the direction, then the window's start.
  void AppendMergedId(const ScopeResult& r, std::string* out) const;
  /// The bucket document of `r` with the integer counts `b` (BucketCarry's rounding of
  /// r's histogram), in the builder's BucketForm; `samples` is their sum.
  std::string Buckets(const ScopeResult& r, const IntegerBuckets& b) const;
  /// The run document, from the whole-run cluster results (one per direction), saying
  /// `bucket_version` (hist_code.h).
  std::string Run(const RunSummary& summary, const std::vector<ScopeResult>& whole_run,
                  int bucket_version = kBucketVersion) const;

  /// Appends Percentiles(r) to `out`: a caller that reuses `out` allocates nothing.
  void AppendPercentiles(const ScopeResult& r, std::string* out) const;
  /// Appends Buckets(r, b) to `out`.
  void AppendBuckets(const ScopeResult& r, const IntegerBuckets& b, std::string* out) const;
  /// Appends the record form of `r`'s bucket document to `out`: `records`, the fio records
  /// of r's job and direction whose spans start in r's quantum, with their integer counts
  /// and spans (exact: read-back places them on its grid as the logs were), and
  /// `records_end`, the end of the last span. With `scaled` (BucketForm::kFile), also
  /// the scaled counts of r's histogram as the compact form writes them, after `records`.
  void AppendRecords(const ScopeResult& r, const std::vector<const PlacedRecord*>& records,
                     std::string* out, const IntegerBuckets* scaled = nullptr) const;
  /// Appends `records` (of r's job, direction and quantum) to `out` as the JSON array that
  /// AppendRecords writes as `records`; returns the end of the last span (r's start when
  /// there is none).
  int64_t AppendRecordList(const ScopeResult& r, const std::vector<const PlacedRecord*>& records,
                           std::string* out) const;
  /// Appends the record form of the job's bucket document of r's quantum holding every
  /// direction of `parts` (kMergedBucketVersion): `direction` names them and `all`,
  /// `samples` is their sum, `samples_by_direction` and `records` are objects by direction
  /// name, `records_end` the latest end. The other fields come from `r` (any of the job's
  /// results of the quantum: they share host, job, span, logs and coverage).
  void AppendJobRecords(const ScopeResult& r, const JobQuantumRecords& parts,
                        std::string* out) const;
  /// Appends the id of AppendJobRecords' document: its series is a bucket document's
  /// without the direction, then the quantum's start.
  void AppendJobId(const ScopeResult& r, std::string* out) const;
  /// Appends the job's bucket document of window `w` (kWindowBucketVersion): the fields of
  /// AppendJobRecords' once (`r`: any of the job's results, for host, job and logs;
  /// @timestamp the window's start, `direction` every direction of its quanta, `samples`
  /// their sum, `records_end` the latest end), then `quanta`, per quantum of `w` its
  /// `offset_ms` from @timestamp, `samples`, `samples_by_direction`, `records` by direction
  /// (spans from the quantum's start) and `coverage` when below 1.
  void AppendJobWindow(const ScopeResult& r, const JobWindowRecords& w, std::string* out) const;
  /// Appends the id of AppendJobWindow's document: AppendJobId's with the window's start.
  void AppendJobWindowId(const ScopeResult& r, const JobWindowRecords& w, std::string* out) const;

  /// Deterministic id of `r`'s document of `kind`: a re-push overwrites, never duplicates.
  std::string Id(DocKind kind, const ScopeResult& r) const;
  /// Appends Id(kind, r) to `out` (hashes the key without building it).
  void AppendId(DocKind kind, const ScopeResult& r, std::string* out) const;
  /// Deterministic id of the run document.
  std::string RunId() const;

  /// Appends the percentile document of accuracy window `w` (AccuracyWindowSink: its
  /// `resolution` counts its quanta) to `out`: the fields of a quantum's document without
  /// `resolution` and zoom (dashboards draw quanta), then `window_quanta` and `accurate`.
  void AppendWindow(const ScopeResult& w, bool accurate, std::string* out) const;
  /// Deterministic id of window `w`'s document: run, scope, host, job, direction and the
  /// window's start (not its length), so a restarted follow or a later push that starts a
  /// window at the same quantum overwrites it.
  std::string WindowId(const ScopeResult& w) const;

 private:
  class Out;  // a raw cursor into the std::string being appended to
  // The fields that percentile and bucket documents share, from "{" to "samples" (the
  // value given). A bucket document of a real direction also names `all` (its sum).
  // `direction_json`, when given, is written instead of r's direction (and op).
  // Without `with_samples`, no `samples` (a merged percentile document's are per direction).
  void AppendCommon(const ScopeResult& r, double samples, bool bucket, Out& out,
                    const std::string* direction_json = nullptr, bool with_samples = true) const;
  // Pieces of percentile documents at `p` (room in percentile_room_): the resolution and
  // zoom fields, the direction's statistics (iops ... few_ios), coverage and partial, the
  // --place issue fields, the SLA fields (cluster results of a run with thresholds).
  char* PutZoom(const ScopeResult& r, char* p) const;
  char* PutStats(const ScopeResult& r, char* p) const;
  char* PutPlace(const ScopeResult& r, char* p) const;
  char* PutIssue(const ScopeResult& r, char* p) const;
  char* PutSla(const ScopeResult& r, char* p) const;
  // AppendId; a bucket document's series without its direction where `direction` is false.
  void AppendSeriesId(DocKind kind, const ScopeResult& r, bool direction, std::string* out) const;
  // `samples_by_direction` (`samples`) or `records` of `parts`: an object by direction name
  // of the directions present (AppendJobRecords, AppendJobWindow).
  char* PutByDirection(char* p, const JobQuantumRecords& parts, bool samples) const;
  // What a job document sums over the directions present in `parts`: the mask of those
  // directions, their samples, the last record's end, and the bytes PutByDirection needs.
  struct DirectionTotals {
    size_t mask = 0;
    double samples = 0;
    int64_t end_ms = 0;
    size_t room = 0;
  };
  void AddDirections(const JobQuantumRecords& parts, DirectionTotals* t) const;
  // Bytes AppendCommon may write for `r`.
  size_t CommonRoom(const ScopeResult& r) const;

  const RunInfo& info_;
  RunMeta meta_;
  double ns_per_unit_;
  BucketForm form_;

  // JSON fragments fixed for the run.
  std::string meta_json_;  // ,"run":"..","tags":[..],"labels":{..} (parts may be absent)
  std::array<std::string, 3> scope_json_;             // ,"scope":"cluster" by ScopeKind
  std::array<std::string, 4> direction_json_;         // ,"direction":"read" by Direction
  std::array<std::string, 4> bucket_direction_json_;  // ,"direction":["read","all"]
  // By the set of real directions (bit d for Direction d) a job document holds:
  // ,"direction":["read","write","all"] (and ,"op":[..] where the slots are ops).
  std::array<std::string, 1 << kLogDirections> job_direction_json_;
  // By the same set: ,"op":.. of the ops among them ("" for fio's directions).
  std::array<std::string, 1 << kLogDirections> merged_op_json_;
  std::array<std::string, kLogDirections> direction_key_json_;  // "read": (its JSON key)
  // "read": by Direction, `all` too (a merged percentile document's object keys).
  std::array<std::string, 4> part_key_json_;
  std::string pctiles_version_json_, directions_key_, sla_directions_key_;
  std::string sla_noise_directions_key_;
  int64_t quantum_ms_ = 0;  // info.quantum_ms, whose "quantum_s" text is quantum_s_
  std::string quantum_s_;
  std::string buckets_head_;  // ,"layout":"..",

  // Keys (`,"name":`) of ResultFields(), made once: AppendCommon's, in the order it writes
  // them (the first with "{" for ","), then the statistics' (by Stat) and the rest.
  enum CommonKey {
    kTimestampKey,
    kEndKey,
    kElapsedKey,
    kQuantumKey,
    kScopeKey,
    kHostKey,
    kJobKey,
    kDirectionKey,
    kLogsKey,
    kSamplesKey
  };
  std::vector<std::string> common_keys_;
  size_t common_room_ = 0;  // bytes of those keys and their values at most
  // The longest direction text above (a smallfile op adds ,"op":"create").
  size_t direction_room_ = 0;
  std::array<std::string, 6> stat_keys_;
  std::string clamped_key_, lower_bound_key_, bucket_runs_key_, bucket_ios_key_, latency_key_;
  std::string latency_scale_key_, records_key_, records_end_key_, samples_by_direction_key_;
  std::string quanta_key_;  // ,"quanta": (kWindowBucketVersion)
  std::string coverage_key_, partial_key_, straddled_key_;
  // --place issue (RunInfo::placement): "placement":"issue" and the complete_to key.
  bool issue_ = false;
  std::string placement_json_, complete_to_key_;
  std::string window_quanta_key_, accurate_key_;
  // SLA fields of cluster percentile documents (RunInfo::sla): the checker, the two keys
  // and each threshold's text as a JSON string.
  SlaChecker sla_;
  std::string sla_breach_key_, sla_breached_key_, sla_noise_key_, sla_noise_list_key_;
  std::vector<std::string> sla_texts_;
  // Per resolution of the run (RunInfo::resolutions): its multiple and the text of its
  // resolution and zoom fields, as it is and as the widest one the run writes.
  struct ResolutionJson {
    int multiple;
    std::string json, widest;
    std::string head;  // up to zoom_gt_ms's value, for a result with its own zoom_from
    int64_t le_ms;     // zoom_le_ms when not the widest
  };
  std::vector<ResolutionJson> resolution_json_;
  std::string zoom_le_key_;
  std::vector<std::string> percentile_keys_;       // ,"p99_9":
  std::vector<std::string> lower_bound_names_;     // "p99_9"
  std::vector<std::string> low_keys_, high_keys_;  // ,"p99_9_low":  ,"p99_9_high":
  std::string few_ios_key_;
  size_t percentile_room_ = 0;  // bytes a percentile document may need after "samples"
  // Per column: ",<midpoint in us>", the length in the last byte. Bucket documents copy
  // these whole (a fixed-size copy) and advance by the length.
  std::vector<std::array<char, 40>> mid_text_;
  // FNV-1a states of the two id hashes after "<kind>\x1f<run>\x1f", per kind.
  uint64_t id_seed_[3][2] = {};
};

}  // namespace fiohist
