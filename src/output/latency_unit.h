// The unit latencies are printed in.
#pragma once

#include <string>

#include "base/status.h"

namespace fiohist {

/// A latency unit for output: "us" (default), "ns", "ms" or "s".
struct LatencyUnit {
  std::string name = "us";
  double ns_per_unit = 1000.0;
};

/// Parses "us", "usec", "ns", "nsec", "ms", "msec", "s", "sec".
Status ParseLatencyUnit(const std::string& text, LatencyUnit* unit);

}  // namespace fiohist
