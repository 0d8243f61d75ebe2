#include "cli/read_back.h"

#include <limits>
#include <memory>
#include <vector>

#include "log/time_anchor.h"

namespace fiohist {

namespace po = boost::program_options;

void AddReadBackOptions(po::options_description* desc, ReadBackFlags* flags) {
  // clang-format off
  desc->add_options()
      ("run", po::value(&flags->query.run), "read the run's bucket documents instead of logs")
      ("job", po::value(&flags->query.jobs)->composing(), "read-back: only this job (repeatable)")
      ("from", po::value(&flags->from),
       "read-back: quanta starting at or after T (ISO 8601, or Unix epoch s or ms)")
      ("to", po::value(&flags->to), "read-back: quanta starting before T");
  // clang-format on
}

Status ReadBackFromVariables(po::variables_map* vm, ReadBackFlags* flags) {
  flags->read_back = vm->count("run") > 0;
  flags->quantum_given = vm->count("quantum") > 0 && !(*vm)["quantum"].defaulted();
  if (!flags->read_back) {
    if (vm->count("job") || vm->count("from") || vm->count("to")) {
      return Status::Error("--job, --from and --to go with --run (read-back)");
    }
    return Status();
  }
  if (vm->count("host")) flags->query.hosts = (*vm)["host"].as<std::vector<std::string>>();
  vm->erase("host");
  if (vm->count("logs")) return Status::Error("--run reads bucket documents: give no LOGS");
  Status s;
  if (!flags->from.empty()) s = ParseStartTime(flags->from, &flags->query.from_ms);
  if (s.ok() && !flags->to.empty()) s = ParseStartTime(flags->to, &flags->query.to_ms);
  return s;
}

Status ReadBackRun(HttpClient* client, const std::string& index_prefix, const BucketQuery& query,
                   PipelineOptions options, bool quantum_given, ResultSink* sink,
                   ReadBackFacts* facts, BucketReadProgress* progress) {
  BucketReader reader(client, index_prefix);
  reader.ReportProgress(progress);
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
        info.directions = run.directions;
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
