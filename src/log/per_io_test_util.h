// Helpers shared by the unit tests of the per-I/O line readers (per_io_line, per_io_scan).
// Here rather than in base/test_util.h: base may not include log/ (tools/check_layers.py).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "log/per_io_line.h"

namespace fiohist {

/// The layout of a per-I/O log whose lines have `columns` fields (`two_values`:
/// log_window_value=both), as PerIoLayoutOf() settles it; a test failure if it refuses.
inline PerIoLayout LayoutOf(int columns, bool two_values = false) {
  PerIoLayout layout;
  std::string what;
  EXPECT_TRUE(PerIoLayoutOf(columns, two_values, &layout, &what)) << what;
  return layout;
}

}  // namespace fiohist
