#!/bin/sh
# Builds the libFuzzer targets with clang (own build dir) and runs each for SECONDS.
# Usage: tests/fuzz/run.sh [--build-only] [SECONDS] (default 60). New findings are written to
# build-fuzz/findings/<target>/; copy a crasher into tests/fuzz/regressions/<target>/ once
# the bug is fixed, so ctest -L fuzz replays it.
set -eu
build_only=0
if [ "${1:-}" = "--build-only" ]; then build_only=1; shift; fi
seconds=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${FIOHIST_FUZZ_BUILD:-$root/build-fuzz}
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DFIOHIST_FUZZ=ON -DFIOHIST_WERROR=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target fuzz_log_line fuzz_pipeline
[ $build_only -eq 1 ] && exit 0

status=0
for target in fuzz_log_line fuzz_pipeline; do
  work="$build/findings/$target"
  corpus="$build/corpus/$target"
  mkdir -p "$work" "$corpus"
  echo "== $target for ${seconds}s"
  # Grown corpus first (kept between runs), then the seeds and past crashers.
  dict=""
  [ -f "$here/${target#fuzz_}.dict" ] && dict="-dict=$here/${target#fuzz_}.dict"
  # Small inputs by default (few-column logs run ~50x faster than 1856-column ones);
  # FIOHIST_FUZZ_MAX_LEN=65536 lets whole real fio3 lines in.
  if ! (cd "$work" && "$build/tests/fuzz/$target" -max_total_time="$seconds" $dict \
        -max_len="${FIOHIST_FUZZ_MAX_LEN:-8192}" -timeout=20 -rss_limit_mb=2048 \
        -print_final_stats=1 \
        "$corpus" "$here/corpus/$target" "$here/regressions/$target"); then
    echo "!! $target found a problem: see $work" >&2
    status=1
  fi
done
exit $status
