#!/usr/bin/env bash
# The report's size and draw time on bench's 8 hosts x 8 jobs x 600 s corpus: `fiohist report`
# under /usr/bin/time -v, the page's size, then the page loaded RUNS times in Debian's headless
# Chromium by report/browser_check.js --timing. Per run: the page's own marks (ms since
# navigation start: its script starts, i.e. the chart library is parsed; the charts of the
# first screen have drawn; every chart has drawn, the rest drawn by the page's drawAll() right
# after the first screen; ECharts 'finished' events), and Chromium's wall time and CPU seconds
# (all its processes, and the page's renderer alone) from navigation to those points. Best and median, and the load average
# before and after. Figures: bench/README.md.
# Usage: bench/report_bench.sh [BUILD_DIR] [RUNS] [REPORT.html]   (default build, 5; an
#        existing report skips making the corpus and the report)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-5}
html=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$html" ]; then
  "$build/bench/gen_corpus" --hosts 8 --jobs 8 --seconds 600 --out "$tmp/corpus" >/dev/null
  /usr/bin/time -v "$build/fiohist" report --quiet -o "$tmp/r.html" "$tmp"/corpus/*.log.* \
    2>"$tmp/time.txt"
  grep -E "User time|Elapsed|Maximum resident" "$tmp/time.txt"
  html=$tmp/r.html
fi
echo "report: $(stat -c %s "$html") bytes"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
  node report/browser_check.js "$html" "$tmp/shot.png" --timing >"$tmp/seen.$i.json"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp"/seen.*.json <<'PY'
import json, statistics, sys
runs = [json.load(open(p)) for p in sys.argv[1:]]
for s in runs:
    assert not s["console_errors"], s["console_errors"]
rows = [
    ("page: script starts (library parsed)", "ms", lambda s: s["timing"]["script"]),
    ("page: data parsed", "ms", lambda s: s["timing"]["data"] - s["timing"]["script"]),
    ("page: first screen drawn (%d charts)" % len(runs[0]["first_screen"]), "ms", lambda s: s["render_ms"]),
    ("page: every chart drawn (%d)" % len(runs[0]["charts"]), "ms", lambda s: s["all_drawn_ms"]),
    ("chromium: wall to first screen", "ms", lambda s: s["chromium"]["first_screen_wall_ms"]),
    ("chromium: CPU to first screen", "s", lambda s: s["chromium"]["first_screen_cpu_s"]),
    ("  of which the page's renderer", "s", lambda s: s["chromium"]["first_screen_page_cpu_s"]),
    ("chromium: wall to every chart", "ms", lambda s: s["chromium"]["all_wall_ms"]),
    ("chromium: CPU to every chart", "s", lambda s: s["chromium"]["all_cpu_s"]),
    ("  of which the page's renderer", "s", lambda s: s["chromium"]["all_page_cpu_s"]),
]
print("%-40s %10s %10s   (%d runs)" % ("", "best", "median", len(runs)))
for name, unit, f in rows:
    v = [f(s) for s in runs]
    fmt = "%10.0f" if unit == "ms" else "%10.2f"
    print("%-40s " % (name + " " + unit) + fmt % min(v) + " " + fmt % statistics.median(v))
setup = {}
for s in runs:
    for k, v in s["timing"]["setup"].items():
        kind = k.split("-")[0]
        setup.setdefault(kind, []).append(v)
print("median time per chart to set up and draw, by kind (ms):",
      ", ".join("%s %.0f" % (k, statistics.median(v)) for k, v in setup.items()))
PY
