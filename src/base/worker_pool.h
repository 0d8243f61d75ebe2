// A fixed set of threads for data-parallel loops over logs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fiohist {

/// Runs ParallelFor loops on `threads` threads (the caller is one of them). Threads live
/// as long as the pool, so a loop per quantum costs a wake-up, not a thread start.
class WorkerPool {
 public:
  /// `threads` <= 0 means one per hardware thread.
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return static_cast<int>(threads_.size()) + 1; }

  /// Calls fn(worker, i) for every i in [0, n), spread over the workers (worker in
  /// [0, size())); returns when all calls have returned.
  void ParallelFor(size_t n, const std::function<void(int, size_t)>& fn);

 private:
  void Run(int worker);
  void Work(int worker);

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int, size_t)>* fn_ = nullptr;
  size_t n_ = 0;
  std::atomic<size_t> next_{0};
  long long generation_ = 0;
  int busy_ = 0;
  bool stop_ = false;
};

}  // namespace fiohist
