#include "stats/run_layout.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

#include "base/path.h"
#include "base/worker_pool.h"
#include "log/carried_lines.h"
#include "log/direction_names.h"
#include "log/job_segments.h"
#include "log/latency_choice.h"
#include "log/interval_model.h"
#include "log/log_probe.h"
#include "log/per_io_stream.h"
#include "log/time_anchor.h"
#include "stats/log_placement.h"

namespace fiohist {
namespace {

// Enough lines to see several records of each direction.
constexpr int kProbeLines = 64;

// The size of the file at `path` (0 when it cannot be told): progress counts it.
uint64_t ProbedLogFileBytes(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// Logs are added up only when they share the first log's layout and kind of stamps.
Status CheckLikeFirst(const LogSource& src, const LogProbe& probe, const LogSource& first,
                      const LogProbe& first_probe) {
  // Per-I/O logs (columns 0) are binned into whatever layout the histogram logs have.
  if (probe.columns != first_probe.columns && probe.columns > 0 && first_probe.columns > 0) {
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
        matches_(layout->matches),
        probed_files_(layout->probed_files) {}

  // Which logs, their layout and time line, and each one's stream setup.
  Status Layout(const std::vector<std::string>& paths);
  // Layout's steps, in order. Probes every log and keeps the ones with records in
  // info_.logs (with their probes, in the same order) after checking they can be added up.
  Status ProbeLogs(const std::vector<LogSource>& sources, std::vector<LogProbe>* probes);
  // per_job_logs=0 files: each job's segment becomes a log of its own.
  Status SplitSegments(std::vector<LogSource>* sources);
  // A log without records: an error, or under --skip-bad-lines a warning and left out.
  Status EmptyLog(const LogSource& src);
  // log_hist_msec: given, or the smallest typical gap between records of one direction.
  Status SetLogHistMsec(const std::vector<LogProbe>& probes);
  // Reads the fio JSON outputs given (or, with none given, found next to the logs),
  // matches them with the logs and notes their fio versions.
  Status ReadFioJsons();
  // An inferred log_hist_msec gives way to the one every matched fio JSON's job options
  // state (the gaps between records mislead where jobs pause).
  void LogHistMsecFromJson();
  // The --fio-json files, or the fio JSON outputs found in the logs' directories.
  std::vector<FioJsonSpec> FioJsonSpecs() const;
  // Fails when relative logs need an anchor that some of them have from no fio JSON.
  Status CheckEveryLogMatched() const;
  // How times become absolute: epoch stamps, --start-time, fio JSON, or not at all.
  void SetAnchor();
  // One stream setup per log: its layout, first interval and place on the time line.
  Status MakeSetups(const std::vector<LogProbe>& probes);
  // One temporary file per probing worker for the records of logs probed whole; false
  // (and none) when one cannot be made.
  bool MakeProbedFiles(int workers);
  // The quantum grid's origin (PlanGrid, from the probed records' ends) and the hosts far
  // from its edges.
  void ChooseGrid(const std::vector<LogProbe>& probes);
  // Where each log's stamps go on the run's time line (log_placement.h) into placed_, with
  // a note per job placed on its fio's timeline.
  Status Place(const std::vector<LogProbe>& probes);
  // The interval a log's first record closes.
  int64_t FirstIntervalOf(const LogProbe& probe) const {
    // log_hist_msec from the fio JSON is every log's first interval.
    return probe.typical_gap_ms > 0 && o_.log_hist_msec == 0 && !json_log_hist_msec_
               ? probe.typical_gap_ms
               : info_.log_hist_msec;
  }
  // ns per unit of per-I/O log `i`'s latencies (1000: fio 2's microseconds).
  int64_t PerIoUnitNs(size_t i, const LogProbe& probe);
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
  std::vector<std::unique_ptr<SpillFile>>& probed_files_;
  LogPlacement placed_;
  bool per_io_unit_noted_ = false;
  int carried_ = 0;  // logs showing fio's client/server bug
  // log_hist_msec came from the fio JSON: every log's first interval is that.
  bool json_log_hist_msec_ = false;
};

Status Planner::Layout(const std::vector<std::string>& paths) {
  if (paths.empty()) return Status::Error("no logs given");
  LatencySelection chosen;
  Status s = SelectLatencyLogs(paths, o_.latency, &chosen);
  if (!s.ok()) return s;
  info_.input_notes = chosen.notes;
  if (chosen.paths.empty()) {
    std::string why;
    for (const std::string& n : chosen.notes) why += "; " + n;
    return Status::Error("no latency log to read among the files given" + why);
  }
  std::vector<LogSource> sources;
  s = IdentifyLogs(chosen.paths, o_.host_mapping, &sources, &info_.hosts);
  if (!s.ok()) return s;
  AssignSmallfileSlots(&sources, &info_.directions, &info_.input_notes);
  // Report scopes in a stable order: by host, then job.
  std::stable_sort(sources.begin(), sources.end(), [](const LogSource& a, const LogSource& b) {
    return a.host_index != b.host_index ? a.host_index < b.host_index : a.job < b.job;
  });
  s = SplitSegments(&sources);
  if (!s.ok()) return s;
  std::vector<LogProbe> probes;
  s = ProbeLogs(sources, &probes);
  if (!s.ok()) return s;
  info_.epoch_logs = probes.front().epoch;
  info_.percentiles = o_.percentiles;
  info_.sla = o_.sla;
  info_.confidence = o_.confidence;
  info_.quantum_ms = o_.quantum_ms;
  info_.placement = o_.place_issue ? "issue" : "completion";
  s = SetLogHistMsec(probes);
  if (!s.ok()) return s;
  s = ReadFioJsons();
  if (!s.ok()) return s;
  LogHistMsecFromJson();
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
  // Logs that will be spilled keep what their probe parsed where it read them whole (short
  // logs: 30 s of 1 s records is 60 lines), in a temporary file per worker: the spill then
  // reads that instead of inflating and parsing each log again (ProbedRecords).
  const bool keep = o_.spill_min_logs > 0 && sources.size() >= o_.spill_min_logs &&
                    !o_.place_issue && MakeProbedFiles(pool.size());
  std::vector<std::string> kept_bytes(static_cast<size_t>(pool.size()));
  pool.ParallelFor(sources.size(), [&](int worker, size_t i) {
    if (sources[i].per_io) {
      statuses[i] = ProbePerIoLog(sources[i], kProbeLines, o_.skip_bad_lines, &all[i]);
      return;
    }
    std::string* bytes = keep ? &kept_bytes[static_cast<size_t>(worker)] : nullptr;
    statuses[i] = ProbeLog(sources[i], kProbeLines, o_.skip_bad_lines, &all[i], bytes);
    if (!statuses[i].ok() || bytes == nullptr || bytes->empty()) return;
    SpillFile& file = *probed_files_[static_cast<size_t>(worker)];
    ProbedRecords& probed = all[i].probed;
    probed.offset = file.size();
    probed.length = bytes->size();
    if (!file.Append(*bytes).ok()) return;  // the log is read again, as without keeping
    probed.file = &file;
    probed.file_bytes = ProbedLogFileBytes(sources[i].path);
  });
  for (std::unique_ptr<SpillFile>& f : probed_files_) {
    if (f->Flush().ok()) continue;
    for (LogProbe& p : all) p.probed = ProbedRecords();  // every log is read again
    probed_files_.clear();
    break;
  }
  std::vector<LogSource> kept;
  // The first histogram log decides the layout (per-I/O logs are binned into it); with
  // none, fio 3's (or --layout's).
  int layout_from = -1;
  for (size_t i = 0; i < sources.size() && layout_from < 0; ++i) {
    if (statuses[i].ok() && !all[i].empty && all[i].columns > 0) layout_from = static_cast<int>(i);
  }
  if (layout_from < 0) {
    BucketLayout fio;
    if (o_.layout_hint.fio_version == 2) fio = BucketLayout{19, 6, 0, 1000};
    if (o_.layout_hint.groups > 0) fio.groups = o_.layout_hint.groups;
    info_.layout = fio;
  }
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
    // Only where fio's client/server mode could have written the log: a hist log's name
    // with a host suffix (a test's ramp of counts elsewhere would look the same).
    const LogName name = ParseLogName(src.path);
    if (probe.carried_lines && name.type == LogFileType::kHist && name.host_suffix) {
      if (!o_.repair_client_logs) {
        return Status::InputError(
            src.path, 0,
            std::string(kCarriedLinesBug) +
                ". Read the per-I/O logs of the same jobs (write_lat_log, log_avg_msec=0: "
                "exact) or the client's JSON output (--status-interval), or give "
                "--repair-client-logs to read line k - line k-2");
      }
      ++carried_;
    }
    if (static_cast<int>(i) == layout_from) {
      s = LayoutFromColumns(probe.columns, o_.layout_hint, &info_.layout);
      if (!s.ok()) return Status::InputError(src.path, 1, s.message());
    }
    if (!kept.empty()) {
      // Against the first histogram log for the layout, the first log for the stamps.
      const LogProbe& like =
          layout_from >= 0 ? all[static_cast<size_t>(layout_from)] : probes->front();
      const LogSource& like_src =
          layout_from >= 0 ? sources[static_cast<size_t>(layout_from)] : kept.front();
      s = CheckLikeFirst(src, probe, like_src, like);
      if (s.ok()) s = CheckLikeFirst(src, probe, kept.front(), probes->front());
      if (!s.ok()) return s;
    }
    probes->push_back(std::move(probe));
    kept.push_back(src);
  }
  if (kept.empty()) return Status::Error("no log has any record");
  if (carried_ > 0) {
    info_.input_notes.push_back("--repair-client-logs: " + std::to_string(carried_) + " of " +
                                std::to_string(kept.size()) +
                                " logs show fio's client/server bug (line k carries line k-2) "
                                "and are read as line k - line k-2");
  } else if (o_.repair_client_logs) {
    info_.input_notes.push_back(
        "--repair-client-logs: no log shows fio's client/server bug; nothing repaired");
  }
  info_.logs = kept;
  return Status();
}

Status Planner::SplitSegments(std::vector<LogSource>* sources) {
  std::vector<LogSource> out;
  for (const LogSource& src : *sources) {
    if (!MayHoldSeveralJobs(src)) {
      out.push_back(src);
      continue;
    }
    std::vector<LogSource> segments;
    Status s = SplitJobSegments(src, &segments);
    if (!s.ok()) return s;
    if (segments.size() > 1) {
      info_.input_notes.push_back(src.path + ": " + std::to_string(segments.size()) +
                                  " jobs one after the other (fio's per_job_logs=0), read as " +
                                  segments.front().job + " to " + segments.back().job);
    }
    out.insert(out.end(), segments.begin(), segments.end());
  }
  *sources = std::move(out);
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
  bool any_hist = false;
  for (const LogSource& l : info_.logs) any_hist = any_hist || !l.per_io;
  if (o_.log_hist_msec > 0) {
    info_.log_hist_msec = o_.log_hist_msec;
  } else if (!any_hist) {
    // Per-I/O logs have no intervals: the quantum stands for one.
    info_.log_hist_msec = o_.quantum_ms;
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

void Planner::LogHistMsecFromJson() {
  if (!info_.log_hist_msec_inferred) return;
  int64_t msec = 0;
  for (const FioJsonMatch& m : matches_) {
    if (m.file < 0) return;  // a log no JSON speaks for
    const int64_t mine =
        jsons_[static_cast<size_t>(m.file)].hosts[static_cast<size_t>(m.host)].log_hist_msec;
    if (mine <= 0 || (msec != 0 && mine != msec)) return;
    msec = mine;
  }
  // Gaps between records mislead where jobs pause (thinktime, stalls): fio's JSON knows.
  if (msec <= 0 || msec == info_.log_hist_msec) return;
  summary_->warnings.push_back(
      "log_hist_msec " + std::to_string(msec) + " from the fio JSON output's job options, not " +
      std::to_string(info_.log_hist_msec) + " as the gaps between records suggest");
  info_.log_hist_msec = msec;
  json_log_hist_msec_ = true;
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
  // The histogram logs' column count (per-I/O logs' probes have none: 0).
  int columns = 0;
  for (const LogProbe& p : probes) {
    if (p.columns > 0) {
      columns = p.columns;
      break;
    }
  }
  for (size_t i = 0; i < info_.logs.size(); ++i) {
    StreamSetup setup;
    setup.columns = columns;
    setup.first_interval_ms = FirstIntervalOf(probes[i]);
    setup.skip_bad_lines = o_.skip_bad_lines;
    setup.layout = info_.layout;
    const LogName name = ParseLogName(info_.logs[i].path);
    setup.repair_carried_lines = probes[i].carried_lines && o_.repair_client_logs &&
                                 name.type == LogFileType::kHist && name.host_suffix;
    if (info_.logs[i].per_io) setup.value_unit_ns = PerIoUnitNs(i, probes[i]);
    if (!info_.epoch_logs) {
      setup.offset_ms = placed_.offset_ms[i];
      setup.floor_ms = placed_.floor_ms[i];  // relative stamps count from the job's start
      setup.floor_is_job_start = info_.anchor == "fio-json" || info_.anchor == "start-time";
    }
    setup.probed = probes[i].probed;
    setups_.push_back(setup);
  }
  return Status();
}

bool Planner::MakeProbedFiles(int workers) {
  probed_files_.clear();
  for (int w = 0; w < workers; ++w) {
    probed_files_.push_back(std::make_unique<SpillFile>());
    if (!probed_files_.back()->Create().ok()) {
      probed_files_.clear();
      return false;
    }
  }
  return true;
}

void Planner::ChooseGrid(const std::vector<LogProbe>& probes) {
  std::vector<LogRecordEnds> logs(info_.logs.size());
  for (size_t i = 0; i < logs.size(); ++i) {
    logs[i].host = info_.logs[i].host;
    logs[i].ends = probes[i].stamps;
    // A record that ended a pause (interval_model.h) is off fio's grid of deadlines: its
    // deadline is where the grid is.
    IntervalModel model(setups_[i].first_interval_ms, setups_[i].floor_ms,
                        setups_[i].floor_is_job_start);
    for (RecordEnd& e : logs[i].ends) {
      e.end_ms += setups_[i].offset_ms;
      RecordPlacement p;
      if (model.Place(e.end_ms, e.direction, &p) == IntervalModel::Verdict::kPlaced && p.paused()) {
        e.end_ms = p.deadline_ms;
      }
    }
  }
  GridPlan plan = PlanGrid(o_.grid, o_.quantum_ms, info_.log_hist_msec, logs);
  info_.grid_origin_ms = plan.origin_ms;
  for (StreamSetup& setup : setups_) {
    setup.place_issue = o_.place_issue;
    setup.grid_origin_ms = plan.origin_ms;
    setup.grid_quantum_ms = o_.quantum_ms;
  }
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

int64_t Planner::PerIoUnitNs(size_t i, const LogProbe& probe) {
  if (info_.logs[i].smallfile) return 1;  // parsed into ns from its seconds
  // fio 2 logged microseconds, fio 2.99 on nanoseconds, in the same line layout until 3.18
  // added the priority column: the fio JSON's version or --layout tells.
  const FioJsonMatch& m = matches_[i];
  const std::string version =
      m.file >= 0 ? jsons_[static_cast<size_t>(m.file)].fio_version : std::string();
  if (o_.layout_hint.fio_version == 2 || version.rfind("fio-2.", 0) == 0) {
    const bool ns = version.rfind("fio-2.99", 0) == 0;
    if (!ns) return 1000;
  }
  if (probe.per_io_columns <= 5 && version.empty() && o_.layout_hint.fio_version == 0 &&
      !per_io_unit_noted_) {
    per_io_unit_noted_ = true;
    info_.input_notes.push_back(
        "per-I/O latencies read as nanoseconds (fio 2.99 and later); logs of fio 2 hold "
        "microseconds in the same columns: give --layout fio2 or the run's fio JSON");
  }
  return 1;
}

}  // namespace

Status LayOutRun(const PipelineOptions& options, const std::vector<std::string>& paths,
                 RunLayout* layout, RunSummary* summary) {
  *layout = RunLayout();
  return Planner(options, layout, summary).Layout(paths);
}

std::vector<double> IdleGapLogs(const RunLayout& layout) {
  std::vector<double> idle(layout.info.logs.size(), 0);
  for (size_t i = 0; i < layout.matches.size() && i < idle.size(); ++i) {
    const FioJsonMatch& m = layout.matches[i];
    if (m.file < 0) continue;
    const FioJsonHost& h =
        layout.jsons[static_cast<size_t>(m.file)].hosts[static_cast<size_t>(m.host)];
    const int job = FioJobNumber(layout.info.logs[i]);
    if (job >= 1 && static_cast<size_t>(job) <= h.job_idle_ms.size()) {
      idle[i] = h.job_idle_ms[static_cast<size_t>(job - 1)];
    } else if (!h.job_idle_ms.empty()) {
      // group_reporting or no job number: the gap every job of the host explains.
      idle[i] = *std::min_element(h.job_idle_ms.begin(), h.job_idle_ms.end());
    }
  }
  return idle;
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
