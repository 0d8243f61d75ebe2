#include "stats/log_placement.h"

#include <algorithm>
#include <map>
#include <utility>

#include "base/worker_pool.h"
#include "log/fio_timeline.h"
#include "log/log_tail.h"
#include "log/time_anchor.h"

namespace fiohist {
namespace {

// A log whose first stamp is beyond both counts on another clock than the job's start.
constexpr int64_t kOtherClockMinMs = 60000;
constexpr int64_t kOtherClockIntervals = 100;

// A log's records may end this much after its job's job_runtime (the I/O that closed the
// last interval) before the log's own length is taken for the job's.
constexpr int64_t kLogEndSlackMs = 100;

// A job placed on its fio's timeline less tightly than this either way is warned about.
constexpr int64_t kAnchorWarnMs = 250;

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// LogPlacement's steps over one set of logs.
class Placer {
 public:
  Placer(const PlacementInput& in, std::vector<FioJsonOutput>* jsons, LogPlacement* out)
      : in_(in), logs_(*in.logs), jsons_(*jsons), out_(out) {}

  Status Place();

 private:
  // The JSON host matched with log `i`, or null.
  FioJsonHost* HostOf(size_t i) const {
    const FioJsonMatch& m = (*in_.matches)[i];
    if (m.file < 0) return nullptr;
    return &jsons_[static_cast<size_t>(m.file)].hosts[static_cast<size_t>(m.host)];
  }
  const std::string& JsonOf(size_t i) const {
    return (*in_.specs)[static_cast<size_t>((*in_.matches)[i].file)].path;
  }
  // The index of log `i`'s job in `h` (its `..._hist.N.log`; the only job of a JSON of
  // one), or -1 with the reason in `why`.
  int JobIndexOf(size_t i, const FioJsonHost& h, std::string* why) const;
  // Compares each log's last stamp with its job's job_runtime (CheckLogEnds).
  void CheckLogEnds();
  // Where log `i`'s zero lies on Unix time, from its JSON host `h`.
  Status StartFromJson(size_t i, const FioJsonHost& h);
  // Places log `i` at anchor `a` of fio's job `fio_job`, with its note (and a warning where
  // the bound is wide).
  void UseAnchor(size_t i, const std::string& fio_job, const FioJobAnchor& a);

