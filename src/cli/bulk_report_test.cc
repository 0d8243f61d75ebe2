#include "cli/bulk_report.h"

#include <gtest/gtest.h>

namespace fiohist {
namespace {

TEST(BulkReport, Summary) {
  BulkStats s;
  s.indexed = 10;
  s.retried = 2;
  s.failed = 1;
  EXPECT_EQ(FormatBulkSummary(s), "indexed 10, retried 2, failed 1");
}

}  // namespace
}  // namespace fiohist
