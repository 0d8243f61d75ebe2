// Laying a run out before it is read: which logs make it, their bucket layout, their place
// on one time line (epoch stamps, --start-time, or fio's JSON output beside them) and the
// quantum grid that suits their records.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/spill_file.h"
#include "base/status.h"
#include "log/fio_json.h"
#include "log/log_stream.h"
#include "stats/pipeline.h"
#include "stats/result_sink.h"

namespace fiohist {

/// A run laid out: what the pipeline needs to read it.
struct RunLayout {
  /// The logs with records (by host, then job), hosts, bucket layout, stamps, anchor,
  /// log_hist_msec, grid, fio versions and the options' percentiles, SLA and confidence
  /// (the start and first quantum come when the logs are read).
  RunInfo info;
  /// One per log of info.logs: how its stream reads it.
  std::vector<StreamSetup> setups;
  /// The fio JSON outputs read, and which one covers each log (parallel to info.logs).
  std::vector<FioJsonSpec> json_specs;
  std::vector<FioJsonOutput> jsons;
  std::vector<FioJsonMatch> matches;
  /// The temporary files holding the records of logs their probe read whole (one per
  /// probing worker; StreamSetup::probed points into them): made when the logs will be
  /// spilled (PipelineOptions::spill_min_logs), so that the spill does not read them again.
  std::vector<std::unique_ptr<SpillFile>> probed_files;
};

/// Lays out the run of the logs at `paths`: probes each, keeps those with records (an empty
/// one is an error, or under --skip-bad-lines a warning), checks they can be added up (one
/// layout, one kind of stamps), infers log_hist_msec, reads and matches fio JSON outputs,
/// anchors relative stamps and chooses the grid. Warnings go to `summary`.
Status LayOutRun(const PipelineOptions& options, const std::vector<std::string>& paths,
                 RunLayout* layout, RunSummary* summary);

/// The share of fio's I/Os each log (or host, for grouped JSON) holds, from
/// `summary->reports` (one per log of the layout) into `summary->io_shares`, with a warning
/// for each below kLowIoShare or above 100 %.
void AddIoShares(const RunLayout& layout, RunSummary* summary);

/// Per log of the layout: the longest span without a completion its job's options explain
/// (thinktime, a rate limit: JobPacing::LongestIdleMs, from the fio JSON output matched with
/// it; grouped jobs: the least of theirs); 0 where none is matched or none is explained.
std::vector<double> IdleGapLogs(const RunLayout& layout);

}  // namespace fiohist
