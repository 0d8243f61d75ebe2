#include "cli/metric_flags.h"

namespace fiohist {

void AddMetricFlags(boost::program_options::options_description* desc, MetricFlags* flags) {
  namespace po = boost::program_options;
  // clang-format off
  desc->add_options()
      ("metrics", po::value(&flags->metrics)->default_value(flags->metrics),
       "what to compare: percentiles (p50, p99.9, ...) and iops, comma-separated")
      ("min-effect", po::value(&flags->effects)->composing(),
       "smallest change that matters, METRIC=SHARE (p99.9=20%, all=10%; default 5%), repeatable")
      ("run-spread", po::value(&flags->spreads)->composing(),
       "spread between runs (sd of log value): the least one with several baselines, assumed "
       "in the intervals of a single one; METRIC=SHARE; "
       "default 3% for p50..p90 and iops, 5% to p99, 10% beyond");
  // clang-format on
}

Status ParseMetricFlags(const MetricFlags& flags, std::vector<CompareMetric>* metrics) {
  Status s = ParseCompareMetrics(flags.metrics, metrics);
  if (!s.ok()) return s;
  for (const std::string& e : flags.effects) {
    s = ApplyMetricSetting(e, "min_effect", metrics);
    if (!s.ok()) return Status::Error("--min-effect: " + s.message());
  }
  for (const std::string& e : flags.spreads) {
    s = ApplyMetricSetting(e, "assumed_spread", metrics);
    if (!s.ok()) return Status::Error("--run-spread: " + s.message());
  }
  return Status();
}

}  // namespace fiohist
