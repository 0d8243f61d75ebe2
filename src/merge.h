// Adding logs' histograms up into scopes: the cluster and each host.
#pragma once

#include <array>
#include <vector>

#include "histogram.h"
#include "log_line.h"

namespace fiohist {

/// Per-direction histograms of one scope over one quantum (or the whole run), with how
/// many logs contributed.
struct ScopeHistograms {
  std::array<Histogram, kLogDirections> direction;
  /// Directions that had a span in this quantum (even one with zero counts).
  std::array<bool, kLogDirections> touched{};
  int logs = 0;

  /// Forgets all counts, keeping storage.
  void Clear();
  /// Adds `other`'s counts, touched directions and logs.
  void Merge(const ScopeHistograms& other);
  /// True when any direction was touched.
  bool any() const { return touched[0] || touched[1] || touched[2]; }
  /// Sum of all directions into `*all`.
  void SumInto(Histogram* all) const;
};

/// The cluster's and every host's sums for one quantum. Worker threads each fill one with
/// the logs they read; the pipeline then merges them, so no lock is taken per record.
class ScopeMerge {
 public:
  explicit ScopeMerge(int hosts) : hosts_(static_cast<size_t>(hosts)) {}

  /// Adds one log's share (from host `host_index`).
  void AddLog(int host_index, const ScopeHistograms& log);
  /// Adds everything `other` holds.
  void Merge(const ScopeMerge& other);
  void Clear();

  const ScopeHistograms& cluster() const { return cluster_; }
  const ScopeHistograms& host(int i) const { return hosts_[static_cast<size_t>(i)]; }
  int host_count() const { return static_cast<int>(hosts_.size()); }

 private:
  ScopeHistograms cluster_;
  std::vector<ScopeHistograms> hosts_;
};

}  // namespace fiohist
