#include "stats/run_comparison.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace fiohist {

const char* VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kImprovement:
      return "improvement";
    case Verdict::kInconclusive:
      return "inconclusive";
    case Verdict::kRegression:
      return "regression";
  }
  return "?";
}

Verdict Worst(Verdict a, Verdict b) {
  return static_cast<int>(a) >= static_cast<int>(b) ? a : b;
}

double DefaultAssumedSpread(const MetricSpec& spec) {
  if (spec.iops) return 0.03;
  if (spec.percentile <= 90) return 0.03;
  if (spec.percentile <= 99) return 0.05;
  return 0.10;
}

std::vector<CompareMetric> DefaultCompareMetrics() {
  std::vector<CompareMetric> metrics;
  ParseCompareMetrics("p50,p99,p99.9,iops", &metrics);
  return metrics;
}

Status ParseCompareMetrics(const std::string& text, std::vector<CompareMetric>* metrics) {
  metrics->clear();
  std::string token;
  std::istringstream in(text);
  while (std::getline(in, token, ',')) {
    if (token.empty()) continue;
    CompareMetric m;
    Status s = ParseMetricSpec(token, &m.spec);
    if (!s.ok()) return Status::Error("--metrics: " + s.message());
    for (const CompareMetric& other : *metrics) {
      if (other.spec.name == m.spec.name) {
        return Status::Error("--metrics: '" + m.spec.name + "' given twice");
      }
    }
    m.assumed_spread = DefaultAssumedSpread(m.spec);
    metrics->push_back(m);
  }
  if (metrics->empty()) return Status::Error("--metrics: no metric given");
  return Status();
}

Status ApplyMetricSetting(const std::string& text, const std::string& what,
                          std::vector<CompareMetric>* metrics) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos) {
    return Status::Error("expected METRIC=VALUE such as p99.9=20%, got '" + text + "'");
  }
  const std::string name = text.substr(0, eq), value = text.substr(eq + 1);
  char* end = nullptr;
  double v = std::strtod(value.c_str(), &end);
  if (value.empty() || end == value.c_str() || !std::isfinite(v)) {
    return Status::Error("'" + text + "': expected a share such as 20% or 0.2");
  }
  if (*end == '%') {
    v /= 100;
    ++end;
  }
  if (*end != '\0' || v < 0 || v >= 10) {
    return Status::Error("'" + text + "': expected a share such as 20% or 0.2 (0 to 1000%)");
  }
  MetricSpec spec;
  if (name != "all") {
    Status s = ParseMetricSpec(name, &spec);
    if (!s.ok()) return s;
  }
  bool found = false;
  for (CompareMetric& m : *metrics) {
    if (name != "all" && m.spec.name != spec.name) continue;
    found = true;
    (what == "min_effect" ? m.min_effect : m.assumed_spread) = v;
  }
  if (!found) return Status::Error("'" + text + "': " + spec.name + " is not compared (--metrics)");
  return Status();
}

namespace {

// The interval at `level` (two-sided) of c->estimate with c->se and c->df (t, or normal
// when df is infinite); infinite when se is.
void SetInterval(double level, LogChange* c) {
  const double inf = std::numeric_limits<double>::infinity();
  if (!std::isfinite(c->se)) {
    c->low = -inf;
    c->high = inf;
    return;
  }
  const double p = 1 - (1 - level) / 2;
  double q;
  if (std::isfinite(c->df)) {
    q = boost::math::quantile(boost::math::students_t_distribution<double>(c->df), p);
  } else {
    q = boost::math::quantile(boost::math::normal_distribution<double>(), p);
  }
  c->low = c->estimate - q * c->se;
  c->high = c->estimate + q * c->se;
}

}  // namespace

