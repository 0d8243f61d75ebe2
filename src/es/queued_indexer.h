// Indexing from threads of their own, so the caller keeps producing documents.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "es/action_queue.h"
#include "es/bulk_indexer.h"
#include "base/status.h"

namespace fiohist {

/// Sends bulk actions through one or more lanes, each a BulkIndexer (with a connection of
/// its own) fed by a thread of its own: the caller goes on computing documents (push) or
/// reading files (load) while batches are on the wire, and with several lanes the cluster
/// works on several requests at once (one `_bulk` request keeps few of its write threads
/// busy). An action's lane follows from its id, so actions on one document keep their
/// order. One batch is queued per lane (ready when the lane's request returns); more only
/// held memory (measured: 63 MB more at two per lane on a push of 4096 logs, not faster).
class QueuedIndexer {
 public:
  /// Starts a sending thread per indexer of `lanes` (at least one; not owned, they must
  /// outlive this object). `progress`, when set, gets the summed counters after every batch.
  QueuedIndexer(std::vector<BulkIndexer*> lanes, const BulkOptions& options,
                std::function<void(const BulkStats&)> progress = {});
  /// Finishes (sends what is queued) if Finish() was not called.
  ~QueuedIndexer();
  QueuedIndexer(const QueuedIndexer&) = delete;
  QueuedIndexer& operator=(const QueuedIndexer&) = delete;

  /// Queues `action`, waiting while its lane is full (one caller at a time). Returns the first
  /// fatal sending error once there was one (the action is then not queued).
  Status Add(BulkAction action);
  /// Sends everything queued on every lane, then refreshes every index touched, once (when
  /// options.refresh). Returns the first fatal error. stats() is complete afterwards.
  Status Finish();
  /// The lanes' counters added up (complete once Finish() returned).
  BulkStats stats() const;

 private:
  struct Lane {
    Lane(BulkIndexer* i, const BulkOptions& o)
        : indexer(i), queue(o.max_batch_docs, o.max_batch_bytes) {}
    BulkIndexer* indexer;
    ActionQueue queue;
    std::thread thread;
    BulkStats last;  // the counters of the lane's last batch, for progress
  };

  // The sending loop of `lane`.
  void Send(Lane* lane);
  // A fatal error on one lane: stops the producer and makes every lane count what it
  // still holds as not sent.
  void FailAll(const Status& error);
  Status failure() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return failure_;
  }

  BulkOptions options_;
  std::function<void(const BulkStats&)> progress_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  size_t next_lane_ = 0;      // for actions without an id
  mutable std::mutex mutex_;  // guards failure_ and the lanes' `last`
  Status failure_;
  std::atomic<bool> failed_{false};
  bool finished_ = false;
  Status finish_status_;
};

}  // namespace fiohist
