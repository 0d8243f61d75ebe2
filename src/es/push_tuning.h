// What a bulk push changes on the cluster for its duration, and what it learns from the
// cluster's shape: periodic refresh off on the indices written (restored afterwards, also
// after a failure, an interrupt, or by the next push when a killed one could not), primaries
// spread over the data nodes, and lanes per data node.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "es/http_client.h"

namespace fiohist {

/// The value a paused index has: no periodic refresh (Elasticsearch's and OpenSearch's -1).
inline constexpr char kRefreshOff[] = "-1";
/// The most primaries a new index gets from the node count alone (--shards sets any number).
inline constexpr int kMaxShardsFromNodes = 8;
/// `_bulk` requests in flight per data node when --concurrency is not given: the one-node
/// default measured before (bench/README.md: a 2-core node is CPU-bound with two requests in
/// flight), kept per node so a cluster of N gets N times the requests, one lane each node.
inline constexpr int kLanesPerDataNode = 2;

/// The data nodes of the cluster behind `client` (GET /_cluster/health's
/// number_of_data_nodes; 1 when the server does not say).
Status CountDataNodes(HttpClient* client, int* data_nodes);

/// Reads GET /_cluster/health's number_of_data_nodes; false when absent.
bool ParseDataNodes(const std::string& body, int* data_nodes);

/// Primaries of a new pctiles or buckets index on `data_nodes` nodes: one per node, so every
/// node indexes, at most kMaxShardsFromNodes.
int ShardsForNodes(int data_nodes);

/// Reads the answer of GET /INDEX/_settings/index.refresh_interval: each index's own value
/// ("" when it has none and takes the server's default).
std::vector<std::pair<std::string, std::string>> ParseRefreshIntervals(const std::string& body);

/// Turns periodic refresh off on indices for the time of a push and back to what each had.
/// Restore() runs from the destructor too, so any return path restores; a push killed before
/// (SIGKILL, a lost machine) leaves kRefreshOff behind, which the next Pause() of the index
/// takes for the template's value (`template_interval`), never keeps.
class RefreshPause {
 public:
  /// `client` must outlive this object.
  explicit RefreshPause(HttpClient* client) : client_(client) {}
  ~RefreshPause() { Restore(); }
  RefreshPause(const RefreshPause&) = delete;
  RefreshPause& operator=(const RefreshPause&) = delete;

  /// Remembers each index's refresh_interval and sets kRefreshOff. `template_interval` ("" =
  /// the server's default) is what an index found paused already gets back. A server that
  /// refuses the setting (a missing privilege) only costs speed: the returned message says so
  /// and nothing is paused.
  Status Pause(const std::vector<std::string>& indices, const std::string& template_interval);
  /// Puts every paused index back; safe to call twice. Returns the first failure (the index
  /// then keeps kRefreshOff until the next push restores it).
  Status Restore();
  /// Indices found paused by an earlier push that did not restore them.
  const std::vector<std::string>& found_paused() const { return found_paused_; }

 private:
  HttpClient* client_;
  std::vector<std::pair<std::string, std::string>> saved_;  // index, value to restore ("": null)
  std::vector<std::string> found_paused_;
};

/// The refresh_interval the installed template `name` gives new indices ("" when none or
/// unreadable: the server's default).
std::string TemplateRefreshInterval(HttpClient* client, const std::string& name);

}  // namespace fiohist
