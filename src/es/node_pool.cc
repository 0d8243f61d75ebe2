#include "es/node_pool.h"

#include <algorithm>

namespace fiohist {

NodePool::NodePool(std::vector<std::string> urls, std::chrono::milliseconds dead_for)
    : urls_(std::move(urls)), dead_until_(urls_.size()), dead_for_(dead_for) {}

size_t NodePool::NextStart() {
  std::lock_guard<std::mutex> lock(mu_);
  return next_start_++ % urls_.size();
}

std::vector<size_t> NodePool::Order(size_t preferred) {
  std::lock_guard<std::mutex> lock(mu_);
  const Clock::time_point now = Clock::now();
  std::vector<size_t> live, dead;
  for (size_t k = 0; k < urls_.size(); ++k) {
    const size_t i = (preferred + k) % urls_.size();
    (dead_until_[i] > now ? dead : live).push_back(i);
  }
  // Of the dead, the one that failed longest ago is the likeliest to be back.
  std::stable_sort(dead.begin(), dead.end(),
                   [this](size_t a, size_t b) { return dead_until_[a] < dead_until_[b]; });
  live.insert(live.end(), dead.begin(), dead.end());
  return live;
}

bool NodePool::MarkDead(size_t i) {
  std::lock_guard<std::mutex> lock(mu_);
  const Clock::time_point now = Clock::now();
  const bool was_alive = dead_until_[i] <= now;
  dead_until_[i] = now + dead_for_;
  return was_alive;
}

void NodePool::MarkAlive(size_t i) {
  std::lock_guard<std::mutex> lock(mu_);
  dead_until_[i] = Clock::time_point();
}

}  // namespace fiohist
