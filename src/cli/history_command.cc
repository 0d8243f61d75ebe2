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
#include "es/change_point_index.h"
#include "es/run_catalog.h"
#include "es/run_reader.h"
#include "log/time_anchor.h"
#include "stats/change_points.h"
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
    "and its 95% interval from the same block bootstrap as `compare`. Then the change points of\n"
    "each series: E-divisive means (Matteson & James 2014, as in Otava) on log values with a\n"
    "permutation test (--significance, default 0.01), each run weighed by its precision,\n"
    "1 / (se^2 + tau^2) with tau the spread between runs their own intervals do not explain.\n"
    "A change point names the first run at the new level and the ratio of the levels.\n"
    "With --json one JSON object. With --annotate, the change points are also written to the\n"
    "index <prefix>-changes (one document per tag, metric, direction and run where the change\n"
    "starts, replaced when found again; earlier ones of the same runs and metrics that this\n"
    "analysis no longer finds are removed), for dashboards to draw as annotations, and each\n"
    "run and direction as a history point: its values with their intervals (of p50, p99,\n"
    "p99.9 and iops, what the history dashboard draws) and its baseline (the tag's finished\n"
    "run before it: every point of --json names it too), for the dashboard's links to the\n"
    "comparison.\n";

}  // namespace

int RunHistoryCommand(int argc, char** argv) {
  EsConnectionOptions conn;
  std::string tag, metrics_text = "p50,p99,p99.9,iops";
  int64_t last = 0;
  bool json = false, annotate = false;
  ChangePointOptions cp;
  po::options_description desc("Options");
  // clang-format off
  desc.add_options()
      ("tag", po::value(&tag), "the runs carrying TAG")
      ("last", po::value(&last)->default_value(0), "only the last N runs (0: all)")
      ("metrics", po::value(&metrics_text)->default_value(metrics_text), "what to follow")
      ("significance", po::value(&cp.significance)->default_value(0.01, "0.01"),
       "largest permutation p-value of a change point")
      ("json", po::bool_switch(&json), "one JSON object instead of the table")
      ("annotate", po::bool_switch(&annotate),
       "write the change points to <prefix>-changes (dashboard annotations)");
  // clang-format on
  AddEsConnectionOptions(&desc, &conn);
  po::variables_map vm;
  int rc = ParseCommandLine(argc, argv, kHistoryUsage, desc, nullptr, &vm);
  if (rc >= 0) return rc;
  if (tag.empty()) {
    std::fprintf(stderr, "fiohist history: give --tag TAG\n");
    return kExitUsage;
  }
  std::vector<CompareMetric> metrics;
  Status s = ParseCompareMetrics(metrics_text, &metrics);
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
    std::vector<double> value, log, se;
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
        x.se.push_back(std::sqrt(e.log_var[m]));
      }
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
  w.Key("series");
  w.StartArray();
  for (const Series& x : series) {
    const std::vector<ChangePoint> cps = FindChangePoints(x.log, x.se, cp);
    const MetricSpec& spec = specs[x.metric];
    const double scale = spec.iops ? 1 : 1000;  // latencies in us
    w.StartObject();
    w.Key("direction");
    w.String(DirectionName(x.direction));
    w.Key("metric");
    w.String(spec.name);
    w.Key("points");
    w.StartArray();
    if (!json) {
      std::printf("%s %s%s:\n", DirectionName(x.direction), spec.name.c_str(),
                  spec.iops ? "" : " (us)");
    }
    for (size_t i = 0; i < x.value.size(); ++i) {
      // A 95% interval per point (normal on the log scale, from the bootstrap).
      const double lo = std::exp(x.log[i] - 1.96 * x.se[i]) / scale;
      const double hi = std::exp(x.log[i] + 1.96 * x.se[i]) / scale;
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
    w.Key("change_points");
    w.StartArray();
    for (const ChangePoint& c : cps) {
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
      w.StartObject();
      w.Key("index");
      w.Uint64(c.index);
      w.Key("run");
      w.String(x.run[c.index]);
      w.Key("ratio");
      number(std::exp(c.after - c.before));
      w.Key("p_value");
      number(c.p_value);
      w.EndObject();
      if (!json) {
        std::printf("  change point at %s: x%.3f (p = %.3g)\n", x.run[c.index].c_str(),
                    std::exp(c.after - c.before), c.p_value);
      }
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
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
