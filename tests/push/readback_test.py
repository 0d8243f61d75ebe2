#!/usr/bin/env python3
"""Read-back against a real Elasticsearch or OpenSearch node: `fiohist pctiles --run` from
the bucket documents `fiohist push` wrote, compared with `fiohist pctiles` from the logs.

Checks, for the shared logs: read-back of the record form (what push writes to a server
without the histogram type) at the push quantum and at 5x equals the CSV from the logs
exactly (every row present; samples and every percentile within 1e-9 relative: the same
sums, up to floating-point addition order); a host subset equals the logs of that host; a
time window equals those rows (records that start before it are read too); whole-run
totals are exact; the histogram form (scaled counts) reads back within the documented bound
(samples within one unit per series summed; percentiles within 0.1 % where the window holds
>= 10,000 I/Os); documents of older forms (exact double counts beside a scaled histogram,
and scaled counts as runs) still read back; a run of bucket_version 1 (records as runs/ios
arrays, recorded in tests/data/bucket-v1 and loaded) reads back exact.

Usage: readback_test.py FIOHIST LOGDIR  (env: FIOHIST_ES_URL, FIOHIST_MAPPINGS_DIR)
"""
import csv
import glob
import io
import json
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

FIOHIST, LOGDIR = sys.argv[1], sys.argv[2]
URL = os.environ["FIOHIST_ES_URL"]
LOGS = sorted(glob.glob(os.path.join(LOGDIR, "*_clat_hist.*.log*")))
PREFIX = "rbtest"
SCALE = 5000  # push's default latency_scale
CHECKS = testlib.Checks()
failures = CHECKS.failures


check = CHECKS.check


def es(method, path, body=None, ndjson=False):
    return testlib.es_request(URL, method, path, body, ndjson=ndjson)


def fiohist(args):
    env = dict(os.environ)
    env.pop("FIOHIST_ES_URL", None)
    p = subprocess.run([FIOHIST] + args, capture_output=True, text=True, env=env, timeout=600)
    if p.returncode != 0:
        print(p.stderr)
    return p.returncode, p.stdout, p.stderr


def from_logs(args, logs=None):
    rc, out, _ = fiohist(["pctiles", "--quiet"] + args + (logs or LOGS))
    check(rc == 0, "pctiles from logs " + " ".join(args))
    return testlib.pctiles_rows(out)


def read_back(run, args):
    rc, out, _ = fiohist(["pctiles", "--quiet", "--es-url", URL, "--index-prefix", PREFIX,
                          "--run", run] + args)
    check(rc == 0, "read-back " + run + " " + " ".join(args))
    return testlib.pctiles_rows(out)


def series(key, jobs_of):
    """Stored series (job x real direction) summed into the row `key`."""
    _, scope, host, job, direction = key
    jobs = 1 if scope == "job" else len(jobs_of.get(host, [])) if scope == "host" else \
        sum(len(j) for j in jobs_of.values())
    return jobs * (2 if direction == "all" else 1)


def compare(logs, back, jobs_of, what, exact=True):
    check(set(logs) == set(back), "%s: the same rows (%d from logs, %d read back)"
          % (what, len(logs), len(back)))
    worst_samples, worst_pct, checked = 0.0, 0.0, 0
    meta_differ, partial = [], 0
    for key, a in logs.items():
        b = back.get(key)
        if b is None:
            continue
        # What the logs say of the span itself is read back exactly.
        for col in ("logs", "coverage", "partial"):
            if a[col] != b[col]:
                meta_differ.append("%s %s: logs %s, read back %s" % (key, col, a[col], b[col]))
        partial += a["partial"] == "true"
        # One unit (1/SCALE I/O) per bucket and series: the sum over buckets stays far below
        # one I/O per series.
        d = abs(float(a["samples"]) - float(b["samples"]))
        worst_samples = max(worst_samples, d / float(a["samples"]) if exact else
                            d / series(key, jobs_of))
        if float(a["samples"]) >= 10000:
            for p in ("p50", "p90", "p95", "p99", "p99.9", "p99.99"):
                x, y = float(a[p]), float(b[p])
                worst_pct = max(worst_pct, abs(x - y) / x if x else abs(y))
                checked += 1
    check(not meta_differ and partial > 0, "%s: logs, coverage and partial as from the logs "
          "(%d partial rows; %s)" % (what, partial, "; ".join(meta_differ[:3]) or "none differ"))
    if exact:
        check(worst_samples <= 1e-9, "%s: samples equal (worst relative %.1e)"
              % (what, worst_samples))
        check(checked > 0 and worst_pct <= 1e-9,
              "%s: %d percentiles of windows >= 10,000 I/Os equal (worst relative %.1e)"
              % (what, checked, worst_pct))
        return
    check(worst_samples < 1.0, "%s: samples within 1 I/O per series (worst %.4f)"
          % (what, worst_samples))
    check(checked > 0 and worst_pct <= 0.001,
          "%s: %d percentiles of windows >= 10,000 I/Os within 0.1%% (worst %.5f%%)"
          % (what, checked, worst_pct * 100))


