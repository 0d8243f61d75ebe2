#!/usr/bin/env python3
"""Zoomed-out dashboards stay exact: every value a panel draws is the exact statistic of the
time span of its point.

  check_zoom.py FIOHIST GEN_CORPUS [--variant elasticsearch|opensearch] [--mutate]

Generates a long run (more than 1000 quanta) and a short one (bench/'s corpus generator: 2
hosts x 1 job x 2400 s, and x 30 s, of 1 s records), pushes each to the node at
FIOHIST_ES_URL with `fiohist push`, then, for the last 1 h, 6 h and 24 h, sends every
pctiles query of the overview (latency percentiles and max, IOPS, p99 per host) as Grafana
would with the interval Grafana picks for that range (grafana_es.py), and the comparison's
elapsed-time queries with steps 10 and 60 s. Each point must equal, within 1e-9 relative,
the row of `fiohist pctiles --quantum R` (R: the resolution the point's document comes from,
the finest written not finer than the interval, as the run document lists them) for the
same window. And at every zoom, from 1 s to 1000 h intervals, the zoom filter selects
exactly one document per point: the documents of one resolution, one per window of
`pctiles --quantum R`. The short run fits one window of 600 quanta: push leaves out 3600
and 36000 (they would repeat it), so 600 must serve every wider zoom.

--mutate drops the resolution filter from the queries (the dashboards as they were: the max
of per-quantum percentiles in each interval) and passes only if the percentile comparisons
then fail: proof that the check bites. Exit 0 = passed.
"""
import glob
import math
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_live as live  # noqa: E402
import dashlib as dl  # noqa: E402
import grafana_es as g  # noqa: E402

RUN = "dashcheck-zoom"
RANGES_MS = {"1h": 3600000, "6h": 6 * 3600000, "24h": 24 * 3600000}
ZOOM_CLAUSE = re.compile(r" AND zoom_gt_ms:<\S+ AND zoom_le_ms:>=\S+")


def pctiles_rows(fiohist, logs, quantum_s, start):
    cmd = [fiohist, "pctiles", "--quantum", str(quantum_s), "--scope", "cluster,host",
           "--direction", "all", "--start-time", start] + logs
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:6])}: exit {r.returncode}: {r.stderr[-800:]}")
    return live.read_csv(r.stdout)


def column(field):
    """CSV column of a document field: p99_9 -> p99.9."""
    m = re.fullmatch(r"(p\d+(?:_\d+)?)(_low|_high)?", field)
    return m.group(1).replace("_", ".") + (m.group(2) or "") if m else field


DOC_NS_US = 0.5e-3 + 1e-9


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    # Documents hold latencies in whole nanoseconds (docs/documents.md), the CSV the exact
    # interpolation: half a nanosecond apart at most, in the tests' unit (us).
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=DOC_NS_US)


