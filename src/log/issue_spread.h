// Where the I/Os of a histogram record were issued: its completion span shifted back by
// each bucket's latency range (--place issue).
#pragma once

#include <cstdint>
#include <vector>

#include "log/interval_model.h"
#include "log/quantum_grid.h"

namespace fiohist {

/// The latency range of a bucket in milliseconds: [lo_ms, hi_ms] (hi_ms == lo_ms for a
/// point, e.g. fio's last, open-ended bucket taken at its lower edge).
struct LatencyRange {
  double lo_ms = 0;
  double hi_ms = 0;
};

/// P(C - L <= x) for C uniform on (`completion`.start_ms, `completion`.end_ms] and L uniform
/// on `latency`, independent: the distribution of issue times (completion minus latency) of
/// one bucket's I/Os in one record. The difference of two uniforms is trapezoidal; its
/// distribution function is the closed form of the integral of the uniform C's clamped
/// ramp over L (see issue_spread.cc). `x` in ms on the same time line. A completion span of
/// length 0 or less is taken as the millisecond before its end (as LogStream places it).
double IssueCdf(const TimeSpan& completion, const LatencyRange& latency, double x);

/// The share of one bucket's I/Os issued in quantum `q` of `grid`:
/// IssueCdf(end of q) - IssueCdf(start of q).
double IssueWeight(const QuantumGrid& grid, const TimeSpan& completion, const LatencyRange& latency,
                   int64_t q);

/// The quanta [*first_q, *last_q] that issue times of `completion` shifted back by
/// `latency` may fall in.
void IssueQuanta(const QuantumGrid& grid, const TimeSpan& completion, const LatencyRange& latency,
                 int64_t* first_q, int64_t* last_q);

}  // namespace fiohist
