#!/usr/bin/env python3
"""`fiohist report` in a real browser: Debian's headless Chromium (driven by playwright-core,
report/browser_check.js) loads each report and the test checks that no console error or
network request happened, that every chart holds the series and points the report's data
says it must (read from ECharts in the page), that zooming into a long run switches to a
finer resolution, and that the screenshot (a PNG in the build directory) is large and not
blank. Also: --png writes a PNG per chart, a baseline gets its overlays, a run with a host
missing half the time says so, and bad input fails with a clear message.

Usage: report_test.py FIOHIST SAMPLE_DIR OUT_DIR [es]
  es: read the run back from Elasticsearch (env FIOHIST_ES_URL) instead of the browser cases.
"""
import glob
import gzip
import json
import os
import random
import re
import shutil
import subprocess
import sys

FIOHIST, SAMPLES, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
MODE = sys.argv[4] if len(sys.argv) > 4 else "browser"
HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "..", "..", "report", "browser_check.js")
SAMPLE_LOGS = sorted(glob.glob(os.path.join(SAMPLES, "*_clat_hist.*.log*")))
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def fiohist(args, env=None):
    p = subprocess.run([FIOHIST] + args, capture_output=True, text=True, timeout=900, env=env)
    return p.returncode, p.stdout, p.stderr


def page_data(html):
    text = open(html, encoding="utf-8").read()
    m = re.search(r'<script id="fiohist-data" type="application/json">(.*?)</script>', text, re.S)
    return json.loads(m.group(1)), len(text.encode())


def browse(html, shot, zoom=None, toggle=False):
    args = ["node", CHECK, html, shot] + (["--zoom", zoom] if zoom else []) + (["--toggle"] if toggle else [])
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        print(p.stderr)
        raise SystemExit("browser_check.js failed")
    return json.loads(p.stdout)


def series(run, host, d, res):
    for s in run["series"]:
        if s["host"] == host and s["dir"] == d and s["res"] == res:
            return s
    return None


def expected(data, chart, res):
    """The (series, points) each chart must hold at resolution `res`, from the report's data."""
    run = data["main"]
    kind = chart["kind"]
    if kind == "latency":
        s = series(run, "", chart["dir"], res)
        n = len(s["t"])
        k = len(run["percentiles"])
        out = [n] * k
        if "lo" in s:
            # Each percentile's confidence band (its low line and its height), then the
            # markers of the windows without an upper bound (too few I/Os), one series per
            # percentile flagged at some resolution.
            out += [n, n] * k
            flagged = sorted({j for r in run["series"] if r["host"] == "" and r["dir"] == chart["dir"]
                              for _, j in r.get("few", [])})
            out += [len({i for i, j in s["few"] if j == p}) for p in flagged]
        if chart["clamped"]:
            out.append(len(s["clamped"]))  # the clamped markers: one per clamped value
        return out
    if kind == "accuracy":
        # --accuracy windows: per percentile a step line (two points per window), then its
        # band (low line and height).
        w = next(x for x in run["windows"] if x["dir"] == chart["dir"])
        return [2 * len(w["t"])] * (len(run["percentiles"]) * (3 if "lo" in w else 1))
    if kind == "iops":
        return [len(series(run, "", d, res)["t"]) for d in chart["dirs"]]
    if kind == "heat":
        h = next(h for h in run["heat"] if h["dir"] == chart["dir"] and h["res"] == res)
        return [sum(1 for col in h["c"] for v in col if v > 0)]
    if kind == "overlay":
        base = data["baseline"]
        out = []
        for r in (run, base):
            # As the page: the run's resolutions with windows, else its coarsest below res.
            held = sorted({x["res"] for x in r["series"]} & set(r["resolutions"])) or [1]
            rr = res if res in held else max([x for x in held if x <= res] + [held[0]])
            out += [len(series(r, "", chart["dir"], rr)["t"])] * len(chart["percentiles"])
        return out
    raise AssertionError(kind)


