#include "cli/status_input.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/test_util.h"

namespace fiohist {
namespace {

// A run's folder (`dir/*`): logs and the fio JSON outputs beside them. The JSON files are the
// logs' anchors, not a second kind of run.
TEST(StatusInput, FioJsonBesideLogsBecomesTheirFioOutput) {
  const std::string log = WriteTempFile("si_a_clat_hist.1.log", "1000, 0, 4096, 0, 1\n");
  const std::string json =
      WriteTempFile("si_fio-hostA.json", "\n  {\"fio version\": \"fio-3.33\"}\n");
  std::vector<std::string> paths = {json, log};
  std::vector<std::string> fio_json = {"given.json"};
  EXPECT_EQ(MoveFioJsonBesideLogs(&paths, &fio_json), 1u);
  EXPECT_EQ(paths, std::vector<std::string>({log}));
  EXPECT_EQ(fio_json, std::vector<std::string>({"given.json", json}));
}

TEST(StatusInput, JsonAloneOrLogsAloneStayAsGiven) {
  const std::string a = WriteTempFile("si_status-a.json", "{}");
  const std::string b = WriteTempFile("si_status-b.json", "{}");
  std::vector<std::string> paths = {b, a};
  std::vector<std::string> fio_json;
  EXPECT_EQ(MoveFioJsonBesideLogs(&paths, &fio_json), 0u);
  EXPECT_EQ(paths, std::vector<std::string>({b, a}));
  EXPECT_TRUE(fio_json.empty());

  const std::string log = WriteTempFile("si_b_clat_hist.1.log", "1000, 0, 4096, 0, 1\n");
  paths = {log};
  EXPECT_EQ(MoveFioJsonBesideLogs(&paths, &fio_json), 0u);
  EXPECT_EQ(paths, std::vector<std::string>({log}));
}

}  // namespace
}  // namespace fiohist
