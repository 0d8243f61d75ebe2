#include "cli/grafana_link.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace fiohist {
namespace {

TEST(GrafanaLink, RunNameIsEncodedAndTheSpanIsInEpochMs) {
  EXPECT_EQ(GrafanaRunUrl("http://grafana:3000/", "2026-11-23 randrw&qd=32/ä", 1763892000000,
                          1763892600000),
            "http://grafana:3000/d/fiohist-overview?var-run=2026-11-23%20randrw%26qd%3D32%2F%C3%A4"
            "&from=1763892000000&to=1763892600000");
  EXPECT_EQ(UrlEncode("a-b.c_d~e"), "a-b.c_d~e");
}

TEST(GrafanaLink, FlagThenEnvironmentThenDefault) {
  ::unsetenv("FIOHIST_GRAFANA_URL");
  EXPECT_EQ(ResolveGrafanaUrl(""), kDefaultGrafanaUrl);
  ::setenv("FIOHIST_GRAFANA_URL", "https://g.example", 1);
  EXPECT_EQ(ResolveGrafanaUrl(""), "https://g.example");
  EXPECT_EQ(ResolveGrafanaUrl("http://flag:3000"), "http://flag:3000");
  ::unsetenv("FIOHIST_GRAFANA_URL");
}

}  // namespace
}  // namespace fiohist
