#!/usr/bin/env python3
"""smallfile's response-time files (--response-times Y), written here: two hosts, two
threads each, create then read. Checks: hosts from the names, one job per thread and op,
each op a direction of its own (the CSV's direction column names it), every op in the
quantum its completion (thread epoch + start + response) falls in, latencies within fio's
bucket resolution; with more ops than direction slots (7), each op counted in the direction
it maps to, and the summary saying so.

Usage: smallfile_test.py FIOHIST
"""
import csv
import io
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

CHECKS = testlib.Checks()
check = CHECKS.check


def main():
    fiohist = sys.argv[1]
    rng = random.Random(7)
    truth = {}  # (quantum ms, host, direction) -> latencies (s)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for host in ("h1", "h2"):
            for thread in ("00", "01"):
                for op, d in (("create", "create"), ("read", "read")):
                    epoch = 1700000000.5 + (0.3 if thread == "01" else 0)
                    path = os.path.join(tmp, "rsptimes_%s_%s_%s_%.1f.csv" % (thread, host, op,
                                                                             epoch))
                    t = 0.0
                    with open(path, "w") as f:
                        for _ in range(3000):
                            rsp = rng.lognormvariate(-8, 0.5)
                            f.write("%8s, %9.6f, %10.6f\n" % (op, t, rsp))
                            done_ms = int(round(epoch * 1000)) + int((round(t * 1e6) + round(rsp * 1e6)) // 1000)
                            key = (done_ms // 1000 * 1000, host, d)
                            truth.setdefault(key, []).append(round(rsp * 1e6) / 1e6)
                            t = round(t + rsp + 0.0005, 6)
                    paths.append(path)
        out = subprocess.run([fiohist, "pctiles", "--scope", "host,job", "-p", "50,99"] + paths,
                             capture_output=True, text=True)
        check(out.returncode == 0, "pctiles on 8 response-time files (%s)" % out.stderr[-300:])
        rows = list(csv.DictReader(io.StringIO(out.stdout)))
        hosts = {r["host"] for r in rows if r["scope"] == "host"}
        jobs = {r["job"] for r in rows if r["scope"] == "job"}
        check(hosts == {"h1", "h2"}, "hosts from the names: %s" % sorted(hosts))
        check(jobs == {"rsptimes_00_create", "rsptimes_01_create", "rsptimes_00_read",
                       "rsptimes_01_read"}, "a job per thread and op: %s" % sorted(jobs))
        got = {(int(r["start_ms"]), r["host"], r["direction"]): r for r in rows
               if r["scope"] == "host" and r["direction"] != "all"}
        check({k: float(r["samples"]) for k, r in got.items()} ==
              {k: float(len(v)) for k, v in truth.items()},
              "every op in the quantum of its completion, each op its own direction")
        bad = []
        for k, r in got.items():
            v = sorted(truth[k])
            if len(v) < 200:
                continue
            for p in ("50", "99"):
                rank = float(p) / 100 * (len(v) - 1)
                lo = v[max(0, int(rank) - 1)] * 1e6 * (1 - 1 / 32.0)
                hi = v[min(len(v) - 1, int(rank) + 2)] * 1e6 * (1 + 1 / 32.0)
                if not lo <= float(r["p" + p]) <= hi:
                    bad.append((k, p, r["p" + p], lo, hi))
        check(not bad, "p50/p99 within fio's bucket resolution of the exact ones %s" % bad[:3])
        # Ops other than read/write: each counted in the direction it maps to (docs/per-io-logs.md),
        # and named by itself in the job scope.
        ops = {"stat": "read", "ls-l": "read", "delete": "trim", "rmdir": "trim", "mkdir": "write",
               "append": "write", "setxattr": "write"}
        more = []
        for op in ops:
            path = os.path.join(tmp, "rsptimes_02_h3_%s_1700000000.0.csv" % op)
            with open(path, "w") as f:
                f.write("".join("%s, %9.6f, %10.6f\n" % (op, 0.01 * i, 0.0002) for i in range(50)))
            more.append(path)
        out = subprocess.run([fiohist, "pctiles", "--scope", "job", "--whole-run"] + more,
                             capture_output=True, text=True)
        check(out.returncode == 0, "pctiles of 7 other ops (%s)" % out.stderr[-300:])
        check("counted in the directions they map to" in out.stderr and
              "7 ops, more than the 3" in out.stderr,
              "the summary says 7 ops are counted by direction (%s)" % out.stderr[-400:])
        got = {(r["job"], r["direction"]): float(r["samples"])
               for r in csv.DictReader(io.StringIO(out.stdout)) if r["direction"] != "all"
               and float(r["samples"]) > 0}
        want = {("rsptimes_02_" + op, d): 50.0 for op, d in ops.items()}
        check(got == want, "every op in its direction, named in the job: %s" % sorted(got))
    return 1 if CHECKS.failures else 0


if __name__ == "__main__":
    sys.exit(main())
