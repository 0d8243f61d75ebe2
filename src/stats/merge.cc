#include "stats/merge.h"

#include <algorithm>

namespace fiohist {

void ScopeHistograms::Clear() {
  for (Histogram& h : direction) h.Clear();
  touched = {};
  logs = 0;
  covered_ms = 0;
  straddled = {};
  complete_to_ms = INT64_MAX;
}

void ScopeHistograms::Merge(const ScopeHistograms& other) {
  for (size_t d = 0; d < direction.size(); ++d) {
    direction[d].Merge(other.direction[d]);
    touched[d] = touched[d] || other.touched[d];
    straddled[d] += other.straddled[d];
  }
  logs += other.logs;
  covered_ms += other.covered_ms;
  complete_to_ms = std::min(complete_to_ms, other.complete_to_ms);
}

double ScopeHistograms::StraddledShare(size_t d) const {
  double part = 0, total = 0;
  for (size_t i = 0; i < direction.size(); ++i) {
    if (d != i && d != direction.size()) continue;
    part += straddled[i];
    total += direction[i].total();
  }
  return total > 0 ? std::min(1.0, part / total) : -1.0;
}

void ScopeHistograms::SumInto(Histogram* all) const {
  all->Clear();
  for (const Histogram& h : direction) all->Merge(h);
}

void ScopeMerge::SumHosts() {
  cluster_.Clear();
  for (const ScopeHistograms& h : hosts_) cluster_.Merge(h);
}

void ScopeMerge::Merge(const ScopeMerge& other, bool hosts) {
  cluster_.Merge(other.cluster_);
  if (!hosts) return;
  for (size_t i = 0; i < hosts_.size(); ++i) hosts_[i].Merge(other.hosts_[i]);
}

void ScopeMerge::Clear() {
  cluster_.Clear();
  for (ScopeHistograms& h : hosts_) h.Clear();
}

}  // namespace fiohist
