#!/usr/bin/env python3
"""Live check of the overview's stall annotations against a real node (FIOHIST_ES_URL), with
the recorded stall runs of tests/data/stalls pushed by fiohist itself.

  check_stalls.py FIOHIST_BINARY STALLS_DATA_DIR [--variant opensearch]

1. `fiohist push` of the fsfreeze run's hist logs (stall/), `push --out` + `load` of the same
   logs as a second run, `push` of the thinktime run (idle/). The summary lines on stderr
   ("fiohist: stall (cluster): no I/O completed from A to B (3.1 s); 12 I/O(s) ...") are the
   truth the annotations must show.
2. Each stall annotation of the overview (dashboards/grafana: its data source, query, time,
   end, text and tags fields) runs as Grafana sends it (grafana_es.py: the run variable
   substituted, the dashboard's time range = the run's span, as push's dashboard link and the
   runs table set it), and the hits become annotation events as Grafana makes them: one per
   summary line of its scope and kind, time = the line's start, end = its end, the text the
   report's ("stall 3.1 s: 2 I/Os stuck, slowest 3.09 s") with the line's numbers, tags
   kind, scope (and host). Cluster stalls and idle gaps are on by default, host ones off.
   A range starting inside the stall still shows it (Grafana also matches the end field).
3. Pushing again changes nothing (same ids); `fiohist delete --run` removes them.
Exit 0 = all passed."""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_live as cl  # noqa: E402
import dashlib as dl  # noqa: E402
import grafana_es as g  # noqa: E402
from check_alerts import iso_ms  # noqa: E402

failures, passes, fail, ok = cl.failures, cl.passes, cl.fail, cl.ok

# fiohist's summary line of a stall (output/summary_sink.cc).
LINE = re.compile(r"^fiohist: (?P<kind>stall|idle) \((?P<scope>cluster|host (?P<host>\S+))\): "
                  r"no I/O completed from (?P<start>\S+) to (?P<end>\S+) \((?P<secs>[\d.]+) s\); "
                  r"(?P<stuck>\d+) I/O\(s\) stuck in it, the slowest (?P<ms>\d+) ms$")


def fiohist(argv):
    print("$ fiohist " + " ".join(os.path.basename(a) if "/" in a else a for a in argv[1:]),
          flush=True)
    return subprocess.run(argv, capture_output=True, text=True)


def summary_stalls(stderr):
    """[(kind, scope, host, start_ms, end_ms, secs, stuck, slowest_ms)] of the summary lines."""
    out = []
    for line in stderr.splitlines():
        m = LINE.match(line)
        if m:
            out.append((m["kind"], "cluster" if m["scope"] == "cluster" else "host",
                        m["host"] or "", iso_ms(m["start"]), iso_ms(m["end"]), float(m["secs"]),
                        int(m["stuck"]), int(m["ms"])))
    return out


def fmt_ns(ns):
    """A latency as the report names it (report.js fmtNs)."""
    div, unit = next((d, u) for d, u in ((1e9, "s"), (1e6, "ms"), (1e3, "\u00b5s"), (1, "ns"))
                     if abs(ns) >= d or d == 1)
    v = ns / div
    return f"{v:.{0 if v >= 100 else 1 if v >= 10 else 2}f} {unit}"


def stall_docs(es, run):
    code, resp = es.call("POST", "/fiohist-stalls*/_search?ignore_unavailable=true",
                         {"size": 1000, "query": {"term": {"run": run}}})
    if code != 200:
        fail(f"searching the stall documents of {run}: HTTP {code} {json.dumps(resp)[:300]}")
        return []
    return resp["hits"]["hits"]


def run_span(es, run):
    code, resp = es.call("POST", "/fiohist-runs*/_search",
                         {"size": 1, "query": {"term": {"run": run}}})
    hits = resp.get("hits", {}).get("hits", []) if code == 200 else []
    if not hits:
        fail(f"no run document of {run}")
        return None
    src = hits[0]["_source"]
    return src["start_ms"], src["end_ms"], src.get("stalls", [])


