// A bounded hand-over of bulk actions from the pipeline to a sending thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>

#include "bulk_indexer.h"
#include "status.h"

namespace fiohist {

/// Lets `push` compute documents while earlier ones are on the wire: the pipeline Push()es,
/// one sender thread Pop()s. Bounded, so memory stays flat when the server is slower than
/// the pipeline; a failure on the sending side stops the producer at its next Push().
class ActionQueue {
 public:
  explicit ActionQueue(size_t capacity) : capacity_(capacity) {}

  /// Waits for room, then queues `action`. Returns the sender's error once it failed.
  Status Push(BulkAction action);
  /// Waits for an action; false once the queue is closed and empty, or failed.
  bool Pop(BulkAction* action);
  /// No more actions will come.
  void Close();
  /// The sender cannot go on: Push() returns `error` from now on.
  void Fail(Status error);

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<BulkAction> items_;
  size_t capacity_;
  bool closed_ = false;
  Status error_;
};

}  // namespace fiohist
