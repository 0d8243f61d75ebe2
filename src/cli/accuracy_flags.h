// The --accuracy options of the commands that can write windows sized to an accuracy
// (pctiles, follow, push, report): defined once, read the same way.
#pragma once

#include <boost/program_options.hpp>
#include <vector>

#include "base/status.h"
#include "stats/accuracy_windows.h"
#include "stats/percentiles.h"

namespace fiohist {

/// What --accuracy and --accuracy-max-quanta asked for.
struct AccuracyFlags {
  /// Empty: quanta as usual.
  std::vector<AccuracyTarget> targets;
  int max_quanta = kDefaultAccuracyMaxQuanta;
};

/// Adds --accuracy (repeatable) and --accuracy-max-quanta to `desc`.
void AddAccuracyOptions(boost::program_options::options_description* desc);

/// Reads them from `vm`; each target's percentile must be one of `percentiles` (the
/// percentiles computed). Fails naming the option and what was expected.
Status AccuracyFromVariables(const boost::program_options::variables_map& vm,
                             const PercentileList& percentiles, AccuracyFlags* flags);

}  // namespace fiohist
