// The senders of `load` and `push`: several _bulk requests in flight, one lane each.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "base/status.h"
#include "es/bulk_indexer.h"
#include "es/http_client.h"
#include "es/queued_indexer.h"

namespace fiohist {

/// Checks what the option parser cannot (--concurrency 1..64), before any request.
Status CheckBulkOptions(const BulkOptions& options);

/// The senders of `load` and `push`: one BulkIndexer per concurrent request
/// (BulkOptions::concurrent_requests), each with a connection of its own, behind one
/// QueuedIndexer.
class EsSender {
 public:
  /// Connects the lanes (the first through `client`, which must outlive this object).
  /// `progress` is called as batches complete (may be empty).
  static Status Create(HttpClient* client, const BulkOptions& options,
                       std::function<void(const BulkStats&)> progress,
                       std::unique_ptr<EsSender>* out);
  /// The queue to Add() actions to and Finish().
  QueuedIndexer& queue() { return *queue_; }

 private:
  EsSender() = default;
  std::vector<std::unique_ptr<HttpClient>> extra_clients_;
  std::vector<std::unique_ptr<BulkIndexer>> indexers_;
  std::unique_ptr<QueuedIndexer> queue_;  // last: stops its threads before the indexers go
};

}  // namespace fiohist
