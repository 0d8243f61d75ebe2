#include "cli/read_back.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

namespace fiohist {
namespace {

namespace po = boost::program_options;

// Parses `args` as pctiles and report do: the read-back options beside the pipeline's
// --quantum, --host and positional LOGS that ReadBackFromVariables looks at.
Status Parse(std::vector<std::string> args, ReadBackFlags* flags, po::variables_map* vm) {
  po::options_description desc;
  // clang-format off
  desc.add_options()
      ("quantum", po::value<std::string>()->default_value("1s"), "")
      ("host", po::value<std::vector<std::string>>()->composing(), "")
      ("logs", po::value<std::vector<std::string>>(), "");
  // clang-format on
  AddReadBackOptions(&desc, flags);
  po::positional_options_description positional;
  positional.add("logs", -1);
  po::store(po::command_line_parser(args).options(desc).positional(positional).run(), *vm);
  po::notify(*vm);
  return ReadBackFromVariables(vm, flags);
}

TEST(ReadBackFlags, RunTakesHostsAndWindow) {
  ReadBackFlags flags;
  po::variables_map vm;
  const Status s = Parse({"--run", "nightly", "--host", "a", "--host", "b", "--job", "j1", "--from",
                          "2026-11-22T00:08:42Z", "--quantum", "10s"},
                         &flags, &vm);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(flags.read_back);
  EXPECT_TRUE(flags.quantum_given);
  EXPECT_EQ(flags.query.run, "nightly");
  EXPECT_EQ(flags.query.hosts, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(flags.query.jobs, (std::vector<std::string>{"j1"}));
  EXPECT_EQ(vm.count("host"), 0u);  // hosts to read, not FILE=HOST for the pipeline
  EXPECT_EQ(flags.query.from_ms, 1795306122000);
  EXPECT_EQ(flags.query.to_ms, std::numeric_limits<int64_t>::max());
}

TEST(ReadBackFlags, LogsWithoutRun) {
  ReadBackFlags flags;
  po::variables_map vm;
  ASSERT_TRUE(Parse({"a.log", "--host", "x"}, &flags, &vm).ok());
  EXPECT_FALSE(flags.read_back);
  EXPECT_FALSE(flags.quantum_given);
  EXPECT_EQ(vm.count("host"), 1u);
}

TEST(ReadBackFlags, Errors) {
  ReadBackFlags a, b, c;
  po::variables_map va, vb, vc;
  EXPECT_EQ(Parse({"--run", "r", "a.log"}, &a, &va).message(),
            "--run reads bucket documents: give no LOGS");
  EXPECT_EQ(Parse({"--from", "2026-11-22T00:08:42Z", "a.log"}, &b, &vb).message(),
            "--job, --from and --to go with --run (read-back)");
  EXPECT_FALSE(Parse({"--run", "r", "--to", "yesterday"}, &c, &vc).ok());
}

}  // namespace
}  // namespace fiohist
