// A small HTTP client for talking to Elasticsearch: one libcurl easy handle reused for every
// request (keep-alive), explicit results, optional gzip request bodies.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"

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
  std::string base_url;   ///< e.g. "http://127.0.0.1:9200"; no credentials in it
  HttpAuth auth;          ///< credentials, if any
  std::string ca_file;    ///< PEM CA bundle for TLS; empty: the system's
  bool insecure = false;  ///< skip TLS verification (only when asked for)
  bool gzip = false;      ///< gzip request bodies (Content-Encoding: gzip)
  long connect_timeout_ms = 10000;
  long timeout_ms = 120000;  ///< whole request, including the response
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

/// One keep-alive connection to one server. Not thread-safe: one client per thread.
class HttpClient {
 public:
  /// Prepares a client for `options`; fails on an unusable URL (or one with credentials in it).
  static Status Create(HttpOptions options, std::unique_ptr<HttpClient>* out);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  /// Sends `method` (GET, POST, PUT, DELETE, HEAD) to base_url + `path` (which starts with
  /// '/', query string included) with `body` (may be empty).
  HttpResult Request(std::string_view method, std::string_view path, std::string_view body = {},
                     std::string_view content_type = "application/json");

  /// A second client with the same settings and a connection of its own (for another
  /// thread).
  Status Clone(std::unique_ptr<HttpClient>* out) const { return Create(options_, out); }

  /// The server's URL (without credentials), for messages.
  const std::string& base_url() const { return options_.base_url; }
  /// The request timeout in milliseconds.
  long timeout_ms() const { return options_.timeout_ms; }

 private:
  explicit HttpClient(HttpOptions options);
  struct Handle;
  HttpOptions options_;
  std::unique_ptr<Handle> handle_;
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
