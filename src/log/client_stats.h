// fio's client/server output (`fio --client=H1 job --client=H2 job --status-interval=1
// --output-format=json+`): one JSON document whose `client_stats` holds an entry per server,
// job and status interval, decoded into each server's reports in the status-stream model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "histogram/bucket_layout.h"
#include "log/fio_snapshot.h"
#include "log/status_stream.h"

namespace fiohist {

/// One fio server of a client/server run and its reports, one per status interval.
struct ClientServer {
  /// `hostname` and `port` of its entries, as the client connected to it.
  std::string hostname;
  int64_t port = 0;
  /// Its host in the output: the hostname, or `hostname:port` where one hostname ran
  /// several servers (they are told apart only by port).
  std::string host;
  /// Jobs per report (entries per round: one per job, or per group with group_reporting).
  int jobs = 0;
  /// One report per round, jobs in fio's order (job N is jobs[N-1]). The entries carry no
  /// time: timestamp_ms is placed as ReadClientStats says.
  std::vector<FioSnapshot> reports;
  /// Index in `client_stats` of each report's first entry (for messages).
  std::vector<int> first_entry;
};

/// A decoded client/server output.
struct ClientStatsRun {
  std::string path;
  std::string fio_version;
  /// Text lines before the JSON document (the servers' notes: "<host> Starting 3
  /// processes"), skipped, and the byte offset where the document starts.
  int text_lines = 0;
  uint64_t json_offset = 0;
  /// Top-level `timestamp` in ms: when the client started to handle its servers (fio takes
  /// it before any job runs, in whole seconds, on the client's clock).
  int64_t client_start_ms = 0;
  /// How reports are placed in time: "job_start" (fio >= 3.36: every job's own start, on
  /// its server's clock, in ms) or "client timestamp" (older fio: the client's start, which
  /// precedes the jobs' start by the servers' setup, and is truncated to the second).
  std::string anchor;
  /// `All clients` entries (fio's sum of the entries before it), checked and left out.
  int all_clients = 0;
  /// Warnings about the reading (e.g. rounds that could not be told apart).
  std::vector<std::string> warnings;
  std::vector<ClientServer> servers;
};

/// True when the JSON document starting at `json` (the text after any leading text lines)
/// is a client/server output: it has a `client_stats` member before `jobs`. Looks at the
/// bytes given only (the caller reads the start of the file).
bool IsClientStatsText(const std::string& json);

/// Reads the client/server output at `path` with `layout`'s buckets (fio3's). Entries are
/// grouped by server (hostname and port); each server's entries come round by round, its
/// jobs in the same order each round; a round's report ends at the latest of its jobs'
/// `job_start + job_runtime` (job_start from the client's `timestamp` where fio lacks it).
/// Errors name the file and the byte offset or the `client_stats[N]` entry, and say what was
/// expected: a cut document, entries without `hostname`/`job_runtime` (another layout), a
/// server whose entries go backwards, an `All clients` entry that is not the sum of the
/// entries before it.
Status ReadClientStats(const std::string& path, const BucketLayout& layout, ClientStatsRun* out);

/// The increments of one server's reports (the status-stream model: differences of the
/// cumulative bins, the first report of a job covering its job_runtime). Errors name the
/// file and the entry.
Status ClientServerUpdates(const ClientStatsRun& run, const ClientServer& server,
                           const BucketLayout& layout, std::vector<StatusUpdate>* updates);

}  // namespace fiohist
