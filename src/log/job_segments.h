// per_job_logs=0: fio writes the logs of all jobs of a process into one file, one job after
// the other, each job's times starting again.
#pragma once

#include <vector>

#include "base/status.h"
#include "log/log_source.h"

namespace fiohist {

/// Splits the log of `source` into one source per job where its times restart (a per-I/O
/// log's time goes back by more than kPerIoBackwardsSlackMs; a histogram log's direction
/// goes back, other than at fio's statistics reset), each read as its own job named after
/// the file and its place (`pjl_clat_hist@2`). A file of one job comes back as it was.
/// Reads the whole file once.
Status SplitJobSegments(const LogSource& source, std::vector<LogSource>* out);

/// True when fio's name for the file has no job number (NAME_clat.log, NAME_clat_hist.log):
/// what per_job_logs=0 writes.
bool MayHoldSeveralJobs(const LogSource& source);

}  // namespace fiohist