def check_page(name, html, zoom=None, toggle=False):
    """Loads `html`, checks it against its data; returns what the browser saw."""
    data, size = page_data(html)
    shot = os.path.join(OUT, name + ".png")
    seen = browse(html, shot, zoom, toggle)
    check(seen["console_errors"] == [], "%s: no console error or warning %s" % (name, seen["console_errors"]))
    check(seen["requests"] == [], "%s: no network request %s" % (name, seen["requests"]))
    charts = seen["charts"]
    # Lazy drawing: the first screen drew some charts, scrolling drew the others.
    total = sum(len(data["main"]["hosts"]) if c["kind"] == "hosts" else 1 for c in data["charts"])
    check(len(seen["first_screen"]) < total and len(charts) == total,
          "%s: %d of %d charts drawn for the first screen, all %d after scrolling" %
          (name, len(seen["first_screen"]), total, len(charts)))
    for c in data["charts"]:
        if c["kind"] == "hosts":
            ids = ["host-" + h["name"] for h in data["main"]["hosts"]]
            check(all(i in charts for i in ids), "%s: a small multiple per host (%d)" % (name, len(ids)))
            for i in ids:
                if i not in charts:
                    continue
                res = charts[i]["resolution"]
                host = i[len("host-"):]
                want = [len(series(data["main"], "", "all", res)["t"]),
                        len(series(data["main"], host, "all", res)["t"])]
                got = [s["points"] for s in charts[i]["series"]]
                check(got == want, "%s: %s holds %s points (want %s)" % (name, i, got, want))
            continue
        got = charts.get(c["id"])
        check(got is not None, "%s: chart %s drawn" % (name, c["id"]))
        if got is None:
            continue
        want = expected(data, c, got.get("resolution"))
        pts = [s["points"] for s in got["series"]]
        ok = len(pts) == len(want) and all(w is None or w == p for w, p in zip(want, pts))
        if c["kind"] == "latency" and "lo" in series(data["main"], "", c["dir"], got["resolution"]):
            # Every band is named as its line, so that the legend toggles both.
            names = [s["name"] for s in got["series"]]
            k = len(data["main"]["percentiles"])
            ok = ok and names[k:3 * k] == [p for p in data["main"]["percentiles"] for _ in (0, 1)]
        check(ok, "%s: %s at resolution %s: %d series, points %s (want %s)" %
              (name, c["id"], got.get("resolution"), len(pts), pts, want))
    px = seen["screenshot"]
    area = px["width"] * px["height"]
    check(px["bytes"] > 100000 and px["ink_pixels"] > 0.03 * area and px["colours"] > 100,
          "%s: screenshot %s: %d bytes, %dx%d, %d non-white pixels, %d colours" %
          (name, shot, px["bytes"], px["width"], px["height"], px["ink_pixels"], px["colours"]))
    print("     %s: %d bytes, first screen drawn %.0f ms after navigation start" % (name, size, seen["render_ms"]))
    return data, seen


def log_line(t, columns, counts):
    row = [0] * columns
    for c, n in counts:
        row[c] += n
    return "%d, 0, 4096, %s\n" % (t, ", ".join(map(str, row)))


def synthetic_run(directory, seconds, hosts, columns=116, stop_at=None, seed=1, clamp_every=0):
    """Epoch-stamped reads, 1 s records, `columns` columns (log_hist_coarseness 4 of fio3):
    hosts[i] latencies around column 40 + 2i; host 1 stops at `stop_at` s when given; every
    `clamp_every`-th second (when given) 10 % more I/Os land in fio's last, clamped bucket."""
    os.makedirs(directory, exist_ok=True)
    rnd = random.Random(seed)
    paths = []
    t0 = 1795000000000
    for i, host in enumerate(hosts):
        path = os.path.join(directory, "synth_clat_hist.1.log.%s" % host)
        with open(path, "w") as f:
            for s in range(1, seconds + 1):
                if stop_at is not None and i == 1 and s > stop_at:
                    break
                base = 40 + 2 * i + (3 if 1200 <= s < 1260 else 0)
                counts = [(base + rnd.randint(-2, 2), rnd.randint(50, 150)) for _ in range(6)]
                counts.append((base + 12, rnd.randint(0, 3)))
                if clamp_every and s % clamp_every == 0:
                    counts.append((columns - 1, 60))
                f.write(log_line(t0 + 1000 * s, columns, counts))
        paths.append(path)
    return paths


