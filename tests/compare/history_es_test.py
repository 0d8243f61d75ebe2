#!/usr/bin/env python3
"""fiohist history's change points by compare's rules, against a real Elasticsearch or
OpenSearch node, on the recorded fio runs of tests/data/history-aa (see its README):

- tag `aa`: the fourteen identical runs. No change point at the default minimum effect
  (drifts may be listed); of the last nine, none either, at the default significance (which
  nine runs cannot reach: the table says so) and at 0.05 (which they can): every order of
  the nine runs is enumerated (exact), and no p-value is below 2 / C(9, 4), the smallest nine
  runs allow; `--annotate` writes no change document;
- tag `step`: the first nine, then four runs at 64 KiB. p50's change point at the first
  64 KiB run, a rise, with its p-value from random permutations (13 runs); the I/O rate
  (held to 25000 reads/s) changes there or not at all;
- the annotation round trip: `--annotate` writes the change points (no drift), removes a
  change document that no longer passes (one injected for an analysed run and metric), and
  with a minimum effect p50's step does not reach (`--min-effect all=900%`) removes the
  documents that no longer pass (p50's then listed as a drift), and writes them again at the
  default;
- bad input (a minimum effect that is not a share, a significance outside (0, 1)): exit 2
  with a clear error before any request (a local HTTP server counts them).

Usage: history_es_test.py FIOHIST DATA_DIR  (env: FIOHIST_ES_URL, FIOHIST_MAPPINGS_DIR)
"""
import glob
import http.server
import json
import math
import os
import subprocess
import sys
import threading
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

FIOHIST, DATA = sys.argv[1], sys.argv[2]
URL = os.environ["FIOHIST_ES_URL"]
PREFIX = "histtest"
CHECKS = testlib.Checks()
check = CHECKS.check


def es(method, path, body=None):
    return testlib.es_request(URL, method, path, body)


def fiohist(*args, url=URL):
    env = dict(os.environ)
    env.pop("FIOHIST_ES_URL", None)
    p = subprocess.run([FIOHIST, *args], capture_output=True, text=True, timeout=600, env=env)
    return p.returncode, p.stdout, p.stderr


def history(tag, *args, url=URL):
    return fiohist("history", "--es-url", url, "--index-prefix", PREFIX, "--tag", tag, *args)


def changes(tag):
    """The tag's change point documents by id (not the history points)."""
    es("POST", "/%s-changes/_refresh?ignore_unavailable=true&allow_no_indices=true" % PREFIX)
    hits = es("POST", "/%s-changes/_search?ignore_unavailable=true&allow_no_indices=true" % PREFIX,
              {"size": 1000, "query": {"term": {"tag": tag}}})["hits"]["hits"]
    return {h["_id"]: h["_source"] for h in hits if h["_source"].get("kind") != "point"}


for kind in ("pctiles", "buckets", "runs", "changes"):
    urllib.request.urlopen(urllib.request.Request(
        URL + "/%s-%s*?ignore_unavailable=true" % (PREFIX, kind), method="DELETE"), timeout=60)

AA = ["aa%02d" % i for i in range(1, 15)]
STEP = ["bs64k-%d" % i for i in range(1, 5)]
# The fourteen identical runs under tag aa; the first nine again and the four at 64 KiB
# (made between aa09 and aa10) under tag step (other run names).
pushes = [(r, r, "aa") for r in AA] + [("s-" + r, r, "step") for r in AA[:9] + STEP]
for name, folder, tag in pushes:
    logs = sorted(glob.glob(os.path.join(DATA, folder, "h_clat_hist.*.log.gz")))
    rc, out, err = fiohist("push", "--es-url", URL, "--index-prefix", PREFIX, "--run", name,
                           "--tag", tag, "--quantum", "0.5", "--quiet", *logs)
    check(rc == 0 and len(logs) == 2, f"push {name} ({len(logs)} logs, exit {rc}) {err.strip()[-300:]}")
es("POST", "/%s-*/_refresh" % PREFIX)

# Fourteen identical runs (the smallest p-value they allow, 2 / C(14,7) = 0.0006, is far
# below the significance): no change point at the default minimum effect; drifts may be
# listed.
def show_drifts(js, what):
    for x in js["series"]:
        for d in x["drifts"]:
            print("  %s: drift %s %s at %s: x%.3f [%.3f, %.3f] p %.4f (%s)" % (
                what, x["direction"], x["metric"], d["run"], d["ratio"], d["ratio_low"],
                d["ratio_high"], d["p_value"], d["reason"]))


