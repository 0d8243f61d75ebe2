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
  EXPECT_EQ(opts.url, "http://127.0.0.1:9");
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