class Zoom:
    def __init__(self, es, fiohist, logs, start, resolutions, quantum_ms, first_ms, mutate):
        self.es, self.fiohist, self.logs, self.start = es, fiohist, logs, start
        self.resolutions, self.quantum_ms, self.first_ms = resolutions, quantum_ms, first_ms
        self.mutate = mutate
        self.csv = {}
        self.compared = {"percentile": [0, 0], "other": [0, 0]}  # [points, differing]

    def rows(self, multiple):
        if multiple not in self.csv:
            self.csv[multiple] = pctiles_rows(self.fiohist, self.logs,
                                              multiple * self.quantum_ms / 1000, self.start)
        return self.csv[multiple]

    def resolution_for(self, interval_ms):
        """The finest resolution not finer than the interval (the coarsest past it)."""
        for m in self.resolutions:
            if m * self.quantum_ms >= interval_ms:
                return m
        return self.resolutions[-1]

    def query(self, ds, panel, target, frm, to, interval_ms, variables):
        if self.mutate:
            target = dict(target, query=ZOOM_CLAUSE.sub("", target["query"]))
        body, tt = g.build_target_request(target, ds["timeField"], frm, to, interval_ms,
                                          variables)
        return g.parse_response(self.es.msearch(ds["index"], body), tt)

    def compare(self, label, got, want, kind):
        keys = sorted(set(got) | set(want))
        bad = [(k, got.get(k), want.get(k)) for k in keys if not close(got.get(k), want.get(k))]
        self.compared[kind][0] += len(keys)
        self.compared[kind][1] += len(bad)
        if not keys:
            live.fail(f"{label}: no points")
        elif bad:
            live.fail(f"{label}: {len(bad)} of {len(keys)} points differ, e.g. " + "; ".join(
                f"{k}: dashboard {a} vs pctiles {b}" for k, a, b in bad[:3]))
        else:
            live.ok(f"{label}: {len(keys)} points equal fiohist pctiles")

    def overview(self, ds_by_uid, dashboard, name, frm, to):
        # The grid origin as Grafana resolves it from the run document (check_live.py checks
        # that resolution): the date histograms' offset.
        variables = g.Variables(dashboard, {"run": [self.run], "direction": "all",
                                            "scope": "cluster",
                                            "host": "$__all", "job": "$__all",
                                            "grid_origin_ms": str(self.grid_origin_ms)})
        for p in dashboard["panels"]:
            for t in p.get("targets", []):
                # The zoom filter is what is checked here: the clamped points and the band of
                # one percentile (its bounds where it has them, grey points where it rests on
                # too few I/Os: a subset of the documents) are checked by check_live.py. The
                # percentile lines leave out their few_ios values, as the CSV rows below do.
                if "pctiles" not in t["datasource"]["uid"] or "clamped:true" in t["query"] \
                        or "few_ios:$" in t["query"]:
                    continue
                off = g.date_histogram_offset_ms(t, variables)
                ds = ds_by_uid[t["datasource"]["uid"]]
                min_iv = g.parse_duration_ms(p.get("interval") or ds.get("timeInterval") or
                                             "10ms")
                iv = g.auto_interval_ms(frm, to, min_iv, p.get("maxDataPoints"))
                m = self.resolution_for(iv)
                out = self.query(ds, p, t, frm, to, iv, variables)
                rows = [r for r in self.rows(m) if frm <= r["start_ms"] <= to]
                by_host = any(b.get("field") == "host" for b in t["bucketAggs"])
                for metric in t["metrics"]:
                    # A direction's statistic is a field of its object (`all.p99`); the CSV
                    # (of direction all) names the statistic.
                    shown = variables.plain(metric["field"])
                    if not shown.startswith("all."):
                        continue  # another direction's (the IOPS panel draws each)
                    field = live.bare(shown)
                    name_ = f"{metric['type']} {shown}"
                    for host in sorted({r["host"] for r in rows if r["host"]}) if by_host \
                            else [None]:
                        want = {g.bucket_start(r["start_ms"], iv, off): r[column(field)]
                                for r in rows
                                if r["scope"] == ("host" if by_host else "cluster") and
                                (host is None or r["host"] == host) and
                                r[column(field)] is not None and not live.flagged(r, field)}
                        labels = (("run", self.run),) + ((("host", host),) if by_host else ())
                        if any(b.get("field") == "direction" for b in t["bucketAggs"]):
                            labels += (("direction", "all"),)
                        got = dict(out["series"].get((labels, name_), []))
                        kind = "percentile" if re.fullmatch(r"p\d+(_\d+)?", field) else "other"
                        self.compare(f"[{name}, interval {iv} ms, resolution {m}] panel "
                                     f"{p['id']} {name_}" + (f" host {host}" if host else ""),
                                     got, want, kind)

    def comparison(self, ds_by_uid, dashboard, step_s):
        variables = g.Variables(dashboard, {"run": [self.run], "direction": "all",
                                            "elapsed_step": str(step_s)})
        m = self.resolution_for(step_s * 1000)
        rows = [r for r in self.rows(m) if r["scope"] == "cluster"]
        for p in dashboard["panels"]:
            if p["type"] != "xychart":
                continue
            for t in p["targets"]:
                ds = ds_by_uid[t["datasource"]["uid"]]
                out = self.query(ds, p, t, 0, 2 ** 42, 1000, variables)
                metric = dict(t["metrics"][0])
                shown = variables.plain(metric["field"])
                metric["field"] = live.bare(shown)
                col = f"{metric['type']} {shown}"
                got = {r["elapsed_s"]: r[col] for r in out["rows"]
                       if r.get("run") == self.run}
                want = {}
                for r in rows:
                    elapsed = (r["start_ms"] - self.first_ms) / 1000
                    if r[column(metric["field"])] is not None and \
                            not live.flagged(r, metric["field"]):
                        want[math.floor(elapsed / step_s) * step_s] = r[column(metric["field"])]
                kind = "percentile" if metric["field"].startswith("p") else "other"
                self.compare(f"[compare, step {step_s} s, resolution {m}] panel {p['id']} {col}",
                             got, want, kind)


ZOOMS_MS = [1000 * 10 ** (k / 2) for k in range(13)]  # 1 s .. 1000 h, two per decade


