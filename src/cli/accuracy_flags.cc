#include "cli/accuracy_flags.h"

#include <algorithm>
#include <string>

namespace po = boost::program_options;

namespace fiohist {

void AddAccuracyOptions(po::options_description* desc) {
  // clang-format off
  desc->add_options()
      ("accuracy", po::value<std::vector<std::string>>()->composing(),
       "P=X% (repeatable, e.g. p99=10%): the cluster's windows of consecutive quanta, each "
       "the shortest (greedy from the start) whose percentile P has its confidence interval "
       "within +-X% of the value: rows instead of quanta in a table, window documents "
       "besides the quanta's in Elasticsearch or --out, charts in report")
      ("accuracy-max-quanta", po::value<int>()->default_value(kDefaultAccuracyMaxQuanta),
       "longest window --accuracy makes, in quanta (a window cut there is reported)");
  // clang-format on
}

Status AccuracyFromVariables(const po::variables_map& vm, const PercentileList& percentiles,
                             AccuracyFlags* flags) {
  flags->targets.clear();
  if (vm.count("accuracy")) {
    for (const std::string& text : vm["accuracy"].as<std::vector<std::string>>()) {
      AccuracyTarget t;
      Status s = ParseAccuracyTarget(text, &t);
      if (!s.ok()) return s;
      const std::vector<double>& v = percentiles.values;
      if (std::find(v.begin(), v.end(), t.percentile) == v.end()) {
        return Status::Error("--accuracy: p" + FormatPercentile(t.percentile) +
                             " is not among --percentiles (add it there)");
      }
      flags->targets.push_back(t);
    }
  }
  flags->max_quanta = vm["accuracy-max-quanta"].as<int>();
  if (flags->max_quanta < 1) return Status::Error("--accuracy-max-quanta: expected at least 1");
  return Status();
}

}  // namespace fiohist
