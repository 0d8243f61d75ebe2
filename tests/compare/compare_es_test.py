#!/usr/bin/env python3
"""fiohist compare and runs --tag against a real Elasticsearch or OpenSearch node.

Eight short fio runs (four with 4 KiB blocks, then four with 64 KiB, one job each, 3 s)
pushed under tag `nightly`, then checked:
- `compare` by run name reads the runs back from the bucket documents and gives the verdicts
  and values `compare` gives from the same logs (exactly on a server without the histogram
  type, where read-back equals the logs; within 0.5 % on Elasticsearch's fixed-point
  histogram form);
- `--tag nightly --last 3` on the 64k run takes the three earlier runs as baselines (exit 5,
  or 6 where three baselines' t(2) interval is too wide); `--last 5` says only 4 runs were
  there; the first run of the tag has no baseline: exit 6 with a message;
- `history --tag`: one point per run with its interval and its baseline (the run before
  it), and the change point at the first 64k run; with `--annotate` it is a document of
  `<prefix>-changes` (id tag/direction/metric/run, the run before it, the ratio, the run's
  start), written again without a duplicate, a stale one of an analysed run and metric
  removed, and each run is a point document per direction naming its baseline and carrying
  history's value and interval; `delete --older-than
  --dry-run` counts them, `delete --run` takes the run's own along;
- the tag history dashboard's queries, as Grafana sends them: the history points of the
  chosen direction with their whole-run p50 and its bootstrap interval (what `history`
  computed), the baseline of each, and each point's links to its overview and to the
  comparison naming the run and its baseline;
- runs pushed at other quanta are refused (exit 1, saying so);
- a run still `running` gives exit 6 and says so, and `--tag` skips it;
- `runs --tag` lists the tag's runs with their state and whole-run p50/p99.

Usage: compare_es_test.py FIOHIST FIO WORKDIR  (env: FIOHIST_ES_URL, FIOHIST_MAPPINGS_DIR)
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request

FIOHIST, FIO, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
URL = os.environ["FIOHIST_ES_URL"]
PREFIX = "cmptest"
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def es(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(URL + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read() or b"{}")


def fiohist(*args):
    env = dict(os.environ)
    env.pop("FIOHIST_ES_URL", None)  # logs unless --es-url says otherwise
    p = subprocess.run([FIOHIST, *args], capture_output=True, text=True, timeout=600, env=env)
    return p.returncode, p.stdout, p.stderr


def stored(*args):
    return fiohist("compare", "--es-url", URL, "--index-prefix", PREFIX, *args)


JOB = """[global]
ioengine=psync
rw=randread
filename={data}
size=8m
invalidate=0
time_based=1
runtime=3
log_hist_msec=100
write_hist_log=h
log_unix_epoch=1
[r]
"""

shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
data = os.path.join(WORK, "data.bin")
with open(os.path.join(WORK, "job.fio"), "w") as f:
    f.write(JOB.format(data=data))
subprocess.run([FIO, "--name=layout", "--filename=" + data, "--size=8m", "--rw=read",
                "--bs=1m", "--invalidate=0"], check=True, stdout=subprocess.DEVNULL)
for kind in ("pctiles", "buckets", "runs", "changes"):
    urllib.request.urlopen(urllib.request.Request(
        URL + "/%s-%s*?ignore_unavailable=true" % (PREFIX, kind), method="DELETE"), timeout=60)

# 64 KiB reads copy 16 times the bytes: a level change far above the spread of identical runs
# on a loaded machine (a 16 KiB run's p50 was measured 33 % below its twins while a build ran
# beside), so that eight runs' change point (smallest permutation p-value 1/70) holds.
runs = [("aa1", "4k"), ("aa2", "4k"), ("aa3", "4k"), ("aa4", "4k"), ("bs64k", "64k"),
        ("bs64k-2", "64k"), ("bs64k-3", "64k"), ("bs64k-4", "64k")]
for name, bs in runs:
    d = os.path.join(WORK, name)
    os.makedirs(d)
    subprocess.run([FIO, "--bs=" + bs, os.path.join(WORK, "job.fio"), "--output-format=json",
                    "--output=fio.json"], cwd=d, check=True, stdout=subprocess.DEVNULL)
    rc, out, err = fiohist("push", "--es-url", URL, "--index-prefix", PREFIX, "--run", name,
                           "--tag", "nightly", "--quantum", "0.1", "--quiet",
                           *sorted(glob.glob(os.path.join(d, "h_clat_hist.*.log"))))
    check(rc == 0, f"push {name} (exit {rc}) {err.strip()[-300:]}")
es("POST", "/%s-*/_refresh" % PREFIX)

# By name, against the logs.
rc_es, out_es, err_es = stored("--format", "json", "bs64k", "aa1", "aa2", "aa3")
rc_logs, out_logs, err_logs = fiohist(
    "compare", "--quantum", "0.1", "--format", "json",
    *["%s=%s" % (n, os.path.join(WORK, n)) for n in ("bs64k", "aa1", "aa2", "aa3")])
print(err_es, err_logs)
# Three baselines give t(2) intervals: the 64k run is a regression or, where the 4k runs
# differ much (a loaded machine), inconclusive; compare.fio checks the verdict on five.
check(rc_es == rc_logs and rc_es in (5, 6),
      f"64k against 3 stored 4k runs: exit 5 or 6, as from the logs (stored {rc_es}, logs {rc_logs})")
a, b = json.loads(out_es), json.loads(out_logs)
check(a["verdict"] == b["verdict"] and a["quanta"] == b["quanta"],
      f"stored and logs: same verdict ({a['verdict']}) and quanta ({a['quanta']}, {b['quanta']})")
# Every metric, the I/O rate included, equal in value: a record fio wrote late (a loaded
# machine does that with these 100 ms records) covers time with no I/O, which the record
# form's documents carry (a record without counts), so read-back counts the same time.
for ma, mb in zip(a["metrics"], b["metrics"]):
    same = ma["metric"] == mb["metric"] and ma["verdict"] == mb["verdict"]
    close = abs(ma["run_value"] / mb["run_value"] - 1) < 5e-3 and \
        abs(ma["baseline_value"] / mb["baseline_value"] - 1) < 5e-3
    what = (f"stored and logs: {ma['metric']} {ma['run_value']:.4g} / {mb['run_value']:.4g}, "
            f"baseline {ma['baseline_value']:.4g} / {mb['baseline_value']:.4g}, "
            f"{ma['verdict']} / {mb['verdict']}")
    check(same and close, what)

# By tag.
rc, out, err = stored("--format", "json", "bs64k", "--tag", "nightly", "--last", "3")
js = json.loads(out)
check(rc in (5, 6) and js["baselines"] == ["aa2", "aa3", "aa4"],
      f"--tag nightly --last 3: the three earlier runs, exit 5 or 6 ({rc}, {js['baselines']})")
rc, out, err = stored("--format", "json", "bs64k", "--tag", "nightly", "--last", "5")
check(rc in (5, 6) and "only 4 finished runs" in err, f"--last 5: says only 4 ({err.strip()})")
rc, out, err = stored("aa1", "--tag", "nightly")
check(rc == 6 and "no finished run with tag" in err, f"first run of the tag: exit 6 ({rc}: {err.strip()})")

# Runs pushed at other quanta (no tag, so the tag's history is untouched): refused, exit 1.
rc, out, err = fiohist("push", "--es-url", URL, "--index-prefix", PREFIX, "--run", "aa1-q02",
                       "--quantum", "0.2", "--quiet",
                       *sorted(glob.glob(os.path.join(WORK, "aa1", "h_clat_hist.*.log"))))
es("POST", "/%s-*/_refresh" % PREFIX)
rc, out, err = stored("aa1-q02", "aa2", "aa3")
check(rc == 1 and "different quanta" in err,
      f"runs of different quanta (0.2 s, 0.1 s): exit 1, says so ({rc}: {err.strip()[-200:]})")
rc, out, err = stored("aa2", "--tag", "nightly", "--last", "1")
check(rc in (0, 5, 6) and "aa1" in out, f"aa2 --tag --last 1: against aa1 (exit {rc})")

# History: one point per run, and the change point where the block size grew (8 runs: the
# smallest permutation p-value is about 1/70, so --significance 0.05).
rc, out, err = fiohist("history", "--es-url", URL, "--index-prefix", PREFIX, "--tag", "nightly",
                       "--metrics", "p50", "--significance", "0.05", "--json")
hist = json.loads(out)
series = [x for x in hist["series"] if x["direction"] == "read" and x["metric"] == "p50"]
check(rc == 0 and len(series) == 1 and [p["run"] for p in series[0]["points"]] == [n for n, _ in runs],
      "history: one p50 point per run, oldest first")
check(all(p["low"] <= p["value"] <= p["high"] for p in series[0]["points"]),
      "history: each point within its interval")
names = [n for n, _ in runs]
check([p["baseline"] for p in series[0]["points"]] == [None] + names[:-1],
      "history: each point's baseline is the tag's run before it (none for the first)")
rc, out, err = fiohist("history", "--es-url", URL, "--index-prefix", PREFIX, "--tag", "nightly",
                       "--metrics", "p50", "--last", "3", "--json")
pts = json.loads(out)["series"][0]["points"] if rc == 0 else []
check([(p["run"], p["baseline"]) for p in pts] == list(zip(names[-3:], names[-4:-1])),
      f"history --last 3: the first run of the window has its baseline too ({pts})")
cps = series[0]["change_points"] if series else []
print("change points:", cps)
check(len(cps) == 1 and cps[0]["run"] == "bs64k" and cps[0]["ratio"] > 1.2,
      "history: the change point at the first 64k run, a rise")

# history --annotate: the change point as a document, by id, replaced when written again.
def changes(kind="change"):
    """The change points (or with kind "point", the history points) by id."""
    # (no index yet when no change point was ever written)
    es("POST", "/%s-changes/_refresh?ignore_unavailable=true&allow_no_indices=true" % PREFIX)
    hits = es("POST", "/%s-changes/_search?ignore_unavailable=true&allow_no_indices=true" % PREFIX,
              {"size": 100, "query": {"match_all": {}}})["hits"]["hits"]
    return {h["_id"]: h["_source"] for h in hits
            if (h["_source"].get("kind") == "point") == (kind == "point")}


annotate = ("history", "--es-url", URL, "--index-prefix", PREFIX, "--tag", "nightly",
            "--metrics", "p50", "--significance", "0.05", "--annotate")
rc, out, err = fiohist(*annotate)
docs = changes()
print(err.strip(), docs)
doc = docs.get("nightly/read/p50/bs64k", {})
check(rc == 0 and list(docs) == ["nightly/read/p50/bs64k"],
      f"--annotate: one document, id tag/direction/metric/run (exit {rc}, {list(docs)})")
check(doc.get("run_before") == "aa4" and doc.get("ratio", 0) > 1.2 and doc.get("unit") == "us"
      and doc.get("tag") == "nightly" and doc.get("labels") == ["read", "p50", "rise"]
      and 0 < doc.get("p_value", 1) <= 0.05 and doc.get("runs") == 8,
      "--annotate: run before, ratio, unit, labels, p-value, runs")
stored_runs = {h["_source"]["run"]: h["_source"] for h in es(
    "POST", "/%s-runs*/_search" % PREFIX, {"size": 100})["hits"]["hits"]}
check(doc.get("start_ms") == stored_runs["bs64k"]["start_ms"],
      "--annotate: the annotation's time is the start of the first run at the new level")
points = changes("point")
check(sorted(points) == sorted("nightly/%s/read" % n for n in names) and
      all(points["nightly/%s/read" % n].get("baseline") == b and
          points["nightly/%s/read" % n]["start_ms"] == stored_runs[n]["start_ms"] and
          points["nightly/%s/read" % n]["direction"] == "read"
          for n, b in zip(names, [None] + names[:-1])),
      f"--annotate: a point per run and direction (id tag/run/direction) naming its baseline, "
      f"the run before it ({[(p['run'], p.get('baseline')) for p in points.values()]})")
# Each point carries history's value and bootstrap interval (--json of the same analysis).
interval_of = {p["run"]: p for p in series[0]["points"]} if series else {}
check(all(abs(points["nightly/%s/read" % n].get(k, -1) - interval_of[n][f]) <=
          1e-9 * interval_of[n][f]
          for n in names for k, f in (("p50", "value"), ("p50_low", "low"), ("p50_high", "high"))),
      "--annotate: each point's p50, p50_low, p50_high are history's value and interval")
# A stale change point of an analysed run and metric goes; another metric's stays.
for run, metric in (("aa3", "p50"), ("aa3", "p99")):
    es("PUT", "/%s-changes/_doc/nightly%%2Fread%%2F%s%%2F%s?refresh=true" % (PREFIX, metric, run),
       {"tag": "nightly", "run": run, "metric": metric, "direction": "read",
        "start_ms": stored_runs[run]["start_ms"]})
rc, out, err = fiohist(*annotate)
again = changes()
check(rc == 0 and sorted(again) == ["nightly/read/p50/bs64k", "nightly/read/p99/aa3"] and
      "1 earlier removed" in err,
      f"--annotate again: replaced, no duplicate, the stale p50 one removed ({sorted(again)}; {err.strip()})")
check(again["nightly/read/p50/bs64k"]["analysed_at"] >= doc.get("analysed_at", ""),
      "--annotate again: the document is the newer analysis")

# The tag history dashboard's queries, as Grafana sends them (tests/dashboards/grafana_es.py),
# on these runs and change points (its indices under this test's prefix).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dashboards"))
import dashlib as dl  # noqa: E402
import grafana_es as g  # noqa: E402

VARIANT = "opensearch" if os.environ.get("FIOHIST_ENGINE") == "opensearch" else "elasticsearch"
dash_dir = "dashboards-opensearch" if VARIANT == "opensearch" else "dashboards"
with open(os.path.join(dl.GRAFANA, dash_dir, "fiohist-history.json")) as f:
    board = json.load(f)
index_of = {"fiohist-runs": PREFIX + "-runs*", "fiohist-changes": PREFIX + "-changes*",
            "fiohist-os-runs": PREFIX + "-runs*", "fiohist-os-changes": PREFIX + "-changes*"}
variables = g.Variables(board, {"tag": "nightly"})
now = int(time.time() * 1000)
frm, to = now - 365 * 86400000, now


def msearch(uid, body):
    lines = json.dumps({"index": index_of[uid], "ignore_unavailable": True}) + "\n" + \
        json.dumps(body) + "\n"
    req = urllib.request.Request(URL + "/_msearch", data=lines.encode(), method="POST",
                                 headers={"Content-Type": "application/x-ndjson"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())["responses"][0]


v = board["templating"]["list"][0]
resp = msearch(v["datasource"]["uid"], g.variable_request(v, "@timestamp", frm, to, variables))
check("nightly" in [b["key"] for b in resp["aggregations"]["1"]["buckets"]],
      "history dashboard: $tag offers nightly")
panels = {p["id"]: p for p in dl.iter_panels(board)}


def target_hits(target):
    body, t = g.build_target_request(target, "@timestamp", frm, to, 1000, variables)
    return g.parse_response(msearch(target["datasource"]["uid"], body), t)["hits"]


def frames(panel):
    """Each target's rows, cut to the fields its filterFieldsByName keeps (per refId)."""
    out = {}
    for target in panel["targets"]:
        keep = [tr["options"]["include"]["names"] for tr in panel["transformations"]
                if tr["id"] == "filterFieldsByName" and
                tr.get("filter", {}).get("options", target["refId"]) == target["refId"]]
        out[target["refId"]] = [{k: v for k, v in h.items() if not keep or k in keep[0]}
                                for h in target_hits(target)]
    return out


