#include "stats/run_layout.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

#include "base/path.h"
#include "base/worker_pool.h"
#include "log/log_probe.h"
#include "log/log_tail.h"
#include "log/time_anchor.h"

namespace fiohist {
namespace {

// Enough lines to see several records of each direction.
constexpr int kProbeLines = 64;

// A log whose first stamp is beyond both counts on another clock than the job's start.
constexpr int64_t kOtherClockMinMs = 60000;
constexpr int64_t kOtherClockIntervals = 100;

// A log's records may end this much after its job's job_runtime (the I/O that closed the
// last interval) before the log's own length is taken for the job's.
constexpr int64_t kLogEndSlackMs = 100;

// How a JSON placed its jobs when it placed each one (fio < 3.36), for the summary.
constexpr char kTimelineMethod[] = "each job on the process timeline";

// A job placed on its fio's timeline less tightly than this either way is warned about.
constexpr int64_t kAnchorWarnMs = 250;

// Logs are added up only when they share the first log's layout and kind of stamps.
Status CheckLikeFirst(const LogSource& src, const LogProbe& probe, const LogSource& first,
                      const LogProbe& first_probe) {
  if (probe.columns != first_probe.columns) {
    return Status::InputError(src.path, 1,
                              "has " + std::to_string(probe.columns) +
                                  " bucket counts per line but " + first.path + " has " +
                                  std::to_string(first_probe.columns) +
                                  ": logs of different layouts cannot be added up");
  }
  if (probe.epoch != first_probe.epoch) {
    return Status::InputError(src.path, 1,
                              std::string("has ") + (probe.epoch ? "Unix-epoch" : "relative") +
                                  " time stamps but " + first.path + " has " +
                                  (first_probe.epoch ? "Unix-epoch" : "relative") +
                                  " ones: mixing them cannot be placed on one time line");
  }
  return Status();
}

// LayOutRun's steps, on the layout being made.
class Planner {
 public:
  Planner(const PipelineOptions& options, RunLayout* layout, RunSummary* summary)
      : o_(options),
        summary_(summary),
        info_(layout->info),
        setups_(layout->setups),
        json_specs_(layout->json_specs),
        jsons_(layout->jsons),
        matches_(layout->matches) {}

  // Which logs, their layout and time line, and each one's stream setup.
  Status Layout(const std::vector<std::string>& paths);
  // Layout's steps, in order. Probes every log and keeps the ones with records in
  // info_.logs (with their probes, in the same order) after checking they can be added up.
  Status ProbeLogs(const std::vector<LogSource>& sources, std::vector<LogProbe>* probes);
  // A log without records: an error, or under --skip-bad-lines a warning and left out.
  Status EmptyLog(const LogSource& src);
  // log_hist_msec: given, or the smallest typical gap between records of one direction.
  Status SetLogHistMsec(const std::vector<LogProbe>& probes);
  // Reads the fio JSON outputs given (or, with none given, found next to the logs),
  // matches them with the logs and notes their fio versions.
  Status ReadFioJsons();
  // The --fio-json files, or the fio JSON outputs found in the logs' directories.
  std::vector<FioJsonSpec> FioJsonSpecs() const;
  // Fails when relative logs need an anchor that some of them have from no fio JSON.
  Status CheckEveryLogMatched() const;
  // How times become absolute: epoch stamps, --start-time, fio JSON, or not at all.
  void SetAnchor();
  // One stream setup per log: its layout, first interval and place on the time line.
  Status MakeSetups(const std::vector<LogProbe>& probes);
  // The quantum grid's origin (PlanGrid, from the probed records' ends) and the hosts far
  // from its edges.
  void ChooseGrid(const std::vector<LogProbe>& probes);
  // Where the relative stamps of each log start on the run's time line (the host's anchor,
  // --start-time, or the job's place on its fio's timeline) into offsets_ and floors_, with
  // a note per job placed on a timeline; stamps of another clock are brought to Unix time.
  Status PlaceLogs(const std::vector<LogProbe>& probes);
  // Compares each log's last stamp (plain logs) with its job's job_runtime: a log that runs
  // longer than the JSON says is trusted (the job is placed again with the log's length)
  // and warned about, as is one that ends well before. `zero`: each log's stamps' zero.
  void CheckLogEnds(const std::vector<int64_t>& zero);
  // The interval a log's first record closes.
  int64_t FirstIntervalOf(const LogProbe& probe) const {
    return probe.typical_gap_ms > 0 && o_.log_hist_msec == 0 ? probe.typical_gap_ms
                                                             : info_.log_hist_msec;
  }
  // True when relative stamps need --start-time or a fio JSON to become absolute.
  bool NeedsAnchor() const { return !info_.epoch_logs && !o_.has_start_time; }

