// A bounded hand-over of bulk actions from the pipeline to a sending thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>

#include "es/bulk_indexer.h"
#include "base/status.h"

namespace fiohist {

/// Lets `push` compute documents while earlier ones are on the wire: the pipeline Push()es,
/// one sender thread takes them. Bounded by actions and by bytes, so memory stays flat when
/// the server is slower than the pipeline (whatever the batch options); a failure on the
/// sending side stops the producer at its next Push().
class ActionQueue {
 public:
  /// Holds at most `max_actions` actions and about `max_bytes` bytes (one action always
  /// fits, however large).
  explicit ActionQueue(size_t max_actions, size_t max_bytes = SIZE_MAX)
      : max_actions_(max_actions), max_bytes_(max_bytes) {}

  /// Waits for room, then queues `action`. Returns the sender's error once it failed.
  Status Push(BulkAction action);
  /// Waits for actions and moves every queued one to the end of `*actions`: one hand-over
  /// (and one wake-up of a waiting producer) per batch instead of per document. False once
  /// the queue is empty and closed or failed.
  bool PopAll(std::deque<BulkAction>* actions);
  /// No more actions will come.
  void Close();
  /// The sender cannot go on: Push() returns `error` from now on. Actions already queued
  /// stay for PopAll(), so the sender can count them as not sent.
  void Fail(Status error);

 private:
  static size_t Bytes(const BulkAction& a) {
    return a.index.size() + a.id.size() + a.source.size();
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<BulkAction> items_;
  size_t bytes_ = 0;
  size_t max_actions_;
  size_t max_bytes_;
  bool closed_ = false;
  Status error_;
};

}  // namespace fiohist