def one_per_point(zoom, es, run):
    """At each zoom interval I, the documents of the zoom filter (cluster, all directions) are
    those of one resolution, one per window of `pctiles --quantum R` of the logs."""
    for iv in ZOOMS_MS:
        iv = int(iv)
        m = zoom.resolution_for(iv)
        q = {"bool": {"filter": [
            {"term": {"run": run}}, {"term": {"scope": "cluster"}},
            {"term": {"directions": "all"}},
            {"range": {"zoom_gt_ms": {"lt": iv}}}, {"range": {"zoom_le_ms": {"gte": iv}}}]}}
        code, r = es.call("POST", "/fiohist-pctiles*/_search", {
            "size": 10000, "query": q, "_source": ["@timestamp", "resolution"]})
        hits = r.get("hits", {}).get("hits", []) if code == 200 else []
        res = sorted({h["_source"]["resolution"] for h in hits})
        stamps = [h["_source"]["@timestamp"] for h in hits]
        windows = [row for row in zoom.rows(m) if row["scope"] == "cluster"]
        if res == [m] and len(stamps) == len(set(stamps)) == len(windows):
            live.ok(f"[zoom {iv} ms] one document per point: {len(stamps)} of resolution {m}")
        else:
            live.fail(f"[zoom {iv} ms] the zoom filter selects {len(stamps)} documents of "
                      f"resolutions {res} ({len(set(stamps))} distinct times); want one per "
                      f"window of resolution {m}: {len(windows)}")


def check_run(es, fiohist, gen, tmp, run, seconds, mutate):
    """Generates, pushes and checks one run; returns its Zoom (the counts compared)."""
    logs_dir = os.path.join(tmp, run)
    subprocess.run([gen, "--hosts", "2", "--jobs", "1", "--seconds", str(seconds), "--out",
                    logs_dir], check=True, capture_output=True)
    logs = sorted(p for p in glob.glob(os.path.join(logs_dir, "*clat_hist*")))
    live.delete_runs(es, [run])
    # The generator's logs have relative stamps: the run is placed 3 hours ago, at a
    # moment that is no multiple of any resolution (windows are cut at multiples).
    start = str((int(time.time()) - 3 * 3600) // 3600 * 3600 + 1234)
    cmd = [fiohist, "push", "--es-url", es.url, "--run", run, "--scope", "cluster,host",
           "--direction", "all", "--quiet", "--start-time", start] + logs
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        live.fail(f"fiohist push exit {r.returncode}: {r.stderr[-1500:]}")
        return None
    es.call("POST", "/fiohist-*/_refresh")
    code, run_doc = es.call("POST", "/fiohist-runs*/_search", {"query": {"term": {"run": run}}})
    src = run_doc["hits"]["hits"][0]["_source"]
    resolutions, quantum_ms = src["resolutions"], int(src["quantum_s"] * 1000)
    zoom = Zoom(es, fiohist, logs, start, resolutions, quantum_ms, 0, mutate)
    zoom.run = run
    zoom.grid_origin_ms = int(src.get("grid_origin_ms", 0))
    fine = zoom.rows(1)
    zoom.first_ms = int(min(r["start_ms"] for r in fine))
    end = int(max(r["end_ms"] for r in fine))
    print(f"run {run}: {len(fine)} rows of 1 quantum ({len(fine) // 3} quanta), resolutions "
          f"{resolutions}{' (MUTATED: resolution filter removed)' if mutate else ''}")
    ds_by_uid = {d["uid"]: d for d in dl.parse_datasources_yaml()}
    dashboards = dl.load_dashboards()
    for fname, d in dashboards.items():
        if d.get("uid", "").startswith("fiohist-overview"):
            for name, span in RANGES_MS.items():
                zoom.overview(ds_by_uid, d, f"{run}, last {name}", end + 1000 - span, end + 1000)
        if d.get("uid", "").startswith("fiohist-compare"):
            for step in (10, 60):
                zoom.comparison(ds_by_uid, d, step)
    if not mutate:
        one_per_point(zoom, es, run)
    live.delete_runs(es, [run])
    return zoom


def main():
    args = [a for a in sys.argv[1:] if a != "--mutate"]
    mutate = "--mutate" in sys.argv
    if "--variant" in args:  # the dashboards of that engine (dashboards/generate.py)
        i = args.index("--variant")
        dl.use_variant(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    fiohist, gen = args
    _, es = live.connect()
    if es is None:
        return 1
    live.install_templates(es)
    compared = {"percentile": [0, 0], "other": [0, 0]}
    with tempfile.TemporaryDirectory() as tmp:
        for run, seconds in ((RUN, 2400), (RUN + "-short", 30)):
            zoom = check_run(es, fiohist, gen, tmp, run, seconds, mutate)
            if zoom is None:
                return 1
            for kind in compared:
                compared[kind] = [a + b for a, b in zip(compared[kind], zoom.compared[kind])]
    pct, other = compared["percentile"], compared["other"]
    print(f"=== percentile points {pct[0]} ({pct[1]} differ), other points {other[0]} "
          f"({other[1]} differ); {len(live.failures)} failed checks")
    if mutate:
        if pct[1] > 0:
            print(f"mutation caught: without the resolution filter {pct[1]} percentile points "
                  "differ from the exact values")
            return 0
        print("mutation NOT caught: the max of per-quantum percentiles passed the check")
        return 1
    if pct[0] == 0:
        print("FAIL: nothing compared")
        return 1
    return 1 if live.failures else 0


if __name__ == "__main__":
    sys.exit(main())