def change_list(js):
    return [(x["direction"], x["metric"], c["run"], round(c["ratio"], 3))
            for x in js["series"] for c in x["change_points"]]


rc, out, err = history("aa", "--json")
js = json.loads(out) if rc == 0 else {"series": []}
print(err.strip())
show_drifts(js, "14 runs")
check(rc == 0 and len(js["series"]) >= 4 and
      all(len(x["points"]) == 14 and not x["exact"] for x in js["series"]),
      f"history aa: exit 0, the series ({len(js['series'])}) of 14 runs, random permutations")
check(js["series"] and all(not x["change_points"] for x in js["series"]),
      "history aa: fourteen identical runs, no change point at the default minimum effect "
      f"({change_list(js)})")
# The last nine: every order enumerated.
rc, out, err = history("aa", "--json", "--last", "9")
js = json.loads(out) if rc == 0 else {"series": []}
show_drifts(js, "9 runs")
check(rc == 0 and js["series"] and all(not x["change_points"] for x in js["series"]),
      f"history aa --last 9: no change point ({change_list(js)})")
check(all(x["exact"] and abs(x["smallest_p_of_runs"] - 2 / 126) < 1e-12 for x in js["series"]),
      "history aa --last 9: every order enumerated (exact); 2 / C(9,4) the least nine allow")
smallest = 2 / math.comb(9, 4)
check(all(x["smallest_p"] >= smallest - 1e-12 for x in js["series"]) and
      all(s["p_value"] >= smallest - 1e-12 for x in js["series"]
          for s in x["change_points"] + x["drifts"]),
      f"history aa --last 9: no p-value below 2 / C(9,4) = {smallest:.4f} "
      f"({sorted(set(round(x['smallest_p'], 5) for x in js['series']))})")
# At 0.01 nine runs cannot make a change point at all (the table says so); at 0.05 they can,
# and the minimum effect still keeps the drifts of identical runs from being called changes.
rc, out, err = history("aa", "--json", "--last", "9", "--significance", "0.05")
js5 = json.loads(out) if rc == 0 else {"series": []}
show_drifts(js5, "9 runs at 0.05")
check(rc == 0 and js5["series"] and all(not x["change_points"] for x in js5["series"]),
      f"history aa --last 9 --significance 0.05: no change point ({change_list(js5)})")
rc, out, err = history("aa", "--last", "9")
check(rc == 0 and "the smallest p-value 9 runs allow: 0.0159" in out and
      "no change point can reach the significance" in out,
      f"history aa --last 9 (table): states the smallest p-value the runs allow "
      f"({out.strip().splitlines()[-1:]})")
rc, out, err = history("aa", "--annotate")
check(rc == 0 and changes("aa") == {} and "14 runs" in err,
      f"history aa --annotate: no change document ({err.strip()})")

# The step: the change points at the first 64 KiB run.
rc, out, err = history("step", "--json")
js = json.loads(out) if rc == 0 else {"series": []}
by = {(x["direction"], x["metric"]): x for x in js["series"]}
x = by.get(("read", "p50"), {"change_points": [], "drifts": []})
cps = x["change_points"]
print("read p50", cps, x["drifts"])
check(len(cps) == 1 and cps[0]["run"] == "s-bs64k-1" and cps[0]["ratio"] > 2 and
      cps[0]["verdict"] == "regression" and 0 < cps[0]["p_value"] <= 0.01 and not cps[0]["exact"],
      "history step: read p50's change point at the first 64k run, a rise, p <= 0.01 from "
      "random permutations")
# The runs are held to 25000 reads/s: the I/O rate changes only if the 64k runs could not
# keep it; then it is a fall at the same run.
x = by.get(("read", "iops"), {"change_points": [], "drifts": []})
print("read iops", x["change_points"], x["drifts"])
check(all(c["run"] == "s-bs64k-1" and c["ratio"] < 1 for c in x["change_points"]),
      "history step: read iops: no change point, or a fall at the first 64k run")
check(all(not x["exact"] and abs(x["smallest_p"] - 1 / 10000) < 1e-12 for x in js["series"]),
      "history step: 13 runs, 9999 random permutations: the smallest p-value 1/10000")

