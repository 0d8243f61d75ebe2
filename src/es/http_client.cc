#include "es/http_client.h"

#include <curl/curl.h>
#include <rapidjson/document.h>
#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <mutex>

namespace fiohist {

namespace {

void GlobalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t AppendToString(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

struct SlistFree {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using Slist = std::unique_ptr<curl_slist, SlistFree>;

bool AddHeader(Slist* list, const std::string& header) {
  curl_slist* next = curl_slist_append(list->get(), header.c_str());
  if (next == nullptr) return false;
  list->release();
  list->reset(next);
  return true;
}

}  // namespace

struct HttpClient::Handle {
  struct CurlFree {
    void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
  };
  std::unique_ptr<CURL, CurlFree> curl;
  char error_buffer[CURL_ERROR_SIZE] = {};
};

HttpClient::HttpClient(HttpOptions options) : options_(std::move(options)) {}

HttpClient::~HttpClient() = default;

namespace {

// Normalises and checks one node URL.
Status CheckUrl(std::string* url) {
  while (!url->empty() && url->back() == '/') url->pop_back();
  if (url->rfind("http://", 0) != 0 && url->rfind("https://", 0) != 0) {
    return Status::Error("Elasticsearch URL '" + *url + "' must start with http:// or https://");
  }
  // Credentials embedded in a URL end up in shell history and messages: refuse them (and do not
  // quote the URL).
  size_t authority = url->find("://") + 3;
  size_t path_start = url->find('/', authority);
  if (url->find('@', authority) < path_start) {
    return Status::Error(
        "Elasticsearch URL must not contain credentials; use --user with FIOHIST_ES_PASSWORD "
        "or --password-file, or --api-key-file");
  }
  return Status();
}

bool IsFailoverStatus(long status) { return status == 502 || status == 503 || status == 504; }

}  // namespace

Status HttpClient::Create(HttpOptions options, std::unique_ptr<HttpClient>* out) {
  if (options.urls.empty()) return Status::Error("no Elasticsearch URL");
  for (std::string& url : options.urls) {
    Status st = CheckUrl(&url);
    if (!st.ok()) return st;
  }
  GlobalInitOnce();
  auto pool = std::make_shared<NodePool>(options.urls,
                                         std::chrono::milliseconds(options.dead_node_ms));
  std::unique_ptr<HttpClient> client(new HttpClient(std::move(options)));
  client->pool_ = std::move(pool);
  client->current_ = client->pool_->NextStart();
  client->handle_ = std::make_unique<Handle>();
  client->handle_->curl.reset(curl_easy_init());
  if (!client->handle_->curl) return Status::Error("cannot initialise libcurl");
  *out = std::move(client);
  return Status();
}

Status HttpClient::Clone(std::unique_ptr<HttpClient>* out) const {
  std::unique_ptr<HttpClient> client(new HttpClient(options_));
  client->pool_ = pool_;
  client->current_ = pool_->NextStart();
  client->handle_ = std::make_unique<Handle>();
  client->handle_->curl.reset(curl_easy_init());
  if (!client->handle_->curl) return Status::Error("cannot initialise libcurl");
  *out = std::move(client);
  return Status();
}

std::string HttpClient::all_urls() const {
  std::string all;
  for (size_t i = 0; i < pool_->size(); ++i) all += (i ? "," : "") + pool_->url(i);
  return all;
}

HttpResult HttpClient::Request(std::string_view method, std::string_view path,
                               std::string_view body, std::string_view content_type) {
  const std::vector<size_t> order = pool_->Order(current_);
  HttpResult result;
  std::string failures;  // every node's error, when none answered
  bool refused = true, unknown_host = true;  // so far, by every node
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t node = order[k];
    unreachable_ = Unreachable::kNo;
    result = RequestOnce(pool_->url(node), method, path, body, content_type);
    const bool no_answer = !result.error.empty();
    refused &= unreachable_ == Unreachable::kRefused;
    unknown_host &= unreachable_ == Unreachable::kUnknownHost;
    if (!no_answer) {
      pool_->MarkAlive(node);
      current_ = node;
      if (!IsFailoverStatus(result.status) || k + 1 == order.size()) return result;
      continue;  // this node is up but cannot serve: another may
    }
    failures += (failures.empty() ? "" : "; ") + result.error;
    const bool newly_dead = pool_->MarkDead(node);
    if (k + 1 == order.size()) break;
    const size_t next = order[k + 1];
    current_ = next;
    if (newly_dead && options_.on_failover) {
      options_.on_failover("node " + pool_->url(node) + " gave no answer (" + result.error +
                           "): trying " + pool_->url(next) + "; " + pool_->url(node) +
                           " is skipped for " + std::to_string(options_.dead_node_ms / 1000) +
                           " s");
    }
  }
  if (order.size() > 1 && !result.error.empty()) {
    result.error = "no node of " + all_urls() + " answered: " + failures;
  }
  // One hint, once, where no node could even be connected to.
  if (!result.error.empty() && refused) {
    result.error += " (is Elasticsearch running there? check --es-url or FIOHIST_ES_URL)";
  } else if (!result.error.empty() && unknown_host) {
    result.error += " (check the host name in --es-url or FIOHIST_ES_URL)";
  }
  return result;
}

HttpResult HttpClient::RequestOnce(const std::string& base_url, std::string_view method,
                                   std::string_view path, std::string_view body,
                                   std::string_view content_type) {
  HttpResult result;
  CURL* curl = handle_->curl.get();
  std::string url = base_url;
  url.append(path);

  std::string compressed;
  if (options_.gzip && !body.empty()) {
    Status st = GzipCompress(body, &compressed);
    if (!st.ok()) {
      result.error = st.message();
      return result;
    }
    body = compressed;
  }

  Slist headers;
  bool headers_ok = true;
  if (!body.empty()) {
    headers_ok &= AddHeader(&headers, "Content-Type: " + std::string(content_type));
    if (options_.gzip) headers_ok &= AddHeader(&headers, "Content-Encoding: gzip");
  }
  headers_ok &= AddHeader(&headers, "Expect:");  // no 100-continue round trip for big bodies
  if (!options_.auth.api_key.empty()) {
    headers_ok &= AddHeader(&headers, "Authorization: ApiKey " + options_.auth.api_key);
  }
  if (!headers_ok) {
    result.error = "out of memory building request headers";
    return result;
  }

  // The handle is reused (keep-alive), so every option that varies is set on every request.
  handle_->error_buffer[0] = '\0';
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, handle_->error_buffer);
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, options_.connect_timeout_ms);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, options_.timeout_ms);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &AppendToString);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &result.body);
  if (!options_.auth.user.empty()) {
    curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
    curl_easy_setopt(curl, CURLOPT_USERNAME, options_.auth.user.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, options_.auth.password.c_str());
  }
  if (!options_.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, options_.ca_file.c_str());
  if (options_.insecure) {
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
  }

  // Reset the method, then set this request's.
  curl_easy_setopt(curl, CURLOPT_NOBODY, 0L);
  curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, nullptr);
  std::string method_str(method);
  if (method_str == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else {
    if (!body.empty() || method_str == "POST" || method_str == "PUT") {
      // Never hand curl a null pointer here: it would then read the body from stdin.
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.empty() ? "" : body.data());
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    }
    if (method_str != "GET" || !body.empty()) {
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method_str.c_str());
    }
  }

  CURLcode code = curl_easy_perform(curl);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, nullptr);
  if (code != CURLE_OK) {
    result.error =
        handle_->error_buffer[0] != '\0' ? handle_->error_buffer : curl_easy_strerror(code);
    result.error = "request to " + base_url + " failed: " + result.error;
    unreachable_ = code == CURLE_COULDNT_CONNECT       ? Unreachable::kRefused
                   : code == CURLE_COULDNT_RESOLVE_HOST ? Unreachable::kUnknownHost
                                                        : Unreachable::kNo;
    result.body.clear();
    return result;
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.status);
  return result;
}

