#include "stats/scope_result.h"

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

}  // namespace fiohist
