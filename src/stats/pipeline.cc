#include "stats/pipeline.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>

#include "base/memory_release.h"
#include "base/worker_pool.h"
#include "log/log_stream.h"
#include "log/quantum_grid.h"
#include "log/record_stream.h"
#include "stats/job_replay.h"
#include "stats/merge.h"
#include "stats/run_layout.h"
#include "stats/spilled_logs.h"

namespace fiohist {
namespace {

// One log's state across the run: its stream (none when spilled), its share of the quanta
// being computed and emitted (two buffers: quantum q is computed while q - 1 is written
// out; the histograms need the second one only when the sink reads job histograms) and its
// whole-run histograms (not when spilled).
struct LogSlot {
  // The histograms a log keeps of its own when read in step (not when spilled logs are
  // fed host by host into a worker's scratch: thousands of logs then keep none).
  struct Histograms {
    std::array<ScopeHistograms, 2> quantum;  // this log's share of a quantum
    std::array<Histogram, 2> all;            // scratch: sum over directions
    ScopeHistograms whole;                   // this log over the whole run (not spilled)
  };
  std::unique_ptr<RecordStream> stream;
  std::unique_ptr<Histograms> own;  // null when read host by host (Pipeline::by_host_)
  std::array<std::vector<ScopeResult>, 2> results;
  std::array<std::vector<PlacedRecord>, 2> placed;  // records starting in the quantum
  ScopeResult base;  // this log's key fields (kind, host, job) for its results
  Status status;
};

// A quantum's scope sums and statistics, kept until it is written out.
struct QuantumState {
  explicit QuantumState(int hosts)
      : merge(hosts),
        host_results(static_cast<size_t>(hosts)),
        host_all(static_cast<size_t>(hosts)) {}
  ScopeMerge merge;
  std::vector<ScopeResult> cluster_results;
  std::vector<std::vector<ScopeResult>> host_results;
  Histogram cluster_all;
  std::vector<Histogram> host_all;
  int64_t start_ms = 0, end_ms = 0;
  double elapsed_s = 0;
  bool pending = false;  // computed, not yet written out
};

// Sets `*out` to the results of every wanted direction of `h` (none when nothing was
// touched). Reuses the storage of the results already there: a quantum has as many
// results as the one before, so strings and vectors are overwritten, not reallocated.
// `full_stats` false: only the samples of each (ComputeSamplesOnly), where no sink reads more.
void SetResults(const ScopeHistograms& h, const PipelineOptions& o, const BucketLayout& layout,
                const ScopeResult& base, Histogram* all_scratch, std::vector<ScopeResult>* out,
                bool full_stats = true) {
  size_t n = 0;
  // `same_as`: the index of a result already made from the same histogram, whose
  // statistics are copied rather than computed again; -1 for none.
  auto add = [&](Direction d, const Histogram* histogram, int same_as) {
    if (n == out->size()) out->emplace_back();
    ScopeResult& r = (*out)[n++];
    CopyPlace(base, &r);
    r.direction = d;
    r.straddled = h.StraddledShare(static_cast<size_t>(d));  // kAll is kLogDirections
    r.histogram = histogram;
    r.records = nullptr;
    r.prepared.clear();
    if (same_as >= 0) {
      r.stats = (*out)[static_cast<size_t>(same_as)].stats;
    } else if (!full_stats) {
      ComputeSamplesOnly(*histogram, &r.stats, o.confidence);
    } else {
      ComputeStats(*histogram, layout, o.percentiles.values, &r.stats, o.confidence);
    }
  };
  if (h.any()) {
    int result_of[kLogDirections] = {-1, -1, -1};
    for (int d = 0; d < kLogDirections; ++d) {
      if (!h.touched[static_cast<size_t>(d)] || !o.directions[static_cast<size_t>(d)]) continue;
      result_of[d] = static_cast<int>(n);
      add(static_cast<Direction>(d), &h.direction[static_cast<size_t>(d)], -1);
    }
    if (o.directions[3]) {
      // With one direction holding counts (a randread or randwrite job) "all" is that
      // histogram as it is: no sum to make, and its statistics are already known.
      int only = -1, with_counts = 0;
      for (int d = 0; d < kLogDirections; ++d) {
        if (!h.direction[static_cast<size_t>(d)].empty()) {
          only = d;
          ++with_counts;
        }
      }
      if (with_counts == 1) {
        add(Direction::kAll, &h.direction[static_cast<size_t>(only)], result_of[only]);
      } else {
        h.SumInto(all_scratch);
        add(Direction::kAll, all_scratch, -1);
      }
    }
  }
  out->resize(n);
}

// The quanta in flight while streaming: two buffers (quantum q is computed in `state[cur]`
// while q - 1 is written out from the other) and the sums over the whole run.
struct StreamState {
  explicit StreamState(int hosts) : state{QuantumState(hosts), QuantumState(hosts)}, whole(hosts) {}
  std::array<QuantumState, 2> state;
  QuantumState whole;
  int cur = 0;           // buffer of the quantum being computed; 1 - cur holds the one to write out
  Status emitted;        // the first error of writing out
  int64_t last_end = 0;  // end of the last quantum with data
};

class Pipeline {
 public:
  Pipeline(const PipelineOptions& options, ResultSink* sink, RunSummary* summary)
      : o_(options), sink_(sink), summary_(summary) {}

