#include "output/latency_unit.h"

namespace fiohist {

Status ParseLatencyUnit(const std::string& text, LatencyUnit* unit) {
  if (text == "us" || text == "usec") {
    *unit = {"us", 1e3};
  } else if (text == "ns" || text == "nsec") {
    *unit = {"ns", 1.0};
  } else if (text == "ms" || text == "msec") {
    *unit = {"ms", 1e6};
  } else if (text == "s" || text == "sec") {
    *unit = {"s", 1e9};
  } else {
    return Status::Error("--unit: expected ns, us, ms or s, got '" + text + "'");
  }
  return Status();
}

}  // namespace fiohist
