#include "cli/es_flags.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "es/es_sender.h"

namespace fiohist {
namespace {

TEST(EsFlags, OptionsParseIntoTheStruct) {
  namespace po = boost::program_options;
  EsConnectionOptions opts;
  po::options_description desc;
  AddEsConnectionOptions(&desc, &opts);
  const char* argv[] = {"push",           "--es-url", "http://127.0.0.1:9", "--user", "u", "--gzip",
                        "--index-prefix", "lab",      "--timeout",          "7.5"};
  po::variables_map vm;
  po::store(po::parse_command_line(10, argv, desc), vm);
  po::notify(vm);
  EXPECT_EQ(opts.urls, std::vector<std::string>{"http://127.0.0.1:9"});
  EXPECT_EQ(opts.user, "u");
  EXPECT_TRUE(opts.gzip);
  EXPECT_FALSE(opts.insecure);
  EXPECT_EQ(opts.index_prefix, "lab");
  EXPECT_DOUBLE_EQ(opts.timeout_s, 7.5);
}

TEST(EsFlags, ConcurrencyIsABulkOption) {
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

TEST(EsFlags, MakeClientChecksSecretsWithoutShowingThem) {
  EsConnectionOptions opts;
  opts.urls = {"http://127.0.0.1:9"};
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
  opts.urls = {"http://u:p%40ss@127.0.0.1:9"};
  st = MakeEsClient(opts, &client);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message().find("p%40ss"), std::string::npos);
  opts.urls.clear();
  setenv("FIOHIST_ES_URL", "http://127.0.0.1:7", 1);
  EXPECT_TRUE(ResolveEsUrl(&opts));
  EXPECT_EQ(opts.urls, std::vector<std::string>{"http://127.0.0.1:7"});
  unsetenv("FIOHIST_ES_URL");
}

TEST(EsFlags, SeveralNodesRepeatedCommasOrEnvironment) {
  namespace po = boost::program_options;
  EsConnectionOptions opts;
  po::options_description desc;
  AddEsConnectionOptions(&desc, &opts);
  const char* argv[] = {"push", "--es-url", "http://a:1,http://b:2", "--es-url", "http://c:3/"};
  po::variables_map vm;
  po::store(po::parse_command_line(5, argv, desc), vm);
  po::notify(vm);
  setenv("FIOHIST_ES_URL", "http://env:9", 1);
  ASSERT_TRUE(ResolveEsUrl(&opts));  // the command line wins
  EXPECT_EQ(opts.urls, (std::vector<std::string>{"http://a:1", "http://b:2", "http://c:3/"}));
  EsConnectionOptions env;
  setenv("FIOHIST_ES_URL", " http://x:1, http://y:2 ,", 1);
  ASSERT_TRUE(ResolveEsUrl(&env));
  EXPECT_EQ(env.urls, (std::vector<std::string>{"http://x:1", "http://y:2"}));
  std::unique_ptr<HttpClient> client;
  ASSERT_TRUE(MakeEsClient(env, &client).ok());
  EXPECT_EQ(client->all_urls(), "http://x:1,http://y:2");
  setenv("FIOHIST_ES_URL", ",", 1);
  EsConnectionOptions none;
  EXPECT_FALSE(ResolveEsUrl(&none));
  unsetenv("FIOHIST_ES_URL");
}

TEST(EsFlags, PartitionOptionsAreCheckedBeforeAnyRequest) {
  namespace po = boost::program_options;
  auto check = [](std::vector<const char*> argv, IndexSettings* settings) {
    PartitionOptions opts;
    po::options_description desc;
    AddPartitionOptions(&desc, &opts);
    po::variables_map vm;
    po::store(po::parse_command_line(static_cast<int>(argv.size()), argv.data(), desc), vm);
    po::notify(vm);
    return CheckPartitionOptions(vm, opts, settings);
  };
  IndexSettings s;
  ASSERT_TRUE(check({"setup", "--shards", "3", "--replicas", "1"}, &s).ok());
  EXPECT_EQ(s.shards, 3);
  EXPECT_EQ(s.replicas, "1");
  ASSERT_TRUE(check({"setup"}, &s).ok());
  EXPECT_TRUE(s.empty());
  EXPECT_NE(check({"setup", "--shards", "0"}, &s).message().find("--shards"), std::string::npos);
  EXPECT_NE(check({"setup", "--replicas", "-1"}, &s).message().find("--replicas"),
            std::string::npos);
}

TEST(EsFlags, ParseAge) {
  int64_t s = 0;
  ASSERT_TRUE(ParseAge("--older-than", "90d", &s).ok());
  EXPECT_EQ(s, 90 * 86400);
  ASSERT_TRUE(ParseAge("--older-than", "12h", &s).ok());
  EXPECT_EQ(s, 12 * 3600);
  ASSERT_TRUE(ParseAge("--older-than", "2w", &s).ok());
  EXPECT_EQ(s, 14 * 86400);
  ASSERT_TRUE(ParseAge("--older-than", "30m", &s).ok());
  EXPECT_EQ(s, 1800);
  ASSERT_TRUE(ParseAge("--older-than", "45s", &s).ok());
  EXPECT_EQ(s, 45);
  for (const char* bad : {"", "d", "90", "-3d", "0d", "1.5d", "90 d", "90days", "x9d", "9y"}) {
    Status st = ParseAge("--older-than", bad, &s);
    EXPECT_NE(st.message().find("--older-than: expected a positive age"), std::string::npos)
        << bad;
  }
}

}  // namespace
}  // namespace fiohist
