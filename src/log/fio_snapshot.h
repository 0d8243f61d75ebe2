// One JSON object of fio's json+ output (a status report or the final report), decoded into
// each job's cumulative latency histograms.
#pragma once

#include <rapidjson/document.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "histogram/bucket_layout.h"
#include "log/log_line.h"

namespace fiohist {

/// One job of a snapshot: fio's CUMULATIVE counts since the job started.
struct FioJobSnapshot {
  /// fio's `jobname`.
  std::string name;
  /// 1-based position in `jobs`: fio's job number, the N of its `..._clat_hist.N.log`.
  int number = 0;
  /// `job_runtime` in ms: how long the job has run (it stops growing when the job ends).
  int64_t runtime_ms = 0;
  /// `job_start` (Unix-epoch ms, fio >= 3.36, on the clock of the host that ran the job),
  /// 0 when absent.
  int64_t start_ms = 0;
  /// `eta` in seconds (0: fio expects the job to be done).
  int64_t eta_s = 0;
  /// Per direction (read, write, trim): (column, count) of `clat_ns.bins`, columns ascending.
  std::array<std::vector<std::pair<uint32_t, uint64_t>>, kLogDirections> bins;
  /// Per direction: `total_ios` (fio's own count, which may lag the bins by an I/O or two
  /// in a status report).
  std::array<uint64_t, kLogDirections> total_ios{};
};

/// A decoded fio json+ object.
struct FioSnapshot {
  /// `timestamp_ms`: when fio made it (Unix-epoch ms); the END of what it adds.
  int64_t timestamp_ms = 0;
  /// `fio version`.
  std::string fio_version;
  std::vector<FioJobSnapshot> jobs;
  /// Every job's eta is 0: fio expects nothing more. True in the final report, and in the
  /// last status report or two before it (the JSON marks the final report no other way:
  /// see FioStatusStream).
  bool all_done() const;
};

/// A parsed JSON value (RapidJSON's).
using JsonValue = rapidjson::Value;

/// Decodes `object` (one parsed JSON object of fio's json+ output) with `layout`'s buckets
/// (fio3's, uncoarsened: json+ keys are full-resolution bucket values in ns). Fails, saying
/// what was expected, for an object that is not fio's (no `jobs`, no `timestamp_ms`), a
/// job without `job_runtime`, or a bins key that is not a bucket value of the layout. The
/// message has no location: the caller names the stream and byte offset.
Status DecodeFioSnapshot(const JsonValue& object, const BucketLayout& layout, FioSnapshot* out);

/// Decodes one job object (an entry of `jobs`, or of a client/server output's
/// `client_stats`) into `*out`; `number` stays 0 for the caller to set. `where` names the
/// object in messages (e.g. "jobs[2]").
Status DecodeFioJob(const JsonValue& job, const BucketLayout& layout, const std::string& where,
                    FioJobSnapshot* out);

}  // namespace fiohist
