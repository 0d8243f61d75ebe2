#!/usr/bin/env python3
"""Live check of the Grafana dashboards against a real Elasticsearch (FIOHIST_ES_URL).

  check_live.py FIOHIST_BINARY LOG_DIR   push LOG_DIR's logs with `fiohist push` (twice, as two
                                         runs), and compare with `fiohist pctiles`
  check_live.py --synthetic              index hand-made documents (docs/documents.md) instead

Installs the index templates from mappings/ (the buckets fallback where the node has no
`histogram` type), then translates every Elasticsearch target, template variable and annotation
of every dashboard into the request Grafana would send (grafana_es.py), runs it, and asserts
it returns data. Then the cluster p99 series of the overview and of the run comparison, the
cluster IOPS, the clamped-quantum count and the annotations must equal fiohist's own CSV
(`fiohist pctiles --scope cluster --direction all LOGS`) for the same run, and the per-host p99
series `fiohist pctiles --scope host --direction all LOGS`. Queries needing the
`histogram` field type are skipped, saying so, where the node lacks it. The saved searches of
Kibana (or, with --variant opensearch, of OpenSearch Dashboards) are run too.

  --variant opensearch   check the OpenSearch variant (dashboards/grafana/dashboards-opensearch,
                         generated; FIOHIST_ES_URL is then an OpenSearch node)
Exit 0 = all passed."""

import argparse
import csv
import glob
import io
import json
import math
import re
import os
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dashlib as dl  # noqa: E402
import grafana_es as g  # noqa: E402
import synthetic_run as syn  # noqa: E402

failures, skips, passes = [], [], [0]



def bare(field):
    """A percentile document's field without its direction's object (pctiles_version 2:
    `all.p99` -> `p99`), as the CSV names the column."""
    return re.sub(r"^(?:read|write|trim|all)\.", "", field or "")

def fail(msg):
    failures.append(msg)
    print("FAIL " + msg, flush=True)


def ok(msg):
    passes[0] += 1
    print("ok   " + msg, flush=True)


def skip(msg):
    skips.append(msg)
    print("SKIP " + msg, flush=True)


class Es:
    def __init__(self, url):
        self.url = url.rstrip("/")

    def call(self, method, path, body=None, ndjson=False):
        data = None
        headers = {}
        if body is not None:
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            headers["Content-Type"] = "application/x-ndjson" if ndjson else "application/json"
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            text = e.read().decode(errors="replace")
            try:
                return e.code, json.loads(text)
            except json.JSONDecodeError:
                return e.code, {"error": text}

    def msearch(self, index, body):
        lines = json.dumps({"search_type": "query_then_fetch", "ignore_unavailable": True,
                            "index": index}) + "\n" + json.dumps(body) + "\n"
        code, resp = self.call("POST", "/_msearch", lines, ndjson=True)
        if code != 200:
            raise RuntimeError(f"_msearch HTTP {code}: {json.dumps(resp)[:600]}")
        return resp["responses"][0]


def connect():
    """(url, Es) of the node that FIOHIST_ES_URL names, once its cluster is at least yellow
    (waiting up to 30 s); (None, None) after a FAIL line when the variable is unset or the
    cluster is not healthy."""
    url = os.environ.get("FIOHIST_ES_URL")
    if not url:
        print("FAIL: FIOHIST_ES_URL is not set (the URL of an Elasticsearch or OpenSearch node)")
        return None, None
    es = Es(url)
    code, health = es.call("GET", "/_cluster/health?wait_for_status=yellow&timeout=30s")
    if code != 200:
        print(f"FAIL: the node at {url} is not healthy (cluster status yellow or green within "
              f"30 s): HTTP {code} {health}")
        return None, None
    return url, es


def install_templates(es):
    """Same logic as dashboards/setup/setup.sh. Returns True when `histogram` is available."""
    for name, f in (("fiohist-pctiles", "fiohist-pctiles.json"),
                    ("fiohist-runs", "fiohist-runs.json")):
        code, resp = es.call("PUT", f"/_index_template/{name}",
                             dl.load_json(os.path.join(dl.MAPPINGS, f)))
        if code != 200:
            raise RuntimeError(f"template {name}: HTTP {code} {resp}")
    code, resp = es.call("PUT", "/_index_template/fiohist-buckets",
                         dl.load_json(os.path.join(dl.MAPPINGS, "fiohist-buckets.json")))
    if code == 200:
        return True
    if "histogram" not in json.dumps(resp):
        raise RuntimeError(f"template fiohist-buckets: HTTP {code} {resp}")
    print("note: this node has no `histogram` field type; installed "
          "fiohist-buckets-nohistogram.json instead")
    code, resp = es.call("PUT", "/_index_template/fiohist-buckets",
                         dl.load_json(os.path.join(dl.MAPPINGS,
                                                   "fiohist-buckets-nohistogram.json")))
    if code != 200:
        raise RuntimeError(f"fallback template: HTTP {code} {resp}")
    return False


def bulk(es, docs):
    lines = []
    for index, id_, src in docs:
        lines.append(json.dumps({"index": {"_index": index, "_id": id_}}))
        lines.append(json.dumps(src))
    code, resp = es.call("POST", "/_bulk?refresh=true", "\n".join(lines) + "\n", ndjson=True)
    if code != 200 or resp.get("errors"):
        bad = [i for i in resp.get("items", []) if i["index"].get("error")][:3]
        raise RuntimeError(f"_bulk HTTP {code}: {json.dumps(bad)[:800]}")


def delete_runs(es, runs):
    """Removes earlier documents of these runs (the integ-test build has no _delete_by_query:
    search the ids, then bulk-delete them)."""
    total = 0
    for index in ("fiohist-pctiles*", "fiohist-buckets*", "fiohist-runs*"):
        while True:
            code, resp = es.call("POST", f"/{index}/_search", {
                "size": 5000, "_source": False, "query": {"terms": {"run": runs}}})
            hits = resp.get("hits", {}).get("hits", []) if code == 200 else []
            if not hits:
                break
            lines = "".join(json.dumps({"delete": {"_index": h["_index"], "_id": h["_id"]}})
                            + "\n" for h in hits)
            code, resp = es.call("POST", "/_bulk?refresh=true", lines, ndjson=True)
            if code != 200 or resp.get("errors"):
                raise RuntimeError(f"deleting old documents: HTTP {code}")
            total += len(hits)
    if total:
        print(f"deleted {total} documents of earlier checks of {runs}")


