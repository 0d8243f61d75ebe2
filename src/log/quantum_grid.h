// The fixed grid of time quanta that every log record is placed on.
#pragma once

#include <cstdint>

#include "log/interval_model.h"

namespace fiohist {

/// Quanta [origin + q*Q, origin + (q+1)*Q) for integer q. Epoch logs use origin 0 so that
/// quanta line up across hosts and runs.
class QuantumGrid {
 public:
  QuantumGrid(int64_t origin_ms, int64_t quantum_ms)
      : origin_ms_(origin_ms), quantum_ms_(quantum_ms) {}

  int64_t quantum_ms() const { return quantum_ms_; }
  int64_t origin_ms() const { return origin_ms_; }
  /// Start of quantum `q`.
  int64_t Start(int64_t q) const { return origin_ms_ + q * quantum_ms_; }
  /// End (exclusive) of quantum `q`.
  int64_t End(int64_t q) const { return Start(q + 1); }
  /// The quantum containing instant `t_ms`.
  int64_t IndexOf(int64_t t_ms) const {
    const int64_t d = t_ms - origin_ms_;
    return d >= 0 ? d / quantum_ms_ : -((-d + quantum_ms_ - 1) / quantum_ms_);
  }

  /// The share of `span` that lies in quantum `q`: overlap length / span length, so a
  /// record's counts are spread over quanta in proportion to overlap (uniform rate). A
  /// zero-length span belongs wholly to the quantum containing its instant.
  double Weight(const TimeSpan& span, int64_t q) const {
    const int64_t qs = Start(q), qe = End(q);
    if (span.length() <= 0) return (span.end_ms >= qs && span.end_ms < qe) ? 1.0 : 0.0;
    const int64_t lo = span.start_ms > qs ? span.start_ms : qs;
    const int64_t hi = span.end_ms < qe ? span.end_ms : qe;
    return hi > lo ? static_cast<double>(hi - lo) / static_cast<double>(span.length()) : 0.0;
  }

 private:
  int64_t origin_ms_;
  int64_t quantum_ms_;
};

}  // namespace fiohist
