// Integration tests of fiohist's Elasticsearch code against real nodes started by es-node.sh
// (see CMakeLists.txt for the fixtures and their environment). The same tests run against
// Elasticsearch and OpenSearch: FIOHIST_ENGINE says which one the node is, for the few
// expectations that differ (error type names, what the server calls itself). No mocks: faults the node cannot
// produce come from fault_proxy.py, a real HTTP proxy in front of the node.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "es/bulk_indexer.h"
#include "es/change_point_index.h"
#include "es/http_client.h"
#include "es/index_setup.h"
#include "es/index_templates.h"
#include "es/ndjson_dir.h"
#include "es/run_catalog.h"
#include "es/server_probe.h"

namespace fiohist {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? "" : v;
}

// "elasticsearch" or "opensearch": the engine ctest started for this test.
std::string Engine() {
  const std::string e = Env("FIOHIST_ENGINE");
  return e.empty() ? "elasticsearch" : e;
}

// How the engine calls itself (GET /), which fiohist must find out from the server.
std::string EngineProduct() { return Engine() == "opensearch" ? "OpenSearch" : "Elasticsearch"; }

// The error type of a value that does not fit its mapping: Elasticsearch 8 renamed it.
std::string ParsingExceptionType() {
  return Engine() == "opensearch" ? "mapper_parsing_exception" : "document_parsing_exception";
}

std::unique_ptr<HttpClient> Client(const std::string& url, HttpOptions options = {}) {
  options.urls = {url};
  std::unique_ptr<HttpClient> client;
  Status st = HttpClient::Create(options, &client);
  EXPECT_TRUE(st.ok()) << st.message();
  return client;
}

// A lowercase prefix unique to this test and process, so tests can share a node.
std::string TestPrefix() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string("it-") + info->test_suite_name() + "-" + info->name() + "-" +
                     std::to_string(getpid());
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

// A percentile document of `run` (fields as in docs/documents.md).
std::string PctileDoc(const std::string& run, int i, const std::string& host = "h1") {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.StartObject();
  w.Key("@timestamp");
  w.Int64(1700000000000LL + i * 1000LL);
  w.Key("end");
  w.Int64(1700000001000LL + i * 1000LL);
  w.Key("elapsed_s");
  w.Double(i);
  w.Key("quantum_s");
  w.Double(1.0);
  w.Key("run");
  w.String(run);
  w.Key("scope");
  w.String("host");
  w.Key("host");
  w.String(host);
  w.Key("direction");
  w.String("read");
  w.Key("samples");
  w.Double(100.0 + i);
  w.Key("p99");
  w.Double(1234.5 + i);
  w.Key("p99_9");
  w.Double(2345.5 + i);
  w.EndObject();
  return b.GetString();
}

std::string RunDoc(const std::string& run, int quanta) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.StartObject();
  w.Key("@timestamp");
  w.Int64(1700000000000LL);
  w.Key("start");
  w.Int64(1700000000000LL);
  w.Key("end");
  w.Int64(1700000000000LL + quanta * 1000LL);
  w.Key("duration_s");
  w.Double(quanta);
  w.Key("run");
  w.String(run);
  w.Key("hosts");
  w.StartArray();
  w.String("h1");
  w.String("h2");
  w.EndArray();
  w.EndObject();
  return b.GetString();
}

BulkAction IndexAction(const std::string& index, const std::string& id, std::string source) {
  BulkAction a;
  a.index = index;
  a.id = id;
  a.source = std::move(source);
  return a;
}

uint64_t Count(HttpClient* client, const std::string& index, const std::string& query = "") {
  client->Request("POST", "/" + index + "/_refresh?ignore_unavailable=true");
  HttpResult r = client->Request("POST", "/" + index + "/_count?ignore_unavailable=true",
                                 query.empty() ? "{}" : query);
  EXPECT_TRUE(r.ok()) << DescribeHttpFailure(r);
  rapidjson::Document d;
  d.Parse(r.body.c_str());
  if (d.HasParseError() || !d.HasMember("count")) return ~0ull;
  return d["count"].GetUint64();
}

// The monthly index of `kind` of a run starting at 2026-11-23T14:00:00Z.
std::string TestIndex(const std::string& prefix, DocKind kind) {
  return IndexName(prefix, kind, 1795442400000);
}

BulkOptions FastRetries() {
  BulkOptions o;
  o.initial_backoff_s = 0.05;
  o.max_backoff_s = 0.5;
  return o;
}

// Indexes `n` percentile docs of `run` (ids run-i) plus its run document.
BulkStats IndexRun(HttpClient* client, const std::string& prefix, const std::string& run, int n,
                   BulkOptions options = FastRetries()) {
  BulkIndexer bulk(client, options);
  for (int i = 0; i < n; ++i) {
    bulk.Add(IndexAction(TestIndex(prefix, DocKind::kPercentiles), run + "-" + std::to_string(i),
                         PctileDoc(run, i)));
  }
  bulk.Add(IndexAction(TestIndex(prefix, DocKind::kRun), run, RunDoc(run, n)));
  Status st = bulk.Finish();
  EXPECT_TRUE(st.ok()) << st.message();
  return bulk.stats();
}

