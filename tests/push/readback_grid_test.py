#!/usr/bin/env python3
"""Read-back keeps the run's grid: on logs whose quanta start off the whole second, `fiohist
pctiles --run` (from the bucket documents) places its quanta, and the windows of every coarser
--quantum, at the run document's grid_origin_ms + k x their length, exactly where `fiohist
pctiles` from the logs and push's coarser percentile documents place them, with the same
statistics.

The shared epoch2 logs are copied with every stamp moved by 277 ms, so the grid the logs
choose (`--grid logs`, the default) lies ~0.3 s off the whole second (any origin that is no
multiple of 1000 ms would do; the check asserts it is one).

Usage: readback_grid_test.py FIOHIST LOGDIR  (env: FIOHIST_ES_URL)
"""
import csv
import glob
import gzip
import io
import math
import os
import subprocess
import sys
import tempfile
import urllib.error
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

FIOHIST, LOGDIR = sys.argv[1], sys.argv[2]
URL = os.environ["FIOHIST_ES_URL"]
PREFIX = "rbgrid"
RUN = "readback-grid"
SHIFT_MS = 277
CHECKS = testlib.Checks()
check = CHECKS.check


def es(method, path, body=None):
    """A request; an HTTP error (deleting indices that do not exist yet) as {"error": ...}."""
    try:
        return testlib.es_request(URL, method, path, body)
    except urllib.error.HTTPError as e:
        return {"error": e.read().decode(errors="replace")}


def fiohist(args):
    env = dict(os.environ)
    env.pop("FIOHIST_ES_URL", None)
    p = subprocess.run([FIOHIST] + args, capture_output=True, text=True, env=env, timeout=600)
    if p.returncode != 0:
        print(f"$ fiohist {' '.join(args[:8])} ...: exit {p.returncode}\n{p.stderr[-1500:]}")
    return p.returncode, p.stdout


def shifted_logs(tmp):
    """The logs with every record's stamp (first field, Unix-epoch ms) moved by SHIFT_MS."""
    out = []
    for src in sorted(glob.glob(os.path.join(LOGDIR, "*_clat_hist.*.log*"))):
        opener = gzip.open if src.endswith(".gz") else open
        name = os.path.basename(src).replace(".gz", "")
        dst = os.path.join(tmp, name)
        with opener(src, "rt") as f, open(dst, "w") as g:
            for line in f:
                stamp, rest = line.split(",", 1)
                g.write(f"{int(stamp) + SHIFT_MS},{rest}")
        out.append(dst)
    return out


def table(text):
    """{start_ms: row} of the cluster/all rows of a pctiles CSV."""
    return {int(r["start_ms"]): r for r in csv.DictReader(io.StringIO(text))
            if r["scope"] == "cluster" and r["direction"] == "all"}


def same(a, b):
    """The statistics that must agree: I/Os and the percentiles (same sums, up to the order
    of floating-point additions)."""
    for k in ("samples", "p50", "p99", "p99.9"):
        x, y = a.get(k, ""), b.get(k, "")
        if (x == "") != (y == ""):
            return False
        if x and not math.isclose(float(x), float(y), rel_tol=1e-9, abs_tol=1e-9):
            return False
    return True


def main():
    common = ["--scope", "cluster", "--direction", "all", "--quiet"]
    with tempfile.TemporaryDirectory() as tmp:
        logs = shifted_logs(tmp)
        check(len(logs) == 4, f"{len(logs)} shifted logs")
        es("DELETE", f"/{PREFIX}-*")
        rc, _ = fiohist(["push", "--es-url", URL, "--index-prefix", PREFIX, "--run", RUN,
                         "--quiet"] + logs)
        check(rc == 0, "push of the shifted logs")
        es("POST", f"/{PREFIX}-*/_refresh")
        hits = es("POST", f"/{PREFIX}-runs*/_search",
                  {"query": {"term": {"run": RUN}}}).get("hits", {}).get("hits", [])
        doc = hits[0]["_source"] if hits else {}
        origin, quantum = doc.get("grid_origin_ms"), int(round(doc.get("quantum_s", 0) * 1000))
        check(doc.get("grid") == "logs" and origin is not None and quantum > 0 and
              origin % 1000 != 0,
              f"run document: grid {doc.get('grid')!r}, grid_origin_ms {origin} (off the whole "
              f"second), quantum {quantum} ms")
        if origin is None or quantum <= 0:
            return 1
        for multiple in (1, 5, 10):
            q = ["--quantum", str(multiple * quantum / 1000)] if multiple > 1 else []
            rc1, out_logs = fiohist(["pctiles"] + common + q + logs)
            rc2, out_back = fiohist(["pctiles", "--es-url", URL, "--index-prefix", PREFIX,
                                     "--run", RUN] + common + q)
            want, got = table(out_logs), table(out_back)
            span = multiple * quantum
            on_grid = all((s - origin) % span == 0 for s in got)
            check(rc1 == 0 and rc2 == 0 and got and on_grid,
                  f"x{multiple}: read-back's {len(got)} windows start at grid_origin_ms + k x "
                  f"{span} ms (first {min(got) if got else None})")
            check(set(got) == set(want) and all(same(got[s], want[s]) for s in want),
                  f"x{multiple}: read-back equals pctiles from the logs, window by window "
                  f"({len(want)} windows; starts differ: "
                  f"{sorted(set(got) ^ set(want))[:3]})")
            if multiple == 10:
                # push's own coarser documents: the same windows.
                r = es("POST", f"/{PREFIX}-pctiles*/_search", {
                    "size": 1000, "_source": ["@timestamp"],
                    "docvalue_fields": [{"field": "@timestamp", "format": "epoch_millis"}],
                    "query": {"bool": {"filter": [
                        {"term": {"run": RUN}}, {"term": {"scope": "cluster"}},
                        {"term": {"directions": "all"}}, {"term": {"resolution": 10}}]}}})
                docs = {int(float(h["fields"]["@timestamp"][0]))
                        for h in r.get("hits", {}).get("hits", [])}
                check(docs and docs == set(got),
                      f"push's resolution-10 documents start where read-back's x10 windows "
                      f"do ({sorted(docs)[:3]} vs {sorted(got)[:3]})")
        es("DELETE", f"/{PREFIX}-*")
    print(f"=== {len(CHECKS.failures)} failed")
    return 1 if CHECKS.failures else 0


if __name__ == "__main__":
    sys.exit(main())