  const PlacementInput& in_;
  const std::vector<LogSource>& logs_;
  std::vector<FioJsonOutput>& jsons_;
  LogPlacement* out_;
  // Per log: where its stamps' zero lies on Unix time, that zero in its stamps (0 for
  // relative stamps; the clock's reading at the job's start for another clock's), the
  // bound of its job's anchor (early + late; -1: none), and whether its stamps are of
  // another clock (or look so).
  std::vector<int64_t> start_, zero_, bound_;
  std::vector<bool> other_, looks_other_;
};

int Placer::JobIndexOf(size_t i, const FioJsonHost& h, std::string* why) const {
  const LogSource& log = logs_[i];
  const size_t jobs = h.job_names.size();
  const int number = FioJobNumber(log);
  const int index = number >= 1 ? number - 1 : (jobs == 1 ? 0 : -1);
  if (index < 0 || static_cast<size_t>(index) >= jobs) {
    *why = (number < 1 ? std::string("names no fio job number (..._hist.N.log)")
                       : "is the log of fio's job " + std::to_string(number)) +
           ", but " + JsonOf(i) + " lists " + std::to_string(jobs) + " job(s) (" +
           JoinNames(h.job_names) +
           "): is it the output of this run? (each job's stamps are placed by its own entry)";
    return -1;
  }
  // fio names a log after its job unless write_hist_log names it: a log named after
  // another job of the JSON is not that job's.
  const std::string prefix = log.job.substr(0, log.job.find("_clat_hist"));
  const std::string& name = h.job_names[static_cast<size_t>(index)];
  if (prefix != name && prefix != log.job &&
      std::find(h.job_names.begin(), h.job_names.end(), prefix) != h.job_names.end()) {
    *why = "is named for job '" + prefix + "', but job " + std::to_string(index + 1) + " of " +
           JsonOf(i) + " is '" + name + "': is it the output of this run?";
    return -1;
  }
  return index;
}

void Placer::CheckLogEnds() {
  const size_t n = logs_.size();
  std::vector<int64_t> last(n, -1);
  WorkerPool pool(n > 1 ? in_.threads : 1);
  pool.ParallelFor(n, [&](int, size_t i) {
    const FioJsonHost* h = HostOf(i);
    int64_t t = 0;
    if (h && !h->timeline.empty() && ReadLastStamp(logs_[i].path, &t)) last[i] = t;
  });
  std::map<FioJsonHost*, bool> moved;
  for (size_t i = 0; i < n; ++i) {
    if (last[i] < 0) continue;
    FioJsonHost& h = *HostOf(i);
    std::string why;
    const int job = JobIndexOf(i, h, &why);
    if (job < 0 || static_cast<size_t>(job) >= h.timeline.size()) continue;  // Place says
    FioTimelineJob& t = h.timeline[static_cast<size_t>(job)];
    const int64_t logged = last[i] - zero_[i];
    // fio 3.33 writes no last partial interval: a log ends up to one interval (and the
    // I/O that closed it) before job_runtime.
    const int64_t slack = in_.log_hist_msec + kLogEndSlackMs;
    const std::string who = logs_[i].path + ": its records end " + std::to_string(logged) +
                            " ms after the job's start, but " + JsonOf(i) + " says job " +
                            h.job_names[static_cast<size_t>(job)] + " ran " +
                            std::to_string(t.runtime_ms) + " ms (job_runtime)";
    if (logged > t.runtime_ms + kLogEndSlackMs) {
      out_->warnings.push_back(who + ": the log's length is taken for the job's");
      t.runtime_ms = logged;
      t.runtime_unlogged_ms = in_.log_hist_msec;  // fio 3.33 leaves out the last partial one
      moved[&h] = true;
    } else if (logged < t.runtime_ms - slack) {
      out_->warnings.push_back(who + ": is the JSON this run's? (its place is the JSON's)");
    }
  }
  for (const auto& kv : moved) {
    kv.first->job_anchors = PlaceFioJobs(kv.first->timeline, kv.first->timestamp_ms);
  }
}

Status Placer::StartFromJson(size_t i, const FioJsonHost& h) {
  const LogSource& log = logs_[i];
  if (looks_other_[i] && h.alternate_clock < 0) {
    return Status::InputError(
        log.path, 1,
        "its first stamp is " + std::to_string((*in_.probes)[i].first_time_ms) +
            " ms: neither relative (the first record near log_hist_msec) nor Unix time, and " +
            JsonOf(i) +
            "'s job options name no other clock (log_alternate_epoch, "
            "log_alternate_epoch_clock_id): cannot place it; give --start-time");
  }
  start_[i] = h.anchor.start_ms;
  if (other_[i] && h.job_anchors.empty() && h.entry_of_job.empty()) {
    // fio >= 3.36: the clock read its zero when the log's own job started (job_start), not
    // when the host's first job did.
    std::string why;
    const int job = JobIndexOf(i, h, &why);
    if (job < 0) return Status::InputError(log.path, 0, why);
    const int64_t own =
        static_cast<size_t>(job) < h.job_starts.size() ? h.job_starts[static_cast<size_t>(job)] : 0;
    if (own > 0) {
      start_[i] = own;
      bound_[i] = 0;  // fio's own record of it, to the ms
    }
    return Status();
  }
  if (!h.entry_of_job.empty()) {
    // group_reporting over several groups: the log's group entry by its job number.
    const int number = FioJobNumber(log);
    if (number < 1 || static_cast<size_t>(number) > h.entry_of_job.size()) {
      out_->warnings.push_back(
          log.path + ": " + JsonOf(i) + " (group_reporting) has " +
          std::to_string(h.entry_of_job.size()) +
          " jobs in its groups' numjobs, none for this log: placed at the first group's start");
      return Status();
    }
    const size_t entry = h.entry_of_job[static_cast<size_t>(number - 1)];
    UseAnchor(i, h.job_names[entry], h.group_anchors[entry]);
    return Status();
  }
  if (h.job_anchors.empty()) return Status();
  std::string why;
  const int job = JobIndexOf(i, h, &why);
  if (job < 0) return Status::InputError(log.path, 0, why);
  UseAnchor(i, h.job_names[static_cast<size_t>(job)], h.job_anchors[static_cast<size_t>(job)]);
  return Status();
}

void Placer::UseAnchor(size_t i, const std::string& fio_job, const FioJobAnchor& a) {
  const LogSource& log = logs_[i];
  start_[i] = a.start_ms;
  bound_[i] = a.early_ms + a.late_ms;
  const std::string who = log.host + "/" + log.job + " (job " + fio_job + ")";
  out_->jobs.push_back({log.host, log.job, fio_job, a});
  if (std::max(a.early_ms, a.late_ms) > kAnchorWarnMs) {
    out_->warnings.push_back(who + ": " + JsonOf(i) + " places this job only within " +
                             FormatUncertainty(a) + " (" + a.how +
                             "): its quanta may be that far off");
  }
}

Status Placer::Place() {
  const size_t n = logs_.size();
  out_->offset_ms.assign(n, 0);
  out_->floor_ms.assign(n, 0);
  start_.assign(n, 0);
  zero_.assign(n, 0);
  bound_.assign(n, -1);
  other_.assign(n, false);
  looks_other_.assign(n, false);
  for (size_t i = 0; i < n; ++i) {
    // Relative stamps start near log_hist_msec (fio restarts them after ramp_time); far
    // beyond, they count on another clock (log_alternate_epoch_clock_id: CLOCK_MONOTONIC is
    // the machine's uptime), as the JSON's job options say.
    const int64_t first = (*in_.probes)[i].first_time_ms;
    const FioJsonHost* h = HostOf(i);
    looks_other_[i] =
        first > std::max<int64_t>(kOtherClockMinMs, kOtherClockIntervals * in_.log_hist_msec);
    other_[i] = looks_other_[i] || (h && h->alternate_clock >= 0);
    if (other_[i]) zero_[i] = first - in_.first_interval_ms[i];
  }
  if (!in_.has_start_time) CheckLogEnds();
  for (size_t i = 0; i < n; ++i) {
    const FioJsonHost* h = HostOf(i);
    if (in_.has_start_time) {
      start_[i] = in_.start_time_ms;
    } else if (h) {
      Status s = StartFromJson(i, *h);
      if (!s.ok()) return s;
    } else if (looks_other_[i]) {
      return Status::InputError(
          logs_[i].path, 1,
          "its first stamp is " + std::to_string((*in_.probes)[i].first_time_ms) +
              " ms: neither relative (the first record near log_hist_msec) nor Unix time "
              "(log_alternate_epoch with another clock?): give --fio-json (fio's JSON output "
              "names the clock and places the jobs) or --start-time");
    }
  }
  // Stamps of one clock on one host keep their own order: the host's clock is set once,
  // by its job placed most tightly, and every log of the host follows it.
  std::map<const FioJsonHost*, size_t> best;
  for (size_t i = 0; i < n; ++i) {
    const FioJsonHost* h = HostOf(i);
    if (!other_[i] || !h || in_.has_start_time) continue;
    auto it = best.find(h);
    if (it == best.end() ||
        (bound_[i] >= 0 && (bound_[it->second] < 0 || bound_[i] < bound_[it->second]))) {
      best[h] = i;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    auto it = best.find(HostOf(i));
    const size_t k = it != best.end() ? it->second : i;
    out_->offset_ms[i] = start_[k] - zero_[k];
    out_->floor_ms[i] = out_->offset_ms[i] + zero_[i];
  }
  return Status();
}

}  // namespace

Status PlaceLogs(const PlacementInput& in, std::vector<FioJsonOutput>* jsons, LogPlacement* out) {
  *out = LogPlacement();
  return Placer(in, jsons, out).Place();
}

}  // namespace fiohist
