#include "stats/scope_result.h"

#include <algorithm>

namespace fiohist {

const char* ScopeName(ScopeKind kind) {
  switch (kind) {
    case ScopeKind::kCluster:
      return "cluster";
    case ScopeKind::kHost:
      return "host";
    case ScopeKind::kJob:
      return "job";
  }
  return "?";
}

void CopyPlace(const ScopeResult& from, ScopeResult* to) {
  to->start_ms = from.start_ms;
  to->end_ms = from.end_ms;
  to->elapsed_s = from.elapsed_s;
  to->kind = from.kind;
  to->host = from.host;
  to->job = from.job;
  to->direction = from.direction;
  to->logs = from.logs;
  to->coverage = from.coverage;
  to->partial = from.partial;
  to->complete_to_ms = from.complete_to_ms;
}

void SetCoverage(int64_t covered_ms, int logs, int64_t length_ms, ScopeResult* r) {
  const int64_t whole = static_cast<int64_t>(logs) * length_ms;
  r->coverage =
      whole > 0 ? std::min(1.0, static_cast<double>(covered_ms) / static_cast<double>(whole)) : 0.0;
  r->partial = whole <= 0 || covered_ms < whole - logs;
}

void SetCompleteTo(int64_t complete_to_ms, ScopeResult* r) {
  r->complete_to_ms = complete_to_ms;
  if (complete_to_ms != INT64_MAX) r->partial = true;
}

}  // namespace fiohist
