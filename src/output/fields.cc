#include "output/fields.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fiohist {

const char* FieldTypeName(FieldType type) {
  switch (type) {
    case FieldType::kDate:
      return "date";
    case FieldType::kDouble:
      return "double";
    case FieldType::kInteger:
      return "integer";
    case FieldType::kLong:
      return "long";
    case FieldType::kKeyword:
      return "keyword";
    case FieldType::kBoolean:
      return "boolean";
    case FieldType::kObject:
      return "object";
    case FieldType::kHistogram:
      return "histogram";
  }
  return "?";
}

const std::vector<Field>& ResultFields() {
  constexpr unsigned kDocs = kInPctiles | kInBuckets;
  static const std::vector<Field> fields = {
      {"start", FieldType::kDate, kInCsv},  // ISO 8601; empty for relative time
      {"start_ms", FieldType::kInteger, kInCsv},
      {"end_ms", FieldType::kInteger, kInCsv},
      {"@timestamp", FieldType::kDate, kDocs},
      {"end", FieldType::kDate, kInPctiles},
      {"elapsed_s", FieldType::kDouble, kInPctiles | kInCsv},
      {"quantum_s", FieldType::kDouble, kDocs},
      {"run", FieldType::kKeyword, kDocs},
      {"tags", FieldType::kKeyword, kDocs},
      {"labels", FieldType::kObject, kDocs},
      {"scope", FieldType::kKeyword, kDocs | kInCsv},
      {"host", FieldType::kKeyword, kDocs | kInCsv},
      {"job", FieldType::kKeyword, kDocs | kInCsv},
      {"direction", FieldType::kKeyword, kDocs | kInCsv},
      // smallfile runs whose ops have slots of their own: the op, also the direction
      // (log/direction_names.h); absent for fio's directions and `all`.
      {"op", FieldType::kKeyword, kDocs},
      {"logs", FieldType::kInteger, kDocs | kInCsv},
      {"samples", FieldType::kDouble, kDocs | kInCsv | kPerDirection},
      // The span as a multiple of the quantum (1, 10, 60, ...), and the dashboard
      // intervals I it is drawn for: zoom_gt_ms < I <= zoom_le_ms (resolution_sink.h).
      {"resolution", FieldType::kInteger, kInPctiles},
      {"zoom_gt_ms", FieldType::kLong, kInPctiles},
      {"zoom_le_ms", FieldType::kLong, kInPctiles},
      {"iops", FieldType::kDouble, kInPctiles | kInCsv | kPerDirection},
      {"min", FieldType::kDouble, kInPctiles | kInCsv | kPerDirection},
      {"mean", FieldType::kDouble, kInPctiles | kInCsv | kPerDirection},
      {"max", FieldType::kDouble, kInPctiles | kInCsv | kPerDirection},
      {"p*", FieldType::kDouble, kInPctiles | kInCsv | kPerDirection, true},
      {"top_bucket", FieldType::kDouble, kInPctiles | kInCsv | kPerDirection},
      {"clamped", FieldType::kBoolean, kInPctiles | kPerDirection},
      {"lower_bound", FieldType::kKeyword, kInPctiles | kInCsv | kPerDirection},
      // How much of the span the logs cover, and whether that is short of all of it (last
      // in the CSV, so the columns before keep their positions).
      // Bucket documents carry it only where it is below 1, for read-back.
      {"coverage", FieldType::kDouble, kInPctiles | kInBuckets | kInCsv},
      {"partial", FieldType::kBoolean, kInPctiles | kInCsv},
      // The share of the span's I/Os that spreading records uniformly may have put on the
      // wrong side of its edges (scope_result.h); absent (empty) where unknown.
      {"straddled", FieldType::kDouble, kInPctiles | kInCsv | kPerDirection},
      // Each percentile's confidence interval at the run's --confidence (lower and upper
      // bucket edge; no `_high` where the percentile is in `few_ios`), and the percentiles
      // resting on too few I/Os for an upper bound (after `partial` in the CSV, so the
      // columns before keep their positions).
      {"p*_low,p*_high", FieldType::kDouble, kInPctiles | kInCsv | kPerDirection, false, true},
      {"few_ios", FieldType::kKeyword, kInPctiles | kInCsv | kPerDirection},
      // --place issue only: where I/Os were placed ("issue"; absent: at completion), and
      // the latency up to which every I/O issued in the span is in the logs, where a slower
      // one may be missing (the run's last quanta, also `partial`; empty otherwise).
      {"placement", FieldType::kKeyword, kInPctiles | kIssueOnly},
      {"complete_to", FieldType::kDouble, kInPctiles | kInCsv | kIssueOnly},
      // Cluster documents of a run with SLA thresholds only (absent otherwise): whether
      // the span breaches any of them, and the normalized texts of those it breaches (each
      // names its direction: pctiles_version 2 keeps them at the top, for every direction).
      {"sla_breach", FieldType::kBoolean, kInPctiles},
      {"sla_breached", FieldType::kKeyword, kInPctiles},
      // Of those, whether some breach is beyond sampling noise (the percentile's confidence
      // interval lies above the limit), and their texts: what the alert rules fire on.
      {"sla_breach_beyond_noise", FieldType::kBoolean, kInPctiles},
      {"sla_breached_beyond_noise", FieldType::kKeyword, kInPctiles},
      // pctiles_version 2 (one document per window holding every direction): the version,
      // and the names of the directions (fio's, or a smallfile run's ops, and `all`) whose
      // objects the document holds.
      {"pctiles_version", FieldType::kInteger, kInPctiles},
      {"directions", FieldType::kKeyword, kInPctiles},
      // pctiles_version 2, cluster documents of a run with SLA thresholds: the directions
      // breaching a threshold, and those breaching one beyond sampling noise (what the
      // alert rules count, per run and direction).
      {"sla_breach_directions", FieldType::kKeyword, kInPctiles},
      {"sla_breach_beyond_noise_directions", FieldType::kKeyword, kInPctiles},
      // Accuracy windows only (--accuracy, DocumentBuilder::AppendWindow): the window's
      // length in quanta, and whether its intervals met the targets (false: cut at
      // --accuracy-max-quanta, or the run's last window).
      {"window_quanta", FieldType::kInteger, kInPctiles},
      {"accurate", FieldType::kBoolean, kInPctiles},
      {"layout", FieldType::kKeyword, kInBuckets},
      // Integer counts (BucketCarry), in one of two forms (BucketForm): a `latency`
      // histogram where the cluster has the type (else an object kept in _source only),
      // or delta-coded bucket indices with their counts, in _source only.
      {"latency", FieldType::kHistogram, kInBuckets},
      {"bucket_runs", FieldType::kInteger, kInBuckets},
      {"bucket_ios", FieldType::kInteger, kInBuckets},
      // Counts are I/Os times this (absent: 1).
      {"latency_scale", FieldType::kInteger, kInBuckets},
      // The record form of job documents (compact form, from logs): the fio records whose
      // spans start in the quantum, their spans and whole counts (`hist`, coded by
      // hist_code.h; runs before bucket_version 2: `runs`/`ios`), in _source only; and the end
      // of their last span, which read-back of a window searches on.
      {"records", FieldType::kObject, kInBuckets},
      {"records_end", FieldType::kDate, kInBuckets},
      // A job document of bucket_version 3 (one per job and quantum, `records` an object by
      // direction): each direction's `samples`, by direction name, in _source only.
      {"samples_by_direction", FieldType::kObject, kInBuckets},
      // A job document of bucket_version 4 (one per job and window of 10 quanta): per
      // quantum with records, its offset_ms from @timestamp, samples, samples_by_direction,
      // records (by direction) and coverage, in _source only.
      {"quanta", FieldType::kObject, kInBuckets},
  };
  return fields;
}

