// Is a run worse than its baseline? The change of each metric with an interval that holds
// the noise of the runs and the spread between runs, and a verdict per metric and overall.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "stats/block_bootstrap.h"
#include "stats/run_cells.h"

namespace fiohist {

/// The answer for one metric, or for a whole comparison (the worst of its metrics).
enum class Verdict : int { kPass = 0, kImprovement = 1, kInconclusive = 2, kRegression = 3 };

/// "pass", "improvement", "inconclusive", "regression".
const char* VerdictName(Verdict v);

/// One metric to compare and what counts as a change worth failing for.
struct CompareMetric {
  MetricSpec spec;
  /// The smallest relative change that matters (0.05: 5%).
  double min_effect = 0.05;
  /// The run-to-run spread (standard deviation of log value between runs of the same
  /// job) assumed when the baselines cannot measure it (a single baseline).
  double assumed_spread = 0.05;
};

/// The default run-to-run spread of a metric, from nine runs of one fio job (2 hosts, 15 s
/// of randread each): whole-run p50 ranged over 53-57 us, p99 over 79-88 us, p99.9 over
/// 111-125 us with one run at 217 us. As standard deviations of log value that is about
/// 2.5%, 3.5% and (without the outlier) 4%; the defaults are set above them: 3% up to p90,
/// 5% up to p99, 10% beyond (tails are noisier than the data of nine runs can show), 3% for
/// the I/O rate.
double DefaultAssumedSpread(const MetricSpec& spec);

/// How to compare.
struct CompareOptions {
  /// Default: p50, p99, p99.9 and iops, each with a 5% minimum effect.
  std::vector<CompareMetric> metrics;
  /// Family-wise confidence over every metric and direction compared: each interval is
  /// made at 1 - (1 - confidence) / (metrics x directions) (Bonferroni), so an A/A
  /// comparison of many metrics is not a regression by the chance of one of them.
  double confidence = 0.95;
  BootstrapOptions bootstrap;
};

/// p50, p99, p99.9 and iops with 5% minimum effect and their default assumed spreads.
std::vector<CompareMetric> DefaultCompareMetrics();

/// Parses "p50,p99,p99.9,iops" into metrics with the default effect and spread.
Status ParseCompareMetrics(const std::string& text, std::vector<CompareMetric>* metrics);

/// Applies "p99.9=20%" (or "0.2", or "all=10%") to the metrics' min_effect (`what` is
/// "min_effect") or assumed_spread ("assumed_spread").
Status ApplyMetricSetting(const std::string& text, const std::string& what,
                          std::vector<CompareMetric>* metrics);

/// A change on the log scale: log(run) - mean of log(baselines), and its interval.
struct LogChange {
  double estimate = 0;
  double se = 0;
  /// Degrees of freedom of the interval (infinite: normal).
  double df = 0;
  double low = 0, high = 0;
  /// The run-to-run spread (sd of log value) used, and whether it was assumed (one
  /// baseline, or the floor bound).
  double spread = 0;
  bool spread_assumed = false;
  /// One baseline: the spread between runs could not be measured at all.
  bool single_baseline = false;
};

/// Combines a run's log value and bootstrap variance with k baselines' into a change and
/// its interval at `level` (two-sided). Model (random effects, as in meta-analysis):
/// log value of run i = mu + u_i + e_i, u_i the run's own offset (sd tau: runs differ more
/// than their insides suggest), e_i its measurement noise (variance v_i, from the
/// bootstrap). With k >= 2 baselines their sample variance s^2 estimates tau^2 + v, and the
/// interval is the prediction interval of a new run: Var = s^2 (1 + 1/k) + (v_run - mean v),
/// Student's t with Satterthwaite's degrees of freedom (at least k - 1) for the part
/// estimated from k - 1; with equal v it is exact. The assumed spread is a floor of s^2
/// (s^2 = max(s^2, assumed^2 + mean v); `spread_assumed` says it bound), never a prior that
/// pulls a larger measured spread down: on a busy machine runs differ by 20-30%, and
/// weighing a 3% assumption against two or three baselines called such A/A pairs
/// regressions. The spread reported is tau = sqrt(max(0, s^2 - mean v)). With one baseline
/// tau cannot be estimated: the interval uses `assumed_spread` as if known (Var = v_run +
/// v_base + 2 tau^2, normal), for display only (`single_baseline`: Decide() says
/// inconclusive).
LogChange CombineChange(double run_log, double run_var, const std::vector<double>& base_logs,
                        const std::vector<double>& base_vars, double assumed_spread,
                        double level);

/// The change between two segments of a tag's history (the runs before a change point and
/// those after it, log values with precision weights): the difference of their weighted
/// means and its confidence interval at `level` (two-sided), under the same model as
/// CombineChange: each run's log value varies around its segment's level by s^2 (the
/// spread between runs and the run's own noise), estimated from both segments' residuals
/// (weighted, n - 2 df: the two-sample t interval, Var = s^2 (1/W_before + 1/W_after)),
/// with the same floor: s^2 >= assumed_spread^2 + mean_var (mean_var the runs' mean
/// bootstrap variance; `spread_assumed` says it bound).
LogChange CombineSegments(const std::vector<double>& before, const std::vector<double>& before_w,
                          const std::vector<double>& after, const std::vector<double>& after_w,
                          double mean_var, double assumed_spread, double level);

/// The change as Decide() reads it (higher is worse): the I/O rate's flipped.
LogChange OnWorseSide(const LogChange& c, const MetricSpec& spec);

/// The verdict rules on a log-scale change of a metric for which higher is worse (flip the
/// signs for the I/O rate): regression when the interval lies above 0 (evidence) and the
/// estimate is at least log(1 + min_effect) (a practical effect); improvement when it lies
/// below 0 and the estimate at most -log(1 + min_effect); pass when the interval's upper
/// end is below log(1 + min_effect) (a regression as large as the minimum is ruled out);
/// otherwise inconclusive: the interval is too wide to tell at the minimum effect.
/// With a single baseline (`change.single_baseline`) the spread between runs is unknown and
/// the interval rests on an assumed one: never a regression, improvement or pass, but
/// inconclusive, with the reason saying what the interval would say. `reason` says which.
Verdict Decide(const LogChange& change, double min_effect, std::string* reason);

/// The comparison of one metric in one direction.
struct MetricComparison {
  Direction direction = Direction::kAll;
  CompareMetric metric;
  double run_value = 0;
  /// Geometric mean of the baselines' values, and each baseline's.
  double baseline_value = 0;
  std::vector<double> baseline_values;
  /// run / baseline - 1, and its interval.
  double change = 0, change_low = 0, change_high = 0;
  /// Confidence of this metric's interval (after the Bonferroni split).
  double level = 0;
  LogChange log_change;
  bool lower_bound = false;
  Verdict verdict = Verdict::kInconclusive;
  std::string reason;
};

/// What a comparison found.
struct ComparisonResult {
  std::string run;
  std::vector<std::string> baselines;
  std::vector<MetricComparison> metrics;
  Verdict overall = Verdict::kPass;
  /// Facts a reader needs: single baseline, hosts kept fixed, short runs, mismatches.
  std::vector<std::string> notes;
  /// The run's and each baseline's estimates per direction (for the report).
  int quanta = 0;
};

/// Compares `run` with `baselines` (one or more, each a different run) in every direction
/// both have, for every metric of `options`. Fails on inputs that cannot be compared:
/// no baseline, a baseline that is the run itself, different bucket layouts or quanta.
Status CompareRuns(const RunData& run, const std::vector<RunData>& baselines,
                   const CompareOptions& options, ComparisonResult* result);

/// The worst verdict: regression, then inconclusive, improvement, pass.
Verdict Worst(Verdict a, Verdict b);

}  // namespace fiohist
