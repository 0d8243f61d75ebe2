// Indexing from a thread of its own, so the caller keeps producing documents.
#pragma once

#include <thread>

#include "action_queue.h"
#include "bulk_indexer.h"
#include "status.h"

namespace fiohist {

/// Feeds a BulkIndexer from a sending thread: the caller goes on computing documents
/// (push) or reading files (load) while earlier batches are on the wire, so the server
/// never waits for the client between requests. About two batches are queued.
class QueuedIndexer {
 public:
  /// Starts sending through `indexer` (not owned; must outlive this object).
  QueuedIndexer(BulkIndexer* indexer, const BulkOptions& options);
  /// Finishes (sends what is queued) if Finish() was not called.
  ~QueuedIndexer();
  QueuedIndexer(const QueuedIndexer&) = delete;
  QueuedIndexer& operator=(const QueuedIndexer&) = delete;

  /// Queues `action`, waiting while the queue is full. Returns the first fatal sending
  /// error once there was one (the action is then not queued).
  Status Add(BulkAction action);
  /// Sends everything queued, then finishes the indexer (last batch, refresh). The
  /// indexer's stats() are complete afterwards.
  Status Finish();

 private:
  BulkIndexer* indexer_;
  ActionQueue queue_;
  std::thread sender_;
  bool finished_ = false;
};

}  // namespace fiohist