LogChange CombineChange(double run_log, double run_var, const std::vector<double>& base_logs,
                        const std::vector<double>& base_vars, double assumed_spread,
                        double level) {
  LogChange c;
  const double k = static_cast<double>(base_logs.size());
  double mean = 0, vsum = 0;
  for (size_t i = 0; i < base_logs.size(); ++i) {
    mean += base_logs[i];
    vsum += base_vars[i];
  }
  mean /= k;
  c.estimate = run_log - mean;
  const double vbar = vsum / k;
  double known = 0, estimated = 0;
  if (base_logs.size() >= 2) {
    // A baseline's log value varies by s^2 = tau^2 + v around mu; the mean of k of them by
    // s^2 / k. The run by tau^2 + v_run = s^2 + (v_run - vbar). With equal v this is the
    // exact prediction interval of a new observation, (x - mean) / (s sqrt(1 + 1/k)) ~
    // t(k - 1).
    double s2 = 0;
    for (double l : base_logs) s2 += (l - mean) * (l - mean);
    s2 /= k - 1;
    // The assumed spread is a floor (two or three close baselines can say less than runs
    // really differ), never a weight against what the baselines measured.
    const double floor = assumed_spread * assumed_spread + vbar;
    if (s2 < floor) {
      s2 = floor;
      c.spread_assumed = true;
    }
    c.spread = std::sqrt(std::max(0.0, s2 - vbar));
    estimated = s2 * (1 + 1 / k);
    known = run_var - vbar;
    // The run cannot be known better than its own bootstrap says.
    if (known + estimated < run_var + vsum / (k * k)) {
      known = run_var + vsum / (k * k) - estimated;
    }
  } else {
    c.spread = assumed_spread;
    c.spread_assumed = true;
    c.single_baseline = true;
    known = run_var + vsum + 2 * assumed_spread * assumed_spread;
  }
  const double var = known + estimated;
  c.se = std::sqrt(var);
  c.df = std::numeric_limits<double>::infinity();
  // Satterthwaite: the part estimated from the baselines' spread has k - 1 df.
  // Only the part known from the bootstraps (v_run - vbar, when positive) adds df: with
  // equal v the interval is exactly t(k - 1).
  if (estimated > 0) {
    const double plain = std::max(0.0, run_var - vbar) + estimated;
    c.df = plain * plain / (estimated * estimated / (k - 1));
  }
  SetInterval(level, &c);
  return c;
}

LogChange CombineSegments(const std::vector<double>& before, const std::vector<double>& before_w,
                          const std::vector<double>& after, const std::vector<double>& after_w,
                          double mean_var, double assumed_spread, double level) {
  LogChange c;
  const size_t n = before.size() + after.size();
  // Weights normalised to mean 1 over both segments: s^2 is then a point's variance.
  double wsum = 0;
  for (double w : before_w) wsum += w;
  for (double w : after_w) wsum += w;
  const double scale = wsum > 0 ? static_cast<double>(n) / wsum : 1;
  double wb = 0, wa = 0, mb = 0, ma = 0;
  for (size_t i = 0; i < before.size(); ++i) {
    wb += before_w[i] * scale;
    mb += before_w[i] * scale * before[i];
  }
  for (size_t i = 0; i < after.size(); ++i) {
    wa += after_w[i] * scale;
    ma += after_w[i] * scale * after[i];
  }
  mb /= wb;
  ma /= wa;
  c.estimate = ma - mb;
  double ss = 0;
  for (size_t i = 0; i < before.size(); ++i) {
    ss += before_w[i] * scale * (before[i] - mb) * (before[i] - mb);
  }
  for (size_t i = 0; i < after.size(); ++i) {
    ss += after_w[i] * scale * (after[i] - ma) * (after[i] - ma);
  }
  const double df = static_cast<double>(n) - 2;
  double s2 = df > 0 ? ss / df : std::numeric_limits<double>::infinity();
  // The same floor as CombineChange: the least spread between runs of one job.
  const double floor = assumed_spread * assumed_spread + mean_var;
  if (s2 < floor) {
    s2 = floor;
    c.spread_assumed = true;
  }
  c.spread = std::sqrt(std::max(0.0, s2 - mean_var));
  c.se = std::sqrt(s2 * (1 / wb + 1 / wa));
  c.df = df;
  SetInterval(level, &c);
  return c;
}

