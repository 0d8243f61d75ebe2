// CSV output of per-quantum (or whole-run) statistics.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "output/latency_unit.h"
#include "output/table_sink.h"
#include "stats/result_sink.h"

namespace fiohist {

/// Writes one CSV row per result:
/// start,start_ms,end_ms,elapsed_s,scope,host,job,direction,logs,samples,iops,min,mean,max,
/// <percentiles>,top_bucket,lower_bound. `start` is ISO 8601 UTC when the run has
/// absolute time; `lower_bound` lists the columns whose value lies in fio's clamped last
/// bucket (a lower bound only), separated by ';'. Empty quanta leave statistics empty.
class CsvSink : public TableSink {
 public:
  /// Writes to `out` (not owned; stdout or a file the caller closes).
  CsvSink(std::FILE* out, LatencyUnit unit, RowSelection rows);
  Status Begin(const RunInfo& info) override;
  Status End(const RunSummary& summary) override;

 private:
  void Format(const ScopeResult& r, std::string* out) const override;
  Status Write(std::string_view row) override;
  std::FILE* out_;
  LatencyUnit unit_;
  RunInfo info_;
  bool issue_ = false;  // --place issue: the complete_to column
};

}  // namespace fiohist
