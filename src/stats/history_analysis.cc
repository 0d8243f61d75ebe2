#include "stats/history_analysis.h"

#include <cmath>

namespace fiohist {

HistoryAnalysis AnalyseHistory(const std::vector<HistorySeries>& series,
                               const ChangePointOptions& options) {
  HistoryAnalysis result;
  result.shifts.resize(series.size());
  if (series.empty()) return result;
  result.level = 1 - options.significance / static_cast<double>(series.size());
  std::vector<ChangePointSeries> input;
  for (const HistorySeries& s : series) {
    ChangePointSeries c;
    c.values = s.log;
    for (double v : s.var) c.se.push_back(std::sqrt(v));
    input.push_back(std::move(c));
  }
  const JointChangePoints joint = FindJointChangePoints(input, options);
  result.exact = joint.exact;
  result.smallest_p = joint.smallest_p;
  for (size_t k = 0; k < series.size(); ++k) {
    const HistorySeries& s = series[k];
    // The weights the split was found with.
    const std::vector<double> w = options.weighted
                                      ? PrecisionWeights(input[k].values, input[k].se, nullptr)
                                      : std::vector<double>(s.log.size(), 1.0);
    for (const ChangePoint& cp : joint.found[k]) {
      HistoryShift shift;
      shift.split = cp;
      auto part = [](const std::vector<double>& v, size_t lo, size_t hi) {
        return std::vector<double>(v.begin() + static_cast<long>(lo),
                                   v.begin() + static_cast<long>(hi));
      };
      double mean_var = 0;
      for (size_t i = cp.lo; i < cp.hi; ++i) mean_var += s.var[i];
      mean_var /= static_cast<double>(cp.hi - cp.lo);
      shift.change = CombineSegments(part(s.log, cp.lo, cp.index), part(w, cp.lo, cp.index),
                                     part(s.log, cp.index, cp.hi), part(w, cp.index, cp.hi),
                                     mean_var, s.metric.assumed_spread, result.level);
      shift.verdict = Decide(OnWorseSide(shift.change, s.metric.spec), s.metric.min_effect,
                             &shift.reason);
      shift.change_point =
          shift.verdict == Verdict::kRegression || shift.verdict == Verdict::kImprovement;
      result.shifts[k].push_back(shift);
    }
  }
  return result;
}

}  // namespace fiohist