const std::vector<Field>& RunFields() {
  static const std::vector<Field> fields = {
      {"run", FieldType::kKeyword, kInRuns},
      {"tags", FieldType::kKeyword, kInRuns},
      {"labels", FieldType::kObject, kInRuns},
      {"@timestamp", FieldType::kDate, kInRuns},
      {"start", FieldType::kDate, kInRuns},
      {"end", FieldType::kDate, kInRuns},
      {"duration_s", FieldType::kDouble, kInRuns},
      // start and end as Unix-epoch ms whatever the anchor: Grafana links take them as
      // from/to (a date field reaches a data link as formatted text).
      {"start_ms", FieldType::kLong, kInRuns},
      {"end_ms", FieldType::kLong, kInRuns},
      {"hosts", FieldType::kKeyword, kInRuns},
      {"jobs", FieldType::kKeyword, kInRuns},
      {"files", FieldType::kInteger, kInRuns},
      {"quantum_s", FieldType::kDouble, kInRuns},
      {"layout", FieldType::kKeyword, kInRuns},
      {"fio_versions", FieldType::kKeyword, kInRuns},
      {"anchor", FieldType::kKeyword, kInRuns},
      // Absent unless fio's JSON (fio < 3.36) placed jobs one by one on its process timeline:
      // per log, {job, fio_job, start, early_ms, late_ms} (no text: the summary says how).
      {"job_anchors", FieldType::kObject, kInRuns},
      // How quanta were placed ("logs", "epoch", "origin") and their origin: quanta and
      // coarser windows start at grid_origin_ms + k x their length (read-back uses it).
      {"grid", FieldType::kKeyword, kInRuns},
      {"grid_origin_ms", FieldType::kLong, kInRuns},
      {"log_hist_msec", FieldType::kInteger, kInRuns},
      // Absent unless --place issue: "issue" (its quanta count I/Os where they were issued).
      {"placement", FieldType::kKeyword, kInRuns},
      {"resolutions", FieldType::kInteger, kInRuns},
      // The finest resolution of job percentile documents (absent: 1, runs before it).
      {"job_resolution", FieldType::kInteger, kInRuns},
      // How the run's bucket documents are coded (kBucketVersion; absent: 1, records as
      // runs/ios arrays; 2: records as `hist` strings; 3: a job's directions of a quantum
      // in one record-form document; 4: a job's quanta of a window of 10 in one).
      {"bucket_version", FieldType::kInteger, kInRuns},
      // How the percentile documents are laid out (absent: 1, one per direction).
      {"pctiles_version", FieldType::kInteger, kInRuns},
      // Absent without a fio JSON output: the smallest share of fio's I/Os a job's log holds.
      {"logged_io_share", FieldType::kDouble, kInRuns},
      // "finished" (push), or "running" / "aborted" (a live run).
      {"state", FieldType::kKeyword, kInRuns},
      // Absent without --sla: the normalized thresholds, and how many cluster quanta
      // (resolution 1, each direction apart) breached them.
      {"sla", FieldType::kKeyword, kInRuns},
      {"sla_breaches", FieldType::kInteger, kInRuns},
      {"sla_breaches_beyond_noise", FieldType::kInteger, kInRuns},
      // The whole-run cluster statistics of all directions stand here.
      {"samples", FieldType::kDouble, kInRuns},
      {"iops", FieldType::kDouble, kInRuns},
      {"min", FieldType::kDouble, kInRuns},
      {"mean", FieldType::kDouble, kInRuns},
      {"max", FieldType::kDouble, kInRuns},
      {"p*", FieldType::kDouble, kInRuns, true},
      {"p*_low,p*_high", FieldType::kDouble, kInRuns, false, true},
      {"few_ios", FieldType::kKeyword, kInRuns},
      // The confidence level of every `_low` / `_high` bound of the run.
      {"confidence", FieldType::kDouble, kInRuns},
      // Every scope x direction, kept in _source only (`enabled: false`): the cluster's always,
      // the hosts' and jobs' while they fit (kRunSummaryMaxEntries).
      {"summary", FieldType::kObject, kInRuns},
      // Absent when `summary` lists every scope: the host and job entries left out of it.
      {"summary_omitted", FieldType::kObject, kInRuns},
      // Absent without one: each stall or idle gap (no completion for over twice
      // log_hist_msec) of a host or the cluster, with its stuck I/Os; _source only.
      {"stalls", FieldType::kObject, kInRuns},
  };
  return fields;
}

