// Placing relative-time logs on absolute time: --start-time and fio's JSON output.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace fiohist {

/// Parses an ISO 8601 time ("2026-11-22T00:08:42Z", fractions and +hh:mm offsets allowed;
/// no zone means UTC) or a Unix epoch number (seconds, or milliseconds when > 10^11).
Status ParseStartTime(const std::string& text, int64_t* epoch_ms);

/// Formats Unix-epoch milliseconds as ISO 8601 UTC with milliseconds
/// ("2026-11-22T00:08:42.000Z"); outside years 0..9999, the milliseconds as a number.
std::string FormatIsoTime(int64_t epoch_ms);

/// Length of FormatIsoTime's ISO text.
constexpr int kIsoTimeBytes = 24;

/// Writes FormatIsoTime's ISO text into `out` (kIsoTimeBytes, no terminator) without
/// allocating; false (nothing written) outside years 0..9999.
bool WriteIsoTime(int64_t epoch_ms, char* out);

/// What a fio JSON output file (--output-format=json or json+) says about when jobs ran.
struct FioJsonAnchor {
  /// Estimated job start, Unix-epoch milliseconds.
  int64_t start_ms = 0;
  /// "job_start" (fio >= 3.36 writes it) or "timestamp_ms-runtime" (older fio: the time
  /// the JSON was written minus the longest job_runtime and ramp_time, the host's anchor
  /// where its jobs cannot be placed one by one: FioJsonHost::job_anchors).
  std::string method;
  /// "fio-3.33" etc.
  std::string fio_version;
};

/// Reads `path` (fio JSON output) and estimates when its jobs started.
Status ReadFioJsonAnchor(const std::string& path, FioJsonAnchor* anchor);

}  // namespace fiohist