  Status Run(const std::vector<std::string>& paths);

 private:
  // Stream: every quantum of every log, in time order, into the sink.
  Status Stream();
  // Stream's steps, in order. Makes each log's slot and opens its stream (on all workers);
  // an error stays in the slot's status.
  void OpenStreams();
  // Slots are sorted by host: host h owns slots [begin[h], begin[h + 1]).
  std::vector<size_t> HostRanges() const;
  // One quantum: every log's share is read (while the previous quantum is written out),
  // then summed per host and cluster; it is written out during the next one.
  Status StreamQuantum(const QuantumGrid& grid, int64_t q, const std::vector<size_t>& host_begin,
                       StreamState* st);
  // Log i's task in quantum q on `worker`: feeds its stream (or spill) into `mine` and,
  // for the job scope, adds that to its whole-run sum (unless spilled) and makes its
  // results (in buffer `rb`; `lb` is the buffer of `mine` when it is the log's own).
  void FeedLog(const QuantumGrid& grid, int64_t q, size_t lb, size_t rb, double elapsed, int worker,
               size_t i, ScopeHistograms* mine);
  // StreamQuantum's feeding and host sums with spilled logs whose quantum histograms
  // need not outlive it: one task per host feeds its logs into a worker's scratch one
  // after the other and adds them up, so no log keeps histograms of its own.
  void FeedHosts(const QuantumGrid& grid, int64_t q, size_t rb, double elapsed,
                 const std::vector<size_t>& host_begin, StreamState* st, QuantumState* state);
  // Reads every log ahead into temporary files when there are many (spill_min_logs);
  // any error leaves spill_ unset, and the in-step reading reports it as ever.
  void SpillLogs(const QuantumGrid& grid);
  // Earliest instant log i may still contribute to.
  int64_t NextStartOf(size_t i) const {
    return spill_ ? spill_->next_start_ms(i) : slots_[i].stream->next_start_ms();
  }
  // Seconds from the run's first quantum to `start_ms`.
  double ElapsedOf(int64_t start_ms) const {
    return static_cast<double>(start_ms - info_.first_quantum_ms) / 1000.0;
  }
  // The job results of a log's share `mine` of quantum q into `*out`, prepared for the sink
  // (in step and read again alike): `base` holds the log's key fields and gets the
  // quantum's, `all` the sum over directions, `placed` (when kept) the records.
  void MakeJobResults(const QuantumGrid& grid, int64_t q, double elapsed,
                      const ScopeHistograms& mine, std::vector<PlacedRecord>* placed,
                      ScopeResult* base, Histogram* all, std::vector<ScopeResult>* out) const;
  // Each host's sum of its logs' shares (one task per host, with the host statistics when
  // wanted), then the cluster's.
  void SumScopes(const std::vector<size_t>& host_begin, size_t lb, QuantumState* state);
  // Writes out the pending quantum of buffer `b`, if any, and adds it to the whole run.
  void EmitPending(int b, StreamState* st);
  // The earliest instant any log may still contribute to (INT64_MAX: all done).
  int64_t NextStart() const;
  // The job scope when it comes log by log (jobs_by_log_), after every other quantum; with
  // the whole run's job results made there too (`last_end`: the run's end), not from a
  // third reading of the spill (job_whole_).
  Status EmitJobsByLog(const QuantumGrid& grid, int64_t last_end);
  // Log i's whole-run results from its sum `whole` over the run (`all`: room for the sum
  // over directions).
  void MakeWholeJobResults(size_t i, const ScopeHistograms& whole, int64_t last_end, Histogram* all,
                           std::vector<ScopeResult>* out) const;
  // The job scope's results are made with the others, quantum by quantum.
  bool jobs_inline() const { return o_.scopes[2] && !jobs_by_log_; }
  // Whole-run statistics of every scope, after the last quantum.
  Status EmitWholeRun(int64_t last_end, QuantumState* whole);
  // Whole-run statistics of every log (the job scope).
  Status EmitWholeRunJobs(int64_t last_end);

