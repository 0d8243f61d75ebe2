// The progress line of the commands that read logs and send documents (pctiles, push,
// report): reading the inputs, then indexing the documents, on stderr when it is a terminal.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/progress_meter.h"
#include "es/bucket_reader.h"
#include "stats/result_sink.h"

namespace fiohist {

/// Bytes of the files in `paths` (a path that cannot be read counts 0: its reader says why).
uint64_t InputBytes(const std::vector<std::string>& paths);

/// One command's progress: a phase at a time, each a ProgressMeter line. Does nothing when
/// not enabled (ProgressMeter::WantedOnStderr).
class CommandProgress {
 public:
  explicit CommandProgress(bool enabled) : enabled_(enabled) {}

  /// "reading: 1.2 GB of 3.4 GB (35%), 410 MB/s, 5 s left" over the files in `inputs`
  /// (histogram logs; fio JSON outputs are read whole at once and show nothing), with
  /// ", N documents indexed" where `indexed` is not null.
  void StartReading(const std::vector<std::string>& inputs, bool fio_json,
                    const std::atomic<uint64_t>* indexed);
  /// "indexing: N of TOTAL documents (p%), rate, time left".
  void StartIndexing(uint64_t total, const std::atomic<uint64_t>* indexed);
  /// "reading back: N of TOTAL bucket documents (p%), rate, time left" (the total once the
  /// server has counted them: BucketReader::ReportProgress); `what` (e.g. "run 'r1'") after
  /// "reading back" when not empty.
  void StartReadBack(const BucketReadProgress* progress, const std::string& what = "");
  /// Ends the current phase's line.
  void Stop();

  /// A sink to put first among a run's sinks: ends the reading line when the results end,
  /// before the summary sink prints. Changes nothing else the pipeline does.
  ResultSink* StopAtEnd() { return &stop_at_end_; }

 private:
  class StopSink : public ResultSink {
   public:
    explicit StopSink(CommandProgress* p) : p_(p) {}
    Status Begin(const RunInfo&) override { return Status(); }
    Status Quantum(const ScopeResult&) override { return Status(); }
    Status WholeRun(const ScopeResult&) override { return Status(); }
    Status End(const RunSummary&) override {
      p_->Stop();
      return Status();
    }
    bool reads_job_histograms() const override { return false; }
    bool reads_job_quantum_stats() const override { return false; }
    bool reads_whole_run(ScopeKind) const override { return false; }
    bool takes_jobs_by_log() const override { return true; }

   private:
    CommandProgress* p_;
  };

  bool enabled_;
  std::unique_ptr<ProgressMeter> meter_;
  StopSink stop_at_end_{this};
};

}  // namespace fiohist
