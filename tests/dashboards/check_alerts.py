#!/usr/bin/env python3
"""Live check of the SLA alert rules (dashboards/grafana/provisioning/alerting) against a
real node (FIOHIST_ES_URL), with documents that fiohist itself pushed.

  check_alerts.py FIOHIST_BINARY LOG_DIR [--variant opensearch]

1. `fiohist push --sla ...` of LOG_DIR's logs, with thresholds that some quanta breach: exit 4,
   one stderr line per breaching cluster quantum x direction; `fiohist pctiles --sla` prints
   the same lines, and its CSV (the thresholds' percentiles among its columns) says the same
   quanta are above the limits. A second run whose threshold holds: exit 0, no line.
2. Every data query of every rule runs the way Grafana runs it (grafana_es.py: the panel
   request model, the rule's interval settings, then the reduce and threshold expressions).
   The rules look at the last minutes, and fiohist's test logs are stamped in the past, so
   the window is moved over the test run's span (the rule's own window, evaluated now, must
   find nothing of these old runs: only a live run writes documents stamped now).
   - fiohist-sla-breach: its series hold exactly the (quantum, direction) pairs the push
     named as breached beyond sampling noise (the rules fire on those by default); it fires
     for exactly (run, direction) of those, with their number of lines as value; not for the
     run whose SLA held.
   - fiohist-sla-breached-running: does not fire for the finished run; after its run document
     is set to state:running (what `fiohist follow` writes while fio runs) it fires for it,
     with sla_breaches_beyond_noise = the number of those lines.
  --mutate   self-test: the breach rule's query without `sla_breach_beyond_noise:true` (every
             cluster quantum); passes only if the exactness check then fails, and only it.
Exit 0 = all passed."""

import argparse
import calendar
import csv
import glob
import io
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_live as cl  # noqa: E402
import dashlib as dl  # noqa: E402
import grafana_es as g  # noqa: E402

# The breach rule's direction label: the terms of the cluster documents' directions breaching
# beyond sampling noise (one document holds every direction).
DIRECTION_LABEL = "sla_breach_beyond_noise_directions"

def label_direction(labels):
    """The direction of a series of the breach rule (its label; the self-test's mutated rule
    labels by `sla_breach_directions`)."""
    d = dict(labels)
    return d.get(DIRECTION_LABEL, d.get("sla_breach_directions"))


# Thresholds some quanta of the epoch2 logs breach (and others not), in each direction kind.
SLA = ["p99=300us", "read.p99.9=1ms", "write.p97=15us"]
# What the CSV checks them with: direction, CSV column, limit in us.
SLA_CSV = [("all", "p99", 300.0), ("read", "p99.9", 1000.0), ("write", "p97", 15.0)]
HELD_SLA = ["p99=10s"]
LINE = re.compile(r"^fiohist: SLA breach: (?:run '(?P<run>[^']*)' )?(?P<start>\S+)\.\.(?P<end>\S+) "
                  r"(?P<dir>read|write|trim|all): (?P<what>.*)$")

# One record of checks with check_live, whose helpers this script calls.
failures, passes, fail, ok = cl.failures, cl.passes, cl.fail, cl.ok


def iso_ms(text):
    """Epoch ms of fiohist's ISO text (2026-11-22T00:08:41.000Z)."""
    t = time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")
    return calendar.timegm(t) * 1000 + int(text[20:23])


def breach_lines(stderr, run):
    """{(start_ms, direction)} of the breach lines of `run` on stderr, and the closing line."""
    out, closing = set(), None
    for line in stderr.splitlines():
        m = LINE.match(line)
        if m and (m.group("run") or "") == run:
            key = (iso_ms(m.group("start")), m.group("dir"))
            if key in out:
                fail(f"two breach lines for {key}")
            out.add(key)
        elif line.startswith("fiohist: SLA "):
            closing = line
    return out, closing


def beyond_noise(stderr, run):
    """{(start_ms, direction)} of the breach lines of `run` with some breach beyond sampling
    noise (the percentile's confidence interval above the limit)."""
    out = set()
    for line in stderr.splitlines():
        m = LINE.match(line)
        if m and (m.group("run") or "") == run and ": beyond sampling noise)" in m.group("what"):
            out.add((iso_ms(m.group("start")), m.group("dir")))
    return out


def run_fiohist(argv):
    print("$ fiohist " + " ".join(a if len(a) < 60 else "<logs>" for a in argv[1:12]), flush=True)
    return subprocess.run(argv, capture_output=True, text=True)


