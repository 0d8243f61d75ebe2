// The flags that say which metrics are judged and what change of each matters: --metrics,
// --min-effect and --run-spread, as `compare` and `history` take them.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "base/status.h"
#include "stats/run_comparison.h"

namespace fiohist {

/// What the three flags say, as given.
struct MetricFlags {
  std::string metrics = "p50,p99,p99.9,iops";
  std::vector<std::string> effects, spreads;
};

/// Adds --metrics, --min-effect and --run-spread to `desc`, stored into `*flags` (which must
/// outlive the parse).
void AddMetricFlags(boost::program_options::options_description* desc, MetricFlags* flags);

/// The metrics with their minimum effects and assumed spreads; an error naming the flag
/// (a metric fio cannot give, a share that is not one such as 20% or 0.2).
Status ParseMetricFlags(const MetricFlags& flags, std::vector<CompareMetric>* metrics);

}  // namespace fiohist
