#include "es/es_sender.h"

namespace fiohist {

Status CheckBulkOptions(const BulkOptions& options) {
  if (options.concurrent_requests < 1 || options.concurrent_requests > 64) {
    return Status::Error("--concurrency must be between 1 and 64");
  }
  return Status();
}

Status EsSender::Create(HttpClient* client, const BulkOptions& options,
                        std::function<void(const BulkStats&)> progress,
                        std::unique_ptr<EsSender>* out) {
  Status checked = CheckBulkOptions(options);
  if (!checked.ok()) return checked;
  std::unique_ptr<EsSender> sender(new EsSender());
  std::vector<BulkIndexer*> lanes;
  for (int i = 0; i < options.concurrent_requests; ++i) {
    HttpClient* lane_client = client;
    if (i > 0) {
      sender->extra_clients_.emplace_back();
      Status st = client->Clone(&sender->extra_clients_.back());
      if (!st.ok()) return st;
      lane_client = sender->extra_clients_.back().get();
    }
    sender->indexers_.push_back(std::make_unique<BulkIndexer>(lane_client, options));
    lanes.push_back(sender->indexers_.back().get());
  }
  sender->queue_ = std::make_unique<QueuedIndexer>(lanes, options, std::move(progress));
  *out = std::move(sender);
  return Status();
}

}  // namespace fiohist
