// Sends documents to Elasticsearch through `_bulk`: batches bounded by bytes and count, every
// per-item result read, transient failures retried with bounded exponential backoff, a 413
// answered by splitting the batch, and a final `_refresh`.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "es/http_client.h"

namespace fiohist {

/// One `_bulk` action: index a document (create or overwrite by id) or delete one by id.
struct BulkAction {
  enum class Op { kIndex, kDelete };
  Op op = Op::kIndex;
  std::string index;   ///< target index name
  std::string id;      ///< document id; may be empty for kIndex (Elasticsearch assigns one,
                       ///< but then a retry after a lost answer can index it twice)
  std::string source;  ///< the document as one JSON object (kIndex only)
};

/// Limits of a BulkIndexer. Defaults suit a single small node.
struct BulkOptions {
  size_t max_batch_bytes = 5 * 1024 * 1024;  ///< NDJSON bytes per request (one big doc may exceed)
  size_t max_batch_docs = 5000;              ///< actions per request
  int max_attempts = 10;                     ///< sends of one item, the first included
  double initial_backoff_s = 0.1;            ///< delay before the first retry
  double max_backoff_s = 10.0;               ///< cap of one delay
  double max_retry_time_s = 300.0;           ///< give up retrying a batch after this long
  size_t max_kept_errors = 10;               ///< item errors kept with their reasons
  bool refresh = true;                       ///< `_refresh` the touched indices in Finish()
  int concurrent_requests = 2;               ///< requests in flight at once (QueuedIndexer)
};

/// A failed item: where it went and why.
struct BulkItemError {
  std::string index;
  std::string id;
  long status = 0;     ///< HTTP status of the item (0: transport failure)
  std::string reason;  ///< Elasticsearch's `type: reason`, or the transport error
};

/// Counters of a BulkIndexer. `retried` counts item re-sends (an item retried twice counts 2).
struct BulkStats {
  uint64_t indexed = 0;    ///< index actions acknowledged (created or updated)
  uint64_t deleted = 0;    ///< delete actions acknowledged (document found and deleted)
  uint64_t not_found = 0;  ///< delete actions whose document was already gone (not an error)
  uint64_t retried = 0;
  uint64_t failed = 0;
  uint64_t requests = 0;              ///< `_bulk` requests sent (splits and retries included)
  uint64_t splits = 0;                ///< batches halved after a 413
  std::vector<BulkItemError> errors;  ///< the first max_kept_errors failures
};

/// Sends one HTTP request: (method, path with query, body) -> result. HttpClient::Request in
/// production; unit tests substitute a scripted function.
using BulkTransport = std::function<HttpResult(const std::string& method, const std::string& path,
                                               const std::string& body)>;

/// Waits `seconds`; replaced in unit tests so they do not sleep.
using BulkSleeper = std::function<void(double seconds)>;

/// One action's NDJSON lines on their way into a body or a file: a one-line document (every
/// one fiohist makes) follows its action line as it is, without a copy until appended;
/// anything else is encoded (and checked) whole by EncodeBulkAction.
class BulkLines {
 public:
  /// Encodes `action`, which must outlive the next AppendTo(). Fails as EncodeBulkAction.
  Status Set(const BulkAction& action);
  /// Bytes AppendTo() appends.
  size_t size() const { return encoded_.size() + (source_ ? source_->size() + 1 : 0); }
  /// Appends the lines to `out`.
  void AppendTo(std::string* out) const;

 private:
  std::string encoded_;                  // the action line, or the whole action
  const std::string* source_ = nullptr;  // the document appended as it is, or none
};

/// Batches actions into `_bulk` requests. Usage: Add() each action, then Finish() once.
class BulkIndexer {
 public:
  /// An indexer sending through `client` (which must outlive it).
  BulkIndexer(HttpClient* client, BulkOptions options);
  /// An indexer with an explicit transport and sleeper (for tests).
  BulkIndexer(BulkTransport transport, BulkSleeper sleeper, BulkOptions options);

