// CSV output of per-quantum (or whole-run) statistics.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "stats/result_sink.h"

namespace fiohist {

/// A latency unit for output: "us" (default), "ns", "ms" or "s".
struct LatencyUnit {
  std::string name = "us";
  double ns_per_unit = 1000.0;
};

/// Parses "us", "usec", "ns", "nsec", "ms", "msec", "s", "sec".
Status ParseLatencyUnit(const std::string& text, LatencyUnit* unit);

/// Which rows a table sink writes.
enum class RowSelection { kQuanta, kWholeRun };

/// A sink that writes one row per result: those of the quanta, or those of the whole run.
/// Rows of quanta are formatted on the pipeline's worker threads (Prepare).
class TableSink : public ResultSink {
 public:
  explicit TableSink(RowSelection rows) : rows_(rows) {}
  Status Quantum(const ScopeResult& r) final {
    if (rows_ != RowSelection::kQuanta) return Status();
    if (!r.prepared.empty()) return Write(r.prepared);
    std::string row;
    Format(r, &row);
    return Write(row);
  }
  Status WholeRun(const ScopeResult& r) final {
    if (rows_ != RowSelection::kWholeRun) return Status();
    std::string row;
    Format(r, &row);
    return Write(row);
  }
  bool prepares() const final { return rows_ == RowSelection::kQuanta; }
  void Prepare(const ScopeResult& r, std::string* prepared) const final {
    prepared->clear();
    Format(r, prepared);
  }

 protected:
  /// Appends the row of `r`, newline included; may run on several threads at once.
  virtual void Format(const ScopeResult& r, std::string* out) const = 0;
  /// Writes one formatted row, in result order.
  virtual Status Write(std::string_view row) = 0;

 private:
  RowSelection rows_;
};

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
};

}  // namespace fiohist
