// `fiohist history --tag TAG`: one point per run of a tag, with its interval, and the change
// points of each metric.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/es_flags.h"
#include "cli/exit_code.h"
#include "cli/metric_flags.h"
#include "es/change_point_index.h"
#include "es/run_catalog.h"
#include "es/run_reader.h"
#include "log/time_anchor.h"
#include "stats/change_points.h"
#include "stats/history_analysis.h"
#include "stats/percentiles.h"
#include "stats/run_comparison.h"

namespace po = boost::program_options;

namespace fiohist {
namespace {

const char kHistoryUsage[] =
    "Usage: fiohist history --es-url URL --tag TAG [options]\n"
    "\n"
    "The finished runs of TAG, oldest first (at most the last --last), as one point per run\n"
    "and metric (--metrics, default p50, p99, p99.9, iops; per direction): the whole-run value\n"
    "and its 95% interval from the same block bootstrap as `compare`. Then the level shifts\n"
    "of each series: E-divisive means (Matteson & James 2014, as in Otava) on log values, each\n"
    "run weighed by its precision, 1 / (se^2 + tau^2) with tau the spread between runs their\n"
    "own intervals do not explain. One significance (--significance, default 0.01) holds over\n"
    "all series together: a permutation test whose statistic is the largest over the series\n"
    "(of each series' split made a p-value within its own permutation distribution), one\n"
    "permutation of the runs applied to every series (Westfall & Young's minP). With at most\n"
    "9 runs every order of the runs is enumerated (an exact p-value), with more 9999 random\n"
    "ones. The smallest p-value n runs allow is 2 / C(n, n/2): 0.029 for 8 runs, 0.016 for\n"
    "9, 0.0079 for 10, 0.0022 for 12 (the output says it, and when no change can reach the\n"
    "significance). A shift is a change point as `compare` decides a regression or an\n"
    "improvement: the ratio of the levels is at least the minimum effect (--min-effect,\n"
    "default 5%) and its interval (the runs either side; --run-spread is the least spread\n"
    "between runs) excludes no change. Other shifts are drifts: listed with their ratio and\n"
    "p-value, never annotated. A change point names the first run at the new level and the\n"
    "ratio of the levels.\n"
    "With --json one JSON object. With --annotate, the change points are also written to the\n"
    "index <prefix>-changes (one document per tag, metric, direction and run where the change\n"
    "starts, replaced when found again; earlier ones of the same runs and metrics that this\n"
    "analysis no longer finds or no longer calls a change are removed), for dashboards to\n"
    "draw as annotations, and each run and direction as a history point: its values with\n"
    "their intervals (of p50, p99, p99.9 and iops, what the history dashboard draws) and its\n"
    "baseline (the tag's finished run before it: every point of --json names it too), for\n"
    "the dashboard's links to the comparison.\n";

}  // namespace

int RunHistoryCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  std::string tag;
  MetricFlags metric_flags;
  int64_t last = 0;
  bool json = false, annotate = false;
  ChangePointOptions cp;
  po::options_description desc("Options");
  // clang-format off
  desc.add_options()
      ("tag", po::value(&tag), "the runs carrying TAG")
      ("last", po::value(&last)->default_value(0), "only the last N runs (0: all)");
  AddMetricFlags(&desc, &metric_flags);
  desc.add_options()
      ("significance", po::value(&cp.significance)->default_value(0.01, "0.01"),
       "largest permutation p-value of a change point, over all series together")
      ("json", po::bool_switch(&json), "one JSON object instead of the table")
      ("annotate", po::bool_switch(&annotate),
       "write the change points to <prefix>-changes (dashboard annotations)");
  // clang-format on
  AddEsConnectionOptions(&desc, &conn);
  po::variables_map vm;
  int rc = ParseCommandLine(argc, argv, kHistoryUsage, desc, nullptr, &vm);
  if (rc >= 0) return rc;
  // Every flag is checked before the first request.
  if (tag.empty()) {
    std::fprintf(stderr, "fiohist history: give --tag TAG\n");
    return kExitUsage;
  }
  if (!(cp.significance > 0 && cp.significance < 1)) {
    std::fprintf(stderr,
                 "fiohist history: --significance: expected a number between 0 and 1 such as "
                 "0.01, got %g\n",
                 cp.significance);
    return kExitUsage;
  }
  if (last < 0) {
    std::fprintf(stderr, "fiohist history: --last: expected 0 (all) or more runs\n");
    return kExitUsage;
  }
  std::vector<CompareMetric> metrics;
  Status s = ParseMetricFlags(metric_flags, &metrics);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist history: %s\n", s.message().c_str());
    return kExitUsage;
  }
  std::vector<MetricSpec> specs;
  for (const CompareMetric& m : metrics) specs.push_back(m.spec);
  std::unique_ptr<HttpClient> client = ConnectOrComplain("history", &conn);
  if (!client) return kExitError;
  RunCatalog catalog(client.get(), conn.index_prefix);
  std::vector<StoredRun> stored;
  s = catalog.ListRuns(&stored);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist history: %s\n", s.message().c_str());
    return kExitError;
  }
  // Every finished run of the tag, so the first one of a --last window has its baseline.
  const std::vector<StoredRun> all_runs = RunsOfTag(stored, tag, INFINITY, 0);
  const size_t window = last > 0 ? std::min(all_runs.size(), static_cast<size_t>(last))
                                 : all_runs.size();
  const std::vector<StoredRun> runs(all_runs.end() - static_cast<long>(window), all_runs.end());
  if (runs.empty()) {
    std::fprintf(stderr, "fiohist history: no finished run with tag '%s'\n", tag.c_str());
    return kExitInconclusive;
  }
  // A run's baseline: the tag's finished run before it (what `compare --tag --last 1` takes).
  std::map<std::string, std::string> baseline_of;
  for (size_t i = 1; i < all_runs.size(); ++i) baseline_of[all_runs[i].run] = all_runs[i - 1].run;
  // Per direction and metric: values and standard errors (log scale), one per run.
  struct Series {
    Direction direction;
    size_t metric;
    std::vector<double> value, log, var;
    std::vector<std::string> run;
    std::vector<int64_t> start_ms;
  };
  std::vector<Series> series;
  auto find = [&](Direction d, size_t m) -> Series& {
    for (Series& x : series) {
      if (x.direction == d && x.metric == m) return x;
    }
    series.push_back(Series{d, m, {}, {}, {}, {}, {}});
    return series.back();
  };
  for (const StoredRun& r : runs) {
    RunData data;
    s = ReadRunCells(client.get(), conn.index_prefix, r.run, 0, QuantumWindow(), &data);
    if (!s.ok()) {
      std::fprintf(stderr, "fiohist history: %s\n", s.message().c_str());
      return kExitError;
    }
    for (const RunCells& cells : data.directions) {
      RunEstimate e;
      s = EstimateRun(cells, specs, BootstrapOptions(), &e);
      if (!s.ok()) {
        std::fprintf(stderr, "fiohist history: %s\n", s.message().c_str());
        return kExitError;
      }
      for (size_t m = 0; m < specs.size(); ++m) {
        if (!(e.value[m] > 0)) continue;
        Series& x = find(cells.direction, m);
        x.run.push_back(r.run);
        x.start_ms.push_back(static_cast<int64_t>(r.start_ms));
        x.value.push_back(e.value[m]);
        x.log.push_back(std::log(e.value[m]));
        x.var.push_back(e.log_var[m]);
      }
    }
  }
  // One analysis per set of runs (a direction some runs lack has fewer points): the
  // significance is split between them (Bonferroni), so it holds over all series.
  std::map<std::vector<std::string>, std::vector<size_t>> groups;
  for (size_t i = 0; i < series.size(); ++i) groups[series[i].run].push_back(i);
  ChangePointOptions group_options = cp;
  group_options.significance = cp.significance / static_cast<double>(groups.size());
  std::vector<HistoryShift> none;
  std::vector<const std::vector<HistoryShift>*> shifts_of(series.size(), &none);
  std::vector<HistoryAnalysis> analyses;
  analyses.reserve(groups.size());
  std::vector<const HistoryAnalysis*> analysis_of(series.size(), nullptr);
  for (const auto& [group_runs, members] : groups) {
    std::vector<HistorySeries> input;
    for (size_t i : members) {
      input.push_back({metrics[series[i].metric], series[i].log, series[i].var});
    }
    analyses.push_back(AnalyseHistory(input, group_options));
    for (size_t k = 0; k < members.size(); ++k) {
      shifts_of[members[k]] = &analyses.back().shifts[k];
      analysis_of[members[k]] = &analyses.back();
    }
  }
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  std::vector<ChangePointRecord> annotations;
  // Each run's values per direction with their intervals: the history points of --annotate.
  std::map<std::pair<std::string, Direction>, std::vector<HistoryPointRecord::Value>> values_of;
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  auto number = [&w](double v) { std::isfinite(v) ? w.Double(v) : w.Null(); };
  w.StartObject();
  w.Key("tag");
  w.String(tag);
  w.Key("significance");
  w.Double(cp.significance);
  w.Key("series");
  w.StartArray();
  for (size_t xi = 0; xi < series.size(); ++xi) {
    const Series& x = series[xi];
    const HistoryAnalysis& analysis = *analysis_of[xi];
    const MetricSpec& spec = specs[x.metric];
    const double scale = spec.iops ? 1 : 1000;  // latencies in us
    w.StartObject();
    w.Key("direction");
    w.String(DirectionName(x.direction));
    w.Key("metric");
    w.String(spec.name);
    w.Key("min_effect");
    w.Double(metrics[x.metric].min_effect);
    w.Key("exact");
    w.Bool(analysis.exact);
    // The smallest p-value the test could give on these runs, and what their number
    // allows at best.
    w.Key("smallest_p");
    number(analysis.smallest_p);
    w.Key("smallest_p_of_runs");
    number(SmallestPermutationP(x.value.size(), cp.min_segment));
    w.Key("points");
    w.StartArray();
    if (!json) {
      std::printf("%s %s%s:\n", DirectionName(x.direction), spec.name.c_str(),
                  spec.iops ? "" : " (us)");
    }
    for (size_t i = 0; i < x.value.size(); ++i) {
      // A 95% interval per point (normal on the log scale, from the bootstrap).
      const double se = std::sqrt(x.var[i]);
      const double lo = std::exp(x.log[i] - 1.96 * se) / scale;
      const double hi = std::exp(x.log[i] + 1.96 * se) / scale;
      w.StartObject();
      w.Key("run");
      w.String(x.run[i]);
      w.Key("baseline");
      if (baseline_of.count(x.run[i])) {
        w.String(baseline_of[x.run[i]]);
      } else {
        w.Null();
      }
      w.Key("value");
      number(x.value[i] / scale);
      w.Key("low");
      number(lo);
      w.Key("high");
      number(hi);
      w.EndObject();
      values_of[{x.run[i], x.direction}].push_back(
          {FieldNameOf(spec.name), x.value[i] / scale, lo, hi});
      if (!json) {
        std::printf("  %-32s %10.4g  [%.4g, %.4g]\n", x.run[i].c_str(), x.value[i] / scale, lo, hi);
      }
    }
    w.EndArray();
    // Change points, then drifts: each with the ratio of the levels and its interval.
    for (const bool changes : {true, false}) {
      w.Key(changes ? "change_points" : "drifts");
      w.StartArray();
      for (const HistoryShift& h : *shifts_of[xi]) {
        if (h.change_point != changes) continue;
        const ChangePoint& c = h.split;
        const double ratio = std::exp(h.change.estimate);
        if (changes) {
          ChangePointRecord rec;
          rec.tag = tag;
          rec.metric = spec.name;
          rec.direction = DirectionName(x.direction);
          rec.run = x.run[c.index];
          rec.run_before = c.index > 0 ? x.run[c.index - 1] : "";
          rec.start_ms = x.start_ms[c.index];
          rec.unit = spec.iops ? "iops" : "us";
          rec.before = std::exp(c.before) / scale;
          rec.after = std::exp(c.after) / scale;
          rec.p_value = c.p_value;
          rec.runs = static_cast<int>(x.value.size());
          rec.analysed_at_ms = now_ms;
          annotations.push_back(rec);
        }
        w.StartObject();
        w.Key("index");
        w.Uint64(c.index);
        w.Key("run");
        w.String(x.run[c.index]);
        w.Key("ratio");
        number(ratio);
        w.Key("ratio_low");
        number(std::exp(h.change.low));
        w.Key("ratio_high");
        number(std::exp(h.change.high));
        w.Key("p_value");
        number(c.p_value);
        w.Key("exact");
        w.Bool(c.exact);
        w.Key("verdict");
        w.String(VerdictName(h.verdict));
        w.Key("reason");
        w.String(h.reason);
        w.EndObject();
        if (!json) {
          std::printf("  %s at %s: x%.3f [%.3f, %.3f] (p = %.3g%s)%s%s\n",
                      changes ? "change point" : "drift", x.run[c.index].c_str(), ratio,
                      std::exp(h.change.low), std::exp(h.change.high), c.p_value,
                      c.exact ? ", exact" : "", changes ? "" : ": ",
                      changes ? "" : h.reason.c_str());
        }
      }
      w.EndArray();
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  if (!json) {
    size_t g = 0;
    for (const auto& [group_runs, members] : groups) {
      const HistoryAnalysis& a = analyses[g++];
      const size_t n = group_runs.size();
      const double floor = SmallestPermutationP(n, cp.min_segment);
      std::printf("significance %g over all %zu series together (minP permutation test, %s); "
                  "the smallest p-value %zu runs allow: %.3g, this test on these runs: %.3g%s\n",
                  group_options.significance, members.size(),
                  a.exact ? "every order of the runs" : "random permutations", n, floor,
                  a.smallest_p,
                  std::max(floor, a.smallest_p) > group_options.significance
                      ? ": no change point can reach the significance"
                      : "");
    }
  }
  if (json) std::printf("%s\n", buffer.GetString());
  if (!annotate) return kExitOk;
  std::vector<std::string> analysed_runs, metric_names;
  for (const StoredRun& r : runs) analysed_runs.push_back(r.run);
  for (const MetricSpec& m : specs) metric_names.push_back(m.name);
  std::vector<HistoryPointRecord> points;
  for (const StoredRun& r : runs) {
    int64_t end_ms = 0;
    if (r.end.empty() || !ParseStartTime(r.end, &end_ms).ok()) end_ms = 0;
    for (Direction d : kAllDirections) {
      auto v = values_of.find({r.run, d});
      if (v == values_of.end()) continue;
      HistoryPointRecord p;
      p.tag = tag;
      p.run = r.run;
      p.direction = DirectionName(d);
      p.baseline = baseline_of.count(r.run) ? baseline_of[r.run] : "";
      p.start_ms = static_cast<int64_t>(r.start_ms);
      p.end_ms = end_ms;
      p.runs = static_cast<int>(runs.size());
      p.analysed_at_ms = now_ms;
      p.values = v->second;
      points.push_back(p);
    }
  }
  ChangeWriteReport report;
  s = InstallChangeTemplate(client.get(), "", conn.index_prefix, IndexSettings());
  if (s.ok()) {
    s = WriteChangePoints(client.get(), conn.index_prefix, tag, analysed_runs, metric_names,
                          annotations, &report);
  }
  if (s.ok()) s = WriteHistoryPoints(client.get(), conn.index_prefix, points);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist history: %s\n", s.message().c_str());
    return kExitError;
  }
  std::fprintf(stderr,
               "fiohist history: %llu change points written to %s, %llu earlier removed; "
               "%zu runs with their baselines\n",
               static_cast<unsigned long long>(report.written),
               ChangeIndexName(conn.index_prefix).c_str(),
               static_cast<unsigned long long>(report.removed), points.size());
  return kExitOk;
}

}  // namespace fiohist