def browser_cases():
    # The bundled sample, with an SLA: every chart, no error, a real screenshot.
    html = os.path.join(OUT, "sample.html")
    rc, _, err = fiohist(["report", "--sla", "p99=300us", "-o", html] + SAMPLE_LOGS)
    check(rc == 4, "sample report written, exit 4 for the SLA breaches (got %d: %s)" % (rc, err[-300:]))
    data, seen = check_page("sample", html)
    check(len(data["main"]["breaches"]) > 0 and "SLA" in " ".join(seen["sections"]),
          "sample: SLA breaches listed (%d)" % len(data["main"]["breaches"]))
    check(seen["sections"][-1].startswith("Where the data came from"), "sample: the source section")
    cs = series(data["main"], "", "all", 1)
    want = "%d of %d quanta with I/O complete" % (len(cs["t"]) - len(cs["partial"]), len(cs["t"]))
    check(want in seen["source"] and "%d partial" % len(cs["partial"]) in seen["source"],
          "sample: the source section gives the coverage (%s)" % want)

    accuracy_case()

    # A long run: zoomed out it draws a coarser resolution, zoomed in the quanta.
    logs = synthetic_run(os.path.join(OUT, "long"), 3600, ["hostA", "hostB", "hostC"])
    html = os.path.join(OUT, "long.html")
    rc, _, err = fiohist(["report", "-o", html] + logs)
    check(rc == 0, "long report written (%s)" % err[-300:])
    data, seen = check_page("long", html, zoom="latency-read")
    first = seen["charts"]["latency-read"]["resolution"]
    check(first > 1, "long: zoomed out, a coarser resolution is drawn (x%d)" % first)
    check(seen["zoom"]["resolution"] < first,
          "long: zoomed into 5 %%, a finer one (x%d, %d points)" % (seen["zoom"]["resolution"], seen["zoom"]["points"]))

    # Partial data: host B stops half way; the page says what is missing.
    logs = synthetic_run(os.path.join(OUT, "partial"), 120, ["hostA", "hostB"], stop_at=60, seed=2)
    html = os.path.join(OUT, "partial.html")
    rc, _, err = fiohist(["report", "-o", html] + logs)
    check(rc == 0, "partial run: report written (%s)" % err[-300:])
    data, seen = check_page("partial", html)
    check("host hostB: no I/O in 60 quanta" in seen["notes"], "partial: the page says hostB misses 60 quanta")

    # Stalls in fio's last bucket: those percentiles are lower bounds, drawn as markers (one
    # per clamped value) and named in the notes.
    logs = synthetic_run(os.path.join(OUT, "clamped"), 60, ["hostA", "hostB"], seed=4,
                         clamp_every=10)
    html = os.path.join(OUT, "clamped.html")
    rc, _, err = fiohist(["report", "-o", html] + logs)
    check(rc == 0, "clamped run: report written (%s)" % err[-300:])
    data, seen = check_page("clamped", html)
    clamped = sum(len(x["clamped"]) for x in data["main"]["series"]
                  if x["host"] == "" and x["res"] == 1)
    check(clamped > 0 and "clamped" in seen["notes"],
          "clamped: %d clamped cluster values, and the notes say so" % clamped)

    # A baseline: both runs overlaid on elapsed time.
    html = os.path.join(OUT, "baseline.html")
    base_logs = synthetic_run(os.path.join(OUT, "base"), 120, ["hostA", "hostB"], seed=3)
    rc, _, err = fiohist(["report", "--baseline-name", "before", "-o", html] + logs +
                         sum((["--baseline", p] for p in base_logs), []))
    check(rc == 0, "baseline report written (%s)" % err[-300:])
    data, seen = check_page("baseline", html)
    check("overlay-read" in seen["charts"], "baseline: the overlay chart")
    v = data.get("verdicts", {})
    check(v.get("overall") in ("pass", "improvement", "inconclusive", "regression") and
          len(v.get("rows", [])) >= 4 and any(h.startswith("Verdicts against the baseline") for h in seen["sections"]),
          "baseline: the verdict table (%s, %d rows)" % (v.get("overall"), len(v.get("rows", []))))

    # --png: one picture per chart, by headless Chromium.
    png = os.path.join(OUT, "sample-png")
    shutil.rmtree(png, ignore_errors=True)
    rc, _, err = fiohist(["report", "--png", png, "-o", os.path.join(OUT, "sample2.html")] + SAMPLE_LOGS)
    data, _ = page_data(os.path.join(OUT, "sample2.html"))
    sizes = {c["id"]: os.path.getsize(os.path.join(png, c["id"] + ".png"))
             if os.path.exists(os.path.join(png, c["id"] + ".png")) else 0 for c in data["charts"]}
    check(rc == 0 and all(s > 10000 for s in sizes.values()),
          "--png: a PNG per chart %s (%s)" % (sizes, err[-300:]))
    env = dict(os.environ, FIOHIST_CHROMIUM="/nonexistent/chromium")
    rc, _, err = fiohist(["report", "--png", png, "-o", os.path.join(OUT, "x.html")] + SAMPLE_LOGS, env)
    check(rc == 1 and "Chromium" in err, "--png without Chromium: a clear error (%s)" % err.strip()[-200:])


