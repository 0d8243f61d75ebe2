#include "stats/live_aggregator.h"

#include <algorithm>
#include <climits>
#include <cstdio>

#include "stats/stalls.h"

namespace fiohist {

LiveAggregator::LiveAggregator(const LiveOptions& options, std::vector<LiveStream> streams,
                               ResultSink* sink)
    : o_(options),
      streams_(std::move(streams)),
      sink_(sink),
      grid_(options.grid.mode == GridChoice::Mode::kOrigin
                ? (options.grid.origin_ms % options.quantum_ms + options.quantum_ms) %
                      options.quantum_ms
                : 0,
            options.quantum_ms),
      grid_set_(options.grid.mode != GridChoice::Mode::kLogs) {
  info_.grid_origin_ms = grid_.origin_ms();
  info_.grid = GridModeName(o_.grid.mode);
  info_.layout = o_.layout;
  info_.percentiles = o_.percentiles;
  info_.quantum_ms = o_.quantum_ms;
  info_.anchor = "fio-json";  // fio's timestamp_ms: absolute
  info_.absolute = true;
  info_.sla = o_.sla;
  info_.confidence = o_.confidence;
  sla_ = SlaChecker(o_.sla, o_.percentiles);
  for (const LiveStream& s : streams_) info_.hosts.push_back(s.host);
  std::sort(info_.hosts.begin(), info_.hosts.end());
  for (const LiveStream& s : streams_) {
    stream_host_.push_back(static_cast<int>(
        std::lower_bound(info_.hosts.begin(), info_.hosts.end(), s.host) - info_.hosts.begin()));
  }
  stream_jobs_.resize(streams_.size());
  first_end_.assign(streams_.size(), kNoReport);
  passed_.assign(streams_.size(), kNoReport);
  first_ios_.assign(streams_.size(), 0);
}

int LiveAggregator::SlotOf(int stream, const FioJobSnapshot& job) {
  std::vector<int>& jobs = stream_jobs_[static_cast<size_t>(stream)];
  const size_t k = static_cast<size_t>(job.number - 1);
  if (k < jobs.size() && jobs[k] >= 0) return jobs[k];
  if (jobs.size() <= k) jobs.resize(k + 1, -1);
  JobSlot slot;
  slot.stream = stream;
  slot.number = job.number;
  slot.host = streams_[static_cast<size_t>(stream)].host;
  slot.host_index = stream_host_[static_cast<size_t>(stream)];
  slot.job = job.name + "." + std::to_string(job.number);
  jobs[k] = static_cast<int>(slots_.size());
  slots_.push_back(std::move(slot));
  SortSlots();
  return jobs[k];
}

void LiveAggregator::SortSlots() {
  order_.resize(slots_.size());
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
  std::sort(order_.begin(), order_.end(), [this](int a, int b) {
    const JobSlot &x = slots_[static_cast<size_t>(a)], &y = slots_[static_cast<size_t>(b)];
    if (x.host_index != y.host_index) return x.host_index < y.host_index;
    if (x.stream != y.stream) return x.stream < y.stream;
    return x.number < y.number;
  });
  info_.logs.clear();
  for (int i : order_) {
    const JobSlot& s = slots_[static_cast<size_t>(i)];
    LogSource l;
    l.path = streams_[static_cast<size_t>(s.stream)].name;
    l.host = s.host;
    l.job = s.job;
    l.host_index = s.host_index;
    info_.logs.push_back(l);
  }
}

void LiveAggregator::Add(int stream, const StatusUpdate& update, const FioSnapshot& cumulative) {
  if (!cumulative.fio_version.empty() &&
      std::find(info_.fio_versions.begin(), info_.fio_versions.end(), cumulative.fio_version) ==
          info_.fio_versions.end()) {
    info_.fio_versions.push_back(cumulative.fio_version);
  }
  const size_t si = static_cast<size_t>(stream);
  if (passed_[si] != kNoReport && update.timestamp_ms > passed_[si]) {
    const int64_t gap = update.timestamp_ms - passed_[si];
    if (report_interval_ms_ == 0 || gap < report_interval_ms_) report_interval_ms_ = gap;
  }
  passed_[si] = std::max(passed_[si], update.timestamp_ms);
  const bool first = first_end_[si] == kNoReport && !update.jobs.empty();
  for (const JobIncrement& inc : update.jobs) {
    if (first) {
      first_end_[si] = std::max(first_end_[si], inc.span.end_ms);
      for (const auto& counts : inc.counts) {
        for (const auto& c : counts) first_ios_[si] += static_cast<double>(c.second);
      }
    }
    const FioJobSnapshot& job = cumulative.jobs[static_cast<size_t>(inc.job)];
    const int slot = SlotOf(stream, job);
    JobSlot& js = slots_[static_cast<size_t>(slot)];
    for (int d = 0; d < kLogDirections; ++d) {
      Histogram& h = js.whole[static_cast<size_t>(d)];
      h.Clear();
      for (const auto& [column, count] : job.bins[static_cast<size_t>(d)]) {
        h.Add(static_cast<int>(column), static_cast<double>(count));
      }
    }
    for (int d = 0; d < kLogDirections; ++d) {
      if (!job.bins[static_cast<size_t>(d)].empty()) js.pauses.has_direction[d] = true;
    }
    js.pauses.pauses.insert(js.pauses.pauses.end(), inc.pauses.begin(), inc.pauses.end());
    js.covered_ms += inc.span.length();
    first_start_ms_ = std::min(first_start_ms_, inc.span.start_ms);
    last_end_ = std::max(last_end_, o_.quanta ? last_end_ : inc.span.end_ms);
    if (!o_.quanta) continue;
    if (grid_set_) {
      Place(slot, inc);
    } else {
      unplaced_.emplace_back(slot, inc);
    }
  }
  if (!grid_set_ && o_.quanta) DecideGrid(false);
}

void LiveAggregator::SetGrid(int64_t origin_ms) {
  grid_set_ = true;
  grid_ = QuantumGrid(origin_ms, o_.quantum_ms);
  info_.grid_origin_ms = grid_.origin_ms();
  for (const auto& [slot, inc] : unplaced_) Place(slot, inc);
  unplaced_.clear();
  unplaced_.shrink_to_fit();
}

void LiveAggregator::DecideGrid(bool force) {
  if (grid_set_) return;
  int64_t earliest = INT64_MAX;
  for (int64_t end : first_end_) {
    if (end != kNoReport) earliest = std::min(earliest, end);
  }
  if (earliest == INT64_MAX) return;  // no job has run yet: nothing to place either
  // The first reports of hosts started together (within a quantum of the earliest) decide;
  // a stream that reported past that without a job running (a later start) does not, in
  // a follow and in a push alike. The rule of the logs (grid_phase): one fio process
  // reports all its jobs at one phase, so a host's first report stands for all of them.
  const int64_t horizon = earliest + o_.quantum_ms;
  std::vector<RecordEnd> ends;
  std::string missing;
  for (size_t s = 0; s < streams_.size(); ++s) {
    if (first_end_[s] != kNoReport) {
      if (first_end_[s] < horizon) ends.push_back({first_end_[s], first_ios_[s]});
    } else if (passed_[s] < horizon) {
      missing += (missing.empty() ? "" : ", ") + streams_[s].name;
    }
  }
  if (!missing.empty() && !force) return;  // wait for it, as quanta wait
  if (!missing.empty()) {
    grid_note_ = "the quantum grid's phase was decided without " + missing +
                 " (no report yet when the first quanta had to go out): a push of the same "
                 "files decides it from every stream and may choose another phase; to write "
                 "the same documents, give it --grid ";
  }
  // Ends are sorted by phase inside CircularMedianPhase, ties to the smaller phase: the
  // streams' order does not matter.
  SetGrid(CircularMedianPhase(ends, o_.quantum_ms));
  if (!grid_note_.empty()) {
    char origin[32];
    std::snprintf(origin, sizeof origin, "%.3f",
                  static_cast<double>(grid_.origin_ms()) / 1000.0);
    grid_note_ += origin;
  }
}

void LiveAggregator::Place(int slot, const JobIncrement& inc) {
  // Three parts: the I/Os spread over inc.ios, and those completed at the span's end and
  // at its start.
  const TimeSpan at_end{inc.span.end_ms - 1, inc.span.end_ms};
  const TimeSpan at_start{inc.span.start_ms, inc.span.start_ms + 1};
  const std::pair<const TimeSpan*, const JobIncrement::Counts*> parts[3] = {
      {&inc.ios, &inc.counts}, {&at_end, &inc.end_counts}, {&at_start, &inc.start_counts}};
  const int64_t q_first = grid_.IndexOf(inc.span.start_ms);
  const int64_t q_last = grid_.IndexOf(inc.span.end_ms);
  for (int64_t q = q_first; q <= q_last; ++q) {
    bool touched = false;
    for (const auto& [span, part] : parts) {
      const double w = span->length() > 0 ? grid_.Weight(*span, q) : 0;
      if (w <= 0) continue;
      if (q < kept_from_) {
        // Written out and dropped from memory: only the whole run gets these.
        for (const auto& counts : *part) {
          for (const auto& c : counts) late_ios_ += w * static_cast<double>(c.second);
        }
        continue;
      }
      Cell& cell = cells_[q];
      if (cell.jobs.size() < slots_.size()) cell.jobs.resize(slots_.size());
      ScopeHistograms& h = cell.jobs[static_cast<size_t>(slot)];
      for (int d = 0; d < kLogDirections; ++d) {
        const auto& counts = (*part)[static_cast<size_t>(d)];
        if (counts.empty()) continue;
        h.direction[static_cast<size_t>(d)].AddWeighted(counts, w);
        h.touched[static_cast<size_t>(d)] = true;
        if (w < 1) {  // a report spanning the quantum's edge: spread by time
          for (const auto& c : counts) {
            h.straddled[static_cast<size_t>(d)] +=
                std::min(w, 1 - w) * static_cast<double>(c.second);
          }
        }
        touched = true;
      }
    }
    if (!touched) continue;
    Cell& cell = cells_[q];
    ScopeHistograms& h = cell.jobs[static_cast<size_t>(slot)];
    const int64_t lo = std::max(inc.span.start_ms, grid_.Start(q));
    const int64_t hi = std::min(inc.span.end_ms, grid_.End(q));
    h.covered_ms += std::max<int64_t>(0, hi - lo);
    h.logs = 1;
    if (cell.written) cell.dirty = true;
  }
}

Status LiveAggregator::Begin() {
  if (begun_) return Status();
  DecideGrid(true);
  if (first_start_ms_ == INT64_MAX) return Status::Error("no stream has a report with I/O");
  info_.start_ms = first_start_ms_;
  int64_t first_q = grid_.IndexOf(first_start_ms_);
  if (!cells_.empty()) first_q = std::min(first_q, cells_.begin()->first);
  info_.first_quantum_ms = grid_.Start(first_q);
  if (last_end_ == 0) last_end_ = info_.first_quantum_ms;
  begun_ = true;
  return sink_->Begin(info_);
}

Status LiveAggregator::EmitUntil(int64_t until_ms, int* written) {
  *written = 0;
  if (!grid_set_) {
    DecideGrid(false);
    // Quanta must go out before a stream's first report came (it lags, or ended without
    // a job running): decide from what there is.
    bool due = false;
    for (const auto& held : unplaced_) due = due || held.second.span.end_ms <= until_ms;
    if (due) DecideGrid(true);
  }
  for (auto& [q, cell] : cells_) {
    if (grid_.End(q) > until_ms) break;
    if (cell.written && !cell.dirty) continue;
    Status s = Begin();
    if (!s.ok()) return s;
    const bool in_order = q > newest_written_;
    if (!in_order) ++quanta_out_of_order_;
    s = WriteQuantum(q, cell, in_order || late_sink_ == nullptr ? sink_ : late_sink_);
    if (!s.ok()) return s;
    if (cell.written) ++quanta_rewritten_;
    cell.written = true;
    cell.dirty = false;
    ++*written;
    ++quanta_written_;
    last_end_ = std::max(last_end_, grid_.End(q));
    newest_written_ = std::max(newest_written_, q);
  }
  // Forget written quanta far behind the newest: late data for them goes to the whole run.
  while (!cells_.empty() && cells_.begin()->second.written && !cells_.begin()->second.dirty &&
         cells_.begin()->first < newest_written_ - o_.keep_quanta) {
    kept_from_ = cells_.begin()->first + 1;
    cells_.erase(cells_.begin());
    // Its breaches cannot change any more.
    while (!breached_.empty() && breached_.begin()->first.first < grid_.Start(kept_from_)) {
      settled_breaches_ += (breached_.begin()->second & kBreach) ? 1 : 0;
      settled_beyond_noise_ += (breached_.begin()->second & kBeyondNoise) ? 1 : 0;
      breached_.erase(breached_.begin());
    }
  }
  return Status();
}

Status LiveAggregator::Results(const ScopeHistograms& h, const ScopeResult& base,
                               bool whole_run, ResultSink* to) {
  if (!h.any()) return Status();
  ScopeResult r = base;
  auto emit = [&](Direction d, const Histogram& histogram) {
    r.direction = d;
    r.histogram = &histogram;
    // Whole runs come from fio's cumulative counts, which no spreading touched.
    r.straddled = whole_run ? -1 : h.StraddledShare(static_cast<size_t>(d));
    ComputeStats(histogram, info_.layout, o_.percentiles.values, &r.stats, o_.confidence);
    if (!whole_run && sla_.active() && sla_.Applies(r)) {
      breached_[{r.start_ms, static_cast<int>(d)}] = static_cast<uint8_t>(
          (sla_.Breaches(r, nullptr) ? kBreach : 0) |
          (sla_.BreachesBeyondNoise(r) ? kBeyondNoise : 0));
    }
    if (collect_ != nullptr) {
      collect_->push_back(r);
      collect_->back().histogram = nullptr;
      return Status();
    }
    return whole_run ? to->WholeRun(r) : to->Quantum(r);
  };
  int with_counts = 0, only = -1;
  for (int d = 0; d < kLogDirections; ++d) {
    const size_t di = static_cast<size_t>(d);
    if (!h.direction[di].empty()) {
      ++with_counts;
      only = d;
    }
    if (!h.touched[di] || !o_.directions[di]) continue;
    Status s = emit(static_cast<Direction>(d), h.direction[di]);
    if (!s.ok()) return s;
  }
  if (!o_.directions[3]) return Status();
  if (with_counts == 1) return emit(Direction::kAll, h.direction[static_cast<size_t>(only)]);
  h.SumInto(&all_scratch_);
  return emit(Direction::kAll, all_scratch_);
}

Status LiveAggregator::WriteQuantum(int64_t q, const Cell& cell, ResultSink* to) {
  ScopeResult base;
  base.start_ms = grid_.Start(q);
  base.end_ms = grid_.End(q);
  base.elapsed_s = static_cast<double>(base.start_ms - info_.first_quantum_ms) / 1000.0;
  static const ScopeHistograms kEmpty;
  std::vector<const ScopeHistograms*> jobs(slots_.size(), &kEmpty);
  for (size_t i = 0; i < jobs.size() && i < cell.jobs.size(); ++i) jobs[i] = &cell.jobs[i];
  return ScopeResults(jobs, base, o_.quantum_ms, false, to);
}

Status LiveAggregator::ScopeResults(const std::vector<const ScopeHistograms*>& jobs,
                                    ScopeResult base, int64_t length_ms, bool whole_run,
                                    ResultSink* to) {
  const size_t hosts = info_.hosts.size();
  std::vector<ScopeHistograms> host_sum(hosts);
  std::vector<int> host_jobs(hosts, 0);
  for (int slot : order_) {
    const size_t h = static_cast<size_t>(slots_[static_cast<size_t>(slot)].host_index);
    ++host_jobs[h];
    const ScopeHistograms& j = *jobs[static_cast<size_t>(slot)];
    if (j.any() || j.logs > 0) host_sum[h].Merge(j);
  }
  ScopeHistograms cluster;
  for (const ScopeHistograms& h : host_sum) {
    if (h.any() || h.logs > 0) cluster.Merge(h);
  }
  if (o_.scopes[0]) {
    base.kind = ScopeKind::kCluster;
    base.logs = cluster.logs;
    SetCoverage(cluster.covered_ms, static_cast<int>(slots_.size()), length_ms, &base);
    Status s = Results(cluster, base, whole_run, to);
    if (!s.ok()) return s;
  }
  if (o_.scopes[1]) {
    base.kind = ScopeKind::kHost;
    for (size_t h = 0; h < hosts; ++h) {
      base.host = info_.hosts[h];
      base.logs = host_sum[h].logs;
      SetCoverage(host_sum[h].covered_ms, host_jobs[h], length_ms, &base);
      Status s = Results(host_sum[h], base, whole_run, to);
      if (!s.ok()) return s;
    }
  }
  if (o_.scopes[2]) {
    base.kind = ScopeKind::kJob;
    for (int slot : order_) {
      const JobSlot& js = slots_[static_cast<size_t>(slot)];
      const ScopeHistograms& j = *jobs[static_cast<size_t>(slot)];
      base.host = js.host;
      base.job = js.job;
      base.logs = 1;
      SetCoverage(j.covered_ms, 1, length_ms, &base);
      Status s = Results(j, base, whole_run, to);
      if (!s.ok()) return s;
    }
  }
  return Status();
}

std::vector<ScopeResult> LiveAggregator::WholeRunSoFar() {
  std::vector<ScopeResult> out;
  if (!begun_) return out;
  ScopeResult base;
  base.start_ms = info_.first_quantum_ms;
  base.end_ms = std::max(last_end_, info_.first_quantum_ms + 1);
  std::vector<ScopeHistograms> jobs(slots_.size());
  std::vector<const ScopeHistograms*> job_ptrs(slots_.size());
  for (int slot : order_) {
    const JobSlot& js = slots_[static_cast<size_t>(slot)];
    ScopeHistograms& j = jobs[static_cast<size_t>(slot)];
    for (int d = 0; d < kLogDirections; ++d) {
      const size_t di = static_cast<size_t>(d);
      j.direction[di].Merge(js.whole[di]);
      j.touched[di] = !js.whole[di].empty();
    }
    j.logs = 1;  // every job counts in the whole run, with or without I/Os
    j.covered_ms = js.covered_ms;
    job_ptrs[static_cast<size_t>(slot)] = &j;
  }
  // Results() appends to `out` instead of calling the sink.
  collect_ = &out;
  Status ignored = ScopeResults(job_ptrs, base, base.end_ms - base.start_ms, true, sink_);
  collect_ = nullptr;
  return out;
}

long long LiveAggregator::sla_breaches() const {
  long long n = settled_breaches_;
  for (const auto& b : breached_) n += (b.second & kBreach) ? 1 : 0;
  return n;
}

long long LiveAggregator::sla_breaches_beyond_noise() const {
  long long n = settled_beyond_noise_;
  for (const auto& b : breached_) n += (b.second & kBeyondNoise) ? 1 : 0;
  return n;
}

Status LiveAggregator::Finish(RunSummary* summary) {
  int written = 0;
  Status s = Begin();
  if (s.ok()) s = EmitUntil(INT64_MAX, &written);
  if (!s.ok()) return s;
  summary->end_ms = last_end_;
  summary->quanta = static_cast<long long>(quanta_written_ - quanta_rewritten_);
  summary->sla_breaches = sla_breaches();
  summary->sla_breaches_beyond_noise = sla_breaches_beyond_noise();
  // Stalls as the logs' are named: spans longer than two report intervals in which a
  // host's (or every) job completed nothing, from the pauses the reports ended.
  std::vector<LogReport> reports;
  for (int i : order_) reports.push_back(slots_[static_cast<size_t>(i)].pauses);
  if (report_interval_ms_ > 0) {
    summary->stalls = FindStalls(info_.logs, reports, info_.layout, 2 * report_interval_ms_);
  }
  // Whole-run results carry no histogram beyond the call, so the collected ones are sent.
  for (const ScopeResult& r : WholeRunSoFar()) {
    s = sink_->WholeRun(r);
    if (!s.ok()) return s;
  }
  return sink_->End(*summary);
}

}  // namespace fiohist
