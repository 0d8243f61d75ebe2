// A small HTTP client for talking to Elasticsearch: one libcurl easy handle reused for every
// request (keep-alive), explicit results, optional gzip request bodies, and failover over the
// nodes of a cluster: a request that gets no answer from one node is sent to the next live one.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "es/node_pool.h"

namespace fiohist {

/// How to authenticate. Secrets live only here and in the curl handle: they are never put in
/// a URL, an argv or a message.
struct HttpAuth {
  std::string user;      ///< basic auth user; empty: no basic auth
  std::string password;  ///< basic auth password
  std::string api_key;   ///< Elasticsearch API key (base64 "id:key"), sent as `ApiKey ...`
};

/// Connection settings of an HttpClient.
struct HttpOptions {
  /// The nodes of one cluster, e.g. {"http://127.0.0.1:9200"}; no credentials in them.
  std::vector<std::string> urls;
  HttpAuth auth;          ///< credentials, if any
  std::string ca_file;    ///< PEM CA bundle for TLS; empty: the system's
  bool insecure = false;  ///< skip TLS verification (only when asked for)
  bool gzip = false;      ///< gzip request bodies (Content-Encoding: gzip)
  long connect_timeout_ms = 10000;
  long timeout_ms = 120000;  ///< whole request, including the response
  long dead_node_ms = 30000;  ///< how long a node that gave no answer is skipped
  /// Told (once per node going down, whichever client saw it) which node failed, why, and
  /// which one the request went to next: e.g. printed on stderr.
  std::function<void(const std::string& message)> on_failover;
};

/// What one request produced: a transport `error` (then `status` is 0), or an HTTP status and
/// its body.
struct HttpResult {
  long status = 0;
  std::string body;
  std::string error;  ///< non-empty when no HTTP response arrived (refused, reset, timeout...)

  /// True for a 2xx response.
  bool ok() const { return error.empty() && status >= 200 && status < 300; }
};

/// One keep-alive connection to one node of a cluster at a time. A transport error (refused,
/// reset, timeout: no HTTP answer) marks the node dead for HttpOptions::dead_node_ms and sends
/// the same request to the next live node; 502/503/504 answers are tried once on each other
/// node too (a node cut off from the cluster answers 503 while the others work); any other
/// HTTP answer is the result. Not thread-safe: one client per thread; clones share which
/// nodes are dead.
class HttpClient {
 public:
  /// Prepares a client for `options`; fails on no URL, an unusable URL, or one with
  /// credentials in it.
  static Status Create(HttpOptions options, std::unique_ptr<HttpClient>* out);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  /// Sends `method` (GET, POST, PUT, DELETE, HEAD) to a node's URL + `path` (which starts with
  /// '/', query string included) with `body` (may be empty), failing over as the class says.
  /// Every request fiohist makes is idempotent (deterministic ids), so re-sending one whose
  /// answer was lost is safe.
  HttpResult Request(std::string_view method, std::string_view path, std::string_view body = {},
                     std::string_view content_type = "application/json");

  /// A second client with the same settings and a connection of its own (for another
  /// thread), sharing this one's view of which nodes are dead, starting on the next node.
  Status Clone(std::unique_ptr<HttpClient>* out) const;

  /// The URL (without credentials) of the node requests go to now, for messages.
  const std::string& base_url() const { return pool_->url(current_); }
  /// Every node's URL, comma-separated, for messages.
  std::string all_urls() const;
  /// The request timeout in milliseconds.
  long timeout_ms() const { return options_.timeout_ms; }

 private:
  explicit HttpClient(HttpOptions options);
  HttpResult RequestOnce(const std::string& base_url, std::string_view method,
                         std::string_view path, std::string_view body,
                         std::string_view content_type);
  struct Handle;
  HttpOptions options_;
  std::shared_ptr<NodePool> pool_;
  size_t current_ = 0;
  std::unique_ptr<Handle> handle_;
  // What RequestOnce's transport error was: nothing listens there, or the name does not
  // resolve (the user's URL, more likely than a node that went away).
  enum class Unreachable { kNo, kRefused, kUnknownHost } unreachable_ = Unreachable::kNo;
};

/// Compresses `in` as a gzip stream (RFC 1952) into `out`.
Status GzipCompress(std::string_view in, std::string* out);

/// Reads a secret: the first line of `file` if `file` is not empty, else the environment
/// variable `env_name` if set. `*found` tells whether either had one. Errors never quote the
/// secret.
Status ReadSecret(const std::string& file, const char* env_name, std::string* secret, bool* found);

/// A one-line human description of a failed request: the transport error, or the HTTP status
/// with Elasticsearch's `error.type: error.reason` when the body has them (never credentials).
std::string DescribeHttpFailure(const HttpResult& result);

}  // namespace fiohist
