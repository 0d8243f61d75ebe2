// The nodes of one cluster that an HttpClient and its clones talk to, and which of them are
// believed dead: a node that gave no HTTP answer (refused, reset, timeout) is skipped for a
// while, so every request goes to a live node first, as the official clients do.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

namespace fiohist {

/// Node URLs with a "dead until" time each. Thread-safe: shared by the clients of all lanes.
class NodePool {
 public:
  /// `urls` non-empty; a failed node is skipped for `dead_for`.
  NodePool(std::vector<std::string> urls, std::chrono::milliseconds dead_for);

  /// The number of nodes.
  size_t size() const { return urls_.size(); }
  /// The URL of node `i`.
  const std::string& url(size_t i) const { return urls_[i]; }
  /// A starting node for a new client: successive calls go round the nodes, so the lanes of
  /// a push spread over the cluster.
  size_t NextStart();
  /// The nodes to try for one request, each once: the live ones in ring order from
  /// `preferred`, then the dead ones, the one that failed longest ago first.
  std::vector<size_t> Order(size_t preferred);
  /// Node `i` gave no answer: skip it for a while. True if it was believed alive until now
  /// (the caller then says so once, not once per lane and request).
  bool MarkDead(size_t i);
  /// Node `i` answered: alive again.
  void MarkAlive(size_t i);

 private:
  using Clock = std::chrono::steady_clock;
  std::mutex mu_;
  std::vector<std::string> urls_;
  std::vector<Clock::time_point> dead_until_;  // epoch (zero): alive
  std::chrono::milliseconds dead_for_;
  size_t next_start_ = 0;
};

}  // namespace fiohist