// Test fixture: a client on the main node, a unique prefix with templates installed, and
// cleanup of the prefix's indices and templates afterwards.
class EsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    url_ = Env("FIOHIST_ES_URL");
    ASSERT_FALSE(url_.empty()) << "FIOHIST_ES_URL is not set (run through ctest -L es)";
    client_ = Client(url_);
    prefix_ = TestPrefix();
    IndexSetup setup(client_.get(), prefix_);
    Status st = setup.InstallTemplates("", IndexSettings(), &templates_);
    ASSERT_TRUE(st.ok()) << st.message();
    st = setup.CreateRunIndices(1795442400000, &templates_);
    ASSERT_TRUE(st.ok()) << st.message();
  }
  void TearDown() override {
    if (!client_) return;
    client_->Request("DELETE", "/" + AllIndexPatterns(prefix_) + "?ignore_unavailable=true");
    for (DocKind k : {DocKind::kPercentiles, DocKind::kBuckets, DocKind::kRun}) {
      client_->Request("DELETE", "/_index_template/" + IndexBaseName(prefix_, k));
    }
    client_->Request("DELETE", "/_index_template/" + ChangeIndexName(prefix_));
  }
  std::string url_;
  std::unique_ptr<HttpClient> client_;
  std::string prefix_;
  TemplateReport templates_;
};