const std::vector<Field>& ChangePointFields() {
  static const std::vector<Field> fields = {
      // "change" (a change point) or "point" (a run of the tag's history and its baseline).
      {"kind", FieldType::kKeyword, kInChanges},
      // The start of the first run at the new level (the annotation's time), also as ms.
      {"@timestamp", FieldType::kDate, kInChanges},
      {"start_ms", FieldType::kLong, kInChanges},
      {"tag", FieldType::kKeyword, kInChanges},
      {"metric", FieldType::kKeyword, kInChanges},
      {"direction", FieldType::kKeyword, kInChanges},
      // The first run at the new level, and the last one before it.
      {"run", FieldType::kKeyword, kInChanges},
      {"run_before", FieldType::kKeyword, kInChanges},
      // History points only: the finished run of the tag before `run` (the comparison's
      // baseline), absent for the tag's first run.
      {"baseline", FieldType::kKeyword, kInChanges},
      // "us" for latencies, "iops" for iops: the unit of before and after.
      {"unit", FieldType::kKeyword, kInChanges},
      {"before", FieldType::kDouble, kInChanges},
      {"after", FieldType::kDouble, kInChanges},
      {"ratio", FieldType::kDouble, kInChanges},
      {"p_value", FieldType::kDouble, kInChanges},
      // How many runs the series had, and when it was analysed.
      {"runs", FieldType::kInteger, kInChanges},
      {"analysed_at", FieldType::kDate, kInChanges},
      // History points only: the run's end (the overview link's range), and its whole-run
      // values of the default metrics (history's --metrics) with the 95% interval of the block
      // bootstrap (the spread within the run, not the spread between runs), latencies in us.
      {"end_ms", FieldType::kLong, kInChanges},
      {"p50", FieldType::kDouble, kInChanges},
      {"p50_low", FieldType::kDouble, kInChanges},
      {"p50_high", FieldType::kDouble, kInChanges},
      {"p99", FieldType::kDouble, kInChanges},
      {"p99_low", FieldType::kDouble, kInChanges},
      {"p99_high", FieldType::kDouble, kInChanges},
      {"p99_9", FieldType::kDouble, kInChanges},
      {"p99_9_low", FieldType::kDouble, kInChanges},
      {"p99_9_high", FieldType::kDouble, kInChanges},
      {"iops", FieldType::kDouble, kInChanges},
      {"iops_low", FieldType::kDouble, kInChanges},
      {"iops_high", FieldType::kDouble, kInChanges},
      // The annotation's text and tags (direction, metric, "rise" or "fall").
      {"text", FieldType::kKeyword, kInChanges},
      {"labels", FieldType::kKeyword, kInChanges},
  };
  return fields;
}