LogChange OnWorseSide(const LogChange& c, const MetricSpec& spec) {
  if (!spec.iops) return c;
  LogChange worse = c;
  worse.estimate = -c.estimate;
  worse.low = -c.high;
  worse.high = -c.low;
  return worse;
}

Verdict Decide(const LogChange& c, double min_effect, std::string* reason) {
  const double e = std::log1p(min_effect);
  std::ostringstream why;
  why.precision(3);
  Verdict v;
  if (c.low > 0 && c.estimate >= e) {
    v = Verdict::kRegression;
    why << "worse, and the change is at least the minimum effect";
  } else if (c.high < 0 && c.estimate <= -e) {
    v = Verdict::kImprovement;
    why << "better, and the change is at least the minimum effect";
  } else if (c.high < e) {
    v = Verdict::kPass;
    why << "a regression of the minimum effect is ruled out";
  } else {
    v = Verdict::kInconclusive;
    if (!std::isfinite(c.se)) {
      why << "no interval: the runs are too short to know their noise";
    } else if (c.low > 0) {
      why << "worse, but the change may be below the minimum effect";
    } else {
      why << "the interval is too wide to tell at the minimum effect";
    }
  }
  if (c.single_baseline && v != Verdict::kInconclusive) {
    // Two runs cannot tell a change from the spread between runs of one job (on a busy
    // machine identical runs differed by 20-30%): what the assumed spread would say is
    // only a hint.
    why.str("");
    why << "one baseline: the spread between runs is unknown (with the assumed --run-spread: "
        << VerdictName(v) << "); give several baselines";
    v = Verdict::kInconclusive;
  }
  if (reason) *reason = why.str();
  return v;
}

namespace {

const RunCells* FindDirection(const RunData& run, Direction d) {
  for (const RunCells& c : run.directions) {
    if (c.direction == d) return &c;
  }
  return nullptr;
}

std::string Percent(double share) {
  std::ostringstream s;
  s.precision(3);
  s << share * 100 << "%";
  return s.str();
}

}  // namespace

