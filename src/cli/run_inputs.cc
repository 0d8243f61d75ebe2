#include "cli/run_inputs.h"

#include "cli/status_input.h"

namespace fiohist {

InputPlan PlanInputs(std::vector<std::string> paths, PipelineOptions* options) {
  InputPlan plan;
  plan.moved_to_fio_json = MoveFioJsonBesideLogs(&paths, &options->fio_json);
  plan.fio_json = !paths.empty() && LooksLikeFioJson(paths.front());
  plan.inputs = std::move(paths);
  return plan;
}

Status RunInputs(const PipelineOptions& options, const InputPlan& plan, ResultSink* sink,
                 RunSummary* summary) {
  return plan.fio_json ? RunStatusFiles(options, plan.inputs, sink, summary)
                       : RunPipeline(options, plan.inputs, sink, summary);
}

}  // namespace fiohist
