#include "output/bucket_carry.h"

#include <cmath>

namespace fiohist {

void BucketCarry::SetKey(ScopeKind kind, const std::string& host, const std::string& job,
                         Direction direction) {
  key_.assign(ScopeName(kind));
  key_ += '\x1f';
  key_ += host;
  key_ += '\x1f';
  key_ += job;
  key_ += '\x1f';
  key_ += DirectionName(direction);
}

void BucketCarry::ForgetJob(const std::string& host, const std::string& job) {
  for (Direction d : kAllDirections) {
    SetKey(ScopeKind::kJob, host, job, d);
    carry_.erase(key_);
  }
}

void BucketCarry::Round(const ScopeResult& r, IntegerBuckets* out) {
  out->columns.clear();
  out->counts.clear();
  out->total = 0;
  out->scale = scale_;
  if (!r.histogram) return;
  const double scale = static_cast<double>(scale_);
  SetKey(r.kind, r.host, r.job, r.direction);
  std::vector<double>& carry = carry_[key_];
  r.histogram->ForEachNonZero([&](int c, double v) {
    if (c < 0 || c >= Histogram::kMaxColumns) return;
    if (carry.size() <= static_cast<size_t>(c)) carry.resize(static_cast<size_t>(c) + 1, 0.0);
    double& left = carry[static_cast<size_t>(c)];
    // The carry lies in [-0.5, 0.5) and v > 0, so the sum exceeds -0.5: n >= 0.
    const double want = left + v * scale;
    const double n = std::floor(want + 0.5);
    left = want - n;
    if (n <= 0) return;
    const int64_t k = static_cast<int64_t>(n);
    out->columns.push_back(c);
    out->counts.push_back(k);
    out->total += k;
  });
}

}  // namespace fiohist
