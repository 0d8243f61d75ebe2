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

/// What one directory named on the command line gave.
struct DirectoryInputs {
  std::string directory;
  /// The histogram logs found, or where there are none the fio JSON outputs.
  size_t histogram_logs = 0;
  size_t fio_json = 0;
  /// fio JSON outputs beside the logs: their fio output (time anchor), found by the pipeline.
  size_t fio_json_beside = 0;
};

/// One line for `fiohist CMD: DIR: ...`: what a directory gave.
std::string DescribeDirectoryInputs(const DirectoryInputs& d);

/// Names inputs as every command does: each of `args` is a file (taken as it is, any input
/// kind) or a directory, searched with its subdirectories for fio histogram logs (`*_hist.*`,
/// plain or gzip), or where it has none for fio JSON outputs (status streams, plain json+
/// results, client/server outputs). Fills `files` (each directory's in name order) and
/// `directories` (what each gave). Errors: a path that is neither, a directory with no input
/// of either kind (saying what it holds), and directories of two kinds (logs in one, only
/// fio JSON in another: not one run).
Status ExpandInputs(const std::vector<std::string>& args, std::vector<std::string>* files,
                    std::vector<DirectoryInputs>* directories);

/// ExpandInputs on `*paths`, in place, for command COMMAND: prints what each directory gave
/// on stderr (`fiohist COMMAND: DIR: ...`) unless `quiet`, and an error as
/// `fiohist COMMAND: error: ...`. Returns false on error.
bool ExpandCommandInputs(const char* command, bool quiet, std::vector<std::string>* paths);

/// Sorts `paths` by what each file holds (DetectInputKind) into a plan, moving fio JSON
/// files beside logs into `options->fio_json`. Every command that reads logs (pctiles,
/// push, compare) calls this, then RunInputs.
InputPlan PlanInputs(std::vector<std::string> paths, PipelineOptions* options);

/// Reads the plan's inputs into `sink`: the log pipeline for histogram logs, the status
/// model (differences of fio's cumulative bins) for fio JSON outputs.
Status RunInputs(const PipelineOptions& options, const InputPlan& plan, ResultSink* sink,
                 RunSummary* summary);

}  // namespace fiohist