def accuracy_case():
    """--accuracy: a chart of the windows per direction, each window within its target."""
    html = os.path.join(OUT, "accuracy.html")
    rc, _, err = fiohist(["report", "--accuracy", "p99=10%", "-o", html] + SAMPLE_LOGS)
    check(rc == 0, "accuracy report written (%s)" % err[-300:])
    data, seen = check_page("accuracy", html)
    ws = data["main"].get("windows", [])
    check(len(ws) > 0 and any(c["kind"] == "accuracy" for c in data["charts"]),
          "accuracy: windows and their charts (%d series)" % len(ws))
    k = data["main"]["percentiles"].index("p99")
    for w in ws:
        for i in range(len(w["t"]) - 1):  # the last window may end short of the target
            v = w["p"][k][i]
            check(w["lo"][k][i] >= 0.9 * v - 1 and w["hi"][k][i] <= 1.1 * v + 1,
                  "accuracy: %s window %d within 10%%" % (w["dir"], i))
    check(data["main"]["accuracy"] == ["p99=10%"], "accuracy: the targets named")
    rc, _, err = fiohist(["report", "--accuracy", "p99=10", "-o", html] + SAMPLE_LOGS)
    check(rc == 2 and "percentage" in err, "accuracy: p99=10 is a usage error (%d)" % rc)