// Runs a shell command line, capturing stdout and stderr apart.
struct CommandResult {
  int code = -1;
  std::string out;
  std::string err;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

CommandResult RunCli(const std::string& args, const std::string& env = "") {
  std::string base = std::filesystem::temp_directory_path().string() + "/fiohist-es-cli-" +
                     std::to_string(getpid());
  std::string cmd =
      env + " " FIOHIST_ES_CLI " " + args + " >" + base + ".out 2>" + base + ".err </dev/null";
  int status = std::system(cmd.c_str());
  CommandResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = Slurp(base + ".out");
  r.err = Slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

// fault_proxy.py in front of `upstream`, for the lifetime of the object.
class FaultProxy {
 public:
  explicit FaultProxy(const std::string& upstream, const std::string& tls_cert = "",
                      const std::string& tls_key = "") {
    int in_pipe[2], out_pipe[2];
    if (pipe(in_pipe) != 0 || pipe(out_pipe) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in_pipe[0], 0);
      dup2(out_pipe[1], 1);
      close(in_pipe[1]);
      close(out_pipe[0]);
      std::string script = Env("FIOHIST_FAULT_PROXY");
      std::vector<const char*> args = {"python3",        script.c_str(), "--upstream",
                                       upstream.c_str(), "--port",       "0",
                                       "--max-seconds",  "600",          "--stop-on-stdin-eof"};
      if (!tls_cert.empty()) {
        args.insert(args.end(), {"--tls-cert", tls_cert.c_str(), "--tls-key", tls_key.c_str()});
      }
      args.push_back(nullptr);
      execvp("python3", const_cast<char* const*>(args.data()));
      _exit(127);
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    stdin_fd_ = in_pipe[1];
    std::string line;
    char c;
    while (read(out_pipe[0], &c, 1) == 1 && c != '\n') line += c;
    close(out_pipe[0]);
    std::string scheme = tls_cert.empty() ? "http" : "https";
    if (line.rfind("PORT ", 0) == 0) url_ = scheme + "://127.0.0.1:" + line.substr(5);
    HttpOptions control;
    control.insecure = true;  // the test's own control channel
    control_ = Client(url_.empty() ? "http://127.0.0.1:1" : url_, control);
  }
  ~FaultProxy() {
    if (stdin_fd_ >= 0) close(stdin_fd_);
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  const std::string& url() const { return url_; }
  void Arm(const std::string& spec_json) {
    HttpResult r = control_->Request("POST", "/__proxy/fault", spec_json);
    ASSERT_TRUE(r.ok()) << DescribeHttpFailure(r);
  }
  long Stat(const char* key) {
    HttpResult r = control_->Request("GET", "/__proxy/stats");
    rapidjson::Document d;
    d.Parse(r.body.c_str());
    if (d.HasParseError() || !d.HasMember(key)) return -1;
    return d[key].GetInt64();
  }

 private:
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  std::string url_;
  std::unique_ptr<HttpClient> control_;
};

// ---------------------------------------------------------------------------------------------

using Bulk = EsTest;

TEST_F(Bulk, IndexAndCount) {
  BulkOptions options = FastRetries();
  options.max_batch_docs = 300;  // several requests
  BulkStats stats = IndexRun(client_.get(), prefix_, "run-a", 1000, options);
  EXPECT_EQ(stats.indexed, 1001u);
  EXPECT_EQ(stats.failed, 0u);
  EXPECT_EQ(stats.retried, 0u);
  EXPECT_GE(stats.requests, 4u);
  EXPECT_EQ(Count(client_.get(), TestIndex(prefix_, DocKind::kPercentiles)), 1000u);
  EXPECT_EQ(Count(client_.get(), TestIndex(prefix_, DocKind::kRun)), 1u);
}

TEST_F(Bulk, ReindexSameIdsIsIdempotent) {
  IndexRun(client_.get(), prefix_, "run-a", 500);
  BulkStats again = IndexRun(client_.get(), prefix_, "run-a", 500);
  EXPECT_EQ(again.indexed, 501u);  // overwritten, not added
  EXPECT_EQ(again.failed, 0u);
  EXPECT_EQ(Count(client_.get(), AllIndexPatterns(prefix_)), 501u);
}

TEST_F(Bulk, MappingErrorIsReportedPerItem) {
  BulkIndexer bulk(client_.get(), FastRetries());
  std::string index = TestIndex(prefix_, DocKind::kPercentiles);
  bulk.Add(IndexAction(index, "good-1", PctileDoc("run-a", 1)));
  bulk.Add(IndexAction(index, "bad-1",
                       R"({"@timestamp":1700000000000,"run":"run-a","samples":"not-a-number"})"));
  bulk.Add(IndexAction(index, "good-2", PctileDoc("run-a", 2)));
  EXPECT_TRUE(bulk.Finish().ok());
  const BulkStats& s = bulk.stats();
  EXPECT_EQ(s.indexed, 2u);
  EXPECT_EQ(s.failed, 1u);
  EXPECT_EQ(s.retried, 0u);  // a 400 item is not retried
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].id, "bad-1");
  EXPECT_EQ(s.errors[0].status, 400);
  EXPECT_NE(s.errors[0].reason.find(ParsingExceptionType()), std::string::npos)
      << s.errors[0].reason;
  EXPECT_NE(s.errors[0].reason.find("samples"), std::string::npos) << s.errors[0].reason;
  EXPECT_EQ(Count(client_.get(), index), 2u);
}

TEST_F(Bulk, GzipRequestBodies) {
  HttpOptions options;
  options.gzip = true;
  std::unique_ptr<HttpClient> gz = Client(url_, options);
  BulkStats stats = IndexRun(gz.get(), prefix_, "run-gz", 2000);
  EXPECT_EQ(stats.indexed, 2001u);
  EXPECT_EQ(stats.failed, 0u);
  EXPECT_EQ(Count(client_.get(), AllIndexPatterns(prefix_)), 2001u);
}

// ---------------------------------------------------------------------------------------------

using Admin = EsTest;

TEST_F(Admin, SetupUsesTheFallbackWithoutHistogram) {
  // The integ-test build lacks the histogram type (es-node.sh): the fallback must be in place.
  EXPECT_FALSE(templates_.histogram_supported);
  EXPECT_EQ(templates_.installed.size(), 5u);  // and the change points' template
  EXPECT_EQ(templates_.created.size(), 4u);    // pctiles, buckets, runs, stalls
  HttpResult r =
      client_->Request("GET", "/" + TestIndex(prefix_, DocKind::kBuckets) + "/_mapping");
  ASSERT_TRUE(r.ok()) << DescribeHttpFailure(r);
  EXPECT_NE(r.body.find(R"("latency":{"type":"object","enabled":false})"), std::string::npos)
      << r.body.substr(0, 500);
  // A second setup is harmless.
  IndexSetup setup(client_.get(), prefix_);
  TemplateReport again;
  ASSERT_TRUE(setup.InstallTemplates("", IndexSettings(), &again).ok());
  ASSERT_TRUE(setup.CreateRunIndices(1795442400000, &again).ok());
  EXPECT_TRUE(again.created.empty());
  // The default replicas: auto_expand_replicas 0-1 (green on one node, a replica on many).
  r = client_->Request("GET", "/" + TestIndex(prefix_, DocKind::kBuckets) +
                                  "/_settings?flat_settings=true");
  EXPECT_NE(r.body.find(R"("index.auto_expand_replicas":"0-1")"), std::string::npos) << r.body;
}

TEST_F(Admin, SettingsChosenAtSetupStay) {
  IndexSetup setup(client_.get(), prefix_);
  TemplateReport report;
  IndexSettings chosen;
  ASSERT_TRUE(ParseIndexSettings(true, 2, "0", &chosen).ok());
  ASSERT_TRUE(setup.InstallTemplates("", chosen, &report).ok());
  // A later install without settings (what push does) keeps them.
  ASSERT_TRUE(setup.InstallTemplates("", IndexSettings(), &report).ok());
  ASSERT_TRUE(setup.CreateRunIndices(1700000000000, &report).ok());  // 2023-11
  HttpResult r = client_->Request("GET", "/" + IndexName(prefix_, DocKind::kPercentiles,
                                                         1700000000000) +
                                             "/_settings?flat_settings=true");
  EXPECT_NE(r.body.find(R"("index.number_of_shards":"2")"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find(R"("index.number_of_replicas":"0")"), std::string::npos) << r.body;
  r = client_->Request("GET", "/" + IndexName(prefix_, DocKind::kRun, 1700000000000) +
                                  "/_settings?flat_settings=true");
  EXPECT_NE(r.body.find(R"("index.number_of_shards":"1")"), std::string::npos) << r.body;
}

TEST_F(Admin, ProbeServerNamesTheEngine) {
  // Found out from the server (the URL says nothing): the Elasticsearch integ-test build has no
  // GET / and answers GET /_nodes/_local; OpenSearch answers GET /.
  ServerInfo info;
  ProbeServer(client_.get(), &info);
  EXPECT_EQ(info.product, EngineProduct());
  EXPECT_FALSE(info.version.empty());
  EXPECT_EQ(info.source, Engine() == "opensearch" ? "GET /" : "GET /_nodes/_local");
}

TEST_F(Admin, ListRuns) {
  IndexRun(client_.get(), prefix_, "run-a", 30);
  IndexRun(client_.get(), prefix_, "run-b", 10);
  RunCatalog catalog(client_.get(), prefix_);
  std::vector<StoredRun> runs;
  ASSERT_TRUE(catalog.ListRuns(&runs).ok());
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].run, "run-a");
  EXPECT_EQ(runs[0].documents, 31u);
  EXPECT_EQ(runs[0].hosts, (std::vector<std::string>{"h1", "h2"}));
  EXPECT_DOUBLE_EQ(runs[0].duration_s, 30.0);
  EXPECT_EQ(runs[0].start, "2023-11-14T22:13:20.000Z");
  EXPECT_TRUE(runs[0].has_run_document);
  EXPECT_EQ(runs[1].documents, 11u);
}

