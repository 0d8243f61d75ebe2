// Unit tests of the HTTP client's offline parts: gzip, secrets, failure descriptions, URL checks.
#include "es/http_client.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace fiohist {
namespace {

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
  o.base_url = "ftp://x";
  EXPECT_FALSE(HttpClient::Create(o, &client).ok());
  o.base_url = "http://elastic:hunter2@127.0.0.1:9200";
  Status st = HttpClient::Create(o, &client);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message().find("hunter2"), std::string::npos);
  o.base_url = "http://127.0.0.1:9200/";
  ASSERT_TRUE(HttpClient::Create(o, &client).ok());
  EXPECT_EQ(client->base_url(), "http://127.0.0.1:9200");
  o.base_url = "https://127.0.0.1:9200/path@x";  // '@' after the host is fine
  EXPECT_TRUE(HttpClient::Create(o, &client).ok());
}

TEST(HttpClient, ConnectionRefusedIsATransportError) {
  std::unique_ptr<HttpClient> client;
  HttpOptions o;
  o.base_url = "http://127.0.0.1:1";
  o.auth.user = "u";
  o.auth.password = "pw-should-not-show";
  ASSERT_TRUE(HttpClient::Create(o, &client).ok());
  HttpResult r = client->Request("GET", "/_cluster/health");
  EXPECT_EQ(r.status, 0);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("request to http://127.0.0.1:1 failed"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find("pw-should-not-show"), std::string::npos);
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