def bad_input_cases():
    # --accuracy with a baseline: refused before any work (no page, no connection tried;
    # nothing listens on port 1).
    page = os.path.join(OUT, "accuracy-baseline.html")
    for extra in (["--baseline", SAMPLE_LOGS[0]],
                  ["--baseline-run", "old", "--es-url", "http://127.0.0.1:1"]):
        rc, _, err = fiohist(["report", "--accuracy", "p99=10%", "-o", page] + extra + SAMPLE_LOGS)
        check(rc == 2 and "--accuracy" in err and extra[0] in err and not os.path.exists(page),
              "--accuracy with %s: refused before any work (%d: %s)" % (extra[0], rc, err.strip()[-200:]))
    rc, _, err = fiohist(["report", "-o", os.path.join(OUT, "x.html"), os.path.join(OUT, "none.log")])
    check(rc == 1 and "none.log" in err, "a log that does not exist: error naming it (%s)" % err.strip()[-200:])
    fine = synthetic_run(os.path.join(OUT, "fine"), 10, ["hostA"], columns=1856)
    coarse = synthetic_run(os.path.join(OUT, "coarse"), 10, ["hostA"], columns=116)
    rc, _, err = fiohist(["report", "-o", os.path.join(OUT, "x.html"), "--baseline", coarse[0]] + fine)
    check(rc == 1 and "bucket layout" in err and "fio3-g29-c4" in err,
          "a baseline of another layout: a clear error (%s)" % err.strip()[-300:])
    empty = os.path.join(OUT, "empty", "e_clat_hist.1.log.h")
    os.makedirs(os.path.dirname(empty), exist_ok=True)
    with open(empty, "w") as f:
        for s in range(1, 4):
            f.write(log_line(1795000000000 + 1000 * s, 116, []))
    rc, _, err = fiohist(["report", "-o", os.path.join(OUT, "x.html"), empty])
    check(rc == 1 and "no I/O" in err, "a run without I/O: a clear error (%s)" % err.strip()[-300:])


STALL = os.path.join(HERE, "..", "data", "stalls", "stall")


def iops_of(run, d, res):
    s = series(run, "", d, res)
    sec = res * run["quantum_ms"] / 1000
    return [n / sec for n in s["n"]]


def placement_cases():
    """The toggle between both placements (docs/stalls.md) on the recorded fsfreeze run."""
    logs = sorted(glob.glob(os.path.join(STALL, "stall_clat_hist.*.log.gz")))
    html = os.path.join(OUT, "stall.html")
    rc, _, err = fiohist(["report", "--quiet", "-o", html] + logs)
    check(rc == 0, "stall report written (%s)" % err[-300:])
    data, seen = check_page("stall", html, toggle=True)
    main, other = data["main"], data.get("other_placement", {})
    check(main.get("placement", "completion") == "completion" and other.get("placement") == "issue"
          and "series" in other, "stall: opens where I/Os completed, holds where they were issued")
    issue = dict(main, **other)
    t = seen["toggle"]
    check(t["before"]["placement"] == "completion" and t["after"]["placement"] == "issue",
          "stall: the toggle switched to the issue view (%s -> %s)" % (t["before"]["placement"], t["after"]["placement"]))
    iops = next(c for c in data["charts"] if c["kind"] == "iops")
    res = seen["charts"]["iops"]["resolution"]
    for view, run in (("before", main), ("after", issue)):
        got = t[view]["charts"]["iops"]["y"]
        want = iops_of(run, iops["dirs"][0], res)
        check(len(got) == len(want) and all(abs(a - b) < 1e-6 * max(1, b) for a, b in zip(got, want)),
              "stall: IOPS chart %s the toggle draws the %s placement's series" % (view, view == "after" and "issue" or "completion"))
    check(t["before"]["charts"]["iops"]["y"] != t["after"]["charts"]["iops"]["y"],
          "stall: the two placements differ around the freeze")
    lat = t["after"]["charts"]["latency-all"]["y"]
    want = [p if n > 0 else None for p, n in zip(series(issue, "", "all", seen["charts"]["latency-all"]["resolution"])["p"][0],
                                                   series(issue, "", "all", seen["charts"]["latency-all"]["resolution"])["n"])]
    check(lat == want, "stall: the latency chart draws the issue view's p50 after the toggle")
    cto = series(issue, "", "all", 1).get("cto", [])
    check(len(cto) >= 2 and "partial" in t["after"]["text"] and "complete only up to" in t["after"]["text"],
          "stall: the issue view names its partial last quanta and their complete_to (%s; %s)" % (cto, t["after"]["text"][:300]))
    check("issued" in t["after"]["text"] and "completed" in t["before"]["text"],
          "stall: the page names the placement shown")
    # --place issue: the page opens on the issue view.
    html2 = os.path.join(OUT, "stall-issue.html")
    rc, _, err = fiohist(["report", "--quiet", "--place", "issue", "-o", html2] + logs)
    d2, _ = page_data(html2)
    check(rc == 0 and d2["main"].get("placement") == "issue" and d2["other_placement"]["placement"] == "completion"
          and series(d2["main"], "", "all", 1)["n"] == series(issue, "", "all", 1)["n"],
          "stall: report --place issue opens on the issue view")
    # A fio JSON input has no issue view: the page says why.
    html3 = os.path.join(OUT, "stall-status.html")
    status = os.path.join(OUT, "stall-status.json")
    with gzip.open(os.path.join(STALL, "fio.json.gz"), "rb") as f, open(status, "wb") as g:
        shutil.copyfileobj(f, g)
    rc, _, err = fiohist(["report", "--quiet", "-o", html3, status])
    d3, _ = page_data(html3)
    refused = d3.get("other_placement", {}).get("refused", "")
    check(rc == 0 and "fio JSON" in refused, "stall: a status stream's page says why it has no issue view (%s)" % refused[:120])
    print("     stall: %d bytes with both placements" % os.path.getsize(html))