 private:
  const PipelineOptions& o_;
  RunSummary* summary_;
  RunInfo& info_;
  std::vector<StreamSetup>& setups_;
  std::vector<FioJsonSpec>& json_specs_;
  std::vector<FioJsonOutput>& jsons_;
  std::vector<FioJsonMatch>& matches_;
  // Per log: added to its stamps, and the time its spans never start before.
  std::vector<int64_t> offsets_, floors_;
};

Status Planner::Layout(const std::vector<std::string>& paths) {
  if (paths.empty()) return Status::Error("no logs given");
  std::vector<LogSource> sources;
  Status s = IdentifyLogs(paths, o_.host_mapping, &sources, &info_.hosts);
  if (!s.ok()) return s;
  // Report scopes in a stable order: by host, then job.
  std::stable_sort(sources.begin(), sources.end(), [](const LogSource& a, const LogSource& b) {
    return a.host_index != b.host_index ? a.host_index < b.host_index : a.job < b.job;
  });
  std::vector<LogProbe> probes;
  s = ProbeLogs(sources, &probes);
  if (!s.ok()) return s;
  info_.epoch_logs = probes.front().epoch;
  info_.percentiles = o_.percentiles;
  info_.sla = o_.sla;
  info_.confidence = o_.confidence;
  info_.quantum_ms = o_.quantum_ms;
  s = SetLogHistMsec(probes);
  if (!s.ok()) return s;
  s = ReadFioJsons();
  if (!s.ok()) return s;
  SetAnchor();
  s = PlaceLogs(probes);
  if (!s.ok()) return s;
  s = MakeSetups(probes);
  if (s.ok()) ChooseGrid(probes);
  return s;
}

Status Planner::ProbeLogs(const std::vector<LogSource>& sources, std::vector<LogProbe>* probes) {
  // Probing reads (and inflates) the start of every log: with thousands of logs that is
  // a second or more, so the logs are probed on every thread, then judged in order (the
  // first error in log order is the one reported, as when probed one by one).
  std::vector<LogProbe> all(sources.size());
  std::vector<Status> statuses(sources.size());
  WorkerPool pool(sources.size() > 1 ? o_.threads : 1);
  pool.ParallelFor(sources.size(), [&](int, size_t i) {
    statuses[i] = ProbeLog(sources[i].path, kProbeLines, o_.skip_bad_lines, &all[i]);
  });
  std::vector<LogSource> kept;
  for (size_t i = 0; i < sources.size(); ++i) {
    const LogSource& src = sources[i];
    LogProbe& probe = all[i];
    Status s = statuses[i];
    if (!s.ok()) return s;
    if (probe.empty) {
      s = EmptyLog(src);
      if (!s.ok()) return s;
      continue;
    }
    if (kept.empty()) {
      s = LayoutFromColumns(probe.columns, o_.layout_hint, &info_.layout);
      if (!s.ok()) return Status::InputError(src.path, 1, s.message());
    } else {
      s = CheckLikeFirst(src, probe, kept.front(), probes->front());
      if (!s.ok()) return s;
    }
    probes->push_back(std::move(probe));
    kept.push_back(src);
  }
  if (kept.empty()) return Status::Error("no log has any record");
  info_.logs = kept;
  return Status();
}

Status Planner::EmptyLog(const LogSource& src) {
  const std::string what = std::string("empty file: no histogram records") +
                           (o_.skip_bad_lines ? " (or every line was bad)" : "") +
                           " (expected lines like '1000, 0, 4096, 0, 3, ...')";
  if (!o_.skip_bad_lines) return Status::InputError(src.path, 0, what);
  summary_->warnings.push_back(src.path + ": " + what + "; skipped");
  summary_->incomplete = true;
  return Status();
}

Status Planner::SetLogHistMsec(const std::vector<LogProbe>& probes) {
  int64_t global_gap = 0;
  for (const LogProbe& p : probes) {
    if (p.typical_gap_ms > 0 && (global_gap == 0 || p.typical_gap_ms < global_gap)) {
      global_gap = p.typical_gap_ms;
    }
  }
  if (o_.log_hist_msec > 0) {
    info_.log_hist_msec = o_.log_hist_msec;
  } else if (global_gap > 0) {
    info_.log_hist_msec = global_gap;
    info_.log_hist_msec_inferred = true;
  } else {
    return Status::InputError(info_.logs.front().path, 0,
                              "cannot infer log_hist_msec: every log has a single record per "
                              "direction; give --log-hist-msec");
  }
  return Status();
}

std::vector<FioJsonSpec> Planner::FioJsonSpecs() const {
  std::vector<FioJsonSpec> specs;
  for (const std::string& text : o_.fio_json) specs.push_back(ParseFioJsonSpec(text));
  if (!specs.empty() || !o_.find_fio_json) return specs;
  std::vector<std::string> dirs;  // as normalised, each looked in once
  for (const LogSource& l : info_.logs) {
    const std::string dir = NormalDirOf(l.path);
    if (std::find(dirs.begin(), dirs.end(), dir) != dirs.end()) continue;
    dirs.push_back(dir);
    for (const std::string& path : FindFioJsonOutputs(ParentPath(l.path, "."))) {
      FioJsonSpec spec;
      spec.path = path;
      spec.found = true;
      specs.push_back(spec);
    }
  }
  return specs;
}

Status Planner::ReadFioJsons() {
  for (FioJsonSpec& spec : FioJsonSpecs()) {
    FioJsonOutput out;
    Status s = ReadFioJson(spec.path, &out);
    if (!s.ok() && !spec.found) return s;
    if (!s.ok()) {
      summary_->warnings.push_back(s.message() + " (found next to the logs; not used)");
      continue;
    }
    json_specs_.push_back(std::move(spec));
    jsons_.push_back(std::move(out));
  }
  Status s = MatchFioJsons(info_.logs, json_specs_, jsons_, &matches_);
  if (!s.ok()) {
    // Absolute stamps (or --start-time) place the logs anyway: only the shares of fio's
    // I/Os are lost, and the warning says so.
    if (NeedsAnchor()) return s;
    summary_->warnings.push_back(s.message() + "; the logs' shares of fio's I/Os are not reported");
    matches_.assign(info_.logs.size(), FioJsonMatch());
  }
  s = CheckEveryLogMatched();
  if (!s.ok()) return s;
  std::vector<bool> used(jsons_.size(), false);
  std::vector<std::string> noted;
  for (size_t i = 0; i < matches_.size(); ++i) {
    const FioJsonMatch& m = matches_[i];
    if (m.file < 0) continue;
    used[static_cast<size_t>(m.file)] = true;
    const FioJsonSpec& spec = json_specs_[static_cast<size_t>(m.file)];
    const FioJsonHost& h = jsons_[static_cast<size_t>(m.file)].hosts[static_cast<size_t>(m.host)];
    const std::string method =
        h.job_anchors.empty() || !NeedsAnchor() ? h.anchor.method : kTimelineMethod;
    const std::string note = "host " + info_.logs[i].host + ": " + spec.path + " (" + m.how + "; " +
                             method + ")" + (spec.found ? ", found next to the logs" : "");
    if (std::find(noted.begin(), noted.end(), note) == noted.end()) noted.push_back(note);
  }
  info_.fio_json_notes = noted;
  for (size_t f = 0; f < jsons_.size(); ++f) {
    if (!used[f] && !json_specs_[f].found) {
      summary_->warnings.push_back("--fio-json " + json_specs_[f].path +
                                   ": covers no log (neither its host nor its directory)");
    }
    const std::string& v = jsons_[f].fio_version;
    if (used[f] && !v.empty() &&
        std::find(info_.fio_versions.begin(), info_.fio_versions.end(), v) ==
            info_.fio_versions.end()) {
      info_.fio_versions.push_back(v);
    }
  }
  return Status();
}

Status Planner::CheckEveryLogMatched() const {
  bool any = false;
  for (const FioJsonMatch& m : matches_) any = any || m.file >= 0;
  if (!any || !NeedsAnchor()) return Status();
  for (size_t i = 0; i < matches_.size(); ++i) {
    if (matches_[i].file >= 0) continue;
    return Status::InputError(info_.logs[i].path, 0,
                              "no fio JSON output covers this log (host '" + info_.logs[i].host +
                                  "'), so its relative stamps cannot be placed on absolute "
                                  "time: give --fio-json " +
                                  info_.logs[i].host +
                                  "=FILE (fio's --output-format=json of that host) or "
                                  "--start-time");
  }
  return Status();
}

void Planner::SetAnchor() {
  bool have_json = false;
  for (const FioJsonMatch& m : matches_) have_json = have_json || m.file >= 0;
  if (info_.epoch_logs) {
    info_.anchor = "epoch";
    info_.absolute = true;
  } else if (o_.has_start_time) {
    info_.anchor = "start-time";
    info_.absolute = true;
  } else if (have_json) {
    info_.anchor = "fio-json";
    info_.absolute = true;
  }
}

Status Planner::MakeSetups(const std::vector<LogProbe>& probes) {
  for (size_t i = 0; i < info_.logs.size(); ++i) {
    StreamSetup setup;
    setup.columns = probes.front().columns;
    setup.first_interval_ms = FirstIntervalOf(probes[i]);
    setup.skip_bad_lines = o_.skip_bad_lines;
    if (!info_.epoch_logs) {
      setup.offset_ms = offsets_[i];
      setup.floor_ms = floors_[i];  // relative stamps count from the job's start
    }
    setups_.push_back(setup);
  }
  return Status();
}

void Planner::ChooseGrid(const std::vector<LogProbe>& probes) {
  std::vector<LogRecordEnds> logs(info_.logs.size());
  for (size_t i = 0; i < logs.size(); ++i) {
    logs[i].host = info_.logs[i].host;
    logs[i].ends = probes[i].stamps;
    for (RecordEnd& e : logs[i].ends) e.end_ms += setups_[i].offset_ms;
  }
  GridPlan plan = PlanGrid(o_.grid, o_.quantum_ms, info_.log_hist_msec, logs);
  info_.grid_origin_ms = plan.origin_ms;
  info_.grid = GridModeName(o_.grid.mode);
  for (std::string& note : plan.notes) summary_->warnings.push_back(std::move(note));
}

void Planner::CheckLogEnds(const std::vector<int64_t>& zero) {
  std::map<std::pair<int, int>, bool> moved;
  std::vector<int64_t> last(info_.logs.size(), -1);
  WorkerPool pool(info_.logs.size() > 1 ? o_.threads : 1);
  pool.ParallelFor(info_.logs.size(), [&](int, size_t i) {
    const FioJsonMatch& m = matches_[i];
    if (m.file < 0 ||
        jsons_[static_cast<size_t>(m.file)].hosts[static_cast<size_t>(m.host)].timeline.empty()) {
      return;
    }
    int64_t t = 0;
    if (ReadLastStamp(info_.logs[i].path, &t)) last[i] = t;
  });
  for (size_t i = 0; i < info_.logs.size(); ++i) {
    if (last[i] < 0) continue;
    const FioJsonMatch& m = matches_[i];
    FioJsonHost& h = jsons_[static_cast<size_t>(m.file)].hosts[static_cast<size_t>(m.host)];
    const int job = FioJobNumber(info_.logs[i]);
    if (job < 1 || static_cast<size_t>(job) > h.timeline.size()) continue;  // PlaceLogs says
    FioTimelineJob& t = h.timeline[static_cast<size_t>(job - 1)];
    const int64_t logged = last[i] - zero[i];
    // fio 3.33 writes no last partial interval: a log ends up to one interval (and the
    // I/O that closed it) before job_runtime.
    const int64_t slack = info_.log_hist_msec + kLogEndSlackMs;
    const std::string who = info_.logs[i].path + ": its records end " + std::to_string(logged) +
                            " ms after the job's start, but " +
                            json_specs_[static_cast<size_t>(m.file)].path + " says job " +
                            h.job_names[static_cast<size_t>(job - 1)] + " ran " +
                            std::to_string(t.runtime_ms) + " ms (job_runtime)";
    if (logged > t.runtime_ms + kLogEndSlackMs) {
      summary_->warnings.push_back(who + ": the log's length is taken for the job's");
      t.runtime_ms = logged;
      moved[std::make_pair(m.file, m.host)] = true;
    } else if (logged < t.runtime_ms - slack) {
      summary_->warnings.push_back(who + ": is the JSON this run's? (its place is the JSON's)");
    }
  }
  for (const auto& [key, yes] : moved) {
    FioJsonHost& h = jsons_[static_cast<size_t>(key.first)].hosts[static_cast<size_t>(key.second)];
    h.job_anchors = PlaceFioJobs(h.timeline, h.timestamp_ms);
  }
}

Status Planner::PlaceLogs(const std::vector<LogProbe>& probes) {
  const size_t n = info_.logs.size();
  offsets_.assign(n, 0);
  floors_.assign(n, 0);
  if (info_.epoch_logs) return Status();
  // Per log: the start of its stamps' zero on Unix time and that zero in its stamps (0 for
  // relative stamps; the clock's reading at the job's start for another clock's).
  std::vector<int64_t> start(n, 0), zero(n, 0);
  std::vector<int64_t> bound(n, -1);  // early + late of the job's anchor; -1: none
  std::vector<bool> other(n, false), looks_other(n, false);
  for (size_t i = 0; i < n; ++i) {
    const FioJsonMatch& m = matches_[i];
    // Relative stamps start near log_hist_msec (fio restarts them after ramp_time); far
    // beyond, they count on another clock (log_alternate_epoch_clock_id: CLOCK_MONOTONIC is
    // the machine's uptime), as the JSON's job options say.
    const int64_t first = probes[i].first_time_ms;
    looks_other[i] = first > std::max<int64_t>(kOtherClockMinMs,
                                               kOtherClockIntervals * info_.log_hist_msec);
    other[i] = looks_other[i] ||
               (m.file >= 0 && jsons_[static_cast<size_t>(m.file)]
                                       .hosts[static_cast<size_t>(m.host)]
                                       .alternate_clock >= 0);
    if (other[i]) zero[i] = first - FirstIntervalOf(probes[i]);
  }
  if (!o_.has_start_time) CheckLogEnds(zero);
  for (size_t i = 0; i < n; ++i) {
    const LogSource& log = info_.logs[i];
    const FioJsonMatch& m = matches_[i];
    const FioJsonHost* h =
        m.file >= 0
            ? &jsons_[static_cast<size_t>(m.file)].hosts[static_cast<size_t>(m.host)]
            : nullptr;
    const std::string& json = m.file >= 0 ? json_specs_[static_cast<size_t>(m.file)].path : "";
    const int64_t first = probes[i].first_time_ms;
    if (o_.has_start_time) {
      start[i] = o_.start_time_ms;
    } else if (h) {
      if (looks_other[i] && h->alternate_clock < 0) {
        return Status::InputError(
            log.path, 1,
            "its first stamp is " + std::to_string(first) +
                " ms: neither relative (the first record near log_hist_msec) nor Unix time, "
                "and " + json + "'s job options name no other clock (log_alternate_epoch, "
                "log_alternate_epoch_clock_id): cannot place it; give --start-time");
      }
      start[i] = h->anchor.start_ms;
      const int job = FioJobNumber(log);
      if (!h->job_anchors.empty()) {
        const size_t jobs = h->job_anchors.size();
        if (job < 1 || static_cast<size_t>(job) > jobs) {
          std::string names;
          for (const std::string& name : h->job_names) names += (names.empty() ? "" : ", ") + name;
          return Status::InputError(
              log.path, 0,
              (job < 1 ? std::string("names no fio job number (..._hist.N.log)")
                       : "is the log of fio's job " + std::to_string(job)) +
                  ", but " + json + " lists " + std::to_string(jobs) + " job(s) (" + names +
                  "): is it the output of this run? (each job's stamps are placed by its own "
                  "entry)");
        }
        const FioJobAnchor& a = h->job_anchors[static_cast<size_t>(job - 1)];
        start[i] = a.start_ms;
        bound[i] = a.early_ms + a.late_ms;
        const std::string who = log.host + "/" + log.job + " (job " +
                                h->job_names[static_cast<size_t>(job - 1)] + ")";
        info_.job_anchor_notes.push_back(who + ": " + FormatIsoTime(a.start_ms) + " " +
                                         FormatUncertainty(a) + " (" + a.how + ")");
        if (std::max(a.early_ms, a.late_ms) > kAnchorWarnMs) {
          summary_->warnings.push_back(
              who + ": " + json + " places this job only within " + FormatUncertainty(a) +
              " (" + a.how + "): its quanta may be that far off");
        }
      }
    } else if (looks_other[i]) {
      return Status::InputError(
          log.path, 1,
          "its first stamp is " + std::to_string(first) +
              " ms: neither relative (the first record near log_hist_msec) nor Unix time "
              "(log_alternate_epoch with another clock?): give --fio-json (fio's JSON output "
              "names the clock and places the jobs) or --start-time");
    }
  }
  // Stamps of one clock on one host keep their own order: the host's clock is set once,
  // by its job placed most tightly, and every log of the host follows it.
  std::map<std::pair<int, int>, size_t> best;
  for (size_t i = 0; i < n; ++i) {
    const FioJsonMatch& m = matches_[i];
    if (!other[i] || m.file < 0 || o_.has_start_time) continue;
    const auto key = std::make_pair(m.file, m.host);
    auto it = best.find(key);
    if (it == best.end() ||
        (bound[i] >= 0 && (bound[it->second] < 0 || bound[i] < bound[it->second]))) {
      best[key] = i;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const FioJsonMatch& m = matches_[i];
    auto it = m.file >= 0 ? best.find(std::make_pair(m.file, m.host)) : best.end();
    offsets_[i] = it != best.end() ? start[it->second] - zero[it->second] : start[i] - zero[i];
    floors_[i] = offsets_[i] + zero[i];
  }
  return Status();
}

}  // namespace

Status LayOutRun(const PipelineOptions& options, const std::vector<std::string>& paths,
                 RunLayout* layout, RunSummary* summary) {
  *layout = RunLayout();
  return Planner(options, layout, summary).Layout(paths);
}

void AddIoShares(const RunLayout& layout, RunSummary* summary) {
  // Per job where fio's JSON lists the job the log's number names; per host (all the
  // host's logs against the sum of its jobs) where it cannot (group_reporting).
  std::map<std::pair<int, int>, IoShare> by_host;
  std::vector<std::pair<int, int>> host_order;
  for (size_t i = 0; i < layout.matches.size() && i < summary->reports.size(); ++i) {
    const FioJsonMatch& m = layout.matches[i];
    if (m.file < 0) continue;
    const FioJsonHost& h = layout.jsons[static_cast<size_t>(m.file)].hosts[static_cast<size_t>(m.host)];
    const LogSource& log = layout.info.logs[i];
    const int job = FioJobNumber(log);
    const double logged = summary->reports[i].total_ios;
    if (!h.grouped && job >= 1 && static_cast<size_t>(job) <= h.job_ios.size() &&
        h.job_ios[static_cast<size_t>(job - 1)] > 0) {
      summary->io_shares.push_back(
          {log.host, log.job, logged, h.job_ios[static_cast<size_t>(job - 1)]});
      continue;
    }
    const std::pair<int, int> key(m.file, m.host);
    if (!by_host.count(key)) {
      host_order.push_back(key);
      IoShare& sh = by_host[key];
      sh.host = log.host;
      for (double v : h.job_ios) sh.fio += v;
    }
    by_host[key].logged += logged;
  }
  for (const auto& key : host_order) {
    if (by_host[key].fio > 0) summary->io_shares.push_back(by_host[key]);
  }
  for (const IoShare& sh : summary->io_shares) {
    // Above 100 % (beyond rounding) the logs hold I/Os fio never counted: likely the JSON
    // of another run or job.
    const bool low = sh.share()<kLowIoShare, high = sh.share()> 1.01;
    if (!low && !high) continue;
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * sh.share());
    const std::string what = sh.host + (sh.job.empty() ? " (all jobs)" : "/" + sh.job) +
                             ": the log" + (sh.job.empty() ? "s hold " : " holds ") + pct +
                             " of the I/Os fio's JSON output counts";
    summary->warnings.push_back(
        what + (low ? " (fio does not log its last partial interval): its whole-run "
                      "percentiles may differ from fio's own summary"
                    : ": is that JSON the output of this run and job?"));
  }
}

}  // namespace fiohist