def old_bucket_index():
    """The run's monthly bucket index as the fiohist before the record form made it: its
    mapping lacks `records` and `records_end`, which push must add (else `records_end` would
    be mapped stored-only and a window could not be searched on it)."""
    path = os.path.join(os.environ["FIOHIST_MAPPINGS_DIR"], "fiohist-buckets-nohistogram.json")
    mappings = json.load(open(path))["template"]["mappings"]
    for field in ("records", "records_end"):
        del mappings["properties"][field]
    es("PUT", "/%s-buckets-2026.11" % PREFIX, {"mappings": mappings, "settings": {
        "number_of_shards": 1, "auto_expand_replicas": "0-1"}})


def main():
    es("DELETE", "/%s-*" % PREFIX)
    old_bucket_index()
    run = "readback"
    rc, _, err = fiohist(["push", "--es-url", URL, "--index-prefix", PREFIX, "--run", run,
                          "--quiet"] + LOGS)
    check(rc == 0, "push " + err.strip()[-200:])
    rc, _, _ = fiohist(["push", "--es-url", URL, "--index-prefix", PREFIX, "--run", run + "-h",
                        "--bucket-form", "histogram", "--quiet"] + LOGS)
    check(rc == 0, "push --bucket-form histogram")
    es("POST", "/%s-*/_refresh" % PREFIX)
    mapped = es("GET", "/%s-buckets-2026.11/_mapping" % PREFIX)
    props = mapped["%s-buckets-2026.11" % PREFIX]["mappings"]["properties"]
    check(props.get("records_end", {}).get("type") == "date" and
          props.get("records", {}).get("enabled") is False,
          "an index made before the record form gets its fields mapped by push")

    all_scopes = ["--scope", "cluster,host,job"]
    logs = from_logs(all_scopes)
    jobs_of = {}
    for (_, scope, host, job, _) in logs:
        if scope == "job":
            jobs_of.setdefault(host, set()).add(job)
    back = read_back(run, all_scopes)
    compare(logs, back, jobs_of, "push quantum")
    compare(logs, read_back(run + "-h", all_scopes), jobs_of, "histogram form", exact=False)

    compare(from_logs(all_scopes + ["--quantum", "5"]),
            read_back(run, all_scopes + ["--quantum", "5"]), jobs_of, "5x quantum")

    host = sorted(jobs_of)[0]
    host_logs = [l for l in LOGS if l.split(".log")[-1].lstrip(".").split(".")[0] == host]
    check(len(host_logs) == len(jobs_of[host]), "logs of host %s: %d" % (host, len(host_logs)))
    # The host's logs alone would choose their own grid: give them the run's (its origin is
    # the phase of the stored quanta).
    origin = min(k[0] for k in back) % 1000
    compare(from_logs(["--scope", "cluster", "--grid", "%.3f" % (origin / 1000.0)], host_logs),
            read_back(run, ["--scope", "cluster", "--host", host]),
            {host: jobs_of[host]}, "host subset " + host)

    starts = sorted({k[0] for k in back})
    t0, t1 = starts[2], starts[6]
    window = read_back(run, all_scopes + ["--from", str(t0), "--to", str(t1)])
    want = {k for k in back if t0 <= k[0] < t1}
    check(set(window) == want, "time window [%d, %d): %d rows" % (t0, t1, len(window)))
    check(all(window[k]["samples"] == back[k]["samples"] and window[k]["p99"] == back[k]["p99"]
              for k in want if k in window), "time window: the same statistics")

    rc, out_logs, _ = fiohist(["pctiles", "--quiet", "--whole-run"] + all_scopes + LOGS)
    rc2, out_back, _ = fiohist(["pctiles", "--quiet", "--whole-run", "--es-url", URL,
                                "--index-prefix", PREFIX, "--run", run] + all_scopes)
    whole_logs = list(csv.DictReader(io.StringIO(out_logs)))
    whole_back = {(r["scope"], r["host"], r["job"], r["direction"]): r
                  for r in csv.DictReader(io.StringIO(out_back))}
    exact = len(whole_logs) > 0 and rc == 0 and rc2 == 0
    for r in whole_logs:
        b = whole_back.get((r["scope"], r["host"], r["job"], r["direction"]))
        if b is None or abs(float(r["samples"]) - float(b["samples"])) > 1e-6 * float(
                r["samples"]) or (r["coverage"], r["partial"]) != (b["coverage"], b["partial"]):
            exact = False
            print("  whole run", r["scope"], r["host"], r["job"], r["direction"], r["samples"],
                  b and b["samples"])
    check(exact, "whole-run totals exact, coverage as from the logs (%d rows)" % len(whole_logs))

    # A document as fiohist wrote them before integer counts, and its `all` twin (ignored:
    # the real directions are read).
    old = {"@timestamp": "2026-11-22T00:00:00.000Z", "end": "2026-11-22T00:00:01.000Z",
           "elapsed_s": 0.0, "quantum_s": 1.0, "run": "old-form", "scope": "job", "host": "h",
           "job": "j.1", "logs": 1, "layout": "fio3-g29-c0", "bucket_index": [300, 301],
           "bucket_count": [10.25, 0.75], "latency": {"values": [1.0, 2.0],
                                                      "counts": [10250, 750]},
           "latency_scale": 1000}
    bulk = ""
    for i, direction in enumerate(["read", "all"]):
        doc = dict(old, direction=direction, samples=11.0)
        bulk += json.dumps({"index": {"_index": PREFIX + "-buckets", "_id": "old%d" % i}}) + "\n"
        bulk += json.dumps(doc) + "\n"
    es("POST", "/_bulk?refresh=true", bulk, ndjson=True)
    old_back = read_back("old-form", ["--scope", "job"])
    r = old_back.get((1795305600000, "job", "h", "j.1", "read"))
    check(r is not None and float(r["samples"]) == 11.0 and len(old_back) == 2,
          "old-form document reads back (samples %s)" % (r and r["samples"]))
    # The compact form before records: scaled counts as runs of buckets.
    runs = {"@timestamp": "2026-11-22T00:00:00.000Z", "quantum_s": 1.0, "run": "runs-form",
            "scope": "job", "host": "h", "job": "j.1", "direction": ["read", "all"],
            "logs": 1, "samples": 11.0, "layout": "fio3-g29-c0", "bucket_runs": [300, 2],
            "bucket_ios": [51250, 3750], "latency_scale": 5000}
    bulk = json.dumps({"index": {"_index": PREFIX + "-buckets", "_id": "runs0"}}) + "\n"
    bulk += json.dumps(runs) + "\n"
    es("POST", "/_bulk?refresh=true", bulk, ndjson=True)
    runs_back = read_back("runs-form", ["--scope", "job"])
    r = runs_back.get((1795305600000, "job", "h", "j.1", "read"))
    check(r is not None and float(r["samples"]) == 11.0,
          "compact document of scaled counts reads back (samples %s)" % (r and r["samples"]))

    # A run pushed before bucket_version 2 (records as runs/ios arrays): fiohist 0f4f438's
    # `push --out` of these logs (tests/data/bucket-v1), loaded, reads back exact; the new
    # push's run document says its version.
    recorded = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "data", "bucket-v1")
    rc, _, err = fiohist(["load", recorded, "--es-url", URL, "--index-prefix", PREFIX])
    check(rc == 0, "load of the recorded bucket_version 1 run " + err.strip()[-200:])
    es("POST", "/%s-*/_refresh" % PREFIX)
    check(es("GET", "/%s-runs-*/_search?q=run:old-v1" % PREFIX)["hits"]["hits"][0]["_source"]
          .get("bucket_version") is None and
          es("GET", "/%s-runs-*/_search?q=run:%s" % (PREFIX, run))["hits"]["hits"][0]["_source"]
          .get("bucket_version") == 4, "run documents: bucket_version absent (v1) and 4")
    compare(logs, read_back("old-v1", all_scopes), jobs_of, "bucket_version 1 run")
    compare(from_logs(all_scopes + ["--quantum", "5"]),
            read_back("old-v1", all_scopes + ["--quantum", "5"]), jobs_of,
            "bucket_version 1 run, 5x quantum")
    # Pushed again by this fiohist: its bucket documents have other ids, so push deletes the
    # old run first (else read-back would count both).
    rc, _, err = fiohist(["push", "--es-url", URL, "--index-prefix", PREFIX, "--run", "old-v1",
                          "--quiet"] + LOGS)
    check(rc == 0 and "pushed by an earlier fiohist (bucket_version 1" in err,
          "re-push over a bucket_version 1 run deletes it first: " + err.strip()[-200:])
    compare(logs, read_back("old-v1", all_scopes), jobs_of, "bucket_version 1 run pushed again")
    rc, _, err = fiohist(["push", "--es-url", URL, "--index-prefix", PREFIX, "--run", "old-v1",
                          "--quiet"] + LOGS)
    check(rc == 0 and "earlier fiohist" not in err, "a re-push of the same version deletes nothing")
    compare(logs, read_back("old-v1", all_scopes), jobs_of, "re-pushed twice")

    rc, _, err = fiohist(["pctiles", "--es-url", URL, "--index-prefix", PREFIX, "--run",
                          "no-such-run"])
    check(rc == 1 and "no bucket documents" in err, "an unknown run is an error: " + err.strip())
    es("DELETE", "/%s-*" % PREFIX)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