const std::vector<Field>& StallFields() {
  static const std::vector<Field> fields = {
      {"run", FieldType::kKeyword, kInStalls},
      {"tags", FieldType::kKeyword, kInStalls},
      {"labels", FieldType::kObject, kInStalls},
      // "stall" or "idle" (the jobs asked for the gap: thinktime, rate).
      {"kind", FieldType::kKeyword, kInStalls},
      // "cluster" (no host completed anything) or "host" (with `host`).
      {"scope", FieldType::kKeyword, kInStalls},
      {"host", FieldType::kKeyword, kInStalls},
      // Its start (an estimate) and end (the completion that ended it), also as Unix ms.
      {"@timestamp", FieldType::kDate, kInStalls},
      {"end", FieldType::kDate, kInStalls},
      {"start_ms", FieldType::kLong, kInStalls},
      {"end_ms", FieldType::kLong, kInStalls},
      {"duration_s", FieldType::kDouble, kInStalls},
      // The I/Os stuck in it (docs/stalls.md), and the slowest of them (latency unit).
      {"stuck_ios", FieldType::kDouble, kInStalls},
      {"stuck_max", FieldType::kDouble, kInStalls},
      // The annotation's text ("stall 3.1 s: 12 I/Os stuck, slowest 3.09 s") and tags
      // (kind, scope and the host).
      {"text", FieldType::kKeyword, kInStalls},
      {"annotation_tags", FieldType::kKeyword, kInStalls},
  };
  return fields;
}

const char* StatName(Stat stat) {
  switch (stat) {
    case Stat::kSamples:
      return "samples";
    case Stat::kIops:
      return "iops";
    case Stat::kMin:
      return "min";
    case Stat::kMean:
      return "mean";
    case Stat::kMax:
      return "max";
    case Stat::kTopBucket:
      return "top_bucket";
  }
  return "?";
}

const char* CheckedFieldName(const std::vector<Field>& fields, const char* name, const char* what) {
  for (const Field& f : fields) {
    if (!std::strcmp(f.name, name)) return name;
  }
  std::fprintf(stderr, "fiohist: internal error: %s field '%s' is not in fields.cc\n", what, name);
  std::abort();
}

double StatValue(Stat stat, const ScopeResult& r, double ns_per_unit) {
  const LatencyStats& s = r.stats;
  switch (stat) {
    case Stat::kSamples:
      return s.samples;
    case Stat::kIops: {
      const double seconds = static_cast<double>(r.end_ms - r.start_ms) / 1000.0;
      return seconds > 0 ? s.samples / seconds : 0.0;
    }
    case Stat::kMin:
      return s.min_ns / ns_per_unit;
    case Stat::kMean:
      return s.mean_ns / ns_per_unit;
    case Stat::kMax:
      return s.max_ns / ns_per_unit;
    case Stat::kTopBucket:
      return s.top_bucket;
  }
  return 0;
}

bool IsBoundName(const std::string& name) {
  auto ends = [&](const char* suffix) {
    const size_t n = std::strlen(suffix);
    return name.size() > n && name.compare(name.size() - n, n, suffix) == 0;
  };
  return ends(kLowSuffix) || ends(kHighSuffix);
}

std::string CsvHeader(const std::vector<std::string>& percentiles, bool issue) {
  std::string header;
  for (const Field& f : ResultFields()) {
    if (!(f.places & kInCsv) || ((f.places & kIssueOnly) && !issue)) continue;
    if (f.percentiles) {
      for (const std::string& name : percentiles) header += name + ",";
    } else if (f.bounds) {
      for (const std::string& name : percentiles) {
        header += name + kLowSuffix + "," + name + kHighSuffix + ",";
      }
    } else {
      header += std::string(f.name) + ",";
    }
  }
  header.back() = '\n';
  return header;
}

}  // namespace fiohist