def interpolate(url, row):
    """A data link as Grafana fills it from the row's fields."""
    def repl(m):
        v = row.get(m.group(1))
        if m.group(2) == ":percentencode":
            return urllib.parse.quote("" if v is None else str(v), safe="")
        return "" if v is None else str(int(v) if m.group(2) == ".numeric" else v)
    return re.sub(r"\$\{__data\.fields\.([A-Za-z0-9_@]+)(:percentencode|\.numeric)?\}", repl, url)


p1 = panels[1]
rows = frames(p1)["A"]
check(sorted(h["run"] for h in rows) == sorted(names) and
      all(h["start_ms"] < h["end_ms"] and abs(h["end_ms"] - stored_runs[h["run"]]["end_ms"]) <= 1000
          for h in rows),
      f"history dashboard: one point per run of the direction (read), its link's range the "
      f"run's ({len(rows)}: {[(h['run'], h['end_ms'], stored_runs[h['run']]['end_ms']) for h in rows]})")
# The bands: each run's bootstrap interval, as `history` computed it (the annotate above wrote
# only p50: --metrics p50).
bounds_ok = [h.get("p50_low", 0) < h.get("p50", 0) < h.get("p50_high", 0) and
             [h["p50_low"], h["p50"], h["p50_high"]] ==
             [points["nightly/%s/read" % h["run"]][k] for k in ("p50_low", "p50", "p50_high")]
             for h in rows]