TEST_F(Admin, DeleteOneRunLeavesAnother) {
  IndexRun(client_.get(), prefix_, "run-a", 700);
  IndexRun(client_.get(), prefix_, "run-b", 300);
  // Buckets too, so all three indices hold both runs.
  BulkIndexer bulk(client_.get(), FastRetries());
  for (const char* run : {"run-a", "run-b"}) {
    for (int i = 0; i < 5; ++i) {
      bulk.Add(IndexAction(TestIndex(prefix_, DocKind::kBuckets),
                           std::string(run) + "-b" + std::to_string(i),
                           std::string(R"({"run":")") + run +
                               R"(","bucket_index":[1,2],"bucket_count":[1.5,2.5],)"
                               R"("latency":{"values":[1.0,2.0],"counts":[1500,2500]}})"));
    }
  }
  ASSERT_TRUE(bulk.Finish().ok());
  RunCatalog catalog(client_.get(), prefix_);
  DeleteReport report;
  BulkOptions options = FastRetries();
  options.max_batch_docs = 100;
  Status st = catalog.DeleteRun("run-a", options, &report);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_FALSE(report.used_delete_by_query);  // the integ-test build has none
  EXPECT_EQ(report.deleted, 706u);
  EXPECT_EQ(report.failed, 0u);
  EXPECT_EQ(report.remaining, 0u);
  uint64_t left = 0;
  ASSERT_TRUE(catalog.CountRunDocuments("run-b", &left).ok());
  EXPECT_EQ(left, 306u);
  EXPECT_EQ(Count(client_.get(), AllIndexPatterns(prefix_)), 306u);
}

TEST_F(Admin, RunNamesAreMatchedExactly) {
  IndexRun(client_.get(), prefix_, "run", 5);
  IndexRun(client_.get(), prefix_, "run-2", 5);
  IndexRun(client_.get(), prefix_, "Run", 5);
  RunCatalog catalog(client_.get(), prefix_);
  DeleteReport report;
  ASSERT_TRUE(catalog.DeleteRun("run", FastRetries(), &report).ok());
  EXPECT_EQ(report.deleted, 6u);
  EXPECT_EQ(Count(client_.get(), AllIndexPatterns(prefix_)), 12u);
}

// ---------------------------------------------------------------------------------------------

using Cli = EsTest;

TEST_F(Cli, LoadDirectory) {
  std::string dir = std::filesystem::temp_directory_path().string() + "/" + prefix_;
  NdjsonDirWriter writer(dir, 64 * 1024);
  ASSERT_TRUE(writer.Open().ok());
  for (int i = 0; i < 1500; ++i) {
    // The files name the default prefix; load maps them to --index-prefix.
    ASSERT_TRUE(writer
                    .Add(IndexAction("fiohist-pctiles", "run-l-" + std::to_string(i),
                                     PctileDoc("run-l", i)))
                    .ok());
  }
  ASSERT_TRUE(writer.Add(IndexAction("fiohist-runs", "run-l", RunDoc("run-l", 1500))).ok());
  ASSERT_TRUE(writer.Close().ok());
  EXPECT_GT(writer.files(), 3);
  CommandResult r = RunCli("load " + dir + " --es-url " + url_ + " --index-prefix " + prefix_ +
                           " --batch-docs 400");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "indexed 1501, retried 0, failed 0\n");
  EXPECT_EQ(Count(client_.get(), AllIndexPatterns(prefix_)), 1501u);
  // Loading again overwrites.
  r = RunCli("load " + dir + " --es-url " + url_ + " --index-prefix " + prefix_ + " --gzip");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Count(client_.get(), AllIndexPatterns(prefix_)), 1501u);
  std::filesystem::remove_all(dir);
}