  // Computes the cluster's statistics of `state`, and the hosts' ones (on all workers)
  // when `hosts` is true.
  void ScopeStats(QuantumState* state, bool whole_run, bool hosts);
  // Computes the statistics of host `h` of `state`.
  void HostStats(QuantumState* state, bool whole_run, size_t h);
  // Writes out a quantum computed earlier: cluster, hosts, then jobs (from `buffer`).
  Status EmitQuantum(const QuantumState& state, int buffer);
  // Lets the sink prepare its output of per-quantum results (on the calling worker).
  void Prepare(std::vector<ScopeResult>* rs) const {
    if (!prepares_) return;
    for (ScopeResult& r : *rs) sink_->Prepare(r, &r.prepared);
  }
  Status Emit(const std::vector<ScopeResult>& rs, bool whole_run) {
    for (const ScopeResult& r : rs) {
      Status s = whole_run ? sink_->WholeRun(r) : sink_->Quantum(r);
      if (!s.ok()) return s;
    }
    return Status();
  }

  const PipelineOptions& o_;
  ResultSink* sink_;
  RunSummary* summary_;
  // The run laid out (LayOutRun): its logs, time line and grid, each log's stream setup.
  RunLayout layout_;
  RunInfo& info_ = layout_.info;
  const std::vector<StreamSetup>& setups_ = layout_.setups;
  std::vector<LogSlot> slots_;
  WorkerPool* pool_ = nullptr;
  std::vector<int> host_log_count_;
  bool prepares_ = false;
  // The sink reads job results' histograms (ResultSink::reads_job_histograms): each log
  // keeps two histogram buffers and its own "all" scratch; else one, and one scratch per
  // worker.
  bool job_histograms_ = true;
  // The hosts' whole-run sums are kept and their statistics made (the sink reads them).
  bool whole_hosts_ = true;
  // The sink reads the statistics of job quanta, not only their samples
  // (ResultSink::reads_job_quantum_stats).
  bool job_quantum_stats_ = true;
  // Job results come after the others, log by log (ResultSink::takes_jobs_by_log), read
  // again from the spill: with many logs, what the sink keeps per job series lives for a
  // few logs at a time.
  bool jobs_by_log_ = false;
  // Spilled logs are fed host by host into a worker's scratch (FeedHosts): no log keeps
  // histograms of its own (LogSlot::own), as none outlives its quantum.
  bool by_host_ = false;
  std::vector<Histogram> worker_all_;
  // Logs read ahead into temporary files (many logs), or null: read in step.
  std::unique_ptr<SpilledLogs> spill_;
  // With spill_: each worker's share of the log it feeds.
  std::vector<ScopeHistograms> worker_share_;
  // With jobs_by_log_: each log's whole-run job results, made while the job scope was read
  // again (histograms not kept: a sink that takes jobs by log gets none in WholeRun), and
  // whether they were.
  std::vector<std::vector<ScopeResult>> job_whole_;
  bool job_whole_made_ = false;
  SlaChecker sla_;  // counts the quanta that breach o_.sla
};

void Pipeline::ScopeStats(QuantumState* state, bool whole_run, bool hosts) {
  if (!o_.scopes[0]) {
    state->cluster_results.clear();
  } else {
    ScopeResult base;
    base.start_ms = state->start_ms;
    base.end_ms = state->end_ms;
    base.elapsed_s = state->elapsed_s;
    base.kind = ScopeKind::kCluster;
    base.logs = whole_run ? static_cast<int>(info_.logs.size()) : state->merge.cluster().logs;
    SetCoverage(state->merge.cluster().covered_ms, static_cast<int>(info_.logs.size()),
                state->end_ms - state->start_ms, &base);
    if (!whole_run) SetCompleteTo(state->merge.cluster().complete_to_ms, &base);
    SetResults(state->merge.cluster(), o_, info_.layout, base, &state->cluster_all,
               &state->cluster_results);
    if (!whole_run) Prepare(&state->cluster_results);
  }
  if (hosts && o_.scopes[1]) {
    pool_->ParallelFor(static_cast<size_t>(state->merge.host_count()),
                       [&](int, size_t h) { HostStats(state, whole_run, h); });
  }
}

void Pipeline::HostStats(QuantumState* state, bool whole_run, size_t h) {
  const ScopeHistograms& sum = state->merge.host(static_cast<int>(h));
  ScopeResult base;
  base.start_ms = state->start_ms;
  base.end_ms = state->end_ms;
  base.elapsed_s = state->elapsed_s;
  base.kind = ScopeKind::kHost;
  base.host = info_.hosts[h];
  base.logs = whole_run ? host_log_count_[h] : sum.logs;
  SetCoverage(sum.covered_ms, host_log_count_[h], state->end_ms - state->start_ms, &base);
  if (!whole_run) SetCompleteTo(sum.complete_to_ms, &base);
  SetResults(sum, o_, info_.layout, base, &state->host_all[h], &state->host_results[h]);
  if (!whole_run) Prepare(&state->host_results[h]);
}

Status Pipeline::EmitQuantum(const QuantumState& state, int buffer) {
  if (sla_.active()) {
    for (const ScopeResult& r : state.cluster_results) {
      if (sla_.Breaches(r, nullptr)) ++summary_->sla_breaches;
      if (sla_.BreachesBeyondNoise(r)) ++summary_->sla_breaches_beyond_noise;
    }
  }
  Status s = Emit(state.cluster_results, false);
  if (!s.ok()) return s;
  if (o_.scopes[1]) {
    for (const std::vector<ScopeResult>& rs : state.host_results) {
      s = Emit(rs, false);
      if (!s.ok()) return s;
    }
  }
  if (!jobs_inline()) return Status();
  for (const LogSlot& slot : slots_) {
    s = Emit(slot.results[static_cast<size_t>(buffer)], false);
    if (!s.ok()) return s;
  }
  return Status();
}

Status Pipeline::Stream() {
  const QuantumGrid grid(info_.grid_origin_ms, o_.quantum_ms);
  WorkerPool pool(o_.threads);
  pool_ = &pool;
  SpillLogs(grid);
  // What the probes kept of the logs served the spill: logs read in step (a spill that
  // failed) are read from their files, as the errors they report name them.
  for (StreamSetup& setup : layout_.setups) setup.probed = ProbedRecords();
  layout_.probed_files.clear();
  OpenStreams();
  const std::vector<size_t> host_begin = HostRanges();
  for (LogSlot& slot : slots_) {
    if (!slot.status.ok()) return slot.status;
  }
  int64_t next = NextStart();
  info_.start_ms = next;
  int64_t q = grid.IndexOf(next);
  info_.first_quantum_ms = grid.Start(q);
  Status s = sink_->Begin(info_);
  if (!s.ok()) return s;
  prepares_ = sink_->prepares();
  job_histograms_ = sink_->reads_job_histograms();
  job_quantum_stats_ = sink_->reads_job_quantum_stats();
  whole_hosts_ = o_.scopes[1] && sink_->reads_whole_run(ScopeKind::kHost);
  // The cluster's or hosts' results, all in before the first job's, tell the sink every
  // window of the run (ResolutionSink decides its levels from them).
  jobs_by_log_ =
      spill_ && o_.scopes[2] && (o_.scopes[0] || o_.scopes[1]) && sink_->takes_jobs_by_log();
  by_host_ = spill_ && (!job_histograms_ || !jobs_inline());
  if (!by_host_) {
    for (LogSlot& slot : slots_) slot.own = std::make_unique<LogSlot::Histograms>();
  }
  if (!job_histograms_) worker_all_.resize(static_cast<size_t>(pool.size()));

  StreamState st(static_cast<int>(info_.hosts.size()));
  st.last_end = info_.first_quantum_ms;
  while (next != INT64_MAX) {
    s = StreamQuantum(grid, q, host_begin, &st);
    if (!s.ok()) return s;
    next = NextStart();
    if (next == INT64_MAX) break;
    q = std::max(q + 1, grid.IndexOf(next));
  }
  EmitPending(1 - st.cur, &st);
  if (!st.emitted.ok()) return st.emitted;
  // The quanta's scope sums (a histogram per host and direction, twice) are done with: let
  // the job scope and the whole run have their memory.
  for (QuantumState& done : st.state) done = QuantumState(0);
  ReleaseFreeMemory();  // else kept for this thread, while workers make the job results
  if (jobs_by_log_) {
    s = EmitJobsByLog(grid, st.last_end);
    if (!s.ok()) return s;
  }
  summary_->end_ms = st.last_end;
  return EmitWholeRun(st.last_end, &st.whole);
}

void Pipeline::SpillLogs(const QuantumGrid& grid) {
  if (o_.spill_min_logs == 0 || info_.logs.size() < o_.spill_min_logs || o_.place_issue) return;
  SpilledLogs::Options options;
  options.keep_records = o_.keep_records && o_.scopes[2];
  spill_ = std::make_unique<SpilledLogs>();
  if (!spill_->Write(info_.logs, setups_, grid, options, pool_).ok()) {
    spill_.reset();
    return;
  }
  worker_share_.resize(static_cast<size_t>(pool_->size()));
}

void Pipeline::OpenStreams() {
  host_log_count_.assign(info_.hosts.size(), 0);
  for (const LogSource& l : info_.logs) ++host_log_count_[static_cast<size_t>(l.host_index)];
  slots_.resize(info_.logs.size());
  pool_->ParallelFor(slots_.size(), [&](int, size_t i) {
    slots_[i].base.kind = ScopeKind::kJob;
    slots_[i].base.host = info_.logs[i].host;
    slots_[i].base.job = info_.logs[i].job;
    slots_[i].base.logs = 1;
    if (spill_) return;
    slots_[i].stream = MakeRecordStream(info_.logs[i], setups_[i]);
    slots_[i].status = slots_[i].stream->Prime();
  });
}

std::vector<size_t> Pipeline::HostRanges() const {
  const size_t hosts = info_.hosts.size();
  std::vector<size_t> host_begin(hosts + 1, slots_.size());
  for (size_t i = slots_.size(); i-- > 0;) {
    host_begin[static_cast<size_t>(info_.logs[i].host_index)] = i;
  }
  for (size_t h = hosts; h-- > 0;) host_begin[h] = std::min(host_begin[h], host_begin[h + 1]);
  return host_begin;
}

Status Pipeline::StreamQuantum(const QuantumGrid& grid, int64_t q,
                               const std::vector<size_t>& host_begin, StreamState* st) {
  const int64_t qs = grid.Start(q), qe = grid.End(q);
  const double elapsed = ElapsedOf(qs);
  const size_t b = static_cast<size_t>(st->cur);
  // Job results are written out during the next quantum (two buffers); logs' own
  // histograms outlive their quantum only when the sink reads them there: else one buffer
  // does, as without the job scope.
  const size_t rb = jobs_inline() ? b : 0;
  const size_t lb = job_histograms_ ? rb : 0;
  QuantumState& state = st->state[b];
  state.start_ms = qs;
  state.end_ms = qe;
  state.elapsed_s = elapsed;
  if (by_host_) {
    FeedHosts(grid, q, rb, elapsed, host_begin, st, &state);
  } else {
    // Task 0 writes out the previous quantum while the other workers read this one.
    pool_->ParallelFor(slots_.size() + 1, [&](int worker, size_t task) {
      if (task == 0) {
        EmitPending(1 - st->cur, st);
      } else {
        FeedLog(grid, q, lb, rb, elapsed, worker, task - 1, &slots_[task - 1].own->quantum[lb]);
      }
    });
  }
  if (!st->emitted.ok()) return st->emitted;
  for (LogSlot& slot : slots_) {
    if (!slot.status.ok()) return slot.status;
  }
  if (by_host_) {
    state.merge.SumHosts();
  } else {
    SumScopes(host_begin, lb, &state);
  }
  if (state.merge.cluster().any()) {
    ++summary_->quanta;
    st->last_end = qe;
    ScopeStats(&state, false, false);
    state.pending = true;
  }
  st->cur = 1 - st->cur;
  return Status();
}

void Pipeline::FeedHosts(const QuantumGrid& grid, int64_t q, size_t rb, double elapsed,
                         const std::vector<size_t>& host_begin, StreamState* st,
                         QuantumState* state) {
  // Task 0 writes out the previous quantum while the other workers read this one.
  pool_->ParallelFor(info_.hosts.size() + 1, [&](int worker, size_t task) {
    if (task == 0) {
      EmitPending(1 - st->cur, st);
      return;
    }
    const size_t h = task - 1;
    ScopeHistograms& sum = state->merge.mutable_host(static_cast<int>(h));
    sum.Clear();
    ScopeHistograms& mine = worker_share_[static_cast<size_t>(worker)];
    for (size_t i = host_begin[h]; i < host_begin[h + 1]; ++i) {
      FeedLog(grid, q, 0, rb, elapsed, worker, i, &mine);
      if (slots_[i].status.ok() && mine.any()) sum.Merge(mine);
    }
    if (o_.scopes[1]) HostStats(state, false, h);
  });
}

void Pipeline::FeedLog(const QuantumGrid& grid, int64_t q, size_t lb, size_t rb, double elapsed,
                       int worker, size_t i, ScopeHistograms* share) {
  const bool job_scope = jobs_inline();
  LogSlot* slot = &slots_[i];
  ScopeHistograms& mine = *share;
  mine.Clear();
  std::vector<PlacedRecord>* placed = nullptr;
  if (job_scope && o_.keep_records) {
    placed = &slot->placed[rb];
    placed->clear();
  }
  if (NextStartOf(i) < grid.End(q)) {
    if (spill_) {
      slot->status = spill_->Read(i, q, &mine, placed);
    } else {
      slot->status = slot->stream->Feed(grid, q, &mine.direction, &mine.touched, placed);
      mine.covered_ms = slot->stream->covered_ms(q);
      mine.straddled = slot->stream->straddled_ios(q);
      mine.complete_to_ms = slot->stream->complete_to_ms(q);
    }
  }
  if (!slot->status.ok() || !mine.any() || !job_scope) {
    if (job_scope) slot->results[rb].clear();
    if (mine.any()) mine.logs = 1;
    return;
  }
  mine.logs = 1;
  if (!spill_) {
    slot->own->whole.Merge(mine);
    slot->own->whole.logs = 1;
  }
  std::vector<ScopeResult>& results = slot->results[rb];
  Histogram* all =
      job_histograms_ ? &slot->own->all[lb] : &worker_all_[static_cast<size_t>(worker)];
  MakeJobResults(grid, q, elapsed, mine, placed, &slot->base, all, &results);
  if (!job_histograms_) {
    for (ScopeResult& r : results) r.histogram = nullptr;  // reused before written out
  }
}

void Pipeline::MakeJobResults(const QuantumGrid& grid, int64_t q, double elapsed,
                              const ScopeHistograms& mine, std::vector<PlacedRecord>* placed,
                              ScopeResult* base, Histogram* all,
                              std::vector<ScopeResult>* out) const {
  base->start_ms = grid.Start(q);
  base->end_ms = grid.End(q);
  base->elapsed_s = elapsed;
  SetCoverage(mine.covered_ms, 1, grid.quantum_ms(), base);
  SetCompleteTo(mine.complete_to_ms, base);
  SetResults(mine, o_, info_.layout, *base, all, out, job_quantum_stats_);
  if (placed) {
    for (ScopeResult& r : *out) r.records = placed;
  }
  Prepare(out);
}

void Pipeline::SumScopes(const std::vector<size_t>& host_begin, size_t lb, QuantumState* state) {
  pool_->ParallelFor(info_.hosts.size(), [&](int, size_t h) {
    ScopeHistograms& sum = state->merge.mutable_host(static_cast<int>(h));
    sum.Clear();
    for (size_t i = host_begin[h]; i < host_begin[h + 1]; ++i) {
      const ScopeHistograms& share = slots_[i].own->quantum[lb];
      if (share.any()) sum.Merge(share);
    }
    if (o_.scopes[1]) HostStats(state, false, h);
  });
  state->merge.SumHosts();
}

void Pipeline::EmitPending(int b, StreamState* st) {
  QuantumState& state = st->state[static_cast<size_t>(b)];
  if (!state.pending) return;
  state.pending = false;
  st->whole.merge.Merge(state.merge, whole_hosts_);
  if (st->emitted.ok()) st->emitted = EmitQuantum(state, b);
}

Status Pipeline::EmitJobsByLog(const QuantumGrid& grid, int64_t last_end) {
  const bool whole = o_.scopes[2] && sink_->reads_whole_run(ScopeKind::kJob);
  if (whole) job_whole_.assign(slots_.size(), {});
  const JobWholeTaker take_whole = [&](size_t log, const ScopeHistograms& sum) {
    Histogram all;
    MakeWholeJobResults(log, sum, last_end, &all, &job_whole_[log]);
    for (ScopeResult& r : job_whole_[log]) r.histogram = nullptr;
  };
  Status s = ReplayJobsByLog(
      *spill_, info_.logs, o_.keep_records,
      [&](size_t log, int64_t q, const ScopeHistograms& mine, std::vector<PlacedRecord>* placed,
          Histogram* all, std::vector<ScopeResult>* out) {
        ScopeResult base = slots_[log].base;  // kind, host, job, logs
        MakeJobResults(grid, q, ElapsedOf(grid.Start(q)), mine, placed, &base, all, out);
      },
      pool_, sink_, whole ? &take_whole : nullptr);
  job_whole_made_ = whole && s.ok();
  return s;
}

void Pipeline::MakeWholeJobResults(size_t i, const ScopeHistograms& whole, int64_t last_end,
                                   Histogram* all, std::vector<ScopeResult>* out) const {
  ScopeResult base = slots_[i].base;  // kind, host, job, logs
  base.start_ms = info_.first_quantum_ms;
  base.end_ms = last_end;
  base.elapsed_s = 0;
  SetCoverage(whole.covered_ms, 1, last_end - info_.first_quantum_ms, &base);
  SetResults(whole, o_, info_.layout, base, all, out);
}

int64_t Pipeline::NextStart() const {
  int64_t next = INT64_MAX;
  for (size_t i = 0; i < slots_.size(); ++i) next = std::min(next, NextStartOf(i));
  return next;
}

Status Pipeline::EmitWholeRun(int64_t last_end, QuantumState* whole) {
  // The logs count is the number of logs in the scope.
  whole->start_ms = info_.first_quantum_ms;
  whole->end_ms = last_end;
  ScopeStats(whole, true, whole_hosts_);
  Status s = Emit(whole->cluster_results, true);
  if (!s.ok()) return s;
  if (whole_hosts_) {
    for (const std::vector<ScopeResult>& rs : whole->host_results) {
      s = Emit(rs, true);
      if (!s.ok()) return s;
    }
  }
  return o_.scopes[2] && sink_->reads_whole_run(ScopeKind::kJob) ? EmitWholeRunJobs(last_end)
                                                                 : Status();
}

Status Pipeline::EmitWholeRunJobs(int64_t last_end) {
  if (job_whole_made_) {  // made while the job scope was read again (EmitJobsByLog)
    for (const std::vector<ScopeResult>& rs : job_whole_) {
      Status s = Emit(rs, true);
      if (!s.ok()) return s;
    }
    return Status();
  }
  // A chunk of logs is read back and its statistics made on every worker, then emitted in
  // log order: with thousands of spilled logs this replay is otherwise a serial tail.
  struct Slot {
    ScopeHistograms spilled;  // a spilled log's whole run, read back
    Histogram all;
    std::string bytes;
    std::vector<ScopeResult> results;
    Status status;
  };
  const size_t chunk = 8 * static_cast<size_t>(pool_->size());
  std::vector<Slot> work(std::min(chunk, slots_.size()));
  for (size_t first = 0; first < slots_.size(); first += chunk) {
    const size_t n = std::min(chunk, slots_.size() - first);
    pool_->ParallelFor(n, [&](int, size_t k) {
      const size_t i = first + k;
      Slot& w = work[k];
      const ScopeHistograms* whole = spill_ ? &w.spilled : &slots_[i].own->whole;
      if (spill_) {
        w.status = spill_->ReadWhole(i, &w.spilled, &w.bytes);
        if (!w.status.ok()) return;
      }
      MakeWholeJobResults(i, *whole, last_end, &w.all, &w.results);
    });
    for (size_t k = 0; k < n; ++k) {
      if (!work[k].status.ok()) return work[k].status;
      Status s = Emit(work[k].results, true);
      if (!s.ok()) return s;
    }
  }
  return Status();
}

Status Pipeline::Run(const std::vector<std::string>& paths) {
  Status s = LayOutRun(o_, paths, &layout_, summary_);
  sla_ = SlaChecker(o_.sla, o_.percentiles);
  if (s.ok()) s = Stream();
  summary_->reports.clear();
  summary_->io_shares.clear();
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (!slots_[i].stream && !spill_) continue;
    const LogReport& r = spill_ ? spill_->report(i) : slots_[i].stream->report();
    summary_->reports.push_back(r);
    const std::string& path = info_.logs[i].path;
    if (r.skipped_lines > 0) {
      summary_->incomplete = true;
      summary_->warnings.push_back(path + ": skipped " + std::to_string(r.skipped_lines) +
                                   " bad line(s)");
      for (const std::string& e : r.skipped_examples) summary_->warnings.push_back("  " + e);
    }
    if (r.duplicates > 0) {
      summary_->warnings.push_back(path + ": dropped " + std::to_string(r.duplicates) +
                                   " duplicate record(s) (same time and direction as the "
                                   "previous one)");
    }
    if (r.records > 0 && r.total_ios == 0) {
      summary_->warnings.push_back(path +
                                   ": every bucket count is zero (was fio run with "
                                   "clat_percentiles=0?); it adds no latency samples");
    }
    if (r.late_ios > 0) {
      char ios[64];
      std::snprintf(ios, sizeof(ios), "%.0f", r.late_ios);  // may exceed any integer type
      summary_->warnings.push_back(path + ": " + ios +
                                   " I/O(s) of a record that began in a quantum already written "
                                   "out were placed from the first open one");
    }
    if (r.unterminated_last_line) {
      summary_->warnings.push_back(path +
                                   ": last line has no newline (fio stopped while "
                                   "writing?); it was complete and was used");
    }
  }
  if (s.ok() && summary_->reports.size() == info_.logs.size()) {
    AddIoShares(layout_, summary_);
    summary_->stalls = FindStalls(info_.logs, summary_->reports, info_.layout,
                                  2 * info_.log_hist_msec, IdleGapLogs(layout_));
  }
  if (s.ok()) s = sink_->End(*summary_);
  return s;
}

}  // namespace

Status RunPipeline(const PipelineOptions& options, const std::vector<std::string>& paths,
                   ResultSink* sink, RunSummary* summary) {
  if (options.sla.empty()) {
    Pipeline p(options, sink, summary);
    return p.Run(paths);
  }
  // Every threshold's percentile must be computed to be checked.
  PipelineOptions with_sla = options;
  AddSlaPercentiles(with_sla.sla, &with_sla.percentiles);
  Pipeline p(with_sla, sink, summary);
  return p.Run(paths);
}

}  // namespace fiohist