check(len(bounds_ok) == len(names) and all(bounds_ok),
      f"history dashboard: every run's p50 inside its bootstrap interval, as history wrote it "
      f"({sum(bounds_ok)} of {len(bounds_ok)})")
bands = {o["matcher"]["options"]: {pr["id"]: pr["value"] for pr in o["properties"]}
         for o in p1["fieldConfig"]["overrides"] if o["matcher"]["id"] == "byName"}
check(all(bands.get(m + "_high", {}).get("custom.fillBelowTo") == m + "_low"
          for m in ("p50", "p99", "p99_9")),
      "history dashboard: each percentile's _high fills down to its _low (a band)")
# Another direction: none here (the runs only read).
other = g.Variables(board, {"tag": "nightly", "direction": "write"})
body, t = g.build_target_request(p1["targets"][0], "@timestamp", frm, to, 1000, other)
check(g.parse_response(msearch(p1["targets"][0]["datasource"]["uid"], body), t)["hits"] == [],
      "history dashboard: $direction write shows none of these read-only runs")
baseline_of = {h["run"]: h.get("baseline") for h in rows}
check(baseline_of == dict(zip(names, [None] + names[:-1])),
      f"history dashboard: each point names its baseline ({baseline_of})")
links = p1["fieldConfig"]["defaults"]["links"]
compare_link = [x["url"] for x in links if x["url"].startswith("/d/fiohist-compare")]
overview_link = [x["url"] for x in links if x["url"].startswith("/d/fiohist-overview")]
link_ok = []
for h in rows:
    row = dict(h, baseline=baseline_of.get(h["run"]))
    q = urllib.parse.parse_qs(urllib.parse.urlsplit(interpolate(compare_link[0], row)).query)
    want = [h["run"]] + ([row["baseline"]] if row["baseline"] else [])
    q_ov = urllib.parse.parse_qs(urllib.parse.urlsplit(interpolate(overview_link[0], row)).query)
    link_ok.append(q.get("var-run") == want and q_ov.get("var-run") == [h["run"]] and
                   q_ov.get("from") == [str(h["start_ms"])] and q_ov.get("to") == [str(h["end_ms"])])
    if not link_ok[-1]:
        print("  link of", h["run"], interpolate(compare_link[0], row), interpolate(overview_link[0], row))
