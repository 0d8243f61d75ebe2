// Unit tests of the HTTP client: gzip, secrets, failure descriptions, URL checks, and failover
// between nodes over real loopback sockets (a closed port, tiny HTTP answerers).
#include "es/http_client.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

namespace fiohist {
namespace {

// A loopback TCP socket bound to a free port (listening when `listen_too`).
int BoundSocket(bool listen_too, int* port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  *port = ntohs(addr.sin_port);
  if (listen_too) {
    EXPECT_EQ(listen(fd, 16), 0);
  }
  return fd;
}

// The URL of a port nobody listens on (bound then closed: connections are refused).
std::string ClosedPortUrl() {
  int port = 0;
  close(BoundSocket(false, &port));
  return "http://127.0.0.1:" + std::to_string(port);
}

// A real HTTP/1.1 answerer on loopback: every request gets `status` and the body `name`
// (Connection: close), so a test sees which node served it; status 0: the connection is
// closed once the request is read, without an answer. Stops in the destructor.
class TinyServer {
 public:
  TinyServer(std::string name, int status) : name_(std::move(name)), status_(status) {
    fd_ = BoundSocket(true, &port_);
    thread_ = std::thread([this] { Serve(); });
  }
  ~TinyServer() {
    stop_ = true;
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int requests() const { return requests_; }

 private:
  void Serve() {
    while (!stop_) {
      int c = accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      std::string request;
      char buf[4096];
      ssize_t n;
      while (request.find("\r\n\r\n") == std::string::npos && (n = read(c, buf, sizeof buf)) > 0) {
        request.append(buf, static_cast<size_t>(n));
      }
      ++requests_;
      if (status_ == 0) {  // the node dies with the request in flight: no answer at all
        close(c);
        continue;
      }
      std::string answer = "HTTP/1.1 " + std::to_string(status_) +
                           " X\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                           "Content-Length: " +
                           std::to_string(name_.size()) + "\r\n\r\n" + name_;
      EXPECT_EQ(write(c, answer.data(), answer.size()), static_cast<ssize_t>(answer.size()));
      close(c);
    }
  }
  std::string name_;
  int status_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

std::string Gunzip(const std::string& in) {
  z_stream zs{};
  EXPECT_EQ(inflateInit2(&zs, 15 + 16), Z_OK);
  std::string out(in.size() * 20 + 1024, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  inflateEnd(&zs);
  return out;
}

TEST(Gzip, RoundTrip) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "{\"index\":{\"_id\":\"" + std::to_string(i) + "\"}}\n";
  std::string gz;
  ASSERT_TRUE(GzipCompress(text, &gz).ok());
  EXPECT_LT(gz.size(), text.size() / 5);
  EXPECT_EQ(static_cast<unsigned char>(gz[0]), 0x1f);  // gzip magic
  EXPECT_EQ(static_cast<unsigned char>(gz[1]), 0x8b);
  EXPECT_EQ(Gunzip(gz), text);
  ASSERT_TRUE(GzipCompress("", &gz).ok());
  EXPECT_EQ(Gunzip(gz), "");
}

TEST(Secrets, FileWinsOverEnvironment) {
  std::string path = testing::TempDir() + "/fiohist-secret-test";
  { std::ofstream(path) << "s3cret\r\nsecond line\n"; }
  setenv("FIOHIST_TEST_SECRET", "from-env", 1);
  std::string secret;
  bool found = false;
  ASSERT_TRUE(ReadSecret(path, "FIOHIST_TEST_SECRET", &secret, &found).ok());
  EXPECT_TRUE(found);
  EXPECT_EQ(secret, "s3cret");
  ASSERT_TRUE(ReadSecret("", "FIOHIST_TEST_SECRET", &secret, &found).ok());
  EXPECT_EQ(secret, "from-env");
  unsetenv("FIOHIST_TEST_SECRET");
  ASSERT_TRUE(ReadSecret("", "FIOHIST_TEST_SECRET", &secret, &found).ok());
  EXPECT_FALSE(found);
  Status st = ReadSecret(path + ".missing", "X", &secret, &found);
  EXPECT_FALSE(st.ok());
  { std::ofstream(path) << "\n"; }
  EXPECT_FALSE(ReadSecret(path, "X", &secret, &found).ok());
  std::remove(path.c_str());
}

TEST(HttpClient, RefusesBadUrlsAndCredentialsInUrls) {
  std::unique_ptr<HttpClient> client;
  HttpOptions o;
  o.urls = {"ftp://x"};
  EXPECT_FALSE(HttpClient::Create(o, &client).ok());
  o.urls = {"http://elastic:hunter2@127.0.0.1:9200"};
  Status st = HttpClient::Create(o, &client);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message().find("hunter2"), std::string::npos);
  o.urls = {"http://127.0.0.1:9200/"};
  ASSERT_TRUE(HttpClient::Create(o, &client).ok());
  EXPECT_EQ(client->base_url(), "http://127.0.0.1:9200");
  o.urls = {"https://127.0.0.1:9200/path@x"};  // '@' after the host is fine
  EXPECT_TRUE(HttpClient::Create(o, &client).ok());
}

TEST(HttpClient, ConnectionRefusedIsATransportError) {
  std::unique_ptr<HttpClient> client;
  HttpOptions o;
  o.urls = {"http://127.0.0.1:1"};
  o.auth.user = "u";
  o.auth.password = "pw-should-not-show";
  ASSERT_TRUE(HttpClient::Create(o, &client).ok());
  HttpResult r = client->Request("GET", "/_cluster/health");
  EXPECT_EQ(r.status, 0);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("request to http://127.0.0.1:1 failed"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find("pw-should-not-show"), std::string::npos);
}

TEST(HttpClientFailover, RefusedNodeIsSkippedAndSaidOnce) {
  TinyServer live("live", 200);
  const std::string dead = ClosedPortUrl();
  std::vector<std::string> notices;
  HttpOptions o;
  o.urls = {dead, live.url()};
  o.on_failover = [&notices](const std::string& m) { notices.push_back(m); };
  std::unique_ptr<HttpClient> client;
  ASSERT_TRUE(HttpClient::Create(o, &client).ok());
  EXPECT_EQ(client->base_url(), dead);  // the first client starts on the first node
  for (int i = 0; i < 3; ++i) {
    HttpResult r = client->Request("GET", "/");
    EXPECT_EQ(r.status, 200) << r.error;
    EXPECT_EQ(r.body, "live");
  }
  EXPECT_EQ(live.requests(), 3);
  EXPECT_EQ(client->base_url(), live.url());
  ASSERT_EQ(notices.size(), 1u);  // once per node going down, not once per request
  EXPECT_NE(notices[0].find("node " + dead + " gave no answer"), std::string::npos) << notices[0];
  EXPECT_NE(notices[0].find("trying " + live.url()), std::string::npos) << notices[0];

  // A clone shares what is known: it starts on the next node and never waits for the dead one.
  std::unique_ptr<HttpClient> clone;
  ASSERT_TRUE(client->Clone(&clone).ok());
  EXPECT_EQ(clone->base_url(), live.url());
  EXPECT_EQ(clone->Request("GET", "/").body, "live");
  EXPECT_EQ(notices.size(), 1u);
}

TEST(HttpClientFailover, RequestInFlightOnANodeThatDiesGoesToTheNext) {
  TinyServer dying("dying", 0), live("live", 200);
  HttpOptions o;
  o.urls = {dying.url(), live.url()};
  std::unique_ptr<HttpClient> client;
  ASSERT_TRUE(HttpClient::Create(o, &client).ok());
  // A _bulk body read by the first node, which then closes without answering: the same
  // request is sent to the next node (ids make a second delivery an overwrite).
  HttpResult r = client->Request("POST", "/_bulk", "{\"index\":{}}\n{}\n", "application/x-ndjson");
  EXPECT_EQ(r.status, 200) << r.error;
  EXPECT_EQ(r.body, "live");
  EXPECT_EQ(dying.requests(), 1);
  EXPECT_EQ(live.requests(), 1);
}

TEST(HttpClientFailover, TriesLiveNodesInRingOrder) {
  TinyServer a("a", 200), b("b", 200);
  HttpOptions o;
  o.urls = {ClosedPortUrl(), ClosedPortUrl(), a.url(), b.url()};
  std::unique_ptr<HttpClient> client;
  ASSERT_TRUE(HttpClient::Create(o, &client).ok());
  EXPECT_EQ(client->Request("GET", "/").body, "a");  // the next after the dead ones
  EXPECT_EQ(client->Request("GET", "/").body, "a");  // and it stays there
  EXPECT_EQ(b.requests(), 0);
}

TEST(HttpClientFailover, UnavailableNodeIsTriedElsewhere) {
  TinyServer busy("busy", 503), live("live", 200);
  HttpOptions o;
  o.urls = {busy.url(), live.url()};
  std::unique_ptr<HttpClient> client;
  ASSERT_TRUE(HttpClient::Create(o, &client).ok());
  HttpResult r = client->Request("POST", "/_bulk", "{}\n");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "live");
  // Other HTTP errors are answers, not failover reasons.
  TinyServer refusing("no", 400);
  o.urls = {refusing.url(), live.url()};
  ASSERT_TRUE(HttpClient::Create(o, &client).ok());
  r = client->Request("GET", "/");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(live.requests(), 1);
  // Every node 503: the last answer is the result.
  o.urls = {busy.url(), busy.url()};
  ASSERT_TRUE(HttpClient::Create(o, &client).ok());
  EXPECT_EQ(client->Request("GET", "/").status, 503);
}

TEST(HttpClientFailover, NoNodeAnswersNamesThemAll) {
  const std::string a = ClosedPortUrl(), b = ClosedPortUrl();
  HttpOptions o;
  o.urls = {a, b};
  std::unique_ptr<HttpClient> client;
  ASSERT_TRUE(HttpClient::Create(o, &client).ok());
  HttpResult r = client->Request("GET", "/");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.error.find("no node of " + a + "," + b + " answered"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("request to " + b + " failed"), std::string::npos) << r.error;
  o.urls = {};
  EXPECT_FALSE(HttpClient::Create(o, &client).ok());
}

TEST(DescribeHttpFailure, UsesElasticsearchErrors) {
  HttpResult r;
  r.status = 401;
  r.body = R"({"error":{"type":"security_exception","reason":"unable to authenticate user [u]"}})";
  EXPECT_EQ(DescribeHttpFailure(r),
            "HTTP 401 (authentication failed: check --user/password or API key): "
            "security_exception: unable to authenticate user [u]");
  r.status = 400;
  r.body = R"({"error":"no handler found for uri [/x] and method [POST]"})";
  EXPECT_EQ(DescribeHttpFailure(r), "HTTP 400: no handler found for uri [/x] and method [POST]");
  r.status = 502;
  r.body = "<html>\nbad gateway</html>";
  EXPECT_EQ(DescribeHttpFailure(r), "HTTP 502: <html> bad gateway</html>");
  r.error = "request to X failed: timeout";
  EXPECT_EQ(DescribeHttpFailure(r), "request to X failed: timeout");
}

}  // namespace
}  // namespace fiohist
