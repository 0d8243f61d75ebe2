// Reading a run's bucket documents back from Elasticsearch / OpenSearch, in time order.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "es/http_client.h"
#include "log/direction_names.h"
#include "stats/histogram_replay.h"

namespace fiohist {

/// Which bucket documents to read.
struct BucketQuery {
  std::string run;
  /// Empty: all.
  std::vector<std::string> hosts, jobs;
  /// [from_ms, to_ms) on the documents' start.
  int64_t from_ms = std::numeric_limits<int64_t>::min();
  int64_t to_ms = std::numeric_limits<int64_t>::max();
};

/// What the first document says about the run.
struct BucketRunFacts {
  std::string layout;  ///< e.g. fio3-g29-c0
  int64_t quantum_ms = 0;
  /// The phase of the stored quanta (their start modulo quantum_ms): a coarser read-back
  /// quantum aligns its windows to it, as the push's coarser resolutions did.
  int64_t grid_origin_ms = 0;
  bool absolute = true;  ///< @timestamp is ISO text (else epoch-0 relative milliseconds)
  std::string scope;     ///< the finest scope stored, whose documents are read
  /// Job scope: every (host, job) of the run that the query's host and job filters keep,
  /// over the whole run (the logs that coverage is measured against), with 1 log each.
  std::map<std::pair<std::string, std::string>, int> series_logs;
  /// What the direction slots are called: a smallfile run's ops (its documents' `op`).
  DirectionNames directions;
};

/// What a read shows a progress line while it runs (read from another thread).
struct BucketReadProgress {
  /// Documents read so far.
  std::atomic<uint64_t> documents{0};
  /// Documents the read will take (0 until the server has counted them).
  std::atomic<uint64_t> total{0};
};

/// Pages through one run's bucket documents of its finest stored scope (job, else host,
/// else cluster) and its real directions (`all` only where nothing else was stored),
/// sorted by time, host, job and direction (search_after), decoding each in any form
/// fiohist wrote (BucketDecoder). A job's document of a window of quanta
/// (kWindowBucketVersion) is handed on quantum by quantum, the window's documents of all
/// jobs interleaved as per-quantum documents came (time, host, job).
class BucketReader {
 public:
  BucketReader(HttpClient* client, std::string index_prefix)
      : client_(client), prefix_(std::move(index_prefix)) {}
  /// Calls `begin` once before the first document, then `each` per document in order.
  Status Read(const BucketQuery& query, const std::function<Status(const BucketRunFacts&)>& begin,
              const std::function<Status(const StoredQuantum&)>& each);
  /// Documents read by the last Read().
  uint64_t documents() const { return documents_; }
  /// Makes Read() count its documents into `*progress` (may be null: none), after asking
  /// the server how many there are (one count over the same indices and filter).
  void ReportProgress(BucketReadProgress* progress) { progress_ = progress; }

 private:
  HttpClient* client_;
  std::string prefix_;
  uint64_t documents_ = 0;
  BucketReadProgress* progress_ = nullptr;
};

}  // namespace fiohist
