#include "cli/exit_code.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace fiohist {
namespace {

// Runs `fiohist ARGS...` on the shared epoch2 logs (stdout to a file), returning the exit
// code and what it printed on stderr.
int RunFiohistOnEpoch2(std::vector<std::string> args, std::string* err) {
  const std::string dir = std::string(FIOHIST_TEST_DATA) + "/fio-logs/epoch2/";
  args.insert(args.begin(), "fiohist");
  for (const char* log : {"epoch2_clat_hist.1.log.hostX", "epoch2_clat_hist.1.log.hostY",
                          "epoch2_clat_hist.2.log.hostX", "epoch2_clat_hist.2.log.hostY"}) {
    args.push_back(dir + log);
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  ::testing::internal::CaptureStderr();
  const int rc = RunFiohist(static_cast<int>(argv.size()), argv.data());
  *err = ::testing::internal::GetCapturedStderr();
  return rc;
}

int CountLines(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0;
  return n;
}

TEST(ExitCode, SlaBreachedIsFourWithALinePerBreachingQuantum) {
  const std::string out = ::testing::TempDir() + "/sla.csv";
  std::string err;
  EXPECT_EQ(RunFiohistOnEpoch2(
                {"pctiles", "--quiet", "--grid", "epoch", "-o", out, "--sla", "read.p99.9=1ms"},
                &err),
            kExitSlaBreached);
  // 13 of the 19 read quanta of epoch2 have a p99.9 above 1 ms (fiohist's CSV says so).
  EXPECT_EQ(CountLines(err, "fiohist: SLA breach: "), 13) << err;
  EXPECT_NE(err.find("fiohist: SLA breach: 2026-11-22T00:08:41.000Z..2026-11-22T00:08:42.000Z "
                     "read: p99.9 2.137 ms > 1 ms (95% interval 1.573 ms..3.178 ms: beyond sampling "
                     "noise)\n"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("fiohist: SLA breached: 13 of 19 cluster quanta x directions breached "
                     "(per threshold: read.p99_9<=1ms 13); 9 of them beyond sampling noise"),
            std::string::npos)
      << err;
  std::ifstream csv(out);
  std::string header;
  std::getline(csv, header);
  EXPECT_NE(header.find(",p99.9,"), std::string::npos);  // the SLA's percentile is a column
}

TEST(ExitCode, SlaHeldIsZero) {
  std::string err;
  EXPECT_EQ(RunFiohistOnEpoch2({"push", "--quiet", "--run", "r", "--out", ::testing::TempDir() + "/held",
                 "--sla", "p99=10s"},
                &err),
            kExitOk);
  EXPECT_EQ(CountLines(err, "fiohist: SLA breach: "), 0) << err;
  EXPECT_NE(err.find("fiohist: SLA held: run 'r': no cluster quantum breached p99<=10s"),
            std::string::npos)
      << err;
}

TEST(ExitCode, PushWithBreachesIsFour) {
  std::string err;
  EXPECT_EQ(RunFiohistOnEpoch2({"push", "--quiet", "--run", "r", "--out", ::testing::TempDir() + "/breached",
                 "--sla", "p99=300us"},
                &err),
            kExitSlaBreached);
  EXPECT_EQ(CountLines(err, "fiohist: SLA breach: run 'r' "), 8) << err;
}

TEST(ExitCode, BadSlaIsAUsageError) {
  std::string err;
  EXPECT_EQ(RunFiohistOnEpoch2({"pctiles", "--sla", "p99=2hours"}, &err), kExitUsage);
  EXPECT_NE(err.find("fiohist pctiles: --sla: expected [DIR.]pNN[.N]=VALUE[UNIT]"),
            std::string::npos)
      << err;
  EXPECT_EQ(RunFiohistOnEpoch2({"pctiles", "--direction", "read", "--sla", "write.p99=2ms"}, &err), kExitUsage);
  EXPECT_NE(err.find("--sla write.p99<=2ms: direction write is left out by --direction"),
            std::string::npos)
      << err;
  EXPECT_EQ(RunFiohistOnEpoch2({"pctiles", "--scope", "host", "--sla", "p99=2ms"}, &err), kExitUsage);
  EXPECT_NE(err.find("SLAs are checked on the cluster scope"), std::string::npos) << err;
}

}  // namespace
}  // namespace fiohist
