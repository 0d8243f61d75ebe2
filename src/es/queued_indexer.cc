#include "es/queued_indexer.h"

#include <deque>
#include <utility>

namespace fiohist {
namespace {

// Adds `s` to `*sum`, keeping at most `max_errors` errors.
void AddStats(const BulkStats& s, size_t max_errors, BulkStats* sum) {
  sum->indexed += s.indexed;
  sum->deleted += s.deleted;
  sum->not_found += s.not_found;
  sum->retried += s.retried;
  sum->failed += s.failed;
  sum->requests += s.requests;
  sum->splits += s.splits;
  for (const BulkItemError& e : s.errors) {
    if (sum->errors.size() < max_errors) sum->errors.push_back(e);
  }
}

}  // namespace

QueuedIndexer::QueuedIndexer(std::vector<BulkIndexer*> lanes, const BulkOptions& options,
                             std::function<void(const BulkStats&)> progress)
    : options_(options), progress_(std::move(progress)) {
  for (BulkIndexer* indexer : lanes) lanes_.push_back(std::make_unique<Lane>(indexer, options));
  if (progress_) {
    for (const auto& lane : lanes_) {
      Lane* l = lane.get();
      l->indexer->set_progress([this, l](const BulkStats& s) {
        std::lock_guard<std::mutex> lock(mutex_);
        l->last = s;
        BulkStats sum;
        for (const auto& other : lanes_) AddStats(other->last, 0, &sum);
        progress_(sum);
      });
    }
  }
  for (const auto& lane : lanes_) {
    Lane* l = lane.get();
    l->thread = std::thread([this, l] { Send(l); });
  }
}

QueuedIndexer::~QueuedIndexer() {
  if (!finished_) Finish();
}

void QueuedIndexer::Send(Lane* lane) {
  std::deque<BulkAction> taken;
  bool aborted = false;
  auto abort_if_failed = [&] {
    if (!aborted && failed_.load(std::memory_order_acquire)) {
      lane->indexer->Abort(failure());
      aborted = true;
    }
  };
  while (lane->queue.PopAll(&taken)) {
    for (; !taken.empty(); taken.pop_front()) {
      abort_if_failed();
      // After a fatal error the indexer counts every action as not sent, so the summary
      // says how many did not go in.
      Status st = lane->indexer->Add(std::move(taken.front()));
      if (!st.ok()) FailAll(st);
    }
  }
  abort_if_failed();
  // The lane's last partial batch goes out alongside the other lanes' ones.
  Status st = lane->indexer->Drain();
  if (!st.ok()) FailAll(st);
}

void QueuedIndexer::FailAll(const Status& error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.ok()) return;
    failure_ = error;
  }
  failed_.store(true, std::memory_order_release);
  for (const auto& lane : lanes_) lane->queue.Fail(error);
}

Status QueuedIndexer::Add(BulkAction action) {
  size_t lane = 0;
  if (lanes_.size() > 1) {
    lane = action.id.empty() ? next_lane_++ % lanes_.size()
                             : std::hash<std::string>{}(action.id) % lanes_.size();
  }
  return lanes_[lane]->queue.Push(std::move(action));
}

Status QueuedIndexer::Finish() {
  if (finished_) return finish_status_;
  finished_ = true;
  for (const auto& lane : lanes_) lane->queue.Close();
  for (const auto& lane : lanes_) lane->thread.join();
  finish_status_ = failure();
  if (finish_status_.ok() && options_.refresh && !lanes_.empty()) {
    std::set<std::string> touched;
    for (const auto& lane : lanes_) {
      touched.insert(lane->indexer->touched_indices().begin(),
                     lane->indexer->touched_indices().end());
    }
    finish_status_ = lanes_.front()->indexer->Refresh(touched);
  }
  return finish_status_;
}

BulkStats QueuedIndexer::stats() const {
  BulkStats sum;
  for (const auto& lane : lanes_) AddStats(lane->indexer->stats(), options_.max_kept_errors, &sum);
  return sum;
}

}  // namespace fiohist
