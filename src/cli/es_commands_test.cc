// Unit tests of the ES commands' offline helpers: option plumbing, secrets, summaries.
#include "cli/es_commands.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace fiohist {
namespace {

TEST(CmdEs, RewriteIndexPrefix) {
  EXPECT_EQ(RewriteIndexPrefix("fiohist-pctiles", "lab"), "lab-pctiles");
  EXPECT_EQ(RewriteIndexPrefix("other-x-runs", "lab"), "lab-runs");
  EXPECT_EQ(RewriteIndexPrefix("fiohist-buckets", "fiohist"), "fiohist-buckets");
  EXPECT_EQ(RewriteIndexPrefix("unrelated", "lab"), "unrelated");
}

TEST(CmdEs, Summary) {
  BulkStats s;
  s.indexed = 10;
  s.retried = 2;
  s.failed = 1;
  EXPECT_EQ(FormatBulkSummary(s), "indexed 10, retried 2, failed 1");
}

TEST(CmdEs, OptionsParseIntoTheStruct) {
  namespace po = boost::program_options;
  EsConnectionOptions opts;
  po::options_description desc;
  AddEsConnectionOptions(&desc, &opts);
  const char* argv[] = {"push",           "--es-url", "http://127.0.0.1:9", "--user", "u", "--gzip",
                        "--index-prefix", "lab",      "--timeout",          "7.5"};
  po::variables_map vm;
  po::store(po::parse_command_line(10, argv, desc), vm);
  po::notify(vm);
  EXPECT_EQ(opts.url, "http://127.0.0.1:9");
  EXPECT_EQ(opts.user, "u");
  EXPECT_TRUE(opts.gzip);
  EXPECT_FALSE(opts.insecure);
  EXPECT_EQ(opts.index_prefix, "lab");
  EXPECT_DOUBLE_EQ(opts.timeout_s, 7.5);
}

TEST(CmdEs, ConcurrencyIsABulkOption) {
  namespace po = boost::program_options;
  BulkOptions bulk;
  EXPECT_EQ(bulk.concurrent_requests, 2);
  po::options_description desc;
  AddBulkOptions(&desc, &bulk);
  const char* argv[] = {"load", "--concurrency", "4"};
  po::variables_map vm;
  po::store(po::parse_command_line(3, argv, desc), vm);
  po::notify(vm);
  EXPECT_EQ(bulk.concurrent_requests, 4);
  EXPECT_TRUE(CheckBulkOptions(bulk).ok());
  bulk.concurrent_requests = 0;
  EXPECT_NE(CheckBulkOptions(bulk).message().find("--concurrency"), std::string::npos);
  bulk.concurrent_requests = 65;
  EXPECT_FALSE(CheckBulkOptions(bulk).ok());
}

// One lane per request in flight, each on a connection of its own; nothing is sent before
// an action is added (the server here does not exist).
TEST(CmdEs, SenderOpensOneLanePerRequestInFlight) {
  std::unique_ptr<HttpClient> client;
  HttpOptions http;
  http.base_url = "http://127.0.0.1:9";
  ASSERT_TRUE(HttpClient::Create(http, &client).ok());
  BulkOptions bulk;
  bulk.concurrent_requests = 3;
  bulk.refresh = false;
  std::unique_ptr<EsSender> sender;
  ASSERT_TRUE(EsSender::Create(client.get(), bulk, &sender).ok());
  EXPECT_TRUE(sender->queue().Finish().ok());
  EXPECT_EQ(sender->queue().stats().requests, 0u);
  bulk.concurrent_requests = 0;
  EXPECT_FALSE(EsSender::Create(client.get(), bulk, &sender).ok());
}

TEST(CmdEs, MakeClientChecksSecretsWithoutShowingThem) {
  EsConnectionOptions opts;
  opts.url = "http://127.0.0.1:9";
  opts.user = "u";
  unsetenv("FIOHIST_ES_PASSWORD");
  unsetenv("FIOHIST_ES_API_KEY");
  std::unique_ptr<HttpClient> client;
  Status st = MakeEsClient(opts, &client);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("FIOHIST_ES_PASSWORD"), std::string::npos);
  setenv("FIOHIST_ES_PASSWORD", "p@ss", 1);
  EXPECT_TRUE(MakeEsClient(opts, &client).ok());
  unsetenv("FIOHIST_ES_PASSWORD");
  opts.index_prefix = "BAD";
  EXPECT_FALSE(MakeEsClient(opts, &client).ok());
  opts.index_prefix = "fiohist";
  opts.user.clear();
  opts.password_file = "/nonexistent";
  EXPECT_FALSE(MakeEsClient(opts, &client).ok());  // --password-file needs --user
  opts.password_file.clear();
  opts.url = "http://u:p%40ss@127.0.0.1:9";
  st = MakeEsClient(opts, &client);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message().find("p%40ss"), std::string::npos);
  opts.url.clear();
  setenv("FIOHIST_ES_URL", "http://127.0.0.1:7", 1);
  EXPECT_TRUE(ResolveEsUrl(&opts));
  EXPECT_EQ(opts.url, "http://127.0.0.1:7");
  unsetenv("FIOHIST_ES_URL");
}

}  // namespace
}  // namespace fiohist
