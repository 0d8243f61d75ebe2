#!/usr/bin/env bash
# The report's size and time on bench's 8 hosts x 8 jobs x 600 s corpus: `fiohist report`
# under /usr/bin/time -v, the page's size, and in Debian's headless Chromium the page-side
# time from navigation start to the page's rendered flag (and to the start of the page's own
# script, i.e. the chart library parsed), RUNS times. Figures: bench/README.md.
# Usage: bench/report_bench.sh [BUILD_DIR] [RUNS]   (default build, 5)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/bench/gen_corpus" --hosts 8 --jobs 8 --seconds 600 --out "$tmp/corpus" >/dev/null
/usr/bin/time -v "$build/fiohist" report --quiet -o "$tmp/r.html" "$tmp"/corpus/*.log.* \
  2>"$tmp/time.txt"
grep -E "Elapsed|Maximum resident" "$tmp/time.txt"
echo "report: $(stat -c %s "$tmp/r.html") bytes"
for i in $(seq "$runs"); do
  node report/browser_check.js "$tmp/r.html" "$tmp/shot.png" >"$tmp/seen.json"
  python3 - "$tmp/seen.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert not s["console_errors"], s["console_errors"]
print("chromium: library parsed %.0f ms, drawn %.0f ms after navigation start" % (s["script_start_ms"], s["render_ms"]))
PY
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
