// The kinds of documents fiohist writes, one Elasticsearch index each.
#pragma once

namespace fiohist {

/// Percentile, bucket and run documents, and the stalls of a run (one document per stall or
/// idle gap of a host or the cluster: what Grafana draws as annotations).
enum class DocKind { kPercentiles, kBuckets, kRun, kStalls };

/// The index suffix of `kind`: "pctiles", "buckets", "runs" or "stalls".
constexpr const char* DocKindName(DocKind kind) {
  return kind == DocKind::kPercentiles ? "pctiles"
         : kind == DocKind::kBuckets   ? "buckets"
         : kind == DocKind::kRun       ? "runs"
                                       : "stalls";
}

/// Every kind, in index order.
constexpr DocKind kAllDocKinds[] = {DocKind::kPercentiles, DocKind::kBuckets, DocKind::kRun,
                                    DocKind::kStalls};

/// How many kinds there are.
constexpr int kDocKindCount = 4;

}  // namespace fiohist
