// Coarser resolutions of the same exact histograms, so that a dashboard zoomed out to
// minutes or hours still draws exact percentiles.
//
// Percentiles of parts do not combine: the p99 of a minute is not the max (nor the mean) of
// its seconds' p99s. So next to every quantum's result this sink adds, for each coarser
// resolution (a multiple of the quantum, windows aligned like the quanta: to multiples of
// their length from the grid origin), the statistics of the summed histograms of the window, as
// `fiohist pctiles --quantum <window>` would compute them from the logs.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "stats/result_sink.h"

namespace fiohist {

/// The coarser resolutions `push` adds by default, as multiples of the quantum: with 1 s
/// quanta 10 s, 1 min, 10 min, 1 h and 10 h, so a year fits in about 900 points.
const std::vector<int>& DefaultCoarseResolutions();

/// Checks that `multiples` ascend, start above 1, and each divides the next (so windows
/// of one resolution nest in those of the next).
Status CheckResolutions(const std::vector<int>& multiples);

/// Parses "10,60,600" (or "none": no coarser resolution) and checks it.
Status ParseResolutions(const std::string& text, std::vector<int>* multiples);

/// The finest resolution of job percentile documents `push` and `follow` write by default:
/// the first coarser one (10 quanta), or 1 (every quantum) without any.
int DefaultJobResolution(const std::vector<int>& multiples);

/// Parses --job-resolution: 1 or one of `multiples` (empty text: the default).
Status ParseJobResolution(const std::string& text, const std::vector<int>& multiples,
                          int* job_resolution);

/// A ResultSink that forwards everything to `inner` and adds, for every scope and
/// direction, one result per window of each coarser resolution (ScopeResult::resolution
/// says which), when the window closes or at the end of the run. Levels are summed from
/// the level below, so each quantum's histogram is added once. A resolution whose windows,
/// clipped to the run, have the same boundaries as the next finer one's would repeat its
/// numbers: it is left out (a level that holds the whole run in one window, or a short run
/// that crosses one boundary of several levels, like a 30 s run over 10:00:00). The coarsest
/// written below the coarsest asked for is the run's widest (ScopeResult::widest;
/// RunSummary::resolutions lists those written). The first coarser resolution is always
/// written (the quanta went out before the run's length was known). A closed window of a
/// level not yet known to be written (or to be the widest) is held until it is: at most its
/// first window, and only while the run spans two of its windows. A live run decides at its
/// end, like a push.
///
/// `job_resolution` (1 or one of `multiples`): job results of finer resolutions than it are
/// not for percentile documents (RunInfo::job_resolution tells the sink behind, which still
/// gets the job quanta for bucket documents), and job windows of that resolution are drawn
/// from interval 0 (ScopeResult::zoom_from 0): exact job percentiles of any window come
/// from the bucket documents on read-back.
class ResolutionSink : public ResultSink {
 public:
  /// `inner` must outlive this sink; `multiples` passed CheckResolutions().
  ResolutionSink(ResultSink* inner, std::vector<int> multiples, int job_resolution = 1);
  ~ResolutionSink() override;

  Status Begin(const RunInfo& info) override;
  Status Quantum(const ScopeResult& r) override;
  Status WholeRun(const ScopeResult& r) override { return inner_->WholeRun(r); }
  bool reads_whole_run(ScopeKind kind) const override { return inner_->reads_whole_run(kind); }
  /// Job quanta are only summed here (windows have their own statistics).
  bool reads_job_quantum_stats() const override { return inner_->reads_job_quantum_stats(); }
  Status End(const RunSummary& summary) override;
  bool prepares() const override { return inner_->prepares(); }
  void Prepare(const ScopeResult& r, std::string* prepared) const override {
    inner_->Prepare(r, prepared);
  }