def check_run(es, ds_map, run, lines, want_kinds):
    """The stall annotations of the overview show exactly `lines` (summary_stalls) for `run`."""
    span = run_span(es, run)
    if span is None:
        return
    frm, to, summary = span
    if len(summary) == len(lines):
        ok(f"{run}: the run document keeps its `stalls` summary ({len(summary)} entries)")
    else:
        fail(f"{run}: run document has {len(summary)} stalls, the summary printed {len(lines)}")
    d = next(d for d in dl.load_dashboards().values() if d["uid"].startswith("fiohist-overview"))
    variables = g.Variables(d, {"run": [run]})
    shown = []
    for a in d["annotations"]["list"]:
        ds = ds_map.get(dl.ds_uid(a.get("datasource")))
        if not ds or "stalls" not in ds["index"]:
            continue
        resp = es.msearch(ds["index"], g.annotation_request(a, frm, to, variables))
        if "error" in resp:
            fail(f"annotation {a['name']!r}: {json.dumps(resp['error'])[:300]}")
            continue
        events = g.annotation_events(a, resp["hits"]["hits"])
        scope = "host" if "scope:host" in dl.annotation_query(a) else "cluster"
        kind = re.search(r"kind:(\w+)", dl.annotation_query(a))
        want = [ln for ln in lines if ln[1] == scope and (not kind or ln[0] == kind.group(1))]
        on = a.get("enable", True)
        if on != (scope == "cluster"):
            fail(f"annotation {a['name']!r}: enable {on}, expected cluster ones on, host off")
        got = sorted((e["time"], e["timeEnd"], e["text"], tuple(e["tags"])) for e in events)
        expected = []
        for k, sc, host, start, end, secs, stuck, slow_ms in want:
            text = f"idle {secs:.1f} s" if k == "idle" else \
                f"stall {secs:.1f} s: {stuck} I/Os stuck, slowest {fmt_ns(slow_ms * 1e6)}"
            expected.append((start, end, text, tuple([k, sc] + ([host] if host else []))))
        expected.sort()
        if got == expected:
            ok(f"{run}: annotation {a['name']!r} ({'on' if on else 'off'} by default): "
               f"{len(got)} event(s) as the summary names them: "
               + "; ".join(f"{t} [{', '.join(tags)}]" for _, _, t, tags in got[:2]))
        else:
            fail(f"{run}: annotation {a['name']!r}: events {got}, expected {expected}")
        shown += got
        # Zoomed in after the stall began: Grafana also matches the end field.
        for start, end, text, _ in expected[:1]:
            mid = (start + end) // 2
            resp = es.msearch(ds["index"], g.annotation_request(a, mid, mid + 60000, variables))
            if any(e["time"] == start for e in g.annotation_events(a, resp["hits"]["hits"])):
                ok(f"{run}: annotation {a['name']!r}: a range from inside the gap shows it")
            else:
                fail(f"{run}: annotation {a['name']!r}: a range from inside the gap misses it")
    kinds = {t[3][0] for t in shown}
    if len(shown) == len(lines) and kinds == want_kinds:
        ok(f"{run}: every summary line is one annotation event ({len(shown)}, kinds "
           f"{sorted(kinds)})")
    else:
        fail(f"{run}: {len(shown)} events of kinds {sorted(kinds)} for {len(lines)} summary "
             f"lines, expected kinds {sorted(want_kinds)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fiohist")
    ap.add_argument("data", help="tests/data/stalls")
    ap.add_argument("--variant", choices=sorted(dl.VARIANTS), default="elasticsearch")
    ap.add_argument("--run", default="stallcheck")
    args = ap.parse_args()
    dl.use_variant(args.variant)
    url, es = cl.connect()
    if es is None:
        return 1
    ds_map = {ds["uid"]: ds for ds in dl.parse_datasources_yaml()}
    stall_logs = sorted(glob.glob(os.path.join(args.data, "stall", "*_clat_hist.*.log.gz")))
    idle_logs = sorted(glob.glob(os.path.join(args.data, "idle", "*_clat_hist.*.log.gz")))
    run, loaded, idle = args.run, args.run + "-load", args.run + "-idle"
    for r in (run, loaded, idle):
        fiohist([args.fiohist, "delete", "--es-url", url, "--run", r])

    # 1. Push, push --out + load, push of the idle run.
    p = fiohist([args.fiohist, "push", "--es-url", url, "--run", run] + stall_logs)
    lines = summary_stalls(p.stderr)
    if p.returncode != 0 or not lines:
        print(f"FAIL: push exited {p.returncode} with {len(lines)} stall lines:\n"
              f"{p.stderr[-2000:]}")
        return 1
    m = re.search(r"bucket, 1 run, (\d+) stall\)", p.stderr)
    if m and int(m.group(1)) == len(lines):
        ok(f"push: {m.group(0)}: one document per summary line")
    else:
        fail(f"push's closing line does not count {len(lines)} stall documents: "
             f"{[ln for ln in p.stderr.splitlines() if 'documents (' in ln]}")
    with tempfile.TemporaryDirectory(prefix="fiohist-stalls-") as tmp:
        out = os.path.join(tmp, "out")
        p2 = fiohist([args.fiohist, "push", "--out", out, "--run", loaded, "--quiet"] +
                     stall_logs)
        l2 = fiohist([args.fiohist, "load", out, "--es-url", url, "--quiet"])
        if p2.returncode != 0 or l2.returncode != 0:
            fail(f"push --out / load exited {p2.returncode} / {l2.returncode}: "
                 f"{(p2.stderr + l2.stderr)[-800:]}")
    p3 = fiohist([args.fiohist, "push", "--es-url", url, "--run", idle] + idle_logs)
    idle_lines = summary_stalls(p3.stderr)
    if p3.returncode != 0 or not idle_lines:
        fail(f"push of the idle run exited {p3.returncode} with {len(idle_lines)} lines")
    es.call("POST", "/fiohist-*/_refresh")

    # 2. The annotations as Grafana draws them.
    check_run(es, ds_map, run, lines, {"stall"})
    check_run(es, ds_map, loaded, lines, {"stall"})
    check_run(es, ds_map, idle, idle_lines, {"idle"})

    # The saved searches (the stalls' among them) on these runs.
    cl.check_saved_searches(es, dl.KIBANA_NDJSON if args.variant == "elasticsearch"
                            else dl.OSD_NDJSON, [run, idle])

    # 3. Idempotent re-push, and delete.
    before = sorted(h["_id"] for h in stall_docs(es, run))
    p = fiohist([args.fiohist, "push", "--es-url", url, "--run", run, "--quiet"] + stall_logs)
    es.call("POST", "/fiohist-stalls*/_refresh")
    after = sorted(h["_id"] for h in stall_docs(es, run))
    if p.returncode == 0 and before == after and len(after) == len(lines):
        ok(f"push again: the same {len(after)} stall documents (same ids), no duplicate")
    else:
        fail(f"push again: {len(before)} stall documents before, {len(after)} after")
    for r in (run, loaded, idle):
        d = fiohist([args.fiohist, "delete", "--es-url", url, "--run", r])
        es.call("POST", "/fiohist-stalls*/_refresh")
        left = stall_docs(es, r)
        if d.returncode == 0 and not left:
            ok(f"delete --run {r}: its stall documents are gone")
        else:
            fail(f"delete --run {r}: exit {d.returncode}, {len(left)} stall documents left")
    print(f"=== {passes[0]} ok, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
