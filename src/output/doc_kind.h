// The kinds of documents fiohist writes, one Elasticsearch index each.
#pragma once

namespace fiohist {

/// Percentile, bucket and run documents.
enum class DocKind { kPercentiles, kBuckets, kRun };

/// The index suffix of `kind`: "pctiles", "buckets" or "runs".
constexpr const char* DocKindName(DocKind kind) {
  return kind == DocKind::kPercentiles ? "pctiles" : kind == DocKind::kBuckets ? "buckets" : "runs";
}

/// Every kind, in index order.
constexpr DocKind kAllDocKinds[] = {DocKind::kPercentiles, DocKind::kBuckets, DocKind::kRun};

}  // namespace fiohist
