// Adding logs' histograms up into scopes: the cluster and each host.
#pragma once

#include <array>
#include <vector>

#include "histogram/histogram.h"
#include "log/log_line.h"

namespace fiohist {

/// Per-direction histograms of one scope over one quantum (or the whole run), with how
/// many logs contributed.
struct ScopeHistograms {
  std::array<Histogram, kLogDirections> direction;
  /// Directions that had a span in this quantum (even one with zero counts).
  std::array<bool, kLogDirections> touched{};
  int logs = 0;
  /// Log time covered by spans, summed over the logs (and quanta) added: each log counts
  /// the time any of its directions' spans covers (coverage, scope_result.h).
  int64_t covered_ms = 0;
  /// Per direction: I/Os the uniform-spread assumption may have placed on the wrong side
  /// of the quantum's edges (LogStream::straddled_ios), summed like the histograms.
  std::array<double, kLogDirections> straddled{};
  /// --place issue: the latency (ms) up to which the quantum's I/Os are all in the logs,
  /// the least of the logs' (RecordStream::complete_to_ms); INT64_MAX: none missing.
  int64_t complete_to_ms = INT64_MAX;

  /// Forgets all counts, keeping storage.
  void Clear();
  /// Adds `other`'s counts, touched directions and logs.
  void Merge(const ScopeHistograms& other);
  /// True when any direction was touched.
  bool any() const { return touched[0] || touched[1] || touched[2]; }
  /// `straddled` as a share of direction `d`'s I/Os (d == kLogDirections: of all
  /// directions); -1 without I/Os.
  double StraddledShare(size_t d) const;
  /// Sum of all directions into `*all`.
  void SumInto(Histogram* all) const;
};

/// The cluster's and every host's sums for one quantum (or the whole run). Hosts are summed
/// from their logs in log order (hosts in parallel), then the cluster from the hosts in host
/// order: the additions happen in the same order whatever the thread count, so results are
/// bit-identical from run to run (a re-push rewrites identical documents).
class ScopeMerge {
 public:
  explicit ScopeMerge(int hosts) : hosts_(static_cast<size_t>(hosts)) {}

  /// The sum of host `i`, to be filled by the caller (one thread per host at most).
  ScopeHistograms& mutable_host(int i) { return hosts_[static_cast<size_t>(i)]; }
  /// Sets the cluster sum to the sum of the hosts, in host order.
  void SumHosts();
  /// Adds `other`'s cluster sum, and its host sums too when `hosts` is true (they are
  /// not needed when no host is reported).
  void Merge(const ScopeMerge& other, bool hosts = true);
  void Clear();

  const ScopeHistograms& cluster() const { return cluster_; }
  const ScopeHistograms& host(int i) const { return hosts_[static_cast<size_t>(i)]; }
  int host_count() const { return static_cast<int>(hosts_.size()); }

 private:
  ScopeHistograms cluster_;
  std::vector<ScopeHistograms> hosts_;
};

}  // namespace fiohist
