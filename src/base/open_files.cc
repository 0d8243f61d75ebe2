#include "base/open_files.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace fiohist {
namespace {

std::atomic<int> g_held{0};
std::atomic<int> g_budget{-1};  // -1: not sized yet

// The soft limit, or a large number when there is none.
long long SoftLimit() {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return 1 << 20;
  return static_cast<long long>(rl.rlim_cur);
}

// Leaves room for stdio, output files, HTTP connections (a few per node and request in
// flight) and the short-lived opens of probing and look-ahead: an eighth of the limit, at
// least 24.
int BudgetFor(long long limit) {
  long long reserve = std::max<long long>(24, limit / 8);
  return static_cast<int>(std::max<long long>(0, std::min<long long>(limit - reserve, 1 << 20)));
}

int Budget() {
  int b = g_budget.load(std::memory_order_relaxed);
  if (b < 0) {
    static std::once_flag once;
    std::call_once(once, [] { g_budget.store(BudgetFor(SoftLimit())); });
    b = g_budget.load();
  }
  return b;
}

}  // namespace

void RaiseOpenFileLimit() {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  g_budget.store(BudgetFor(SoftLimit()));
}

bool TryHoldOpenFile() {
  const int budget = Budget();
  int held = g_held.load(std::memory_order_relaxed);
  while (held < budget) {
    if (g_held.compare_exchange_weak(held, held + 1, std::memory_order_relaxed)) return true;
  }
  return false;
}

void ReleaseOpenFile() { g_held.fetch_sub(1, std::memory_order_relaxed); }

int HeldOpenFiles() { return g_held.load(std::memory_order_relaxed); }

int OpenFileBudget() { return Budget(); }

void SetOpenFileBudget(int files) { g_budget.store(std::max(0, files)); }

std::string TooManyOpenFiles(int errnum) {
  std::string m = std::strerror(errnum);
  if (errnum == EMFILE) {
    m += " (limit " + std::to_string(SoftLimit()) + " per process, " +
         std::to_string(HeldOpenFiles()) + " logs held open by fiohist; raise it with `ulimit -n`)";
  } else if (errnum == ENFILE) {
    m += " (the system-wide limit, fs.file-max, is reached)";
  }
  return m;
}

}  // namespace fiohist
