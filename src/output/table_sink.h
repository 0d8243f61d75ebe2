// The base of the sinks that write one row per result (CSV, JSON rows).
#pragma once

#include <string>
#include <string_view>

#include "stats/result_sink.h"

namespace fiohist {

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
  /// Rows are made of statistics only.
  bool reads_job_histograms() const final { return false; }
  /// Rows of quanta ignore the whole run.
  bool reads_whole_run(ScopeKind) const final { return rows_ == RowSelection::kWholeRun; }

 protected:
  /// Appends the row of `r`, newline included; may run on several threads at once.
  virtual void Format(const ScopeResult& r, std::string* out) const = 0;
  /// Writes one formatted row, in result order.
  virtual Status Write(std::string_view row) = 0;

 private:
  RowSelection rows_;
};

}  // namespace fiohist
