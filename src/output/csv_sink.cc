#include "output/csv_sink.h"

#include "base/file_write.h"
#include "base/number_format.h"
#include "log/time_anchor.h"
#include "output/fields.h"

namespace fiohist {

CsvSink::CsvSink(std::FILE* out, LatencyUnit unit, RowSelection rows)
    : TableSink(rows), out_(out), unit_(std::move(unit)) {}

Status CsvSink::Begin(const RunInfo& info) {
  info_ = info;
  issue_ = info.placement == "issue";
  const std::string header = CsvHeader(info.percentiles.names, issue_);
  return WriteText(out_, header);
}

void CsvSink::Format(const ScopeResult& r, std::string* out) const {
  std::string& l = *out;
  if (info_.absolute) l += FormatIsoTime(r.start_ms);
  l += ',';
  l += std::to_string(r.start_ms);
  l += ',';
  l += std::to_string(r.end_ms);
  l += ',';
  AppendShortest(&l, r.elapsed_s);
  l += ',';
  l += ScopeName(r.kind);
  l += ',';
  l += r.host;
  l += ',';
  l += r.job;
  l += ',';
  l += info_.directions.Name(r.direction);
  l += ',';
  l += std::to_string(r.logs);
  l += ',';
  const LatencyStats& s = r.stats;
  AppendShortest(&l, StatValue(Stat::kSamples, r, unit_.ns_per_unit));
  l += ',';
  AppendShortest(&l, StatValue(Stat::kIops, r, unit_.ns_per_unit));
  // An empty quantum leaves its latency columns empty.
  const bool have = s.samples > 0;
  for (Stat stat : {Stat::kMin, Stat::kMean, Stat::kMax}) {
    l += ',';
    if (have) AppendShortest(&l, StatValue(stat, r, unit_.ns_per_unit));
  }
  for (double v : s.percentile_ns) {
    l += ',';
    if (have) AppendShortest(&l, v / unit_.ns_per_unit);
  }
  l += ',';
  AppendShortest(&l, StatValue(Stat::kTopBucket, r, unit_.ns_per_unit));
  l += ',';
  bool first = true;
  for (size_t i = 0; i < s.lower_bound.size(); ++i) {
    if (!s.lower_bound[i]) continue;
    if (!first) l += ';';
    l += info_.percentiles.names[i];
    first = false;
  }
  if (s.max_lower_bound) l += first ? "max" : ";max";
  l += ',';
  AppendShortest(&l, r.coverage);
  l += r.partial ? ",true," : ",false,";
  if (r.straddled >= 0) AppendShortest(&l, r.straddled);
  // Each percentile's confidence bounds; the upper one is empty where the percentile rests
  // on too few I/Os (those are named in the last column).
  for (size_t i = 0; i < s.percentile_ns.size(); ++i) {
    const bool bounded = i < s.few_ios.size();
    l += ',';
    if (have && bounded) AppendShortest(&l, s.percentile_low_ns[i] / unit_.ns_per_unit);
    l += ',';
    if (have && bounded && !s.few_ios[i]) {
      AppendShortest(&l, s.percentile_high_ns[i] / unit_.ns_per_unit);
    }
  }
  l += ',';
  first = true;
  for (size_t i = 0; i < s.few_ios.size(); ++i) {
    if (!s.few_ios[i]) continue;
    if (!first) l += ';';
    l += info_.percentiles.names[i];
    first = false;
  }
  if (issue_) {
    l += ',';
    if (r.complete_to_ms != INT64_MAX) {
      AppendShortest(&l, static_cast<double>(r.complete_to_ms) * 1e6 / unit_.ns_per_unit);
    }
  }
  l += '\n';
}

Status CsvSink::Write(std::string_view row) { return WriteText(out_, row); }

Status CsvSink::End(const RunSummary&) { return FlushText(out_); }

}  // namespace fiohist
