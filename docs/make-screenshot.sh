#!/usr/bin/env bash
# Regenerates docs/report-sample.png, the picture in the README: `fiohist report` of the
# bundled sample (samples/epoch2, with an SLA of p99 <= 500 us), loaded in Debian's headless
# Chromium by report/browser_check.js, which waits until every chart is drawn and then
# takes the top of the page.
# Usage: docs/make-screenshot.sh [FIOHIST]   (default: build/fiohist)
set -euo pipefail
cd "$(dirname "$0")/.."
fiohist=${1:-build/fiohist}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
"$fiohist" report --quiet --name epoch2-sample --sla p99=500us -o "$tmp/sample.html" \
  samples/epoch2/*_clat_hist.*.log.* 2>/dev/null || rc=$?
# 4: written, and some quantum breached the SLA (the picture shows where).
[ "$rc" -eq 0 ] || [ "$rc" -eq 4 ] || { echo "fiohist report failed ($rc)" >&2; exit 1; }
node report/browser_check.js "$tmp/sample.html" docs/report-sample.png --clip 1900 >"$tmp/seen.json"
python3 - "$tmp/seen.json" <<'PY'
import json, sys
seen = json.load(open(sys.argv[1]))
assert not seen["console_errors"], seen["console_errors"]
print("docs/report-sample.png: %(bytes)d bytes, %(width)dx%(height)d" % seen["screenshot"])
PY
