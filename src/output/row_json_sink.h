// NDJSON output of `fiohist pctiles --format ndjson`: one percentile document per line.
#pragma once

#include <cstdio>
#include <memory>

#include "output/documents.h"
#include "output/latency_unit.h"
#include "output/table_sink.h"
#include "stats/result_sink.h"

namespace fiohist {

/// Writes each result as the percentile document (docs/documents.md) without run fields,
/// with latencies in the chosen unit and a "unit" field: one per line (NDJSON), or as
/// the elements of one JSON array when `array`.
class RowJsonSink : public TableSink {
 public:
  RowJsonSink(std::FILE* out, LatencyUnit unit, RowSelection rows, bool array = false);
  Status Begin(const RunInfo& info) override;
  Status End(const RunSummary& summary) override;

 private:
  void Format(const ScopeResult& r, std::string* out) const override;
  Status Write(std::string_view row) override;
  std::FILE* out_;
  LatencyUnit unit_;
  bool array_;
  bool first_ = true;
  RunInfo info_;
  std::unique_ptr<DocumentBuilder> builder_;
};

}  // namespace fiohist
