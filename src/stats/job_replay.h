// The job scope read again from spilled logs, a few logs at a time, after the run's other
// quanta (ResultSink::takes_jobs_by_log): what a sink keeps per job (coarse windows,
// bucket carries) then lives while a few logs are read, not for all of them.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "base/status.h"
#include "base/worker_pool.h"
#include "log/log_source.h"
#include "stats/result_sink.h"
#include "stats/spilled_logs.h"

namespace fiohist {

/// Makes the results of log `log`'s share `mine` of quantum `q` into `*out`, prepared for
/// the sink: `all` is room for the sum over directions, `placed` (when records are kept)
/// the records placed in the quantum. Called on any worker, several at once.
using JobResultMaker = std::function<void(size_t log, int64_t q, const ScopeHistograms& mine,
                                          std::vector<PlacedRecord>* placed, Histogram* all,
                                          std::vector<ScopeResult>* out)>;

/// Takes log `log`'s sum over the run once its last quantum is read (as
/// SpilledLogs::ReadWhole sums it). Called on any worker, several at once.
using JobWholeTaker = std::function<void(size_t log, const ScopeHistograms& whole)>;

/// Reads every log of `spill` (one per LogSource of `logs`) again, 8 at a time on
/// `pool`, a chunk of quanta per step while the step before is written out. Each log's
/// results go to `sink` in time order, then sink->JobDone(host, job); logs' results
/// interleave in an order that depends on the logs alone, not on the thread count.
/// `keep_records`: the records were spilled and go with the results. `whole` (when given)
/// gets each log's whole-run sum, made from the quanta read here: no third reading of the
/// spill (ReadWhole) for the job scope's whole run.
Status ReplayJobsByLog(const SpilledLogs& spill, const std::vector<LogSource>& logs,
                       bool keep_records, const JobResultMaker& make, WorkerPool* pool,
                       ResultSink* sink, const JobWholeTaker* whole = nullptr);

}  // namespace fiohist
