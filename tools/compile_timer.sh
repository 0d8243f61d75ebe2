#!/usr/bin/env bash
# A compiler launcher that records each compile's CPU time, for tools/build_profile.py:
#   cmake -S . -B build -G Ninja -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/tools/compile_timer.sh
#   FIOHIST_COMPILE_LOG=$PWD/build/compile-times.txt cmake --build build -j 2
# Appends "user_s sys_s wall_s output" per compile to $FIOHIST_COMPILE_LOG (a loaded machine
# stretches wall time, not CPU time: the CPU seconds are the figure to compare).
set -u
log=${FIOHIST_COMPILE_LOG:-}
if [ -z "$log" ]; then
  exec "$@"
fi
out=unknown
prev=
for a in "$@"; do
  if [ "$prev" = -o ]; then out=$a; fi
  prev=$a
done
times=$(mktemp)
/usr/bin/time -f "%U %S %e" -o "$times" "$@"
rc=$?
echo "$(tail -n 1 "$times") $out" >>"$log"
rm -f "$times"
exit $rc
