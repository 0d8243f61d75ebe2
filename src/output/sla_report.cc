#include "output/sla_report.h"

#include <algorithm>

#include "log/time_anchor.h"

namespace fiohist {
namespace {

// A quantum's bound: ISO 8601 when time is absolute, else ms since the jobs started.
std::string TimeText(int64_t ms, bool absolute) {
  return absolute ? FormatIsoTime(ms) : std::to_string(ms) + "ms";
}

}  // namespace

Status SlaReportSink::Begin(const RunInfo& info) {
  absolute_ = info.absolute;
  confidence_ = info.confidence;
  checker_ = SlaChecker(info.sla, info.percentiles);
  per_threshold_.assign(info.sla.size(), 0);
  return Status();
}

std::string SlaReportSink::BreachLine(const std::string& run, bool absolute,
                                      const SlaChecker& checker, const ScopeResult& r) {
  std::vector<size_t> breached, beyond;
  if (!checker.Breaches(r, &breached, &beyond)) return "";
  std::string line = "fiohist: SLA breach: " + (run.empty() ? "" : "run '" + run + "' ") +
                     TimeText(r.start_ms, absolute) + ".." + TimeText(r.end_ms, absolute) + " " +
                     DirectionName(r.direction) + ":";
  for (size_t k = 0; k < breached.size(); ++k) {
    const SlaThreshold& t = checker.thresholds()[breached[k]];
    PercentileList named;  // "p99.9", as the CSV header names it
    const std::string name = MakePercentiles({t.percentile}, &named).ok() ? named.names[0] : "p?";
    std::string value = FormatSlaLatency(checker.Value(r, breached[k]), 4, true);
    // Enough digits that the value never reads as the limit itself.
    const std::string limit = FormatSlaLatency(t.limit_ns, 0, true);
    for (int digits = 5; value == limit && digits <= 17; ++digits) {
      value = FormatSlaLatency(checker.Value(r, breached[k]), digits, true);
    }
    line += (k ? "; " : " ") + name + " " + value + " > " + limit;
    // Whether sampling noise explains it: the percentile's interval against the limit.
    const double high = checker.High(r, breached[k]);
    char level[32];
    std::snprintf(level, sizeof level, "%g%%", 100 * r.stats.confidence);
    const bool sure = std::find(beyond.begin(), beyond.end(), breached[k]) != beyond.end();
    line += std::string(" (") + level + " interval " +
            FormatSlaLatency(checker.Low(r, breached[k]), 4, true) + ".." +
            (high < 0 ? "none: too few I/Os" : FormatSlaLatency(high, 4, true)) + ": " +
            (sure ? "beyond" : "within") + " sampling noise)";
  }
  return line;
}

Status SlaReportSink::Quantum(const ScopeResult& r) {
  if (!checker_.active() || r.resolution != 1 || !checker_.Applies(r)) return Status();
  ++checked_;
  std::vector<size_t> breached, beyond;
  if (!checker_.Breaches(r, &breached, &beyond)) return Status();
  ++breaches_;
  if (!beyond.empty()) ++beyond_noise_;
  for (size_t i : breached) ++per_threshold_[i];
  breached_spans_.emplace_back(r.start_ms, r.end_ms);
  std::fprintf(out_, "%s\n", BreachLine(run_, absolute_, checker_, r).c_str());
  std::fflush(out_);
  return Status();
}

Status SlaReportSink::End(const RunSummary& summary) {
  if (!checker_.active()) return Status();
  const std::string run = run_.empty() ? "" : "run '" + run_ + "': ";
  // Breaches in the quanta a stall touches: its stuck I/Os' latency, said once per stall.
  for (const Stall& st : summary.stalls) {
    if (!st.host.empty() || st.idle) continue;
    long long in = 0;
    for (const auto& [start, end] : breached_spans_) in += start < st.end_ms && end > st.start_ms;
    if (in == 0) continue;
    std::fprintf(out_,
                 "fiohist: SLA breach inside a stall: %s%lld breaching cluster quanta x "
                 "directions lie in the stall from %s to %s (%.1f s with no I/O completed; "
                 "%.0f I/O(s) stuck in it, the slowest %.0f ms)\n",
                 run.c_str(), in, TimeText(st.start_ms, absolute_).c_str(),
                 TimeText(st.end_ms, absolute_).c_str(), st.seconds(), st.stuck_ios,
                 st.slowest_ns / 1e6);
  }
  std::string texts, per;
  for (size_t i = 0; i < per_threshold_.size(); ++i) {
    texts += (i ? ", " : "") + checker_.thresholds()[i].text;
    per += (i ? ", " : "") + checker_.thresholds()[i].text + " " +
           std::to_string(per_threshold_[i]);
  }
  if (breaches_ == 0) {
    std::fprintf(out_,
                 "fiohist: SLA held: %sno cluster quantum breached %s (%lld quanta x "
                 "directions checked)\n",
                 run.c_str(), texts.c_str(), checked_);
  } else {
    std::fprintf(out_,
                 "fiohist: SLA breached: %s%lld of %lld cluster quanta x directions "
                 "breached (per threshold: %s); %lld of them beyond sampling noise (the "
                 "percentile's %g%% interval above the limit)\n",
                 run.c_str(), breaches_, checked_, per.c_str(), beyond_noise_,
                 100 * confidence_);
  }
  return Status();
}

}  // namespace fiohist