check(compare_link and overview_link and len(link_ok) == len(names) and all(link_ok),
      "history dashboard: each point links to its overview and to the comparison with its "
      "baseline, the tag's run before it")
hits = target_hits(panels[2]["targets"][0])
check([(h["run"], h["run_before"], h["metric"]) for h in hits] == [("bs64k", "aa4", "p50")],
      f"history dashboard: the change point's row names the run and its baseline ({hits})")
link = panels[2]["fieldConfig"]["overrides"][0]["properties"][0]["value"][0]["url"]
check("var-run=${__data.fields.run:percentencode}&var-run=${__data.fields.run_before" in link,
      "history dashboard: the comparison link preselects the run and the run before it")
a = [x for x in board["annotations"]["list"] if not x.get("builtIn")][0]
resp = msearch(a["datasource"]["uid"], g.annotation_request(a, frm, to, variables))
got = [h["_source"] for h in resp["hits"]["hits"]]
check(len(got) == 1 and all(got[0].get(a[k]) for k in ("timeField", "textField", "tagsField")),
      f"history dashboard: the change point annotation with its time, text and tags ({got})")

# A run still running.
hits = es("POST", "/%s-runs*/_search" % PREFIX,
          {"query": {"term": {"run": "aa3"}}, "size": 1})["hits"]["hits"]