def push(es_url, binary, logs, run, sla):
    # Whole-second quanta: the rules' date histograms bucket at whole seconds (they have no
    # offset for a grid aligned with the logs), and the quanta are compared bucket by bucket.
    argv = [binary, "push", "--es-url", es_url, "--run", run, "--quiet", "--grid", "epoch"]
    for s in sla:
        argv += ["--sla", s]
    return run_fiohist(argv + logs)


def csv_breaches(binary, logs):
    """{(start_ms, direction)} whose CSV value is above a limit of SLA_CSV, from `fiohist
    pctiles --sla` (the thresholds' percentiles are added to its columns), and its stderr."""
    argv = [binary, "pctiles", "--quiet", "--grid", "epoch", "--direction", "all,read,write,trim"]
    for s in SLA:
        argv += ["--sla", s]
    r = run_fiohist(argv + logs)
    if r.returncode != 4:
        fail(f"fiohist pctiles --sla exited {r.returncode}, expected 4: {r.stderr[-500:]}")
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    out = set()
    for row in rows:
        for direction, col, limit in SLA_CSV:
            if col not in row:
                fail(f"pctiles --sla CSV has no column {col} (the SLA's percentile)")
                return out, r.stderr
            if row["scope"] == "cluster" and row["direction"] == direction and row[col] and \
                    float(row[col]) > limit:
                out.add((int(row["start_ms"]), direction))
    return out, r.stderr


def rules_of_variant():
    path = os.path.join(dl.GRAFANA, dl.VARIANT["provisioning"], "alerting", "fiohist.yaml")
    import yaml  # noqa: PLC0415
    doc = yaml.safe_load(open(path, encoding="utf-8"))
    return {r["uid"].replace("-os", ""): r for grp in doc["groups"] for r in grp["rules"]}


def run_rule(es, ds_map, rule, frm, to):
    """(series by refId, expression results, firing label sets) of `rule` over [frm, to]."""
    series = {}
    for q in rule["data"]:
        if q["datasourceUid"] == "__expr__":
            continue
        ds = ds_map[q["datasourceUid"]]
        body, t, iv = g.alert_query_request(q, ds["timeField"], frm, to)
        resp = es.msearch(ds["index"], body)
        series[q["refId"]] = g.parse_response(resp, t)["series"]
    results, firing = g.evaluate_rule(rule, series)
    return series, results, firing


def dashboard(uid_base):
    suffix = "" if dl.VARIANT["type"] == "elasticsearch" else "-os"
    return next(d for d in dl.load_dashboards().values() if d["uid"] == uid_base + suffix)


def check_live_table(es, ds_map, run, run_src):
    """The runs dashboard's live table shows the running run, and its link opens the overview
    from the run's start to now, refreshing every 5 s."""
    d = dashboard("fiohist-runs")
    variables = g.Variables(d, {"run": [run]})
    now = int(time.time() * 1000)
    frm = now - g.parse_duration_ms(d["time"]["from"].replace("now-", ""))
    for p in dl.iter_panels(d):
        q = p["targets"][0].get("query", "")
        if p["type"] != "table" or "state:running" not in q or "NOT state:running" in q:
            continue
        ds = ds_map[dl.ds_uid(p["targets"][0]["datasource"])]
        body, t = g.build_target_request(p["targets"][0], ds["timeField"], frm, now, 1000,
                                         variables)
        hits = g.parse_response(es.msearch(ds["index"], body), t)["hits"]
        doc = next((h for h in hits if h.get("run") == run), None)
        if doc is None:
            fail(f"live runs table: running run {run} not shown")
            return
        url = next(link["url"] for o in p["fieldConfig"]["overrides"]
                   if o["matcher"]["options"] == "run"
                   for prop in o["properties"] if prop["id"] == "links" for link in prop["value"])
        filled = re.sub(r"\$\{__data\.fields\.([A-Za-z0-9_]+)(\.numeric|:percentencode)?\}",
                        lambda m: str(doc.get(m.group(1))), url)
        query = dict(x.split("=", 1) for x in filled.split("?", 1)[1].split("&"))
        want = {"var-run": run, "from": str(run_src["start_ms"]), "to": "now", "refresh": "5s"}
        if query == want:
            ok(f"live runs table: shows {run} (state running), link {filled}")
        else:
            fail(f"live runs table: link {filled}, expected {want}")
        return
    fail("the runs dashboard has no live runs table")


