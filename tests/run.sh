#!/usr/bin/env bash
# The whole test suite: installs dependencies, builds with warnings as errors, runs every
# ctest (unit, golden, bad input, Elasticsearch and OpenSearch integration against real
# nodes started here, dashboard checks), then the same non-ES tests in an ASan+UBSan build,
# then each fuzzer for a bounded time. Exits non-zero when anything fails.
# Usage: tests/run.sh [--quick]   (--quick: release build and ctest only)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=$(nproc)
quick=0
[ "${1:-}" = "--quick" ] && quick=1

tools/install-deps.sh --test

step() { printf '\n=== [%5d s] %s\n' "$SECONDS" "$*"; }

step "release build (-Werror)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFIOHIST_WERROR=ON >/dev/null
cmake --build build -j "$jobs" --target all fiohist_test_programs
if [ $quick -eq 1 ]; then
  step "ctest: unit, golden, bad input, Elasticsearch, dashboards"
  (cd build && ctest --output-on-failure -j 2 --timeout 1500)
  exit 0
fi

# The sanitizer build compiles while the release tests run, at the lowest CPU
# priority (the sanitizer build at -O1 with line tables only: half the compile time of -O2 -g,
# and ASan's reports still name file and line): those tests wait on nodes, fio and Chromium
# much of their time, and a build at nice 19 takes only what they leave.
step "sanitizer build starts in the background (nice 19; log in build/background-builds.log)"
(
  nice -n 19 cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFIOHIST_SANITIZE=ON \
    -DFIOHIST_WERROR=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" >/dev/null &&
    nice -n 19 cmake --build build-asan -j "$jobs" --target fiohist fiohist_tests
) >build/background-builds.log 2>&1 &
background=$!

step "ctest: unit, golden, bad input, Elasticsearch, dashboards"
(cd build && ctest --output-on-failure -j 2 --timeout 1500) || {
  kill -- -"$background" 2>/dev/null || kill "$background" 2>/dev/null || true
  exit 1
}

step "waiting for the sanitizer build"
if ! wait "$background"; then
  tail -n 60 build/background-builds.log
  echo "the sanitizer build failed (build/background-builds.log)" >&2
  exit 1
fi

# The sanitizer run leaves out the Elasticsearch and dashboard suites (nodes, not fiohist, take
# their time) and the tests whose time is fio's or Chromium's wall clock (labels fio, live,
# browser): the fiohist code they drive is run by the unit, golden and bad-input tests here.
step "sanitizer (ASan+UBSan) tests (all but the node, fio and browser ones)"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j 2 -LE 'es|dashboards|fio|live|browser' \
  --timeout 900)

# Fuzzing builds the library a third time (clang with libFuzzer, about 10 minutes on 2 cores)
# before its runs: it is done when that fits the suite's time budget (FIOHIST_TIME_BUDGET,
# seconds, default 1800: CI's 30 minutes), and skipped with a message otherwise;
# `tests/fuzz/run.sh` runs it alone.
budget=${FIOHIST_TIME_BUDGET:-1800}
if [ -x tests/fuzz/run.sh ]; then
  seconds=${FIOHIST_FUZZ_SECONDS:-30}
  if [ $((SECONDS + 600 + 2 * seconds)) -le "$budget" ]; then
    step "fuzzing (${seconds} s per target)"
    tests/fuzz/run.sh "$seconds"
  else
    step "fuzzing skipped: ${SECONDS} s used of the ${budget} s budget (tests/fuzz/run.sh runs it)"
  fi
fi
step "all tests passed"
