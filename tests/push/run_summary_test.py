#!/usr/bin/env python3
"""The run document stays small whatever the number of logs (issue 31).

A generated run of 48 hosts x 4 jobs (192 logs) has more job entries than the run document's
`summary` holds (kRunSummaryMaxEntries, 512): `push --out` writes a run document whose summary
lists the cluster and the hosts, not the jobs, and counts them in `summary_omitted`. Pushed to
a real node: `runs` lists the run; `pctiles --run --whole-run --scope job` reads every job's
whole-run statistics back from the bucket documents, equal to `pctiles --whole-run` of the
logs; `report --run` and `compare` of the run against itself work.

Usage: run_summary_test.py FIOHIST GEN_CORPUS  (env FIOHIST_ES_URL, FIOHIST_MAPPINGS_DIR)
"""
import csv
import glob
import io
import json
import math
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

FIOHIST, GEN = sys.argv[1], sys.argv[2]
URL = os.environ["FIOHIST_ES_URL"]
PREFIX = "runsum"
RUN = "run-summary"
START = "2026-11-20T10:00:00Z"
CHECKS = testlib.Checks()
check = CHECKS.check
MAPPINGS = (["--mappings", os.environ["FIOHIST_MAPPINGS_DIR"]]
            if os.environ.get("FIOHIST_MAPPINGS_DIR") else [])


def fiohist(args, cwd=None):
    env = dict(os.environ)
    env.pop("FIOHIST_ES_URL", None)
    p = subprocess.run([FIOHIST] + args, capture_output=True, text=True, env=env, cwd=cwd,
                       timeout=600)
    return p.returncode, p.stdout, p.stderr


def es(method, path, body=None):
    return testlib.es_request(URL, method, path, body, timeout=300)


def drop():
    for i in es("GET", "/_cat/indices/%s-*?format=json&h=index" % PREFIX):
        es("DELETE", "/" + i["index"])


def by_key(text):
    return {(r["scope"], r["host"], r["job"], r["direction"]): r
            for r in csv.DictReader(io.StringIO(text))}


def differences(got, want):
    """Keys missing either way, and the first number that differs beyond 1e-9 relative."""
    if set(got) != set(want):
        return "keys differ: %d vs %d" % (len(got), len(want))
    for k, w in want.items():
        for col, v in w.items():
            if col in ("straddled", "start", "start_ms", "end_ms", "elapsed_s") or v == got[k][col]:
                continue
            try:
                if math.isclose(float(v), float(got[k][col]), rel_tol=1e-9, abs_tol=1e-9):
                    continue
            except ValueError:
                pass
            return "%s %s: %s (logs) vs %s (read back)" % (k, col, v, got[k][col])
    return None


with tempfile.TemporaryDirectory() as work:
    corpus = os.path.join(work, "corpus")
    p = subprocess.run([GEN, "--gz-out", corpus, "--hosts", "48", "--jobs", "4", "--seconds", "5",
                        "--threads", "1"], capture_output=True, text=True)
    check(p.returncode == 0, "gen_corpus made 48 x 4 logs (%s)" % p.stderr.strip()[-200:])
    logs = sorted(glob.glob(os.path.join(corpus, "**", "*_clat_hist.*"), recursive=True))
    common = ["--run", RUN, "--start-time", START, "--quiet"]

    rc, _, err = fiohist(["push", "--out", os.path.join(work, "out")] + common + logs)
    check(rc == 0, "push --out of %d logs (%s)" % (len(logs), err.strip()[-200:]))
    run_doc = None
    for f in testlib.bulk_files(os.path.join(work, "out")):
        lines = testlib.read_bulk_file(f).splitlines()
        for a, s in zip(lines[0::2], lines[1::2]):
            if "-runs" in json.loads(a)["index"]["_index"]:
                run_doc, size = json.loads(s), len(s)
    check(run_doc is not None, "push --out wrote a run document")
    scopes = {e["scope"] for e in run_doc["summary"]}
    omitted = run_doc.get("summary_omitted", {})
    check(scopes == {"cluster", "host"} and omitted.get("job", 0) > 512 and
          omitted.get("host") == 0,
          "its summary lists cluster and hosts (%s), the jobs counted in summary_omitted (%s)"
          % (sorted(scopes), omitted))
    check(size < 200000, "the run document is small: %d bytes for %d logs" % (size, len(logs)))

    drop()
    rc, _, err = fiohist(["push", "--es-url", URL, "--index-prefix", PREFIX] + MAPPINGS +
                         common + logs)
    check(rc == 0, "push to the node (%s)" % err.strip()[-300:])
    rc, out, err = fiohist(["runs", "--es-url", URL, "--index-prefix", PREFIX])
    check(rc == 0 and RUN in out, "runs lists the run (%s)" % (out + err).strip()[-200:])
    src = es("POST", "/%s-runs-*/_search" % PREFIX,
             {"query": {"term": {"run": RUN}}})["hits"]["hits"][0]["_source"]
    check(src.get("summary_omitted") == omitted, "the stored run document says the same")

    rc, back, err = fiohist(["pctiles", "--es-url", URL, "--index-prefix", PREFIX, "--run", RUN,
                             "--whole-run", "--scope", "host,job"])
    check(rc == 0, "read-back of the whole-run host and job statistics (%s)" % err.strip()[-200:])
    rc, logs_out, _ = fiohist(["pctiles", "--whole-run", "--scope", "host,job",
                               "--start-time", START] + logs)
    got, want = by_key(back), by_key(logs_out)
    jobs = len({(k[1], k[2]) for k in want if k[0] == "job"})
    problem = differences(got, want)
    check(jobs == 48 * 4 and problem is None,
          "every job's whole-run statistics read back equal those of the logs (%d jobs; %s)"
          % (jobs, problem or "within 1e-9"))
    rc, _, err = fiohist(["push", "--es-url", URL, "--index-prefix", PREFIX, "--run", RUN + "-b",
                          "--start-time", START, "--quiet"] + MAPPINGS + logs)
    check(rc == 0, "the same logs pushed again as a second run (%s)" % err.strip()[-200:])
    rc, out, err = fiohist(["compare", "--es-url", URL, "--index-prefix", PREFIX, RUN, RUN + "-b"])
    # 5 s runs are too short for a verdict: inconclusive (6) is compare's answer there.
    check(rc in (0, 6) and out.strip(), "compare of the two runs from the server (rc %d: %s)"
          % (rc, (out + err).strip()[-200:]))
    rc, _, err = fiohist(["report", "--es-url", URL, "--index-prefix", PREFIX, "--run", RUN,
                          "-o", os.path.join(work, "r.html")])
    check(rc == 0, "report --run of it (rc %d: %s)" % (rc, err.strip()[-200:]))
    drop()

if CHECKS.failures:
    print("FAILED: %d check(s)" % len(CHECKS.failures))
    sys.exit(1)
print("all run-summary checks passed")