def es_cases():
    url = os.environ["FIOHIST_ES_URL"]
    conn = ["--es-url", url, "--index-prefix", "rptest"]
    rc, _, err = fiohist(["push", "--run", "rp-sample"] + conn + SAMPLE_LOGS)
    check(rc == 0, "sample pushed (%s)" % err[-300:])
    html = os.path.join(OUT, "es.html")
    rc, _, err = fiohist(["report", "--run", "rp-sample", "-o", html] + conn)
    check(rc == 0, "report --run from Elasticsearch (%s)" % err[-300:])
    if rc == 0:
        data, seen = check_page("es", html)
        check(data["main"]["source"]["kind"] == "elasticsearch" and data["main"]["source"]["documents"] > 0,
              "es: the page says the data came from Elasticsearch")
        logs_html = os.path.join(OUT, "es-logs.html")
        fiohist(["report", "-o", logs_html] + SAMPLE_LOGS)
        a, _ = page_data(html)
        b, _ = page_data(logs_html)
        pa = series(a["main"], "", "all", 1)["p"]
        pb = series(b["main"], "", "all", 1)["p"]
        check(pa == pb, "es: read-back percentiles equal those of the logs")
    # A run pushed placed at issue is drawn so, and the page names it (no toggle: one was pushed).
    rc, _, err = fiohist(["push", "--run", "rp-issue", "--place", "issue"] + conn + SAMPLE_LOGS)
    check(rc == 0, "sample pushed placed at issue (%s)" % err[-300:])
    html = os.path.join(OUT, "es-issue.html")
    rc, _, err = fiohist(["report", "--run", "rp-issue", "-o", html] + conn)
    if rc == 0:
        data, _ = page_data(html)
        check(data["main"].get("placement") == "issue" and "other_placement" not in data,
              "es: report --run names the placement the run document says was pushed")
    else:
        check(False, "report --run of a run pushed at issue (%s)" % err[-300:])
    rc, _, err = fiohist(["report", "--run", "no-such-run", "-o", os.path.join(OUT, "x.html")] + conn)
    check(rc == 1 and "no run of that name" in err, "a run that does not exist: %s" % err.strip()[-200:])
    rc, _, err = fiohist(["report", "--run", "rp-sample", "--from", "2030-01-01T00:00:00Z",
                          "-o", os.path.join(OUT, "x.html")] + conn)
    check(rc == 1 and "holds nothing there" in err, "an empty window: %s" % err.strip()[-200:])


def main():
    os.makedirs(OUT, exist_ok=True)
    if MODE == "es":
        es_cases()
    else:
        bad_input_cases()
        browser_cases()
        placement_cases()
    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
