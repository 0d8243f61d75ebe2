#include "log/grid_phase.h"

#include <algorithm>
#include <map>
#include <utility>

#include "log/time_anchor.h"

namespace fiohist {
namespace {

// Above this many distinct phases they are gathered into as many bins: the search is
// quadratic in them, and a phase closer than period / kMaxPhases to the best one splits
// a negligible share of I/Os.
constexpr int64_t kMaxPhases = 2048;

int64_t Mod(int64_t t, int64_t m) {
  const int64_t r = t % m;
  return r < 0 ? r + m : r;
}

}  // namespace

Status ParseGridChoice(const std::string& text, GridChoice* choice) {
  *choice = GridChoice();
  if (text == "logs") return Status();
  if (text == "epoch") {
    choice->mode = GridChoice::Mode::kEpoch;
    return Status();
  }
  Status s = ParseStartTime(text, &choice->origin_ms);
  if (!s.ok()) {
    return Status::Error("--grid: expected logs, epoch or an origin time (ISO 8601 such as "
                         "2026-11-22T10:00:00.250Z, or Unix epoch seconds), got '" +
                         text + "'");
  }
  choice->mode = GridChoice::Mode::kOrigin;
  return Status();
}

const char* GridModeName(GridChoice::Mode mode) {
  switch (mode) {
    case GridChoice::Mode::kLogs:
      return "logs";
    case GridChoice::Mode::kEpoch:
      return "epoch";
    case GridChoice::Mode::kOrigin:
      return "origin";
  }
  return "?";
}

int64_t PhasePeriod(int64_t quantum_ms, int64_t log_hist_msec) {
  if (log_hist_msec <= 0 || log_hist_msec >= quantum_ms) return quantum_ms;
  // An inferred interval may be off by a millisecond or two (999 for 1000): a quantum
  // within 2 % of n intervals counts as n of them.
  const int64_t n = (quantum_ms + log_hist_msec / 2) / log_hist_msec;
  const int64_t off = n * log_hist_msec - quantum_ms;
  if (n >= 1 && quantum_ms % n == 0 && (off < 0 ? -off : off) * 50 <= quantum_ms) {
    return quantum_ms / n;
  }
  return quantum_ms;
}

int64_t CircularMedianPhase(const std::vector<RecordEnd>& ends, int64_t period) {
  if (ends.empty() || period <= 1) return 0;
  std::map<int64_t, double> weight;  // phase -> I/Os
  for (const RecordEnd& e : ends) weight[Mod(e.end_ms, period)] += e.ios > 0 ? e.ios : 1.0;
  if (static_cast<int64_t>(weight.size()) > kMaxPhases) {
    const int64_t bin = (period + kMaxPhases - 1) / kMaxPhases;
    std::map<int64_t, double> binned;
    for (const auto& [phase, w] : weight) binned[phase / bin * bin + bin / 2] += w;
    weight.swap(binned);
  }
  std::vector<std::pair<int64_t, double>> points(weight.begin(), weight.end());
  int64_t best = points.front().first;
  double best_cost = -1;
  for (const auto& candidate : points) {
    double cost = 0;
    for (const auto& [phase, w] : points) {
      const int64_t d = Mod(phase - candidate.first, period);
      cost += w * static_cast<double>(d < period - d ? d : period - d);
    }
    if (best_cost < 0 || cost < best_cost) {
      best_cost = cost;
      best = candidate.first;
    }
  }
  return Mod(best, period);
}

GridPlan PlanGrid(const GridChoice& choice, int64_t quantum_ms, int64_t log_hist_msec,
                  const std::vector<LogRecordEnds>& logs) {
  GridPlan plan;
  plan.period_ms = PhasePeriod(quantum_ms, log_hist_msec);
  std::vector<RecordEnd> all;
  std::vector<std::string> hosts;  // in order of first appearance
  std::map<std::string, std::vector<RecordEnd>> by_host;
  for (const LogRecordEnds& l : logs) {
    all.insert(all.end(), l.ends.begin(), l.ends.end());
    auto [it, added] = by_host.emplace(l.host, std::vector<RecordEnd>());
    if (added) hosts.push_back(l.host);
    it->second.insert(it->second.end(), l.ends.begin(), l.ends.end());
  }
  switch (choice.mode) {
    case GridChoice::Mode::kLogs:
      plan.origin_ms = CircularMedianPhase(all, plan.period_ms);
      break;
    case GridChoice::Mode::kEpoch:
      plan.origin_ms = 0;
      break;
    case GridChoice::Mode::kOrigin:
      // Its phase: every grid is kept as an origin in [0, quantum), so that coarser
      // windows (multiples of the quantum from the origin) are the same for a push and
      // for a read-back, which sees only the stored quanta's starts.
      plan.origin_ms = Mod(choice.origin_ms, quantum_ms);
      break;
  }
  if (plan.period_ms <= 1) return plan;
  const int64_t record_ms = log_hist_msec > 0 ? log_hist_msec : plan.period_ms;
  const int64_t far = static_cast<int64_t>(kFarFromEdge * static_cast<double>(plan.period_ms));
  // Records already shorter than the quantum need to be shorter still, not "a fraction".
  const std::string shorter =
      record_ms < quantum_ms
          ? "a shorter log_hist_msec than its " + std::to_string(record_ms) + " ms (e.g. " +
                std::to_string(std::max<int64_t>(1, record_ms / 5)) + " ms)"
          : "log_hist_msec a fraction of the quantum (e.g. 100 ms)";
  for (const std::string& host : hosts) {
    const std::vector<RecordEnd>& ends = by_host[host];
    if (ends.empty()) continue;
    const int64_t off = PhaseOffset(CircularMedianPhase(ends, plan.period_ms),
                                    Mod(plan.origin_ms, plan.period_ms), plan.period_ms);
    if ((off < 0 ? -off : off) <= far) continue;
    const int64_t ms = off < 0 ? -off : off;
    plan.notes.push_back(
        "host " + host + ": its records end " + std::to_string(ms) + " ms " +
        (off > 0 ? "after" : "before") + " the grid's quantum edges (period " +
        std::to_string(plan.period_ms) + " ms), so about " +
        std::to_string(static_cast<int>(100.0 * static_cast<double>(ms) /
                                        static_cast<double>(record_ms) + 0.5)) +
        "% of the I/Os of each of its records that crosses an edge are placed in the "
        "neighbouring quantum by spreading them uniformly over the record; start the "
        "hosts' fio together, or log with " + shorter);
  }
  return plan;
}

int64_t PhaseOffset(int64_t phase, int64_t from, int64_t period) {
  if (period <= 0) return 0;
  const int64_t d = Mod(phase - from, period);
  return d * 2 > period ? d - period : d;
}

}  // namespace fiohist
