// Read-back: a run's statistics rebuilt from its bucket documents instead of its logs.
#pragma once

#include <cstdint>

#include "base/status.h"
#include "es/bucket_reader.h"
#include "es/http_client.h"
#include "stats/pipeline.h"
#include "stats/result_sink.h"

namespace fiohist {

/// What a read-back found.
struct ReadBackFacts {
  BucketRunFacts run;
  uint64_t documents = 0;
};

/// Reads `query`'s bucket documents through HistogramReplay into `sink` with `options`
/// (scopes, directions, percentiles, SLA; quantum: the run's own unless `quantum_given`,
/// which must then be a multiple of it). Errors say whether the run does not exist or
/// only the window (--from/--to, --host, --job) holds nothing.
Status ReadBackRun(HttpClient* client, const std::string& index_prefix, const BucketQuery& query,
                   PipelineOptions options, bool quantum_given, ResultSink* sink,
                   ReadBackFacts* facts);

}  // namespace fiohist
