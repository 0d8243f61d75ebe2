// fio's JSON output (--output-format=json): when its jobs started, how many I/Os each one
// completed, and which host's logs each file belongs to.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "log/fio_timeline.h"
#include "log/log_source.h"
#include "log/time_anchor.h"

namespace fiohist {

/// The jobs of one host in a fio JSON output: the whole file for a plain run, one entry
/// per host of a client/server run (`client_stats`).
struct FioJsonHost {
  /// The host named in a client/server output; empty in a plain one.
  std::string hostname;
  /// When this host's jobs started.
  FioJsonAnchor anchor;
  /// I/Os fio completed per job (read + write + trim), in job order: entry J-1 belongs to
  /// the log `..._clat_hist.J.log`, J being fio's job number.
  std::vector<double> job_ios;
  /// group_reporting was on: one entry sums several jobs, so only the host's total of
  /// job_ios compares with its logs.
  bool grouped = false;
  /// fio < 3.36 (no `job_start`), one entry per job: each job's logging epoch placed on
  /// the process timeline (fio_timeline.h), in job order; empty otherwise (the host's
  /// anchor serves every job).
  std::vector<FioJobAnchor> job_anchors;
  /// What placed them: each job's entry on the timeline, and the JSON's timestamp_ms
  /// (placed again where the logs' own ends say a job ran longer).
  std::vector<FioTimelineJob> timeline;
  int64_t timestamp_ms = 0;
  /// `jobname` of each entry, in job order.
  std::vector<std::string> job_names;
  /// group_reporting over several stonewall groups (fio < 3.36): each group entry's anchor
  /// (its group's start on the process timeline), and for each fio job number J the entry
  /// whose clones (its numjobs) hold the log `..._clat_hist.J.log` (entry_of_job[J-1]).
  /// Empty otherwise (the host's anchor serves every log).
  std::vector<FioJobAnchor> group_anchors;
  std::vector<size_t> entry_of_job;
  /// Each entry's `job_start` (fio >= 3.36: its logging epoch, Unix ms), in job order; 0
  /// where the entry has none. Stamps of another clock count from their own job's start.
  std::vector<int64_t> job_starts;
  /// The jobs' stamps count on this clock (`log_alternate_epoch=1` with
  /// `log_alternate_epoch_clock_id`, e.g. 1: CLOCK_MONOTONIC, the machine's uptime); -1
  /// when they are relative or Unix time (CLOCK_REALTIME, 0).
  int alternate_clock = -1;
  /// Per job, parallel to job_ios: the longest span without a completion its options
  /// explain (thinktime, a rate limit: JobPacing::LongestIdleMs), 0 where none; a span
  /// that long or shorter may be the job idling, a longer one is a stall.
  std::vector<double> job_idle_ms;
  /// log_hist_msec of the jobs' options (or the global ones) when they all agree; else 0.
  int64_t log_hist_msec = 0;
};

/// One fio JSON output file.
struct FioJsonOutput {
  std::string path;
  std::string fio_version;
  /// One entry for a plain run; one per host (in file order) for client/server.
  std::vector<FioJsonHost> hosts;
};

/// Reads `path`. Text before the JSON object (fio's notes) is skipped. A status stream
/// (`--status-interval` with json or json+: one object per report) is read as its last
/// report, which is the run's result once fio has finished.
Status ReadFioJson(const std::string& path, FioJsonOutput* out);

/// True when `path` holds a fio JSON output ("fio version" and "jobs" or "client_stats"):
/// other JSON files next to the logs are not fio's and are left alone.
bool IsFioJsonOutput(const std::string& path);

/// The fio JSON outputs among the `*.json` files directly inside `dir`, sorted by name;
/// status streams only where the folder holds no single-report output.
std::vector<std::string> FindFioJsonOutputs(const std::string& dir);

/// A fio JSON output to match with the logs: `--fio-json [HOST=]FILE`, or found next to
/// the logs.
struct FioJsonSpec {
  std::string path;
  /// HOST of `--fio-json HOST=FILE`; empty when the match is to be worked out.
  std::string host;
  /// Found next to the logs rather than given.
  bool found = false;
};

/// Parses `--fio-json` text: `FILE` or `HOST=FILE` (a '=' before any '/').
FioJsonSpec ParseFioJsonSpec(const std::string& text);

/// Which fio JSON output (and host within it) covers a log, and why.
struct FioJsonMatch {
  /// Index into the specs; -1 when no JSON covers the log.
  int file = -1;
  /// Index into that output's hosts.
  int host = 0;
  /// How the match was made: "HOST=FILE", "hostname", "file name", "directory" or "only
  /// file".
  std::string how;
};

/// Matches fio JSON outputs with `logs` (hosts as IdentifyLogs named them), one entry of
/// `matches` per log. A JSON covers a host when `--fio-json HOST=FILE` says so, when it is
/// a client/server output naming the host, or when its file name ends with the host
/// (`fio-HOST.json`, `fio_HOST.json`, `HOST.json`, `fio.json.HOST`). Any other JSON covers
/// the logs in its own directory (compared after normalising: `./run` is `run`), or every
/// log when it is the only one given. Fails, naming the files, whenever the match is
/// ambiguous: two JSONs for one host or one directory, or one JSON that would place logs
/// of several hosts (each host's relative stamps count from its own start). Logs no JSON
/// covers keep file -1; the caller decides whether that is an error.
Status MatchFioJsons(const std::vector<LogSource>& logs, const std::vector<FioJsonSpec>& specs,
                     const std::vector<FioJsonOutput>& outputs, std::vector<FioJsonMatch>* matches);

/// fio's job number J of a log named `..._clat_hist.J.log` (its job id ends in ".J"), or of
/// segment J of a per_job_logs=0 file (its job id ends in "@J"), or 0.
int FioJobNumber(const LogSource& log);

}  // namespace fiohist
