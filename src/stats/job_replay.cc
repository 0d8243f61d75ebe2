#include "stats/job_replay.h"

#include <array>
#include <cstdint>
#include <string>

namespace fiohist {
namespace {

// A fixed number of lanes, so that the order of results does not depend on the thread
// count; few, so that the sink keeps per-job state for a few logs only.
constexpr size_t kJobLanes = 8;
constexpr size_t kJobChunk = 16;
constexpr size_t kNoLog = SIZE_MAX;

// One log being read again.
struct JobLane {
  // One step's quanta of the lane's log, with their results, kept until written out.
  struct Chunk {
    size_t log = kNoLog;  // kNoLog: nothing to write out
    bool last = false;    // the log's last quanta: the sink hears JobDone after them
    size_t n = 0;
    std::array<ScopeHistograms, kJobChunk> shares;
    std::array<Histogram, kJobChunk> all;
    std::array<std::vector<ScopeResult>, kJobChunk> results;
    std::array<std::vector<PlacedRecord>, kJobChunk> placed;
    Status status;
  };
  size_t log = kNoLog;  // the log being read; kNoLog: idle
  SpilledLogs::Position at;
  ScopeHistograms whole;       // the log's sum so far (with a JobWholeTaker)
  std::array<Chunk, 2> chunk;  // the one being read, the one being written out
};

// Reads the lane's next chunk of quanta into its buffer `b` and makes their results.
void ReadChunk(const SpilledLogs& spill, bool keep_records, const JobResultMaker& make,
               const JobWholeTaker* whole, JobLane* lane, size_t b, std::string* bytes) {
  JobLane::Chunk& c = lane->chunk[b];
  c.log = lane->log;
  c.n = 0;
  c.last = false;
  if (lane->log == kNoLog) return;
  while (c.n < kJobChunk && !lane->at.done()) {
    ScopeHistograms& mine = c.shares[c.n];
    std::vector<PlacedRecord>* placed = keep_records ? &c.placed[c.n] : nullptr;
    if (placed) placed->clear();
    int64_t q;
    c.status = spill.ReadNext(&lane->at, &q, &mine, placed, bytes);
    if (!c.status.ok()) return;
    if (!mine.any()) continue;  // as in step: a quantum no direction touched has no results
    mine.logs = 1;
    if (whole) {  // summed as SpilledLogs::ReadWhole sums it
      lane->whole.Merge(mine);
      lane->whole.logs = 1;
    }
    make(lane->log, q, mine, placed, &c.all[c.n], &c.results[c.n]);
    ++c.n;
  }
  if (lane->at.done()) {
    if (whole) (*whole)(lane->log, lane->whole);
    c.last = true;
    lane->log = kNoLog;
  }
}

// Writes out buffer `b` of every lane, in lane order.
Status WriteChunks(const std::vector<LogSource>& logs, std::vector<JobLane>* lanes, size_t b,
                   ResultSink* sink) {
  for (JobLane& lane : *lanes) {
    JobLane::Chunk& c = lane.chunk[b];
    if (c.log == kNoLog) continue;
    for (size_t k = 0; k < c.n; ++k) {
      for (const ScopeResult& r : c.results[k]) {
        Status s = sink->Quantum(r);
        if (!s.ok()) return s;
      }
    }
    if (c.last) {
      Status s = sink->JobDone(logs[c.log].host, logs[c.log].job);
      if (!s.ok()) return s;
    }
    c.log = kNoLog;
  }
  return Status();
}

}  // namespace

Status ReplayJobsByLog(const SpilledLogs& spill, const std::vector<LogSource>& logs,
                       bool keep_records, const JobResultMaker& make, WorkerPool* pool,
                       ResultSink* sink, const JobWholeTaker* whole) {
  std::vector<JobLane> lanes(kJobLanes);
  std::vector<std::string> bytes(static_cast<size_t>(pool->size()));  // per worker
  size_t next_log = 0;
  size_t cur = 0;
  Status written;
  for (;;) {
    bool reading = false, writing = false;
    for (JobLane& lane : lanes) {
      if (lane.log == kNoLog && next_log < logs.size()) {
        lane.log = next_log;
        lane.at = spill.Restart(next_log++);
        lane.whole.Clear();
      }
      reading = reading || lane.log != kNoLog;
      writing = writing || lane.chunk[1 - cur].log != kNoLog;
    }
    if (!reading && !writing) return Status();
    // Task 0 writes out the step before while the other workers read this one.
    pool->ParallelFor(lanes.size() + 1, [&](int worker, size_t task) {
      if (task == 0) {
        written = WriteChunks(logs, &lanes, 1 - cur, sink);
      } else {
        ReadChunk(spill, keep_records, make, whole, &lanes[task - 1], cur,
                  &bytes[static_cast<size_t>(worker)]);
      }
    });
    if (!written.ok()) return written;
    for (const JobLane& lane : lanes) {
      if (!lane.chunk[cur].status.ok()) return lane.chunk[cur].status;
    }
    cur = 1 - cur;
  }
}

}  // namespace fiohist
