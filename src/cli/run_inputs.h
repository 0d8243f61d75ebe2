// Any input a command takes (histogram logs, fio json+ status files and results, fio
// client/server outputs) turned into the pipeline's input: the one place that decides.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "stats/pipeline.h"
#include "stats/result_sink.h"

namespace fiohist {

/// How a command line's inputs will be read.
struct InputPlan {
  /// The run's inputs: histogram logs, or fio JSON outputs (never both).
  std::vector<std::string> inputs;
  /// True when `inputs` are fio JSON outputs (status files, plain json+ results,
  /// client/server outputs): they go through the live aggregator, one host per file or
  /// per server.
  bool fio_json = false;
  /// fio JSON files given beside histogram logs (a run's folder, `dir/*`): they are the
  /// logs' fio outputs, added to PipelineOptions::fio_json (time anchor, I/O shares).
  size_t moved_to_fio_json = 0;
};

/// Sorts `paths` by what each file holds (DetectInputKind) into a plan, moving fio JSON
/// files beside logs into `options->fio_json`. Every command that reads logs (pctiles,
/// push, compare) calls this, then RunInputs.
InputPlan PlanInputs(std::vector<std::string> paths, PipelineOptions* options);

/// Reads the plan's inputs into `sink`: the log pipeline for histogram logs, the status
/// model (differences of fio's cumulative bins) for fio JSON outputs.
Status RunInputs(const PipelineOptions& options, const InputPlan& plan, ResultSink* sink,
                 RunSummary* summary);

}  // namespace fiohist