Status GzipCompress(std::string_view in, std::string* out) {
  z_stream zs{};
  // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return Status::Error("zlib: deflateInit2 failed");
  }
  out->resize(deflateBound(&zs, static_cast<uLong>(in.size())) + 32);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data());
  zs.avail_out = static_cast<uInt>(out->size());
  int rc = deflate(&zs, Z_FINISH);
  size_t produced = zs.total_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return Status::Error("zlib: deflate did not finish");
  out->resize(produced);
  return Status();
}

Status ReadSecret(const std::string& file, const char* env_name, std::string* secret, bool* found) {
  *found = false;
  if (!file.empty()) {
    std::ifstream in(file);
    if (!in) return Status::Error("cannot read secret file " + file);
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty()) return Status::Error("secret file " + file + " is empty");
    *secret = line;
    *found = true;
    return Status();
  }
  const char* value = env_name != nullptr ? std::getenv(env_name) : nullptr;
  if (value != nullptr && value[0] != '\0') {
    *secret = value;
    *found = true;
  }
  return Status();
}

std::string DescribeHttpFailure(const HttpResult& result) {
  if (!result.error.empty()) return result.error;
  std::string text = "HTTP " + std::to_string(result.status);
  if (result.status == 401) text += " (authentication failed: check --user/password or API key)";
  if (result.status == 403) text += " (forbidden: the user lacks a privilege)";
  rapidjson::Document doc;
  doc.Parse(result.body.data(), result.body.size());
  if (!doc.HasParseError() && doc.IsObject() && doc.HasMember("error")) {
    const rapidjson::Value& err = doc["error"];
    if (err.IsString()) {
      text += ": " + std::string(err.GetString());
    } else if (err.IsObject()) {
      if (err.HasMember("type") && err["type"].IsString()) {
        text += ": " + std::string(err["type"].GetString());
      }
      if (err.HasMember("reason") && err["reason"].IsString()) {
        text += ": " + std::string(err["reason"].GetString());
      }
    }
  } else if (!result.body.empty()) {
    std::string snippet = result.body.substr(0, 200);
    for (char& c : snippet) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    text += ": " + snippet;
  }
  return text;
}

}  // namespace fiohist
