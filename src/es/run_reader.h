// Reading stored runs for comparisons: a run's per-quantum per-host histograms rebuilt from
// its bucket documents, and the runs of a tag.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "es/bucket_reader.h"
#include "es/http_client.h"
#include "es/run_catalog.h"
#include "stats/run_cells.h"

namespace fiohist {

/// Rebuilds `run`'s histograms per full quantum, host and direction from its bucket
/// documents (BucketReader and HistogramReplay: the same sums `pctiles --run` prints),
/// on quanta of `quantum_ms` (0: the push quantum; else a multiple of it), windowed by
/// `window`, into `data`. `progress` (may be null): the documents' total and count as they
/// are read, for a progress line.
Status ReadRunCells(HttpClient* client, const std::string& index_prefix, const std::string& run,
                    int64_t quantum_ms, const QuantumWindow& window, RunData* data,
                    BucketReadProgress* progress = nullptr);

/// The finished runs carrying `tag` that started before `before_ms`, oldest first, at
/// most the last `last` of them (0: all).
std::vector<StoredRun> RunsOfTag(const std::vector<StoredRun>& runs, const std::string& tag,
                                 double before_ms, size_t last);

}  // namespace fiohist
