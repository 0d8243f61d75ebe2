#include "cli/read_back.h"

#include <limits>
#include <memory>

namespace fiohist {

Status ReadBackRun(HttpClient* client, const std::string& index_prefix, const BucketQuery& query,
                   PipelineOptions options, bool quantum_given, ResultSink* sink,
                   ReadBackFacts* facts) {
  BucketReader reader(client, index_prefix);
  std::unique_ptr<HistogramReplay> replay;
  Status s = reader.Read(
      query,
      [&](const BucketRunFacts& run) {
        facts->run = run;
        RunInfo info;
        Status st = ParseLayoutName(run.layout, &info.layout);
        if (!st.ok()) return st;
        info.absolute = run.absolute;
        info.grid_origin_ms = run.grid_origin_ms;
        info.anchor = run.absolute ? "epoch" : "none";
        if (!quantum_given && run.quantum_ms > 0) options.quantum_ms = run.quantum_ms;
        if (run.quantum_ms > 0 && options.quantum_ms % run.quantum_ms != 0) {
          return Status::Error("--quantum: the run was pushed with " +
                               std::to_string(run.quantum_ms) +
                               " ms quanta: give a multiple of them");
        }
        replay = std::make_unique<HistogramReplay>(options, info, sink);
        replay->SetSeriesLogs(run.series_logs);
        return Status();
      },
      [&](const StoredQuantum& q) { return replay->Add(q); });
  facts->documents = reader.documents();
  if (replay) return s.ok() ? replay->Finish() : s;
  // BucketReader says "no bucket documents match in INDICES" before the first document.
  if (!s.ok() && s.message().rfind("no bucket documents match", 0) != 0) return s;
  // Nothing matched: tell a run that does not exist from a window that holds nothing.
  const bool narrowed = query.from_ms != std::numeric_limits<int64_t>::min() ||
                        query.to_ms != std::numeric_limits<int64_t>::max() ||
                        !query.hosts.empty() || !query.jobs.empty();
  if (narrowed) {
    BucketQuery whole;
    whole.run = query.run;
    bool exists = false;
    const Status probe = reader.Read(
        whole,
        [&](const BucketRunFacts&) {
          exists = true;
          return Status::Error("found");  // one document is enough
        },
        [](const StoredQuantum&) { return Status(); });
    if (exists) {
      return Status::Error(
          "no bucket documents in the window asked for (--from, --to, --host, --job): the "
          "run exists, but holds nothing there");
    }
    if (!probe.ok() && probe.message().rfind("no bucket documents match", 0) != 0) return probe;
  }
  return Status::Error("no bucket documents matched: no run of that name is stored in " +
                       index_prefix + "-buckets* (see fiohist runs)");
}

}  // namespace fiohist
