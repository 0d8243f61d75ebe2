#!/usr/bin/env python3
"""fiohist history's change points by compare's rules, against a real Elasticsearch or
OpenSearch node, on the recorded fio runs of tests/data/history-aa (see its README):

- tag `aa`: the nine identical runs. No change point at the default minimum effect (drifts
  may be listed); every order of the nine runs is enumerated (exact), and no p-value is below
  2 / C(9, 4), the smallest nine runs allow; `--annotate` writes no change document;
- tag `step`: the nine, then four runs at 64 KiB. The change points at the first 64 KiB run
  (p50 a rise, iops a fall), with p-values from random permutations (13 runs);
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

FIOHIST, DATA = sys.argv[1], sys.argv[2]
URL = os.environ["FIOHIST_ES_URL"]
PREFIX = "histtest"
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

AA = ["aa%02d" % i for i in range(1, 10)]
STEP = ["bs64k-%d" % i for i in range(1, 5)]
# The nine under tag aa; the nine again and the four under tag step (other run names).
pushes = [(r, r, "aa") for r in AA] + [("s-" + r, r, "step") for r in AA + STEP]
for name, folder, tag in pushes:
    logs = sorted(glob.glob(os.path.join(DATA, folder, "h_clat_hist.*.log.gz")))
    rc, out, err = fiohist("push", "--es-url", URL, "--index-prefix", PREFIX, "--run", name,
                           "--tag", tag, "--quantum", "0.5", "--quiet", *logs)
    check(rc == 0 and len(logs) == 2, f"push {name} ({len(logs)} logs, exit {rc}) {err.strip()[-300:]}")
es("POST", "/%s-*/_refresh" % PREFIX)

# The nine identical runs: no change point at the default minimum effect.
rc, out, err = history("aa", "--json")
js = json.loads(out) if rc == 0 else {"series": []}
print(err.strip())
for x in js["series"]:
    for d in x["drifts"]:
        print("  drift %s %s at %s: x%.3f [%.3f, %.3f] p %.4f (%s)" % (
            x["direction"], x["metric"], d["run"], d["ratio"], d["ratio_low"], d["ratio_high"],
            d["p_value"], d["reason"]))
check(rc == 0 and len(js["series"]) >= 4, f"history aa: exit 0, the series ({len(js['series'])})")
check(all(not x["change_points"] for x in js["series"]),
      "history aa: nine identical runs, no change point at the default minimum effect "
      f"({[(x['direction'], x['metric'], c['run'], round(c['ratio'], 3)) for x in js['series'] for c in x['change_points']]})")
check(all(x["exact"] and abs(x["smallest_p_of_runs"] - 2 / 126) < 1e-12 for x in js["series"]),
      "history aa: nine runs, every order enumerated (exact); 2 / C(9,4) the least nine allow")
smallest = 2 / math.comb(9, 4)
check(all(x["smallest_p"] >= smallest - 1e-12 for x in js["series"]) and
      all(s["p_value"] >= smallest - 1e-12 for x in js["series"]
          for s in x["change_points"] + x["drifts"]),
      f"history aa: no p-value below 2 / C(9,4) = {smallest:.4f} "
      f"({sorted(set(round(x['smallest_p'], 5) for x in js['series']))})")
rc, out, err = history("aa")
check(rc == 0 and "the smallest p-value 9 runs allow: 0.0159" in out and
      "no change point can reach the significance" in out,
      f"history aa (table): states the smallest p-value the runs allow ({out.strip().splitlines()[-1:]})")
rc, out, err = history("aa", "--annotate")
check(rc == 0 and changes("aa") == {}, f"history aa --annotate: no change document ({err.strip()})")

# The step: the change points at the first 64 KiB run.
rc, out, err = history("step", "--json")
js = json.loads(out) if rc == 0 else {"series": []}
by = {(x["direction"], x["metric"]): x for x in js["series"]}
for key in (("read", "p50"), ("read", "iops")):
    x = by.get(key, {"change_points": [], "drifts": []})
    cps = x["change_points"]
    print(key, cps, x["drifts"])
    rise = key[1] != "iops"
    check(len(cps) >= 1 and cps[0]["run"] == "s-bs64k-1" and
          (cps[0]["ratio"] > 2 if rise else cps[0]["ratio"] < 0.5) and
          cps[0]["verdict"] == "regression" and
          0 < cps[0]["p_value"] <= 0.01 and not cps[0]["exact"],
          f"history step: {key[0]} {key[1]}'s change point at the first 64k run, "
          f"{'a rise' if rise else 'a fall'}, p <= 0.01 from random permutations")
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

print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
