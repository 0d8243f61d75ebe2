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

step() { printf '\n=== %s\n' "$*"; }

step "release build (-Werror)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFIOHIST_WERROR=ON >/dev/null
cmake --build build -j "$jobs"
step "ctest: unit, golden, bad input, Elasticsearch, dashboards"
(cd build && ctest --output-on-failure -j 2 --timeout 1500)

if [ $quick -eq 1 ]; then exit 0; fi

step "sanitizer build (ASan+UBSan) and its tests (all but the Elasticsearch ones)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFIOHIST_SANITIZE=ON \
  -DFIOHIST_WERROR=ON >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j 2 -LE 'es|dashboards' \
  --timeout 900)

if [ -x tests/fuzz/run.sh ]; then
  step "fuzzing (${FIOHIST_FUZZ_SECONDS:-60} s per target)"
  tests/fuzz/run.sh "${FIOHIST_FUZZ_SECONDS:-60}"
fi
step "all tests passed"