def read_csv(text):
    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows:
        raise RuntimeError("fiohist pctiles printed no rows")
    want = syn.CSV_HEADER.split(",")
    missing = [c for c in want if c not in rows[0]]
    if missing:
        raise RuntimeError(f"fiohist pctiles CSV lacks columns {missing}")

    def num(x):
        return float(x) if x not in (None, "") else None
    return [{k: (v if k in ("start", "scope", "host", "job", "direction", "lower_bound", "partial",
                                "few_ios")
                 else num(v)) for k, v in r.items()} for r in rows]


def push_logs(es, es_url, binary, log_dir, runs):
    """Push the logs as each run name; return fiohist's cluster CSV."""
    logs = sorted(p for p in glob.glob(os.path.join(log_dir, "*clat_hist*"))
                  if os.path.isfile(p))
    if not logs:
        raise RuntimeError(f"no *clat_hist* logs in {log_dir}")
    h = subprocess.run([binary, "push", "--help"], capture_output=True, text=True)
    if "--es-url" not in h.stdout + h.stderr or "--run" not in h.stdout + h.stderr:
        raise RuntimeError(f"{binary} has no `push` subcommand (yet): `fiohist push --help` "
                           f"said: {(h.stdout + h.stderr).strip()[:300]!r}")
    delete_runs(es, runs)
    for run in runs:
        # A tag and a label, so the runs table has every column to show.
        cmd = [binary, "push", "--es-url", es_url, "--run", run, "--tag", "dashcheck",
               "--label", "check=live"] + logs
        print("$ " + " ".join(cmd[:10]) + f" <{len(logs)} logs>", flush=True)
        r = subprocess.run(cmd, capture_output=True, text=True)
        sys.stdout.write(r.stdout[-2000:] + r.stderr[-2000:])
        if r.returncode != 0:
            raise RuntimeError(f"fiohist push exited {r.returncode}")
    out = []
    for scope in ("cluster", "host"):
        cmd = [binary, "pctiles", "--scope", scope, "--direction", "all"] + logs
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"fiohist pctiles exited {r.returncode}: {r.stderr[-1000:]}")
        out.append(r.stdout)
    return out


DOC_NS_US = 0.5e-3 + 1e-9


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    # Documents hold latencies in whole nanoseconds (docs/documents.md), the CSV the exact
    # interpolation: half a nanosecond apart at most, in the tests' unit (us).
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=DOC_NS_US)


def flagged(r, value):
    """The CSV row's `value` rests on too few I/Os for an upper bound (few_ios: p99.9;...)."""
    return column(value) in (r.get("few_ios") or "").split(";")


def column(field):
    """CSV column of a document field: p99_9 -> p99.9."""
    return field.replace("_", ".") if re.fullmatch(r"p\d+(?:_\d+)?", field) else field


def grouped(rows, key, width, value, how=max, offset=0, few="leave out"):
    """{bucket key: how(values)} of CSV rows grouped like a histogram of width `width` whose
    buckets start at `offset` + k x width (a date histogram's offset). Percentiles flagged
    few_ios are left out, as the panels' lines leave them out (few="only": only those, the
    grey points)."""
    acc = {}
    for r in rows:
        if r[column(value)] is None or flagged(r, value) != (few == "only"):
            continue
        k = offset + math.floor((r[key] - offset) / width) * width
        acc.setdefault(k, []).append(r[column(value)])
    return {k: how(v) for k, v in acc.items()}


def compare(label, got, want):
    keys = sorted(set(got) | set(want))
    bad = [(k, got.get(k), want.get(k)) for k in keys if not close(got.get(k), want.get(k))]
    if not want:
        fail(f"{label}: the CSV has no values to compare with")
    elif bad:
        fail(f"{label}: {len(bad)} of {len(keys)} points differ, e.g. "
             + "; ".join(f"{k}: dashboard {a} vs CSV {b}" for k, a, b in bad[:4]))
    else:
        ok(f"{label}: {len(keys)} points equal fiohist's CSV")


def field_type(es, index, field):
    code, resp = es.call("GET", f"/{index}/_mapping/field/{field}")
    for idx in resp.values() if code == 200 else []:
        m = idx.get("mappings", {}).get(field, {}).get("mapping", {})
        for v in m.values():
            return v.get("type", "object")
    return None