TEST_F(Cli, LoadReportsFailedDocumentsWithExitCode) {
  std::string dir = std::filesystem::temp_directory_path().string() + "/" + prefix_;
  NdjsonDirWriter writer(dir);
  ASSERT_TRUE(writer.Open().ok());
  ASSERT_TRUE(writer.Add(IndexAction("fiohist-pctiles", "ok", PctileDoc("r", 1))).ok());
  ASSERT_TRUE(
      writer.Add(IndexAction("fiohist-pctiles", "bad", R"({"run":"r","samples":"x"})")).ok());
  ASSERT_TRUE(writer.Close().ok());
  CommandResult r = RunCli("load " + dir + " --es-url " + url_ + " --index-prefix " + prefix_);
  EXPECT_EQ(r.code, 3);  // finished, but a document failed
  EXPECT_EQ(r.out, "indexed 1, retried 0, failed 1\n");
  EXPECT_NE(r.err.find(prefix_ + "-pctiles/bad: HTTP 400: " + ParsingExceptionType()),
            std::string::npos)
      << r.err;
  std::filesystem::remove_all(dir);
}

TEST_F(Cli, SetupRunsAndDelete) {
  std::string common = " --es-url " + url_ + " --index-prefix " + prefix_;
  CommandResult r = RunCli("setup" + common);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("histogram field type: no"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("no `histogram` field type"), std::string::npos) << r.err;
  // What the server is and what was decided from it, said once.
  EXPECT_NE(r.err.find("fiohist: server: " + EngineProduct() + " "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("server: "), r.err.rfind("server: ")) << r.err;
  IndexRun(client_.get(), prefix_, "run-x", 20);
  IndexRun(client_.get(), prefix_, "run-y", 20);
  r = RunCli("runs --json" + common);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(R"({"run":"run-x","start":"2023-11-14T22:13:20.000Z")"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(R"("hosts":["h1","h2"],"documents":21,"has_run_document":true})"),
            std::string::npos)
      << r.out;
  r = RunCli("runs" + common);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("run-y"), std::string::npos) << r.out;
  r = RunCli("delete --run run-x" + common);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "deleted 21, retried 0, failed 0 (search + bulk delete)\n");
  r = RunCli("delete --run run-x" + common);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no documents of run 'run-x'"), std::string::npos) << r.err;
  EXPECT_EQ(Count(client_.get(), AllIndexPatterns(prefix_)), 21u);
}

