#include "es/action_queue.h"

namespace fiohist {

Status ActionQueue::Push(BulkAction action) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] {
    return items_.empty() || (items_.size() < max_actions_ && bytes_ < max_bytes_) || !error_.ok();
  });
  if (!error_.ok()) return error_;
  bytes_ += Bytes(action);
  items_.push_back(std::move(action));
  changed_.notify_all();
  return Status();
}

bool ActionQueue::PopAll(std::deque<BulkAction>* actions) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !items_.empty() || closed_ || !error_.ok(); });
  if (items_.empty()) return false;
  for (BulkAction& a : items_) actions->push_back(std::move(a));
  items_.clear();
  bytes_ = 0;
  changed_.notify_all();
  return true;
}

void ActionQueue::Close() {
  std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  changed_.notify_all();
}

void ActionQueue::Fail(Status error) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (error_.ok()) error_ = std::move(error);
  changed_.notify_all();
}

}  // namespace fiohist
