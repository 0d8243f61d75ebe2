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
cmake --build build -j "$jobs"
step "ctest: unit, golden, bad input, Elasticsearch, dashboards"
(cd build && ctest --output-on-failure -j 2 --timeout 1500)

if [ $quick -eq 1 ]; then exit 0; fi

# The sanitizer run leaves out the Elasticsearch and dashboard suites (nodes, not fiohist, take
# their time) and the tests whose time is fio's or Chromium's wall clock (labels fio, live,
# browser): the fiohist code they drive is run by the unit, golden and bad-input tests here.
step "sanitizer build (ASan+UBSan) and its tests (all but the node, fio and browser ones)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFIOHIST_SANITIZE=ON \
  -DFIOHIST_WERROR=ON >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j 2 -LE 'es|dashboards|fio|live|browser' \
  --timeout 900)

if [ -x tests/fuzz/run.sh ]; then
  step "fuzzing (${FIOHIST_FUZZ_SECONDS:-30} s per target)"
  tests/fuzz/run.sh "${FIOHIST_FUZZ_SECONDS:-30}"
fi
step "all tests passed"
