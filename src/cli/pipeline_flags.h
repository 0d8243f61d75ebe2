// The command-line options shared by every command that runs the pipeline.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "stats/pipeline.h"
#include "base/status.h"

namespace fiohist {

/// Adds --quantum, --grid, --percentiles, --scope, --direction, --start-time, --fio-json,
/// --log-hist-msec, --layout, --host, --host-map, --skip-bad-lines, --threads and the
/// positional LOGS to `desc` / `positional`.
void AddPipelineOptions(boost::program_options::options_description* desc,
                        boost::program_options::positional_options_description* positional);

/// Reads the options added above into `*options` and the log paths into `*logs`.
/// `default_scopes` is used when --scope is absent ("cluster" for tables, all for push).
/// Without logs that is an error unless `logs_required` is false (read-back).
Status PipelineOptionsFromVariables(const boost::program_options::variables_map& vm,
                                    const std::string& default_scopes, PipelineOptions* options,
                                    std::vector<std::string>* logs, bool logs_required = true);

}  // namespace fiohist