TEST_F(Cli, UnreachableServerFailsClearly) {
  CommandResult r = RunCli("setup --es-url http://127.0.0.1:1 --timeout 5");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("request to http://127.0.0.1:1 failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("onnect"), std::string::npos) << r.err;  // "Connection refused"/"connect"
  r = RunCli("runs", "FIOHIST_ES_URL=");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no Elasticsearch URL"), std::string::npos) << r.err;
  r = RunCli("delete --es-url " + url_);  // no --run
  EXPECT_EQ(r.code, 2);
  r = RunCli("runs --es-url " + url_ + " --index-prefix Bad/Prefix");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("index prefix"), std::string::npos) << r.err;

  // The library: every item fails after bounded retries, with the reason kept.
  std::unique_ptr<HttpClient> dead = Client("http://127.0.0.1:1");
  BulkOptions options = FastRetries();
  options.max_attempts = 3;
  BulkIndexer bulk(dead.get(), options);
  for (int i = 0; i < 10; ++i) bulk.Add(IndexAction("x", std::to_string(i), PctileDoc("r", i)));
  bulk.Finish();
  EXPECT_EQ(bulk.stats().failed, 10u);
  EXPECT_EQ(bulk.stats().retried, 20u);
  ASSERT_FALSE(bulk.stats().errors.empty());
  EXPECT_NE(bulk.stats().errors[0].reason.find("gave up after 3 attempts"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------

using Faults = EsTest;

TEST_F(Faults, TooLargeSplitsTheBatch) {
  FaultProxy proxy(url_);
  ASSERT_FALSE(proxy.url().empty());
  proxy.Arm(R"({"mode":"too_large","max_bytes":40000})");
  std::unique_ptr<HttpClient> via = Client(proxy.url());
  BulkOptions options = FastRetries();
  options.max_batch_bytes = 300000;
  BulkStats stats = IndexRun(via.get(), prefix_, "run-413", 3000, options);
  EXPECT_EQ(stats.indexed, 3001u);
  EXPECT_EQ(stats.failed, 0u);
  EXPECT_GT(stats.splits, 0u);
  EXPECT_LE(proxy.Stat("max_bulk_bytes"), 300000);
  EXPECT_GT(proxy.Stat("split_413"), 0);
  EXPECT_EQ(Count(client_.get(), AllIndexPatterns(prefix_)), 3001u);
}

TEST_F(Faults, OneDocumentTooLargeFailsAlone) {
  FaultProxy proxy(url_);
  proxy.Arm(R"({"mode":"too_large","max_bytes":2000})");
  std::unique_ptr<HttpClient> via = Client(proxy.url());
  BulkIndexer bulk(via.get(), FastRetries());
  std::string index = TestIndex(prefix_, DocKind::kPercentiles);
  bulk.Add(IndexAction(index, "small", PctileDoc("r", 1)));
  bulk.Add(IndexAction(index, "huge", R"({"run":"r","note":")" + std::string(5000, 'x') + R"("})"));
  bulk.Add(IndexAction(index, "small2", PctileDoc("r", 2)));
  EXPECT_TRUE(bulk.Finish().ok());
  EXPECT_EQ(bulk.stats().indexed, 2u);
  EXPECT_EQ(bulk.stats().failed, 1u);
  ASSERT_EQ(bulk.stats().errors.size(), 1u);
  EXPECT_EQ(bulk.stats().errors[0].id, "huge");
  EXPECT_EQ(bulk.stats().errors[0].status, 413);
}

TEST_F(Faults, DroppedConnectionsAreRetriedWithoutDuplicates) {
  FaultProxy proxy(url_);
  // The first two bulk requests reach the node, but their answers are lost; then two more are
  // dropped before forwarding.
  proxy.Arm(R"({"mode":"drop_after","count":2})");
  proxy.Arm(R"({"mode":"drop","count":2})");
  std::unique_ptr<HttpClient> via = Client(proxy.url());
  BulkOptions options = FastRetries();
  options.max_batch_docs = 250;
  BulkStats stats = IndexRun(via.get(), prefix_, "run-drop", 1000, options);
  EXPECT_EQ(stats.indexed, 1001u);
  EXPECT_EQ(stats.failed, 0u);
  EXPECT_GE(stats.retried, 250u * 4);
  EXPECT_EQ(proxy.Stat("injected"), 4);
  EXPECT_EQ(Count(client_.get(), AllIndexPatterns(prefix_)), 1001u);
}

TEST_F(Faults, SlowResponsesTimeOutAndAreRetried) {
  FaultProxy proxy(url_);
  proxy.Arm(R"({"mode":"delay","seconds":3,"count":1})");
  HttpOptions http;
  http.timeout_ms = 1000;
  std::unique_ptr<HttpClient> via = Client(proxy.url(), http);
  auto start = std::chrono::steady_clock::now();
  BulkStats stats = IndexRun(via.get(), prefix_, "run-slow", 200);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(stats.indexed, 201u);
  EXPECT_EQ(stats.failed, 0u);
  EXPECT_EQ(stats.retried, 201u);
  EXPECT_LT(took, 2.9);  // did not wait for the slow answer
  // Give the delayed, forwarded request time to land before counting (it is an overwrite).
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  EXPECT_EQ(Count(client_.get(), AllIndexPatterns(prefix_)), 201u);
}

TEST_F(Faults, ServiceUnavailableIsRetried) {
  FaultProxy proxy(url_);
  proxy.Arm(R"({"mode":"status","status":503,"count":3})");
  proxy.Arm(R"({"mode":"status","status":429,"count":2})");
  std::unique_ptr<HttpClient> via = Client(proxy.url());
  BulkStats stats = IndexRun(via.get(), prefix_, "run-503", 100);
  EXPECT_EQ(stats.indexed, 101u);
  EXPECT_EQ(stats.failed, 0u);
  EXPECT_EQ(stats.retried, 5u * 101);
  EXPECT_EQ(Count(client_.get(), AllIndexPatterns(prefix_)), 101u);
}

TEST_F(Faults, PersistentFailureGivesUpWithinBounds) {
  FaultProxy proxy(url_);
  proxy.Arm(R"({"mode":"status","status":503,"count":-1})");
  std::unique_ptr<HttpClient> via = Client(proxy.url());
  BulkOptions options = FastRetries();
  options.max_attempts = 4;
  auto start = std::chrono::steady_clock::now();
  BulkIndexer bulk(via.get(), options);
  for (int i = 0; i < 50; ++i) {
    bulk.Add(
        IndexAction(TestIndex(prefix_, DocKind::kPercentiles), std::to_string(i), PctileDoc("r", i)));
  }
  bulk.Finish();
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(bulk.stats().failed, 50u);
  EXPECT_EQ(bulk.stats().retried, 150u);
  EXPECT_EQ(bulk.stats().requests, 4u);
  EXPECT_LT(took, 5.0);
  ASSERT_FALSE(bulk.stats().errors.empty());
  EXPECT_NE(bulk.stats().errors[0].reason.find("HTTP 503"), std::string::npos)
      << bulk.stats().errors[0].reason;

  // The time bound also holds: attempts are plenty, 1.5 s of retrying is not.
  options.max_attempts = 1000;
  options.max_retry_time_s = 1.5;
  start = std::chrono::steady_clock::now();
  BulkIndexer timed(via.get(), options);
  timed.Add(IndexAction(TestIndex(prefix_, DocKind::kPercentiles), "t", PctileDoc("r", 1)));
  timed.Finish();
  took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(timed.stats().failed, 1u);
  EXPECT_LT(took, 4.0);
  EXPECT_NE(timed.stats().errors[0].reason.find("retry time limit"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------

TEST(TinyQueue, RejectionsAreRetriedAndNothingLost) {
  std::string url = Env("FIOHIST_ES_TINYQUEUE_URL");
  ASSERT_FALSE(url.empty());
  std::unique_ptr<HttpClient> admin = Client(url);
  std::string index = TestPrefix() + "-spread";
  // Many shards: one _bulk fans out into many shard-level writes on a 1-thread, 1-slot pool.
  HttpResult r = admin->Request("PUT", "/" + index,
                                R"({"settings":{"number_of_shards":8,"number_of_replicas":0}})");
  ASSERT_TRUE(r.ok()) << DescribeHttpFailure(r);
  const int kThreads = 3, kDocs = 2000;
  std::vector<BulkStats> stats(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::unique_ptr<HttpClient> client = Client(url);
      // Three writers fight for one slot, on a machine that may be busy with other tests:
      // backoff long enough to desynchronise them, and many attempts.
      BulkOptions options;
      options.max_batch_docs = 500;
      options.initial_backoff_s = 0.1;
      options.max_backoff_s = 2.0;
      options.max_attempts = 60;
      options.max_retry_time_s = 240;
      BulkIndexer bulk(client.get(), options);
      for (int i = 0; i < kDocs; ++i) {
        bulk.Add(
            IndexAction(index, std::to_string(t) + "-" + std::to_string(i), PctileDoc("run-t", i)));
      }
      bulk.Finish();
      stats[t] = bulk.stats();
    });
  }
  for (std::thread& th : threads) th.join();
  uint64_t indexed = 0, retried = 0, failed = 0;
  for (const BulkStats& s : stats) {
    indexed += s.indexed;
    retried += s.retried;
    failed += s.failed;
    for (const BulkItemError& e : s.errors) ADD_FAILURE() << e.id << ": " << e.reason;
  }
  std::printf("tiny queue: indexed %llu, retried %llu, failed %llu\n",
              static_cast<unsigned long long>(indexed), static_cast<unsigned long long>(retried),
              static_cast<unsigned long long>(failed));
  EXPECT_EQ(indexed, uint64_t{kThreads} * kDocs);
  EXPECT_EQ(failed, 0u);
  EXPECT_GT(retried, 0u) << "the tiny write queue produced no 429: the test proves nothing";
  EXPECT_EQ(Count(admin.get(), index), uint64_t{kThreads} * kDocs);
  admin->Request("DELETE", "/" + index);
}

// ---------------------------------------------------------------------------------------------

class Security : public ::testing::Test {
 protected:
  void SetUp() override {
    url_ = Env("FIOHIST_ES_SECURE_URL");
    user_ = Env("FIOHIST_ES_SECURE_USER");
    password_file_ = Env("FIOHIST_ES_SECURE_PASSWORD_FILE");
    ASSERT_FALSE(url_.empty());
    std::ifstream in(password_file_);
    std::getline(in, password_);
    ASSERT_FALSE(password_.empty());
  }
  std::string url_, user_, password_file_, password_;
};

TEST_F(Security, NoCredentialsIs401) {
  CommandResult r = RunCli("runs --es-url " + url_);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("HTTP 401 (authentication failed"), std::string::npos) << r.err;
}

TEST_F(Security, WrongPasswordFailsWithoutShowingIt) {
  const std::string wrong = "Wr0ng-s3cret-value";
  CommandResult r =
      RunCli("setup --es-url " + url_ + " --user " + user_, "FIOHIST_ES_PASSWORD=" + wrong);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("HTTP 401"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(wrong), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find(wrong), std::string::npos) << r.out;
  // No password at all: a clear message before any request.
  r = RunCli("runs --es-url " + url_ + " --user " + user_, "FIOHIST_ES_PASSWORD=");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no password for user"), std::string::npos) << r.err;
  // Credentials in the URL are refused (they would leak into messages and history).
  r = RunCli("runs --es-url http://" + user_ + ":" + wrong + "@127.0.0.1:1");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.find(wrong), std::string::npos) << r.err;
}

TEST_F(Security, RightPasswordAndApiKeysWork) {
  std::string prefix = TestPrefix();
  CommandResult r = RunCli("setup --es-url " + url_ + " --user " + user_ + " --password-file " +
                           password_file_ + " --index-prefix " + prefix);
  EXPECT_EQ(r.code, 0) << r.err;
  r = RunCli("runs --es-url " + url_ + " --user " + user_ + " --index-prefix " + prefix,
             "FIOHIST_ES_PASSWORD=" + password_);
  EXPECT_EQ(r.code, 0) << r.err;

  // A made-up API key is refused by the node itself.
  r = RunCli("runs --es-url " + url_ + " --index-prefix " + prefix,
             "FIOHIST_ES_API_KEY=bm9wZTpub3Bl");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("HTTP 401"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("bm9wZTpub3Bl"), std::string::npos) << r.err;

  // The integ-test build cannot create API keys (the .security index needs analysis-common),
  // so a proxy in front of the plain node checks that the right key goes out as
  // "Authorization: ApiKey KEY", from the environment and from --api-key-file.
  FaultProxy proxy(Env("FIOHIST_ES_URL"));
  proxy.Arm(R"({"mode":"api_key","key":"a2V5aWQ6c2VjcmV0","path":"/"})");
  r = RunCli("runs --es-url " + proxy.url() + " --index-prefix " + prefix,
             "FIOHIST_ES_API_KEY=a2V5aWQ6c2VjcmV0");
  EXPECT_EQ(r.code, 0) << r.err;
  std::string key_file = testing::TempDir() + "/" + prefix + ".key";
  { std::ofstream(key_file) << "a2V5aWQ6c2VjcmV0\n"; }
  r = RunCli(
      "runs --es-url " + proxy.url() + " --api-key-file " + key_file + " --index-prefix " + prefix,
      "FIOHIST_ES_API_KEY=");
  EXPECT_EQ(r.code, 0) << r.err;
  r = RunCli("runs --es-url " + proxy.url() + " --index-prefix " + prefix,
             "FIOHIST_ES_API_KEY=d3Jvbmc=");
  EXPECT_EQ(r.code, 1);
  std::remove(key_file.c_str());

  HttpOptions basic;
  basic.auth.user = user_;
  basic.auth.password = password_;
  std::unique_ptr<HttpClient> client = Client(url_, basic);
  BulkStats stats = IndexRun(client.get(), prefix, "run-k", 50);
  EXPECT_EQ(stats.indexed, 51u);
  client->Request("DELETE", "/" + AllIndexPatterns(prefix) + "?ignore_unavailable=true");
  for (DocKind k : {DocKind::kPercentiles, DocKind::kBuckets, DocKind::kRun}) {
    client->Request("DELETE", "/_index_template/" + IndexBaseName(prefix, k));
  }
}

TEST_F(Security, TlsVerificationCaFileAndInsecure) {
  // A self-signed certificate for 127.0.0.1, served by the proxy in front of the plain node.
  std::string dir = testing::TempDir() + "/fiohist-tls-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::string cert = dir + "/cert.pem", key = dir + "/key.pem";
  std::string openssl =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1"
      " -addext subjectAltName=IP:127.0.0.1 -keyout " +
      key + " -out " + cert + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(openssl.c_str()), 0) << "openssl could not make a certificate";
  FaultProxy proxy(Env("FIOHIST_ES_URL"), cert, key);
  ASSERT_EQ(proxy.url().rfind("https://", 0), 0u) << proxy.url();
  std::string prefix = " --index-prefix " + TestPrefix();
  CommandResult r = RunCli("runs --es-url " + proxy.url() + prefix);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("certificate"), std::string::npos) << r.err;
  r = RunCli("runs --es-url " + proxy.url() + " --ca-file " + cert + prefix);
  EXPECT_EQ(r.code, 0) << r.err;
  r = RunCli("runs --es-url " + proxy.url() + " --insecure" + prefix);
  EXPECT_EQ(r.code, 0) << r.err;
  r = RunCli("runs --es-url " + proxy.url() + " --ca-file " + dir + "/missing.pem" + prefix);
  EXPECT_EQ(r.code, 1);
  std::filesystem::remove_all(dir);
}

TEST_F(Security, BulkWithWrongPasswordIsFatal) {
  HttpOptions bad;
  bad.auth.user = user_;
  bad.auth.password = "definitely-wrong";
  std::unique_ptr<HttpClient> client = Client(url_, bad);
  BulkOptions options = FastRetries();
  options.max_batch_docs = 10;
  BulkIndexer bulk(client.get(), options);
  Status st;
  for (int i = 0; i < 100 && st.ok(); ++i) {
    st = bulk.Add(IndexAction("it-secure-x", std::to_string(i), PctileDoc("r", i)));
  }
  Status finished = bulk.Finish();
  EXPECT_FALSE(finished.ok());
  EXPECT_NE(finished.message().find("HTTP 401"), std::string::npos) << finished.message();
  EXPECT_EQ(finished.message().find("definitely-wrong"), std::string::npos);
  EXPECT_EQ(bulk.stats().requests, 1u);  // no hammering after a 401
  EXPECT_EQ(bulk.stats().indexed, 0u);
}

}  // namespace
}  // namespace fiohist
