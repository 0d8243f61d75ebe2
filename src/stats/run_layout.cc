#include "stats/run_layout.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

#include "base/path.h"
#include "base/worker_pool.h"
#include "log/log_probe.h"
#include "log/time_anchor.h"
#include "stats/log_placement.h"

namespace fiohist {
namespace {

// Enough lines to see several records of each direction.
constexpr int kProbeLines = 64;

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
  // Where each log's stamps go on the run's time line (log_placement.h) into placed_, with
  // a note per job placed on its fio's timeline.
  Status Place(const std::vector<LogProbe>& probes);
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
  LogPlacement placed_;
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
  s = Place(probes);
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
      setup.offset_ms = placed_.offset_ms[i];
      setup.floor_ms = placed_.floor_ms[i];  // relative stamps count from the job's start
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

Status Planner::Place(const std::vector<LogProbe>& probes) {
  if (info_.epoch_logs) {
    placed_.offset_ms.assign(info_.logs.size(), 0);
    placed_.floor_ms.assign(info_.logs.size(), 0);
    return Status();
  }
  PlacementInput in;
  in.logs = &info_.logs;
  in.probes = &probes;
  for (const LogProbe& p : probes) in.first_interval_ms.push_back(FirstIntervalOf(p));
  in.log_hist_msec = info_.log_hist_msec;
  in.has_start_time = o_.has_start_time;
  in.start_time_ms = o_.start_time_ms;
  in.threads = o_.threads;
  in.specs = &json_specs_;
  in.matches = &matches_;
  Status s = PlaceLogs(in, &jsons_, &placed_);
  for (std::string& w : placed_.warnings) summary_->warnings.push_back(std::move(w));
  info_.job_anchors = placed_.jobs;
  return s;
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