class Checker:
    def __init__(self, es, ds, histogram, runs, csv_rows, frm, to, host_rows):
        self.es, self.ds, self.histogram = es, ds, histogram
        self.host_rows = host_rows
        self.runs, self.csv, self.frm, self.to = runs, csv_rows, frm, to
        self.primary = runs[0]
        self.clamped_rows = [r for r in csv_rows if (r["top_bucket"] or 0) > 0]
        self.quantum_ms = min(r["end_ms"] - r["start_ms"] for r in csv_rows)
        # The primary run's grid (its run document; 0 where it has none, like the dashboards).
        code, resp = es.call("POST", "/fiohist-runs*/_search",
                             {"query": {"term": {"run": self.primary}}})
        hits = resp.get("hits", {}).get("hits", []) if code == 200 else []
        self.grid_origin_ms = int(hits[0]["_source"].get("grid_origin_ms", 0)) if hits else 0

    def ds_of(self, ref):
        d = self.ds.get(dl.ds_uid(ref))
        if d is None:
            raise RuntimeError(f"data source {ref} is not provisioned")
        return d

    def needs_histogram(self, t):
        d = self.ds_of(t["datasource"])
        lat = [m for m in t.get("metrics", []) if m.get("field") == "latency"] + \
            [b for b in t.get("bucketAggs", []) if b.get("field") == "latency"]
        return bool(lat) and d["index"].startswith("fiohist-buckets")

    def run_pass(self, name, dashboards, values, only_with=None, full=False):
        self.sel = values["run"]
        print(f"--- pass {name}: " + ", ".join(f"{k}={v}" for k, v in values.items()))
        data_range = (self.frm, self.to)
        for fname, d in dashboards.items():
            variables = g.Variables(d, self.resolve_open(d, values))
            # A dashboard whose default range spans years (run comparison) is checked with that
            # range, as a user opening it sees it; the others with the runs' own time range.
            self.frm, self.to = data_range
            since = d.get("time", {}).get("from", "")
            if since.startswith("now-") and g.parse_duration_ms(since[4:]) >= g.UNITS_MS["y"]:
                self.to = int(time.time() * 1000)
                self.frm = self.to - g.parse_duration_ms(since[4:])
            if full:
                self.check_variables(fname, d, variables)
                self.check_annotations(fname, d, variables)
            for p in dl.iter_panels(d):
                if p.get("type") == "row":
                    continue
                text = json.dumps(p.get("targets", []))
                if only_with and not set(dl.variable_refs(text)) & set(only_with):
                    continue
                for t in p.get("targets", []):
                    self.check_target(fname, d, p, t, variables, name, full)
        self.frm, self.to = data_range

    def resolve_open(self, d, values):
        """`values` plus the query variables it leaves open (the run's grid origin), as
        Grafana resolves them on load: its query, then the current value if offered, else the
        first key, else All."""
        values = dict(values)
        for v in d.get("templating", {}).get("list", []):
            if v.get("type") != "query" or v["name"] in values:
                continue
            ds = self.ds_of(v["datasource"])
            body = g.variable_request(v, ds["timeField"], self.frm, self.to,
                                      g.Variables(d, values))
            resp = self.es.msearch(ds["index"], body)
            keys = [b["key"] for b in resp.get("aggregations", {}).get("1", {}).get("buckets", [])]
            values[v["name"]] = g.query_variable_value(v, keys)
        return values

    def check_variables(self, fname, d, variables):
        for v in d.get("templating", {}).get("list", []):
            if v.get("type") != "query":
                continue
            ds = self.ds_of(v["datasource"])
            body = g.variable_request(v, ds["timeField"], self.frm, self.to, variables)
            resp = self.es.msearch(ds["index"], body)
            if "error" in resp:
                fail(f"{fname} variable {v['name']}: {json.dumps(resp['error'])[:300]}")
                continue
            keys = [b["key"] for b in resp["aggregations"]["1"]["buckets"]]
            label = f"{fname} variable ${v['name']}"
            if v["name"] == "run":
                missing = [r for r in self.sel if r not in keys]
                if missing:
                    fail(f"{label}: runs {missing} not offered (got {keys[:10]})")
                else:
                    ok(f"{label}: offers {len(keys)} runs incl. {self.sel}")
            elif v["name"] == "grid_origin_ms":
                want = self.grid_origin_ms
                got = g.query_variable_value(v, keys)
                got = v.get("allValue") if got == "$__all" else got
                if self.sel == [self.primary] and str(want) != got:
                    fail(f"{label}: {got!r}, the run document of {self.primary} says {want}")
                else:
                    ok(f"{label}: {got!r} (offered {keys})")
            elif v["name"] == "direction" and "all" not in keys:
                fail(f"{label}: 'all' not offered (got {keys})")
            elif v["name"] == "op" and not keys:
                ok(f"{label}: none (a fio run: no document carries op, all pass)")
            elif not keys:
                fail(f"{label}: no values")
            else:
                ok(f"{label}: {keys[:6]}{' ...' if len(keys) > 6 else ''}")

    def check_annotations(self, fname, d, variables):
        for a in d.get("annotations", {}).get("list", []):
            if a.get("builtIn"):
                continue
            ds = self.ds_of(a["datasource"])
            resp = self.es.msearch(ds["index"], g.annotation_request(a, self.frm, self.to,
                                                                     variables))
            if "error" in resp:
                fail(f"{fname} annotation {a['name']}: {json.dumps(resp['error'])[:300]}")
                continue
            hits = [h["_source"] for h in resp["hits"]["hits"]]
            mine = [h for h in hits if h.get("run") == self.primary]
            for h in mine:
                for key in ("timeField", "textField", "tagsField"):
                    if a.get(key) and g.source_field(h, a[key]) is None:
                        fail(f"{fname} annotation: hit lacks {a[key]}")
                        return
            if "stalls" in ds["index"]:
                # These runs have no stall (check_stalls.py pushes runs with stalls).
                if mine:
                    fail(f"{fname} annotation {a['name']!r}: {len(mine)} hits for "
                         f"{self.primary}, a run without stalls")
                else:
                    ok(f"{fname} annotation {a['name']!r}: accepted, no stall in "
                       f"{self.primary}")
            elif "sla_breach:true" in dl.annotation_query(a):
                # These runs were pushed without --sla (check_alerts.py pushes with).
                if mine:
                    fail(f"{fname} annotation {a['name']!r}: {len(mine)} hits for "
                         f"{self.primary}, pushed without SLA thresholds")
                else:
                    ok(f"{fname} annotation {a['name']!r}: accepted, no SLA breach of a run "
                       "without thresholds")
            elif len(mine) == len(self.clamped_rows):
                ok(f"{fname} annotation {a['name']!r}: {len(mine)} clamped cluster quanta for "
                   f"{self.primary}, as in the CSV")
            else:
                fail(f"{fname} annotation {a['name']!r}: {len(mine)} hits for {self.primary}, "
                     f"the CSV has {len(self.clamped_rows)} quanta with top_bucket > 0")

    def check_target(self, fname, d, p, t, variables, pass_name, full):
        label = f"[{pass_name}] {fname} panel {p['id']} {p['title']!r} {t['refId']}"
        if self.needs_histogram(t) and not self.histogram:
            where = ("OpenSearch has none: the panel stays empty there"
                     if dl.VARIANT["type"] != "elasticsearch"
                     else "integ-test build / fallback mapping; runs on the default distribution")
            skip(f"{label}: needs the `histogram` field type (`latency`), which this node lacks "
                 f"({where}). " + self.stand_in(p, t, variables))
            return
        ds = self.ds_of(t["datasource"])
        frm, to = g.panel_time_range(p, self.frm, self.to)
        min_iv = g.parse_duration_ms(p.get("interval") or ds.get("timeInterval") or "10ms")
        iv = g.auto_interval_ms(frm, to, min_iv, p.get("maxDataPoints"))
        body, tt = g.build_target_request(t, ds["timeField"], frm, to, iv, variables)
        try:
            resp = self.es.msearch(ds["index"], body)
            out = g.parse_response(resp, tt)
        except RuntimeError as e:
            fail(f"{label}: {e}")
            return
        points = sum(1 for s in out["series"].values() for _, v in s if v is not None)
        n = points + len(out["rows"]) + len(out["hits"])
        # Queries that may rightly find nothing here: clamped quanta, SLA breaches (these
        # runs have no thresholds) and live runs (these are finished; check_alerts.py
        # checks the live table with a running run), and the interval band and grey points
        # of a percentile resting on too few I/Os (few_ios), which depend on the counts.
        conditional = any(x in tt["query"] for x in ("clamped:true", "sla_breach:true",
                                                       "few_ios:")) or \
            ("state:running" in tt["query"] and "NOT state:running" not in tt["query"])
        if n == 0 and not conditional:
            fail(f"{label}: no data (query {tt['query']!r}, interval {iv} ms)")
            print("     request: " + json.dumps(body)[:1500])
            return
        ok(f"{label}: {len(out['series'])} series / {points} points, {len(out['rows'])} rows, "
           f"{len(out['hits'])} docs (interval {iv} ms)")
        if full:
            self.specific(label, p, t, tt, out, iv, variables)
            if self.sel == [self.primary] and "few_ios:$" not in t["query"] and \
                    not any(x in tt["query"] for x in ("clamped:true", "sla_breach:true")) and \
                    any(b["type"] == "date_histogram" for b in t["bucketAggs"]):
                self.on_grid(label, p, t, variables, ds)

    def on_grid(self, label, p, t, variables, ds):
        """The run's grid in the panel: at intervals from a tenth of a quantum to ten quanta
        (where the zoom filter draws documents whose span the interval divides), every date
        histogram bucket starts at the @timestamp of a selected document, i.e. at one of the
        run's quanta or coarser windows (grid_origin_ms + k x their span), and holds exactly
        one document per series (percentile documents; bucket documents are one per job).
        Without the offset, the same request must put buckets elsewhere whenever the run's
        origin is no multiple of the interval: proof that the check bites."""
        off = g.date_histogram_offset_ms(t, variables)
        if self.sel == [self.primary] and off != self.grid_origin_ms:
            fail(f"{label}: date histogram offset {off} ms, the run's grid_origin_ms is "
                 f"{self.grid_origin_ms}")
            return
        pctiles = ds["index"].startswith("fiohist-pctiles")
        checked, moved = [], 0
        q = int(round(self.quantum_ms))
        for iv in sorted({q // 10, q // 5, q // 2, q, 2 * q, 5 * q, 10 * q}):
            body, tt = g.build_target_request(t, ds["timeField"], self.frm, self.to, iv,
                                              variables)
            times = ["@timestamp", "end"] if pctiles else ["@timestamp"]
            docs = dict(body, size=10000, _source=False, docvalue_fields=[
                {"field": f, "format": "epoch_millis"} for f in times])
            docs.pop("aggs")
            code, resp = self.es.call("POST", f"/{ds['index']}/_search", docs)
            hits = [{k: int(float(v[0])) for k, v in h.get("fields", {}).items()}
                    for h in resp.get("hits", {}).get("hits", [])]
            if not hits:
                continue
            stamps = {h["@timestamp"] for h in hits}
            span = max([h["end"] - h["@timestamp"] for h in hits if "end" in h] or [q])
            if span % iv:
                continue  # drawn at a wider interval than a document: not one per bucket
            keys = self.bucket_counts(self.es.msearch(ds["index"], body), tt)
            off_grid = [k for k in keys if k[1] not in stamps]
            several = [k for k, n in keys.items() if pctiles and n != 1]
            if off_grid or several or not keys:
                fail(f"{label}: interval {iv} ms: {len(off_grid)} of {len(keys)} buckets start "
                     f"off the run's quanta (e.g. {off_grid[:3]}), {len(several)} hold other "
                     f"than one document")
                return
            checked.append(f"{iv} ms: {len(keys)}")
            if (off - 0) % iv:
                t0 = json.loads(json.dumps(t))
                for b in t0["bucketAggs"]:
                    b.get("settings", {}).pop("offset", None)
                body0, tt0 = g.build_target_request(t0, ds["timeField"], self.frm, self.to, iv,
                                                    variables)
                keys0 = self.bucket_counts(self.es.msearch(ds["index"], body0), tt0)
                moved += sum(1 for k in keys0 if k[1] not in stamps)
        if not checked:
            fail(f"{label}: no interval drew documents to check the grid with")
            return
        proof = (f"; without the offset {moved} buckets start off them" if moved else
                 " (origin 0: the offset changes nothing)" if off == 0 else "")
        if off and not moved:
            fail(f"{label}: without the offset the buckets start on the run's quanta too: "
                 "the check does not bite")
            return
        ok(f"{label}: buckets on the run's grid (origin {off} ms), one document each, at "
           f"intervals {', '.join(checked)} buckets{proof}")

    @staticmethod
    def bucket_counts(resp, t):
        """{(labels of the outer buckets, date histogram key): doc_count}."""
        if "error" in resp:
            raise RuntimeError(json.dumps(resp["error"])[:600])
        aggs = t["bucketAggs"]
        out = {}

        def walk(node, depth, labels):
            b = aggs[depth]
            for bk in node[b["id"]]["buckets"]:
                if b["type"] == "date_histogram":
                    out[(labels, int(bk["key"]))] = bk["doc_count"]
                else:
                    walk(bk, depth + 1, labels + ((b["field"], bk["key"]),))
        walk(resp.get("aggregations", {}), 0, ())
        return out

    def stand_in(self, p, t, variables):
        """Sends the skipped request with `latency` replaced by the numeric `p99` of the
        percentile documents, so at least its shape (aggregations, settings, query) is
        proven acceptable to Elasticsearch."""
        t2 = json.loads(json.dumps(t).replace('"latency"', '"p99"'))
        t2["datasource"] = {"type": dl.VARIANT["type"], "uid": dl.VARIANT["uid_prefix"] + "pctiles"}
        ds = self.ds_of(t2["datasource"])
        min_iv = g.parse_duration_ms(p.get("interval") or ds.get("timeInterval") or "10ms")
        iv = g.auto_interval_ms(self.frm, self.to, min_iv, p.get("maxDataPoints"))
        body, tt = g.build_target_request(t2, ds["timeField"], self.frm, self.to, iv, variables)
        try:
            out = g.parse_response(self.es.msearch(ds["index"], body), tt)
        except RuntimeError as e:
            fail(f"stand-in request for panel {p['id']} rejected: {e}")
            return "Its stand-in request on p99 was REJECTED."
        n = sum(1 for s in out["series"].values() for _, v in s if v is not None)
        return f"Same request on stand-in field p99: accepted, {len(out['series'])} series / {n} points."

    def specific(self, label, p, t, tt, out, iv, variables):
        """Value checks of the cluster/all pass against fiohist's CSV."""
        run_key = (("run", self.primary),)
        # With `partial` on hide, the panels leave out the quanta fiohist flags partial (at
        # the quantum's resolution; coarser windows are always drawn).
        # The comparison picks its resolution by $elapsed_step, the overview by the interval.
        span_ms = (float(variables.plain("$elapsed_step")) * 1000 if p["type"] == "xychart"
                   else iv)
        hide = ("$partial" in t.get("query", "") and variables.plain("$partial") == "false"
                and span_ms <= self.quantum_ms)

        def visible(rows):
            return [r for r in rows if not (hide and r.get("partial") == "true")]
        # As interpolated: a direction's statistic is a field of its object (`all.p99`);
        # the CSV's column is the statistic (pctiles_version 2, docs/documents.md).
        metrics = {m["id"]: m for m in tt["metrics"]}
        off = g.date_histogram_offset_ms(t, variables)
        if "clamped:true" in tt["query"] and any(m["type"] == "count" for m in metrics.values()):
            total = sum(v or 0 for s in out["series"].values() for _, v in s)
            want = len(visible(self.clamped_rows))
            if self.sel != [self.primary]:
                ok(f"{label}: {total} clamped quanta over {self.sel}")
            elif total == want:
                ok(f"{label}: {total} clamped quanta, as in the CSV of {self.primary}")
            else:
                fail(f"{label}: {total} clamped quanta, CSV of {self.primary} has {want}")
        if p["type"] == "timeseries" and "clamped:true" not in tt["query"]:
            for m in metrics.values():
                field = m.get("field") or ""
                f = bare(field)
                if re.fullmatch(r"p\d+(?:_\d+)?", f) and m["type"] == "max" and \
                        "$scope" in t["query"] and "$band" not in t["query"]:
                    # Lines leave out the values resting on too few I/Os; the grey points
                    # (few_ios on show) are exactly those.
                    grey = "few_ios:${few_ios:raw}" in t["query"]
                    shown = variables.plain("$few_ios") != "none"
                    got = dict(out["series"].get((run_key, f"max {field}"), []))
                    want = grouped(visible(self.csv), "start_ms", iv, f, offset=off,
                                   few=("only" if grey else "leave out"))
                    what = (f"{label} cluster {f} of {self.primary}" +
                            (" where it rests on too few I/Os" if grey else ""))
                    if grey and not shown:
                        if got:
                            fail(f"{what}: {len(got)} grey points while few_ios is on hide")
                        else:
                            ok(f"{what}: none drawn (few_ios on hide; the CSV flags {len(want)})")
                    elif grey and not want:
                        if got:
                            fail(f"{what}: {len(got)} grey points, the CSV flags none")
                        else:
                            ok(f"{what}: none, as the CSV flags none")
                    else:
                        compare(what, got, want)
                if f == "p99" and m["type"] == "max" and any(
                        b.get("field") == "host" for b in t["bucketAggs"]):
                    hosts = sorted({r["host"] for r in self.host_rows})
                    for h in hosts:
                        got = dict(out["series"].get((run_key + (("host", h),), f"max {field}"),
                                                     []))
                        want = grouped(visible([r for r in self.host_rows if r["host"] == h]),
                                       "start_ms", iv, "p99", offset=off)
                        compare(f"{label} p99 of host {h} of {self.primary}", got, want)
                    if not hosts:
                        fail(f"{label}: fiohist pctiles --scope host printed no hosts")
                if field == "all.iops" and m["type"] == "avg":
                    key = (run_key, "avg all.iops")
                    got = dict(out["series"].get(key, []))
                    want = grouped(visible(self.csv), "start_ms", iv, "iops",
                                   how=lambda v: sum(v) / len(v), offset=off)
                    compare(f"{label} cluster IOPS of {self.primary}", got, want)
        if p["type"] == "xychart":
            m = tt["metrics"][0]
            step = float(variables.plain("$elapsed_step"))
            rows = [r for r in out["rows"] if r.get("run") == self.primary]
            runs = {r.get("run") for r in out["rows"]}
            if set(self.sel) - runs:
                fail(f"{label}: runs {set(self.sel) - runs} missing from the overlay")
            col = f"{m['type']} {m['field']}"
            got = {r["elapsed_s"]: r[col] for r in rows}
            how = max if m["type"] == "max" else (lambda v: sum(v) / len(v))
            want = grouped(visible(self.csv), "elapsed_s", step, bare(m["field"]), how=how)
            compare(f"{label} {col} by elapsed_s of {self.primary}", got, want)
        live_table = "state:running" in tt["query"] and "NOT state:running" not in tt["query"]
        if p["type"] == "table" and live_table:
            shown = [h.get("run") for h in out["hits"] if h.get("run") in self.sel]
            if shown:
                fail(f"{label}: finished runs {shown} in the live runs table")
            else:
                ok(f"{label}: none of the finished runs {self.sel} in the live runs table")
        elif p["type"] == "table":
            runs = {h.get("run"): h for h in out["hits"]}
            missing = [r for r in self.sel if r not in runs]
            names = next((tr["options"]["include"]["names"] for tr in p["transformations"]
                          if tr["id"] == "filterFieldsByName"), [])
            # logged_io_share is absent from runs pushed without fio's JSON output.
            # sla and sla_breaches only with --sla; state not in documents of older pushes.
            lacking = [n for n in names if n not in runs.get(self.primary, {}) and
                       n not in ("logged_io_share", "sla", "sla_breaches", "state")]
            if missing:
                fail(f"{label}: runs {missing} not in the summary table")
            elif lacking:
                fail(f"{label}: run document of {self.primary} lacks columns {lacking}")
            else:
                ok(f"{label}: summary rows for {self.sel} with all {len(names)} columns")
            doc = runs.get(self.primary)
            for o in p["fieldConfig"].get("overrides", []):
                links = [v for prop in o["properties"] if prop["id"] == "links"
                         for v in prop["value"]]
                for link in links if doc else []:
                    self.check_run_link(label, link["url"], doc)

        if p["type"] == "heatmap":
            bad = 0
            for times in zip(*[s for s in out["series"].values()]):
                vals = [v for _, v in times if v is not None]
                bad += any(b < a for a, b in zip(vals, vals[1:]))
            if bad:
                fail(f"{label}: percentiles not monotonic in {bad} time buckets")
            else:
                ok(f"{label}: heatmap percentiles monotonic in every time bucket")


    def check_run_link(self, label, url, doc):
        """A runs-table link, as Grafana fills it in for the primary run's row: the
        overview's must span exactly the run's quanta in fiohist's CSV."""
        def field(m):
            value = doc.get(m.group(1))
            if m.group(2) == ":percentencode":
                return urllib.parse.quote(str(value), safe="")
            return str(int(value)) if m.group(2) == ".numeric" else str(value)
        filled = re.sub(r"\$\{__data\.fields\.([A-Za-z0-9_@]+)(\.numeric|:percentencode)?\}",
                        field, url)
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(filled).query)
        if query.get("var-run") != [self.primary]:
            fail(f"{label}: link {filled} does not select run {self.primary}")
            return
        if "from" not in query:
            ok(f"{label}: link {filled}")
            return
        want = (int(min(r["start_ms"] for r in self.csv)), int(max(r["end_ms"] for r in self.csv)))
        got = (int(query["from"][0]), int(query.get("to", ["0"])[0]))
        if got == want:
            ok(f"{label}: link {filled} spans the run's quanta {want}")
        else:
            fail(f"{label}: link {filled} spans {got}, the run's quanta {want}")


def check_heatmap_totals(es, ds, dashboards, run, csv_rows, host_rows, hosts, jobs, frm, to):
    """The heatmap's own query (as Grafana interpolates it) on the buckets index, for a cluster,
    a host and a job selection: the bucket documents it selects must add up, per quantum, to
    fiohist's I/O count of that selection (the documents are per job and real direction, or
    per job and window of quanta: docs/documents.md), within one I/O per document summed. Needs no `histogram` type: it
    reads the documents' `samples`."""
    found = [(d, p, t) for d in dashboards.values() for p in dl.iter_panels(d)
             if p.get("type") == "heatmap" for t in p.get("targets", [])
             if any(m.get("field") == "latency" for m in t.get("metrics", []))]
    if not found:
        fail("heatmap totals: no heatmap target on `latency`")
        return
    d, p, t = found[0]
    index = ds[dl.ds_uid(t["datasource"])]["index"]
    base = {"run": [run], "direction": "all", "scope": "cluster", "host": "$__all",
            "job": "$__all", "elapsed_step": "1"}
    cases = [("cluster", base, csv_rows, None)]
    if hosts:
        cases.append(("host " + hosts[0], dict(base, scope="host", host=[hosts[0]]),
                      [r for r in host_rows if r["host"] == hosts[0]], None))
        # A host selection left in place does not narrow the cluster.
        cases.append(("cluster with host " + hosts[0] + " selected",
                      dict(base, host=[hosts[0]]), csv_rows, None))
    if jobs:
        cases.append(("job " + jobs[0], dict(base, scope="job", job=[jobs[0]]), None, jobs[0]))
    for name, values, want_rows, only_job in cases:
        body, tt = g.build_target_request(t, "@timestamp", frm, to, 1000,
                                          g.Variables(d, values))
        body.pop("aggs", None)
        body.update(size=10000,
                    _source=["samples", "job", "direction", "quanta.offset_ms", "quanta.samples"],
                    docvalue_fields=[{"field": "@timestamp", "format": "epoch_millis"}])
        code, resp = es.call("POST", f"/{index}/_search", body)
        if code != 200:
            fail(f"heatmap totals, {name}: HTTP {code} {json.dumps(resp)[:300]}")
            continue
        hits = resp["hits"]["hits"]
        if not hits:
            fail(f"heatmap totals, {name}: the query {tt['query']!r} selects no bucket documents")
            continue
        if only_job is not None:
            jobs_seen = {h["_source"].get("job") for h in hits}
            if jobs_seen == {only_job}:
                ok(f"heatmap totals, {name}: {len(hits)} documents, all of job {only_job}")
            else:
                fail(f"heatmap totals, {name}: documents of jobs {sorted(jobs_seen)}")
            continue
        got, docs = {}, {}
        for h in hits:
            ts = int(float(h["fields"]["@timestamp"][0]))
            src = h["_source"]
            # A record-form job document of a window (bucket_version 4) holds its quanta.
            parts = ([(ts + int(q["offset_ms"]), q["samples"]) for q in src["quanta"]]
                     if "quanta" in src else [(ts, src["samples"])])
            for at, samples in parts:
                got[at] = got.get(at, 0.0) + float(samples)
                docs[at] = docs.get(at, 0) + 1
        want = {int(r["start_ms"]): r["samples"] for r in want_rows if r["direction"] == "all"}
        bad = [(ts, got.get(ts), w) for ts, w in want.items()
               if w and abs(got.get(ts, 0.0) - w) > docs.get(ts, 1)]
        if bad or not want:
            fail(f"heatmap totals, {name}: {len(bad)} of {len(want)} quanta differ from "
                 f"fiohist's samples, e.g. {bad[:3]}")
        else:
            ok(f"heatmap totals, {name}: {len(want)} quanta, the selected bucket documents add "
               f"up to fiohist's I/O counts ({len(hits)} documents)")


def check_runs_command(es, binary, url, run):
    """`fiohist runs` shows each run's grid beside the rest: the JSON line's grid and
    grid_origin_ms, and the table's GRID column (grid+origin), as the run document says."""
    code, resp = es.call("POST", "/fiohist-runs*/_search", {"query": {"term": {"run": run}}})
    src = resp["hits"]["hits"][0]["_source"] if code == 200 and resp["hits"]["hits"] else {}
    r = subprocess.run([binary, "runs", "--es-url", url, "--json"], capture_output=True,
                       text=True)
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.strip()]
    mine = [x for x in lines if x.get("run") == run]
    want = (src.get("grid"), src.get("grid_origin_ms"))
    if r.returncode != 0 or not mine or None in want or \
            (mine[0].get("grid"), mine[0].get("grid_origin_ms")) != want:
        fail(f"fiohist runs --json: run {run} shows grid "
             f"{[(x.get('grid'), x.get('grid_origin_ms')) for x in mine]}, its run document "
             f"{want} (exit {r.returncode}: {r.stderr[-300:]})")
        return
    r = subprocess.run([binary, "runs", "--es-url", url], capture_output=True, text=True)
    head = r.stdout.splitlines()[0].split() if r.stdout else []
    row = next((x.split() for x in r.stdout.splitlines() if x.startswith(run + " ")), [])
    cell = f"{want[0]}+{int(want[1])}ms"
    if "GRID" not in head or cell not in row:
        fail(f"fiohist runs: no GRID column with {cell} for {run}: {r.stdout[:600]}")
    else:
        ok(f"fiohist runs shows the grid of {run}: --json grid {want[0]!r}, grid_origin_ms "
           f"{want[1]}; table {cell}")


