// Read-back: a run's statistics rebuilt from its bucket documents instead of its logs.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <string>

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

/// The read-back options of a command (--run, --job, --from, --to) as given.
struct ReadBackFlags {
  /// The run, jobs, hosts and window to read.
  BucketQuery query;
  /// --from and --to as written (parsed into `query` by ReadBackFromVariables).
  std::string from, to;
  /// --run given: the command reads bucket documents instead of logs.
  bool read_back = false;
  /// --quantum given: the quantum to rebuild (a multiple of the run's own), else the run's.
  bool quantum_given = false;
};

/// Adds --run, --job, --from and --to to `desc`, read into `*flags` (pctiles, report).
void AddReadBackOptions(boost::program_options::options_description* desc, ReadBackFlags* flags);

/// Completes `*flags` after parsing: with --run, --host names hosts to read (moved into the
/// query and erased from `vm`: it is not FILE=HOST there), LOGS are refused and --from/--to
/// parsed; without --run, --job, --from and --to are refused.
Status ReadBackFromVariables(boost::program_options::variables_map* vm, ReadBackFlags* flags);

/// Reads `query`'s bucket documents through HistogramReplay into `sink` with `options`
/// (scopes, directions, percentiles, SLA; quantum: the run's own unless `quantum_given`,
/// which must then be a multiple of it). Errors say whether the run does not exist or
/// only the window (--from/--to, --host, --job) holds nothing. `progress` (may be null)
/// gets the documents' total and counts them as they come (CommandProgress::StartReadBack).
Status ReadBackRun(HttpClient* client, const std::string& index_prefix, const BucketQuery& query,
                   PipelineOptions options, bool quantum_given, ResultSink* sink,
                   ReadBackFacts* facts, BucketReadProgress* progress = nullptr);

}  // namespace fiohist
