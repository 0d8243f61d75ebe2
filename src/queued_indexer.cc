#include "queued_indexer.h"

#include <deque>
#include <utility>

namespace fiohist {

QueuedIndexer::QueuedIndexer(BulkIndexer* indexer, const BulkOptions& options)
    : indexer_(indexer), queue_(2 * options.max_batch_docs, 2 * options.max_batch_bytes) {
  sender_ = std::thread([this] {
    std::deque<BulkAction> taken;
    while (queue_.PopAll(&taken)) {
      for (; !taken.empty(); taken.pop_front()) {
        Status st = indexer_->Add(std::move(taken.front()));
        if (!st.ok()) {
          // Fatal (the server is gone): stop the producer. The indexer counts what it is
          // still handed as not sent, so the summary says how many did not go in.
          queue_.Fail(st);
          for (taken.pop_front(); !taken.empty(); taken.pop_front()) {
            indexer_->Add(std::move(taken.front()));
          }
          return;
        }
      }
    }
  });
}

QueuedIndexer::~QueuedIndexer() {
  if (!finished_) Finish();
}

Status QueuedIndexer::Add(BulkAction action) { return queue_.Push(std::move(action)); }

Status QueuedIndexer::Finish() {
  if (!finished_) {
    finished_ = true;
    queue_.Close();
    sender_.join();
  }
  return indexer_->Finish();
}

}  // namespace fiohist