  /// Queues `action`, sending a batch when it is full. A malformed action is counted as failed.
  /// Returns the fatal error once one happened (authentication, a rejected request): from then
  /// on nothing is sent and every action counts as failed.
  Status Add(BulkAction action);
  /// Sends what is queued and refreshes the touched indices. Returns the first fatal error:
  /// a rejected request (401, 403, 400...), or a server that never answered through all the
  /// retries of a batch (then later batches fail at once instead of waiting out theirs).
  Status Finish();
  /// Sends what is queued, without the refresh (Finish() is Drain() then Refresh()).
  /// Returns the first fatal error.
  Status Drain();
  /// Refreshes `indices` (searchable at once instead of after the refresh interval).
  Status Refresh(const std::set<std::string>& indices);
  /// From now on nothing is sent: every action queued or added counts as failed with
  /// `error` (another sender met a fatal error).
  void Abort(const Status& error) {
    if (fatal_.ok()) fatal_ = error;
  }

  /// The indices actions were added for.
  const std::set<std::string>& touched_indices() const { return touched_; }
  /// The counters so far.
  const BulkStats& stats() const { return stats_; }
  /// Called after every batch (for progress display).
  void set_progress(std::function<void(const BulkStats&)> progress) {
    progress_ = std::move(progress);
  }

 private:
  struct Pending {
    size_t begin = 0, end = 0;  // its action and source lines in its batch's body
    std::string index;
    std::string id;
    bool is_delete = false;
    int attempts = 0;
    long last_status = 0;
    bool no_answer = false;  // the last send got no HTTP answer (refused, reset, timeout)
    std::string last_reason;
  };
  // A request body and its items. The lines are written into the body once, as they are
  // added: no copy per item and no second copy for the request (megabytes per lane).
  struct Batch {
    std::string body;
    std::vector<Pending> items;
    std::string_view LinesOf(const Pending& p) const {
      return std::string_view(body).substr(p.begin, p.end - p.begin);
    }
    // Appends `item` with `lines` (copied: a retry or a split of another batch).
    void Take(Pending item, std::string_view lines);
  };

  void Flush();
  void SendWithRetries(Batch batch);
  void SendOnce(Batch batch, Batch* retry);
  void Fail(const Pending& item, long status, const std::string& reason);

  BulkTransport transport_;
  BulkSleeper sleeper_;
  BulkOptions options_;
  BulkStats stats_;
  Batch batch_;
  BulkLines lines_;  // the action being added
  std::set<std::string> touched_;
  Status fatal_;
  std::function<void(const BulkStats&)> progress_;
  uint64_t jitter_state_;
};

/// The `_bulk` query string fiohist uses: only what is needed to judge every item.
extern const char kBulkPath[];

/// The action line of one action (`{"index":{"_index":...,"_id":...}}`, ending in '\n'). Fails
/// for a delete without id or an empty index.
Status EncodeBulkActionLine(const BulkAction& action, std::string* line);

/// True when `source` can follow its action line as it is: it starts with '{' and holds no
/// newline (what fiohist's documents are).
bool IsOneLineObject(const std::string& source);

/// The NDJSON lines of one action (action line, then the source line for kIndex), each ending in
/// '\n'. Fails for a delete without id, an empty index, or a source that is not one JSON object.
Status EncodeBulkAction(const BulkAction& action, std::string* lines);

/// The delay before retry number `retry` (1-based): min(max, initial * 2^(retry-1)), scaled by
/// a jitter factor in [0.5, 1) taken from `unit_random` in [0, 1).
double BackoffSeconds(int retry, const BulkOptions& options, double unit_random);

/// True for statuses worth retrying: 429, 502, 503, 504.
bool IsRetryableStatus(long status);

/// One item of a `_bulk` response.
struct BulkItemResult {
  long status = 0;
  bool has_error = false;
  std::string reason;  ///< `type: reason (caused by: ...)` when has_error
};

/// Parses a `_bulk` response body (filtered by kBulkPath) into its items, in request order.
Status ParseBulkResponse(const std::string& body, std::vector<BulkItemResult>* items);

}  // namespace fiohist