def check_sla_annotation(es, ds_map, run, pushed, frm, to):
    """The overview's SLA annotation marks exactly the breaching cluster quanta."""
    d = dashboard("fiohist-overview")
    variables = g.Variables(d, {"run": [run]})
    for a in d["annotations"]["list"]:
        if "sla_breach:true" not in dl.annotation_query(a):
            continue
        ds = ds_map[dl.ds_uid(a["datasource"])]
        resp = es.msearch(ds["index"], g.annotation_request(a, frm, to, variables))
        hits = [h["_source"] for h in resp["hits"]["hits"]]
        # pctiles_version 2: one document per quantum, its breaching directions listed.
        got = {(iso_ms(h["@timestamp"]), d) for h in hits if h.get("run") == run
               for d in h.get("sla_breach_directions", [h.get("direction")])}
        texts = all(h.get(a["textField"]) for h in hits)
        if got == pushed and texts:
            ok(f"overview annotation {a['name']!r}: the {len(got)} breaching quanta, each with "
               f"its {a['textField']}")
        else:
            fail(f"overview annotation {a['name']!r}: {len(got)} quanta, push named "
                 f"{len(pushed)}; texts present: {texts}")
        return
    fail("the overview has no SLA breach annotation")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fiohist")
    ap.add_argument("logs")
    ap.add_argument("--variant", choices=sorted(dl.VARIANTS), default="elasticsearch")
    ap.add_argument("--run", default="alertcheck")
    ap.add_argument("--mutate", action="store_true",
                    help="self-test: drop sla_breach:true from the breach rule's query")
    args = ap.parse_args()
    dl.use_variant(args.variant)
    url, es = cl.connect()
    if es is None:
        return 1
    logs = sorted(p for p in glob.glob(os.path.join(args.logs, "*clat_hist*")) if os.path.isfile(p))
    run = args.run + ("-mutation" if args.mutate else "")
    held = run + "-held"
    cl.install_templates(es)
    cl.delete_runs(es, [run, held])

    # 1. fiohist's own verdicts.
    r = push(url, args.fiohist, logs, run, SLA)
    if r.returncode != 4:
        print(f"FAIL: fiohist push --sla exited {r.returncode}, expected 4:\n{r.stderr[-2000:]}")
        return 1
    pushed, closing = breach_lines(r.stderr, run)
    print(closing)
    if not pushed:
        print("FAIL: fiohist push --sla named no breaching quantum")
        return 1
    ok(f"push --sla: exit 4, {len(pushed)} breach lines")
    sure = beyond_noise(r.stderr, run)
    if sure and sure < pushed:
        ok(f"push --sla: {len(sure)} of them beyond sampling noise, the others within it")
    else:
        fail(f"push --sla: {len(sure)} of {len(pushed)} lines beyond sampling noise; the "
             "thresholds should give both kinds")
    want_closing = f"fiohist: SLA breached: run '{run}': {len(pushed)} of "
    if closing and closing.startswith(want_closing):
        ok("push --sla: closing line counts them: " + closing)
    else:
        fail(f"push --sla closing line {closing!r}, expected it to start {want_closing!r}")
    from_csv, pct_stderr = csv_breaches(args.fiohist, logs)
    lines, _ = breach_lines(pct_stderr, "")
    if from_csv == pushed and lines == pushed:
        ok(f"pctiles --sla: the same {len(lines)} lines, and its CSV values are above the "
           "limits in exactly those quanta")
    else:
        fail(f"pctiles --sla: CSV says {sorted(from_csv - pushed)[:4]} / "
             f"{sorted(pushed - from_csv)[:4]} differ from push's lines; its own lines differ "
             f"by {len(lines ^ pushed)}")
    r = push(url, args.fiohist, logs, held, HELD_SLA)
    if r.returncode == 0 and "fiohist: SLA held: run '" + held in r.stderr and \
            "SLA breach:" not in r.stderr:
        ok(f"push --sla {HELD_SLA[0]}: exit 0, 'SLA held', no breach line")
    else:
        fail(f"push --sla {HELD_SLA[0]} exited {r.returncode}: {r.stderr[-600:]}")
    es.call("POST", "/fiohist-*/_refresh")

    code, doc = es.call("POST", "/fiohist-runs*/_search",
                        {"query": {"term": {"run": run}}, "size": 1})
    hits = doc.get("hits", {}).get("hits", [])
    if not hits:
        print(f"FAIL: no run document for {run}")
        return 1
    run_doc = hits[0]
    src = run_doc["_source"]
    if src.get("sla") == ["p99<=300us", "read.p99_9<=1ms", "write.p97<=15us"] and \
            src.get("sla_breaches") == len(pushed) and \
            src.get("sla_breaches_beyond_noise") == len(sure) and src.get("state") == "finished":
        ok(f"run document: sla {src['sla']}, sla_breaches {src['sla_breaches']}, state finished")
    else:
        fail(f"run document: sla {src.get('sla')}, sla_breaches {src.get('sla_breaches')}, "
             f"state {src.get('state')}; expected {len(pushed)} breaches, finished")
    frm, to = src["start_ms"] - 1000, src["end_ms"] + 1000

    ds_map = {d["uid"]: d for d in dl.parse_datasources_yaml()}
    rules = rules_of_variant()
    if args.mutate:
        m = rules["fiohist-sla-breach"]["data"][0]["model"]
        m["query"] = m["query"].replace(" AND sla_breach_beyond_noise:true", "")
        # A document holds every direction: its breaching ones, whatever the noise, are
        # `sla_breach_directions` (the rule's label field leaves out those within it).
        for b in m["bucketAggs"]:
            if b.get("field") == DIRECTION_LABEL:
                b["field"] = "sla_breach_directions"

    # 2a. The breach rule over the run's span.
    rule = rules["fiohist-sla-breach"]
    series, results, firing = run_rule(es, ds_map, rule, frm, to)
    a = series["A"]
    got = {(t, label_direction(labels)) for (labels, _), pts in a.items()
           if dict(labels).get("run") == run for t, v in pts if v}
    counts = {v for (labels, _), pts in a.items() if dict(labels).get("run") == run
              for _, v in pts if v}
    if got == sure and counts == {1}:
        ok(f"rule {rule['uid']}: its query returns exactly the {len(got)} quanta x directions "
           "push named as breached beyond sampling noise, one document each")
    else:
        fail(f"rule {rule['uid']}: query returns {len(got)} quanta, push named {len(sure)} "
             f"beyond sampling noise; only in the query {sorted(got - sure)[:4]}, only in push "
             f"{sorted(sure - got)[:4]}, counts per bucket {sorted(counts)}")
    want_fire = {(("run", run), (DIRECTION_LABEL, d)) for d in {d for _, d in sure}}
    fired = {lab for lab in firing if dict(lab).get("run") in (run, held)}
    per_dir = {d: sum(1 for _, x in sure if x == d) for _, d in sure}
    values = {label_direction(lab): v for lab, v in results["B"].items()
              if dict(lab).get("run") == run}
    if fired == want_fire and values == per_dir:
        ok(f"rule {rule['uid']}: fires for {run} in directions {sorted(per_dir)} with "
           f"{values} quanta (reduce {rule['data'][1]['model']['reducer']}), not for {held}")
    else:
        fail(f"rule {rule['uid']}: fires for {sorted(fired)}, expected {sorted(want_fire)}; "
             f"values {values}, expected {per_dir}")
    now = int(time.time() * 1000)
    lo, hi = g.alert_relative_range(rule["data"][0], now)
    _, _, live = run_rule(es, ds_map, rule, lo, hi)
    if not any(dict(lab).get("run") in (run, held) for lab in live):
        ok(f"rule {rule['uid']}: its own window (the last "
           f"{rule['data'][0]['relativeTimeRange']['from']} s) finds nothing of these runs, "
           "stamped in the past")
    else:
        fail(f"rule {rule['uid']}: its own window fires for the old test runs: {live}")

    # 2b. The running-run rule: not for a finished run; for it once it is running.
    rule = rules["fiohist-sla-breached-running"]
    _, _, firing = run_rule(es, ds_map, rule, frm, to)
    if not any(dict(lab).get("run") == run for lab in firing):
        ok(f"rule {rule['uid']}: silent for {run} (state finished)")
    else:
        fail(f"rule {rule['uid']}: fires for the finished run {run}")
    code, resp = es.call("POST", f"/{run_doc['_index']}/_update/{run_doc['_id']}?refresh=true",
                         {"doc": {"state": "running"}})
    if code != 200:
        fail(f"setting state:running: HTTP {code} {json.dumps(resp)[:300]}")
    else:
        _, results, firing = run_rule(es, ds_map, rule, frm, to)
        mine = {lab for lab in firing if dict(lab).get("run") == run}
        value = next((v for lab, v in results["B"].items() if dict(lab).get("run") == run), None)
        if mine == {(("run", run),)} and value == len(sure):
            ok(f"rule {rule['uid']}: fires for {run} once it says state:running, "
               f"sla_breaches_beyond_noise {value:g}")
        else:
            fail(f"rule {rule['uid']}: with state:running fires for {sorted(firing)}, value "
                 f"{value}; expected {run} with {len(sure)}")
        check_live_table(es, ds_map, run, src)
    check_sla_annotation(es, ds_map, run, pushed, frm, to)
    print(f"=== {passes[0]} ok, {len(failures)} failed")
    if args.mutate:
        caught = [f for f in failures if f"rule {rules['fiohist-sla-breach']['uid']}:" in f]
        if caught and len(caught) == len(failures):
            print(f"self-test OK: the rule without its SLA filter was caught by {len(caught)} "
                  "checks and nothing else failed")
            return 0
        print("self-test FAILED: expected failures of the breach rule only")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
