// Elasticsearch documents built from results: percentile, bucket and run documents.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "result_sink.h"

namespace fiohist {

/// The three kinds of documents and their index suffixes ("pctiles", "buckets", "runs").
enum class DocKind { kPercentiles, kBuckets, kRun };
/// "pctiles", "buckets" or "runs".
const char* DocKindName(DocKind kind);

/// Who a push belongs to: the run name and the user's tags and labels.
struct RunMeta {
  std::string run;
  std::vector<std::string> tags;
  std::vector<std::pair<std::string, std::string>> labels;
};

/// Histogram counts in bucket documents' `latency` field are multiplied by this and
/// rounded, at least 1 for any non-zero bucket: the `histogram` type wants integers and
/// no tail sample may vanish. Percentiles do not change with the scale.
constexpr double kLatencyCountScale = 1000.0;

/// Builds document sources (JSON text) as docs/documents.md describes. Latencies are in
/// microseconds unless another `ns_per_unit` is given (the NDJSON table output).
class DocumentBuilder {
 public:
  DocumentBuilder(const RunInfo& info, RunMeta meta, double ns_per_unit = 1000.0);

  /// The percentile document of `r` (also the row of `pctiles --format ndjson`).
  std::string Percentiles(const ScopeResult& r) const;
  /// The bucket document of `r`: its non-zero buckets, exact and as a `histogram`.
  std::string Buckets(const ScopeResult& r) const;
  /// The run document, from the whole-run cluster results (one per direction).
  std::string Run(const RunSummary& summary, const std::vector<ScopeResult>& whole_run) const;

  /// Deterministic id of `r`'s document of `kind`: a re-push overwrites, never duplicates.
  std::string Id(DocKind kind, const ScopeResult& r) const;
  /// Deterministic id of the run document.
  std::string RunId() const;

 private:
  const RunInfo& info_;
  RunMeta meta_;
  double ns_per_unit_;
};

/// Lowercase hex of a 128-bit hash of `key` (not cryptographic; for document ids).
std::string HashHex128(const std::string& key);

}  // namespace fiohist
