// When each job of one fio process (before 3.36, which writes no `job_start`) began to log,
// worked out from the process timeline its JSON output describes: stonewall groups one after
// the other, the jobs of a group together (plus their startdelay), logging restarted after
// ramp_time, and the JSON written when the last job had ended.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace fiohist {

/// One job of the JSON output (an entry of `jobs`), as the timeline needs it.
struct FioTimelineJob {
  /// `groupid`: stonewall/new_group number; groups run one after the other.
  int group = 0;
  /// `startdelay` (a range "lo-hi" makes lo < hi: fio picks a value in it), in ms since
  /// fio's start (not the group's: fio measures it from its genesis).
  int64_t delay_lo_ms = 0, delay_hi_ms = 0;
  /// `ramp_time` in ms: logging (and the stamps' epoch) restarts when it is over.
  int64_t ramp_ms = 0;
  /// `job_runtime`: ms from the job's logging epoch to its end (fio takes it right before
  /// the job writes its logs).
  int64_t runtime_ms = 0;
  /// The job may have run up to this much longer than runtime_ms: 0 from the JSON; one
  /// log_hist_msec where runtime_ms was taken from the job's log, which lacks fio's last
  /// partial interval.
  int64_t runtime_unlogged_ms = 0;
  /// Lines the job writes at its end into per-I/O logs (write_lat_log etc. with
  /// log_avg_msec=0): fio writes its logs before the job is reaped, which delays the next
  /// group and the JSON.
  double log_lines = 0;
};

/// Where one job's logging epoch (its relative stamps' zero) lies on Unix time.
struct FioJobAnchor {
  /// The estimate, Unix-epoch ms.
  int64_t start_ms = 0;
  /// The truth lies in [start_ms - early_ms, start_ms + late_ms] under the model's bounds
  /// (fio's 100 ms scheduling loop, reaping, log writing, startdelay ranges).
  int64_t early_ms = 0, late_ms = 0;
  /// What placed it, for the summary ("group 2 after group 1; startdelay 1 s").
  std::string how;
};

/// One log's job placed on its fio's timeline: the summary's "anchor of" line and the run
/// document's `job_anchors` entry.
struct PlacedFioJob {
  /// The log's host and job (LogSource), and the job's name in fio's JSON.
  std::string host, job, fio_job;
  FioJobAnchor anchor;
};

/// Cost of one line of a per-I/O log written at a job's end (fio's fprintf per sample),
/// measured on fio 3.33 (see docs/anchoring.md); the bound allows 4x either way.
constexpr double kLogLineWriteMs = 0.0004;

/// Places every job of one fio process: `timestamp_ms` is the JSON's (written after the
/// last job ended and fio reaped it). Model and bounds: docs/anchoring.md.
std::vector<FioJobAnchor> PlaceFioJobs(const std::vector<FioTimelineJob>& jobs,
                                       int64_t timestamp_ms);

/// Parses a fio time option (`startdelay`, `ramp_time`): "2", "2s", "500ms", "1m", or a
/// range "1-3" / "1s-3s" (lo, hi). A bare number is seconds, as fio reads it.
Status ParseFioTimeOption(const std::string& text, int64_t* lo_ms, int64_t* hi_ms);

/// "+-40 ms" / "-0/+110 ms": an anchor's uncertainty for messages.
std::string FormatUncertainty(const FioJobAnchor& a);

/// "HOST/JOB (job NAME): ISO -E/+L ms (how)", as the summary names a placed job.
std::string FormatPlacedJob(const PlacedFioJob& p);

}  // namespace fiohist