  /// Job series can be finished one job at a time once the run's windows are all known:
  /// when job results come after every cluster and host one, as then.
  bool takes_jobs_by_log() const override { return inner_->takes_jobs_by_log(); }
  /// Closes the open windows of the job's series as End() would and forgets them.
  Status JobDone(const std::string& host, const std::string& job) override;

  /// Coarse results handed on so far.
  uint64_t coarse_results() const { return coarse_results_; }

 private:
  struct Series;
  // The series of one scope, host and job, by Direction: their windows close together, so
  // that every direction of an entity's window is handed on in the same call to Quantum()
  // (between two results of the quantum grid), JobDone() or End(): one percentile document
  // holds them all (DocumentSink).
  struct Entity {
    std::array<Series*, 4> series{};
  };
  // Closes the windows of `e`'s series, level by level, that end before `start_ms`'s
  // (a quantum of the entity in a later window), and hands on the held windows of levels
  // now known to be written.
  Status CloseBefore(Entity& e, int64_t start_ms);
  // What a quantum or a closed window adds to the coverage of the window holding it.
  struct Part {
    double covered_ms;  // coverage x length
    int64_t quanta;     // quanta present
    bool partial;
  };
  // Adds `h` (of one window of level `level - 1`, or a quantum for level 0) to the series'
  // open window of `level` that contains `start_ms`, closing the one before if it differs.
  Status Add(Series& s, size_t level, int64_t start_ms, const Histogram* h, int logs,
             const Part& part);
  // Emits the open window of `level` (unless `emit` is false: a level left out) and adds
  // it to the next level, unless it is the widest written (`widest`: no level above is).
  Status Close(Series& s, size_t level, bool widest = false, bool emit = true);
  // Which levels are written, and which is the widest, once every window of the run was
  // seen (End(), or a job done after every cluster and host result).
  // Windows a level has within the run so far (all series).
  int64_t Count(size_t level) const;
  // Written: fewer windows than the level below (nested windows: the same number means the
  // same boundaries). Once true, it stays true as the run grows.
  bool Kept(size_t level) const { return level == 0 || Count(level) < Count(level - 1); }
  // Windows of `level` are handed on as they close (Emit), not held.
  bool Decided(size_t level) const;
  // The coarsest written, though not the coarsest asked for.
  bool Widest(size_t level) const;
  // The multiple of the next finer level written below `level` (1: the quantum).
  int FinerKept(size_t level) const;
  // ScopeResult::zoom_from of the series' windows of `level`.
  int ZoomFrom(const Series& s, size_t level) const;
  // Hands on a closed window, or holds it while its level may yet be left out or be the
  // widest (decided by the windows still to come).
  Status Emit(Series& s, size_t level, ScopeResult r);
  // Hands on the series' held window of `level`, if any, with the widest mark `widest`.
  Status Release(Series& s, size_t level, bool widest);
  // Closes the series' open window of `level` as the end of the run does.
  Status Finish(Series& s, size_t level);
  // The key of a series in series_.
  static std::string Key(ScopeKind kind, Direction direction, const std::string& host,
                         const std::string& job);

  // Which windows the run has at a level (all series): the first and the last.
  struct Span {
    bool any = false;
    int64_t first_ms = 0, last_ms = 0;  // the earliest and latest window start seen
    void See(int64_t window_start_ms) {
      first_ms = any ? std::min(first_ms, window_start_ms) : window_start_ms;
      last_ms = any ? std::max(last_ms, window_start_ms) : window_start_ms;
      any = true;
    }
  };

  ResultSink* inner_;
  std::vector<int> multiples_;
  int job_resolution_;
  RunInfo info_;
  std::unordered_map<std::string, std::unique_ptr<Series>> series_;
  std::unordered_map<std::string, Entity> entities_;  // by Key() without the direction
  // In order of first appearance, for a stable end; null where JobDone() finished one.
  std::vector<Series*> order_;
  std::vector<Span> spans_;     // by level
  uint64_t coarse_results_ = 0;
};

}  // namespace fiohist
