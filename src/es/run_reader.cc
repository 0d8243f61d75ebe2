#include "es/run_reader.h"

#include <algorithm>
#include <memory>

#include "es/bucket_reader.h"
#include "stats/histogram_replay.h"

namespace fiohist {

Status ReadRunCells(HttpClient* client, const std::string& index_prefix, const std::string& run,
                    int64_t quantum_ms, const QuantumWindow& window, RunData* data,
                    BucketReadProgress* progress) {
  BucketReader reader(client, index_prefix);
  reader.ReportProgress(progress);
  BucketQuery query;
  query.run = run;
  RunCellsSink sink(run, window);
  std::unique_ptr<HistogramReplay> replay;
  PipelineOptions options;
  options.scopes = {true, true, false};  // the cluster says which quanta are partial
  options.percentiles.values = {50};
  options.percentiles.names = {"p50"};
  options.percentiles.field_names = {"p50"};
  Status s = reader.Read(
      query,
      [&](const BucketRunFacts& facts) {
        RunInfo info;
        Status st = ParseLayoutName(facts.layout, &info.layout);
        if (!st.ok()) return st;
        if (facts.scope == "cluster") {
          return Status::Error("only cluster bucket documents are stored: hosts cannot be told apart");
        }
        info.absolute = facts.absolute;
        info.anchor = facts.absolute ? "epoch" : "none";
        options.quantum_ms = quantum_ms > 0 ? quantum_ms : facts.quantum_ms > 0 ? facts.quantum_ms : 1000;
        if (facts.quantum_ms > 0 && options.quantum_ms % facts.quantum_ms != 0) {
          return Status::Error("--quantum: the run was pushed with " +
                               std::to_string(facts.quantum_ms) + " ms quanta: give a multiple of them");
        }
        info.quantum_ms = options.quantum_ms;
        replay = std::make_unique<HistogramReplay>(options, info, &sink);
        replay->SetSeriesLogs(facts.series_logs);
        return Status();
      },
      [&](const StoredQuantum& q) { return replay->Add(q); });
  if (s.ok() && !replay) s = Status::Error("no bucket documents of run '" + run + "'");
  if (s.ok()) s = replay->Finish();
  if (!s.ok()) return Status::Error("run '" + run + "': " + s.message());
  return sink.TakeAll(data);
}

std::vector<StoredRun> RunsOfTag(const std::vector<StoredRun>& runs, const std::string& tag,
                                 double before_ms, size_t last) {
  std::vector<StoredRun> out;
  for (const StoredRun& r : runs) {
    if (r.state != "finished" || !(r.start_ms < before_ms)) continue;
    if (std::find(r.tags.begin(), r.tags.end(), tag) == r.tags.end()) continue;
    out.push_back(r);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const StoredRun& a, const StoredRun& b) { return a.start_ms < b.start_ms; });
  if (last > 0 && out.size() > last) out.erase(out.begin(), out.end() - static_cast<long>(last));
  return out;
}

}  // namespace fiohist