es("POST", "/%s/_update/%s?refresh=true" % (hits[0]["_index"], hits[0]["_id"]),
   {"doc": {"state": "running"}})
rc, out, err = stored("aa3", "aa1")
check(rc == 6 and "still running" in err, f"running run: exit 6 ({rc}: {err.strip()})")
rc, out, err = stored("bs64k", "--tag", "nightly", "--format", "json")
check(rc in (5, 6) and json.loads(out)["baselines"] == ["aa1", "aa2", "aa4"],
      f"--tag skips the running run ({json.loads(out)['baselines'] if out else err})")

# runs --tag.
rc, out, err = fiohist("runs", "--es-url", URL, "--index-prefix", PREFIX, "--tag", "nightly", "--json")
listed = [json.loads(l) for l in out.splitlines()]
check(rc == 0 and sorted(r["run"] for r in listed) == sorted(n for n, _ in runs),
      "runs --tag nightly lists the tag's runs")
check(all(r["p50_us"] and r["p99_us"] >= r["p50_us"] and r["tags"] == ["nightly"] for r in listed),
      "runs --json: whole-run p50 <= p99 and the tags")
check({r["run"]: r["state"] for r in listed}.get("aa3") == "running", "runs --json: the state")
rc, out, err = fiohist("runs", "--es-url", URL, "--index-prefix", PREFIX, "--tag", "other")
check(rc == 0 and "aa1" not in out, "runs --tag other: none")

# Retention and delete --run take the change points along.
rc, out, err = fiohist("delete", "--es-url", URL, "--index-prefix", PREFIX, "--older-than", "1s",
                       "--dry-run")
check(rc == 0 and "would delete 10 change points and history points" in out,
      f"delete --older-than --dry-run: counts them, 2 change points and 8 runs ({out.strip()[-200:]})")
check(len(changes()) == 2 and len(changes("point")) == 8, "--dry-run deletes none")
rc, out, err = fiohist("delete", "--es-url", URL, "--index-prefix", PREFIX, "--run", "bs64k")
check(rc == 0 and "deleted 2 change points and history points" in out and
      list(changes()) == ["nightly/read/p99/aa3"] and "nightly/bs64k/read" not in changes("point")
      and "nightly/bs64k-2/read" in changes("point"),
      f"delete --run bs64k: its change point and point go, the others stay ({out.strip()}; {err.strip()})")

if failures:
    print("\n%d check(s) failed" % len(failures))
    sys.exit(1)
print("\nall checks passed")