# The annotation round trip.
rc, out, err = history("step", "--annotate")
docs = changes("step")
wanted = {"step/%s/%s/%s" % (x["direction"], x["metric"], c["run"])
          for x in js["series"] for c in x["change_points"]}
drifted = {"step/%s/%s/%s" % (x["direction"], x["metric"], c["run"])
           for x in js["series"] for c in x["drifts"]}
check(rc == 0 and set(docs) == wanted and "step/read/p50/s-bs64k-1" in docs,
      f"history step --annotate: a document per change point ({sorted(docs)})")
check(not (set(docs) & drifted), f"history step --annotate: no drift annotated ({sorted(drifted)})")
doc = docs.get("step/read/p50/s-bs64k-1", {})
check(doc.get("run_before") == "s-aa09" and doc.get("ratio", 0) > 2 and doc.get("runs") == 13,
      f"--annotate: the run before, the ratio, the runs ({doc})")
# A change document an earlier analysis wrote (another rule, another effect) that this one
# does not call a change: removed.
stale = "step/read/p50/s-aa05"
es("PUT", "/%s-changes/_doc/%s?refresh=true" % (PREFIX, stale.replace("/", "%2F")),
   {"tag": "step", "run": "s-aa05", "metric": "p50", "direction": "read", "kind": "change",
    "start_ms": doc.get("start_ms", 0)})
rc, out, err = history("step", "--annotate")
check(rc == 0 and set(changes("step")) == wanted and "1 earlier removed" in err,
      f"--annotate again: the stale change document removed, the others kept ({err.strip()})")
# A minimum effect the 64k step of p50 (x8.8) does not reach: those change documents no
# longer pass and go, those that still pass stay, what no longer passes is a drift.
rc, out, err = history("step", "--annotate", "--json", "--min-effect", "all=900%")
js9 = json.loads(out) if rc == 0 else {"series": []}
still = {"step/%s/%s/%s" % (x["direction"], x["metric"], c["run"])
         for x in js9["series"] for c in x["change_points"]}
now = changes("step")
check(rc == 0 and set(now) == still and still < wanted and
      ("%d earlier removed" % len(wanted - still)) in err,
      f"--annotate --min-effect all=900%: the {len(wanted - still)} documents that no longer pass "
      f"removed, {sorted(still)} kept ({err.strip()})")
check("step/read/p50/s-bs64k-1" not in now and
      any(d["run"] == "s-bs64k-1" for x in js9["series"] if x["metric"] == "p50"
          for d in x["drifts"]),
      "--min-effect all=900%: p50's step no longer a change, listed as a drift")
rc, out, err = history("step", "--annotate")
check(rc == 0 and set(changes("step")) == wanted, "--annotate at the default effect: written again")

# Bad input: clear errors before any request (a local server counts what reaches it).
requests = []


class Counter(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802
        requests.append(self.path)
        self.send_response(500)
        self.end_headers()

    do_POST = do_PUT = do_HEAD = do_GET

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Counter)
threading.Thread(target=server.serve_forever, daemon=True).start()
counter_url = "http://127.0.0.1:%d" % server.server_address[1]
for args, expected in [
        (("--min-effect", "p50=abc"), "--min-effect: 'p50=abc': expected a share such as 20% or 0.2"),
        (("--min-effect", "p50=-5%"), "--min-effect: 'p50=-5%': expected a share"),
        (("--min-effect", "5%"), "--min-effect: expected METRIC=VALUE"),
        (("--min-effect", "p42=5%"), "--min-effect: 'p42=5%': p42 is not compared"),
        (("--significance", "0"), "--significance: expected a number between 0 and 1"),
        (("--significance", "1"), "--significance: expected a number between 0 and 1"),
        (("--significance", "1.5"), "--significance: expected a number between 0 and 1"),
        (("--significance", "-0.01"), "--significance: expected a number between 0 and 1"),
        (("--significance", "nan"), "--significance: expected a number between 0 and 1")]:
    rc, out, err = history("step", *args, url=counter_url)
    check(rc == 2 and expected in err and not requests,
          f"history {' '.join(args)}: exit 2, '{expected}', no request ({rc}: {err.strip()}; {requests})")
server.shutdown()

print("%d failures" % len(CHECKS.failures))
sys.exit(1 if CHECKS.failures else 0)