def kuery_to_lucene(q):
    """The saved searches' queries are of the form `field : value and field : value`; that
    reads the same as a Lucene query_string once the spaces and `and` are Lucene's."""
    q = re.sub(r"\s*:\s*", ":", q or "")
    return re.sub(r"\s+and\s+", " AND ", q)


def check_saved_searches(es, path, runs, coarse=True):
    """Runs every saved search of `path` (Kibana or OpenSearch Dashboards objects) on the node,
    limited to `runs`: accepted, and finding documents with its columns (the clamped-quanta
    search may find none). Without `coarse` (hand-made runs have one resolution) the searches
    of coarser resolutions are skipped, and so are those of a resolution that none of the
    runs wrote (their run documents' `resolutions`: push leaves out the coarse ones that would
    repeat a finer one's single window)."""
    code, resp = es.call("POST", "/fiohist-runs*/_search",
                         {"size": 100, "query": {"terms": {"run": runs}}})
    written = {m for h in (resp.get("hits", {}).get("hits", []) if code == 200 else [])
               for m in h["_source"].get("resolutions", [])}
    objs = [json.loads(ln) for ln in open(path, encoding="utf-8") if ln.strip()]
    views = {o["id"]: o["attributes"]["title"] for o in objs if o["type"] == "index-pattern"}
    for o in objs:
        if o["type"] != "search":
            continue
        src = json.loads(o["attributes"]["kibanaSavedObjectMeta"]["searchSourceJSON"])
        index = views[o["references"][0]["id"]]
        q = src.get("query", {})
        if q.get("language") not in ("kuery", "lucene"):
            fail(f"saved search {o['id']}: query language {q.get('language')} not checked")
            continue
        text = kuery_to_lucene(q["query"]) if q["language"] == "kuery" else q["query"]
        if not coarse and re.search(r"resolution:(?!1\b)\d+", text):
            skip(f"saved search {o['id']}: the hand-made runs have no coarser resolutions")
            continue
        asked = re.search(r"resolution:(\d+)", text)
        if coarse and written and asked and int(asked.group(1)) not in written:
            skip(f"saved search {o['id']}: the runs wrote no resolution {asked.group(1)} "
                 f"(their resolutions: {sorted(written)})")
            continue
        must = [{"terms": {"run": runs}}]
        if text.strip():
            must.append({"query_string": {"query": text}})
        code, resp = es.call("POST", f"/{index}/_search",
                             {"size": 20, "query": {"bool": {"filter": must}}})
        label = f"saved search {o['id']} ({index}, {text or '*'})"
        if code != 200:
            fail(f"{label}: HTTP {code} {json.dumps(resp)[:300]}")
            continue
        hits = resp["hits"]["hits"]
        # Clamped quanta, SLA breaches and stalls may rightly be absent (runs without --sla,
        # runs without stalls).
        if not hits and "clamped" not in text and "sla_breach" not in text and \
                "stalls" not in index:
            fail(f"{label}: no documents")
            continue
        seen = set().union(*(h["_source"].keys() for h in hits)) if hits else set()
        # A column in no hit must at least be mapped: optional fields (host/job on other
        # scopes, a run's `clamped` when nothing clamped) are absent from some documents.
        def mapped(field):
            code, resp = es.call("GET", f"/{index}/_mapping/field/{field}")
            return code == 200 and any(v.get("mappings") for v in resp.values())
        missing = [c for c in o["attributes"].get("columns", [])
                   if hits and c not in seen and not mapped(c)]
        if missing:
            fail(f"{label}: columns {missing} in none of {len(hits)} documents")
        else:
            ok(f"{label}: {resp['hits']['total']['value']} documents")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fiohist", nargs="?", help="the fiohist binary")
    ap.add_argument("logs", nargs="?", help="folder of fio histogram logs to push")
    ap.add_argument("--synthetic", action="store_true", help="index hand-made documents")
    ap.add_argument("--run", default=None, help="run name (default dashcheck-<folder>)")
    ap.add_argument("--corrupt-csv", action="store_true",
                    help="self-test: scale the CSV's p99 by 1.000001 and pass only if exactly "
                         "the p99 comparisons fail")
    ap.add_argument("--variant", choices=sorted(dl.VARIANTS), default="elasticsearch",
                    help="which dashboards: the Elasticsearch ones or the generated OpenSearch "
                         "ones (default elasticsearch)")
    args = ap.parse_args()
    dl.use_variant(args.variant)
    if not args.synthetic and not (args.fiohist and args.logs):
        ap.error("give FIOHIST_BINARY LOG_DIR, or --synthetic")
    url, es = connect()
    if es is None:
        return 1
    try:
        histogram = install_templates(es)
        if args.synthetic:
            base = args.run or "dashcheck-synthetic"
            runs = [base, base + "-b"]
            delete_runs(es, runs)
            now = int(time.time()) * 1000
            docs_a, rows = syn.make_run(runs[0], now - 2 * 3600 * 1000, 1, clamp_quantum=9)
            docs_b, _ = syn.make_run(runs[1], now - 26 * 3600 * 1000, 2)
            bulk(es, docs_a + docs_b)
            csv_texts = [syn.csv_text([r for r in rows if r[4] == "cluster"]),
                         syn.csv_text([r for r in rows if r[4] == "host"])]
            print(f"indexed {len(docs_a) + len(docs_b)} synthetic documents for {runs}")
        else:
            base = args.run or "dashcheck-" + os.path.basename(os.path.normpath(args.logs))
            runs = [base, base + "-b"]
            csv_texts = push_logs(es, url, args.fiohist, args.logs, runs)
            es.call("POST", "/fiohist-*/_refresh")
        csv_rows = read_csv(csv_texts[0])
        host_rows = read_csv(csv_texts[1])
        if args.corrupt_csv:
            for r in csv_rows + host_rows:
                r["p99"] = r["p99"] * 1.000001 if r["p99"] is not None else None
    except (RuntimeError, OSError) as e:
        print(f"FAIL: {e}")
        return 1
    for index, field, want in (("fiohist-pctiles*", "all.p99", "double"),
                               ("fiohist-pctiles*", "run", "keyword"),
                               ("fiohist-pctiles*", "@timestamp", "date"),
                               ("fiohist-runs*", "run", "keyword")):
        got = field_type(es, index, field)
        if got != want:
            fail(f"{index} maps {field} as {got}, the dashboards need {want} (indices created "
                 "before the templates? delete them and push again)")
    want_fmt = dl.load_json(os.path.join(dl.MAPPINGS, "fiohist-pctiles.json"))[
        "template"]["mappings"]["properties"]["@timestamp"]["format"]
    for index in ("fiohist-pctiles*", "fiohist-buckets*", "fiohist-runs*"):
        code, resp = es.call("GET", f"/{index}/_mapping/field/@timestamp")
        for name, idx in (resp.items() if code == 200 else []):
            got = idx["mappings"].get("@timestamp", {}).get("mapping", {}).get(
                "@timestamp", {}).get("format")
            if got != want_fmt:
                fail(f"index {name} maps @timestamp with format {got!r}, the template says "
                     f"{want_fmt!r} (created by an older template? delete it and push again)")
    lat = field_type(es, "fiohist-buckets*", "latency")
    histogram = histogram and lat == "histogram"
    print(f"buckets index maps latency as {lat}; histogram queries "
          f"{'run' if histogram else 'are skipped'}")

    ds = {d["uid"]: d for d in dl.parse_datasources_yaml()}
    # The tag history needs a tag's series and its change points: compare.es checks it
    # (tests/compare/compare_es_test.py), on the runs it pushes and annotates.
    dashboards = {f: d for f, d in dl.load_dashboards().items()
                  if not d.get("uid", "").startswith("fiohist-history")}
    # The runs' span from their quanta (coarser resolutions' windows reach beyond it).
    code, agg = es.call("POST", "/fiohist-pctiles*/_search", {
        "size": 0, "query": {"bool": {"filter": [{"terms": {"run": runs}},
                                                 {"term": {"resolution": 1}}]}},
        "aggs": {"lo": {"min": {"field": "@timestamp"}}, "hi": {"max": {"field": "end"}},
                 "hosts": {"terms": {"field": "host", "size": 100}},
                 "jobs": {"terms": {"field": "job", "size": 100}},
                 "dirs": {"terms": {"field": "directions", "size": 10}}}})
    if code != 200 or agg["hits"]["total"]["value"] == 0:
        print(f"FAIL: no percentile documents for {runs} ({code})")
        return 1
    frm = int(agg["aggregations"]["lo"]["value"]) - 1000
    to = int(agg["aggregations"]["hi"]["value"] or agg["aggregations"]["lo"]["value"]) + 1000
    hosts = [b["key"] for b in agg["aggregations"]["hosts"]["buckets"]]
    jobs = [b["key"] for b in agg["aggregations"]["jobs"]["buckets"]]
    dirs = [b["key"] for b in agg["aggregations"]["dirs"]["buckets"] if b["key"] != "all"]
    print(f"runs {runs}: {agg['hits']['total']['value']} percentile documents, hosts {hosts}, "
          f"{len(jobs)} jobs, directions {dirs}, time range {frm}..{to}")
    # The primary run alone over its own time range: panel intervals come out at (or below)
    # the quantum, so every dashboard point is one quantum and must equal the CSV row.
    p_lo = int(min(r["start_ms"] for r in csv_rows)) - 1000
    p_hi = int(max(r["end_ms"] for r in csv_rows)) + 1000
    ck = Checker(es, ds, histogram, runs, csv_rows, p_lo, p_hi, host_rows)
    base = {"run": [runs[0]], "direction": "all", "scope": "cluster", "host": "$__all",
            "job": "$__all", "elapsed_step": "1"}
    ck.run_pass(f"{runs[0]}, cluster/all", dashboards, base, full=True)
    # Partial quanta shown: every quantum of the CSV again.
    ck.run_pass(f"{runs[0]}, partial quanta shown", dashboards, dict(base, partial="true"),
                only_with=["partial"], full=True)
    # Values resting on too few I/Os shown as grey points (hidden from the lines either way);
    # with partial quanta shown, as the few I/Os of epoch2 are those of its partial quanta.
    ck.run_pass(f"{runs[0]}, too few I/Os shown", dashboards,
                dict(base, few_ios="*", partial="true"), only_with=["few_ios"], full=True)
    # Both runs over a range covering both (multi-value variable, overlay, summary rows).
    ck = Checker(es, ds, histogram, runs, csv_rows, frm, to, host_rows)
    base = dict(base, run=runs)
    ck.run_pass("two runs, cluster/all", dashboards, base, full=True)
    if hosts:
        ck.run_pass("host scope", dashboards, dict(base, scope="host"), only_with=["scope"])
        ck.run_pass("one host", dashboards, dict(base, scope="host", host=[hosts[0]]),
                    only_with=["scope", "host"])
    else:
        fail("no host-scope documents: the per-host panel has nothing to show")
    if jobs:
        ck.run_pass("job scope", dashboards, dict(base, scope="job"), only_with=["scope"])
    else:
        skip("no job-scope documents pushed: job-scope passes not run")
    if dirs:
        ck.run_pass(f"direction {dirs[0]}", dashboards, dict(base, direction=dirs[0]),
                    only_with=["direction"])
    if not args.corrupt_csv and not args.synthetic:
        check_runs_command(es, args.fiohist, url, runs[0])
    if not args.corrupt_csv:
        check_heatmap_totals(es, ds, dashboards, runs[0], csv_rows, host_rows, hosts, jobs,
                             p_lo, p_hi)
        check_saved_searches(es, dl.OSD_NDJSON if args.variant == "opensearch"
                             else dl.KIBANA_NDJSON, runs, coarse=not args.synthetic)
    print(f"=== {passes[0]} ok, {len(skips)} skipped, {len(failures)} failed")
    if args.corrupt_csv:
        p99 = [f for f in failures if "p99" in f and "differ" in f]
        if p99 and len(p99) == len(failures):
            print(f"self-test OK: the corrupted p99 was caught by {len(p99)} comparisons "
                  "and nothing else failed")
            return 0
        print("self-test FAILED: expected only p99 comparison failures")
        return 1
    for s in skips:
        print("skipped: " + s)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