Status CompareRuns(const RunData& run, const std::vector<RunData>& baselines,
                   const CompareOptions& options, ComparisonResult* result) {
  *result = ComparisonResult();
  result->run = run.run;
  if (baselines.empty()) return Status::Error("no baseline run to compare '" + run.run + "' with");
  for (const RunData& b : baselines) {
    if (b.run == run.run) {
      return Status::Error("the baseline '" + b.run + "' is the run itself");
    }
    for (const std::string& seen : result->baselines) {
      if (seen == b.run) return Status::Error("the baseline '" + b.run + "' is given twice");
    }
    result->baselines.push_back(b.run);
  }
  const std::vector<CompareMetric> metrics =
      options.metrics.empty() ? DefaultCompareMetrics() : options.metrics;
  std::vector<MetricSpec> specs;
  for (const CompareMetric& m : metrics) specs.push_back(m.spec);

  // Directions every run has.
  std::vector<Direction> directions;
  for (const RunCells& c : run.directions) {
    bool everywhere = true;
    for (const RunData& b : baselines) everywhere = everywhere && FindDirection(b, c.direction);
    if (everywhere) directions.push_back(c.direction);
  }
  std::sort(directions.begin(), directions.end());
  if (directions.empty()) {
    return Status::Error("run '" + run.run + "' and its baselines have no direction in common");
  }
  const double level =
      1 - (1 - options.confidence) / static_cast<double>(metrics.size() * directions.size());
  if (baselines.size() == 1) {
    result->notes.push_back(
        "single baseline: the spread between runs of the same job cannot be measured, so "
        "every verdict is inconclusive; the intervals assume (sd of log value) " +
        [&] {
          std::string s;
          for (const CompareMetric& m : metrics) {
            s += (s.empty() ? "" : ", ") + m.spec.name + " " + Percent(m.assumed_spread);
          }
          return s;
        }() + " (--run-spread); give several baselines to measure it");
  }
  for (const Direction d : directions) {
    const RunCells& rc = *FindDirection(run, d);
    RunEstimate re;
    Status s = EstimateRun(rc, specs, options.bootstrap, &re);
    if (!s.ok()) return s;
    if (!re.note.empty()) result->notes.push_back(re.note);
    if (d == directions.front()) result->quanta = re.quanta;
    std::vector<RunEstimate> bes(baselines.size());
    for (size_t i = 0; i < baselines.size(); ++i) {
      const RunCells& bc = *FindDirection(baselines[i], d);
      if (bc.layout != rc.layout) {
        return Status::Error("runs '" + run.run + "' and '" + baselines[i].run +
                             "' have different bucket layouts (" + rc.layout.Name() + ", " +
                             bc.layout.Name() + "): their histograms cannot be compared");
      }
      if (bc.quantum_ms != rc.quantum_ms) {
        return Status::Error("runs '" + run.run + "' and '" + baselines[i].run +
                             "' have different quanta (" + std::to_string(rc.quantum_ms) +
                             " ms, " + std::to_string(bc.quantum_ms) +
                             " ms): their noise is measured on different grids");
      }
      if (bc.hosts != rc.hosts && d == directions.front()) {
        result->notes.push_back("run '" + baselines[i].run + "' has other hosts than '" +
                                run.run + "' (" + std::to_string(bc.hosts.size()) + " and " +
                                std::to_string(rc.hosts.size()) + ")");
      }
      s = EstimateRun(bc, specs, options.bootstrap, &bes[i]);
      if (!s.ok()) return s;
      if (!bes[i].note.empty()) result->notes.push_back(bes[i].note);
    }
    if (d == directions.front() && !re.hosts_resampled) {
      result->notes.push_back("hosts kept fixed (" + std::to_string(rc.hosts.size()) +
                              " < " + std::to_string(kMinHostsToResample) +
                              "): the interval holds the noise in time, not the spread of hosts");
    }
    for (size_t m = 0; m < metrics.size(); ++m) {
      MetricComparison mc;
      mc.direction = d;
      mc.metric = metrics[m];
      mc.level = level;
      mc.run_value = re.value[m];
      mc.lower_bound = re.lower_bound[m];
      std::vector<double> logs, vars;
      bool usable = re.value[m] > 0;
      for (const RunEstimate& be : bes) {
        mc.baseline_values.push_back(be.value[m]);
        mc.lower_bound = mc.lower_bound || be.lower_bound[m];
        usable = usable && be.value[m] > 0;
        logs.push_back(be.value[m] > 0 ? std::log(be.value[m]) : 0);
        vars.push_back(be.log_var[m]);
      }
      if (!usable) {
        mc.verdict = Verdict::kInconclusive;
        mc.reason = "no I/Os to read it from";
        result->overall = Worst(result->overall, mc.verdict);
        result->metrics.push_back(mc);
        continue;
      }
      LogChange c = CombineChange(std::log(re.value[m]), re.log_var[m], logs, vars,
                                  metrics[m].assumed_spread, level);
      double gm = 0;
      for (double l : logs) gm += l;
      mc.baseline_value = std::exp(gm / static_cast<double>(logs.size()));
      mc.change = std::expm1(c.estimate);
      mc.change_low = std::expm1(c.low);
      mc.change_high = std::expm1(c.high);
      mc.log_change = c;
      mc.verdict = Decide(OnWorseSide(c, metrics[m].spec), metrics[m].min_effect, &mc.reason);
      if (mc.lower_bound && mc.verdict != Verdict::kPass) {
        mc.verdict = Verdict::kInconclusive;
        mc.reason = "the value lies in fio's clamped last bucket: only a lower bound";
      }
      result->overall = Worst(result->overall, mc.verdict);
      result->metrics.push_back(mc);
    }
  }
  return Status();
}

}  // namespace fiohist
