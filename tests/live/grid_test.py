#!/usr/bin/env python3
"""The live grid with real fio: two fio processes ("hosts") started 0.4 s apart write
status streams and per-I/O latency logs (write_lat_log, log_avg_msec=0) for 12 s.

* `follow` and a later `push` of the same files (hosts given in the other order) choose the
  same quantum grid (the phase of one host's first report) and write the same document ids
  and documents.
* The per-quantum cluster and host p50/p90/p99 of the status streams on the aligned grid and
  on whole seconds (--grid epoch) against the exact percentiles of the I/Os the latency logs
  put in each quantum: printed (the README's live-mode figures), not asserted (they depend
  on the machine's load). No node.

Usage: grid_test.py FIOHIST FIO
"""
import collections
import csv
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

FIOHIST, FIO = sys.argv[1:3]
CHECKS = testlib.Checks()
check = CHECKS.check


def run(args, timeout=120):
    env = dict(os.environ)
    env.pop("FIOHIST_ES_URL", None)
    p = subprocess.run([FIOHIST] + args, capture_output=True, env=env, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def bulk_docs(out_dir):
    """{(index, id): document} of the bulk NDJSON files in `out_dir` (the last write of an
    id wins, as in the node)."""
    docs = {}
    for path in testlib.bulk_files(out_dir):
        action = None
        for line in testlib.read_bulk_file(path).splitlines():
            o = json.loads(line)
            if action is None:
                action = next(iter(o.values()))
                continue
            docs[(action["_index"], action["_id"])] = o
            action = None
    return docs


def exact_percentile(sorted_values, p):
    """The p-th percentile by linear interpolation between order statistics (as
    tests/golden/lat_log_truth.py)."""
    rank = p / 100.0 * (len(sorted_values) - 1)
    lo = int(rank)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (rank - lo)


def truth_errors(streams, lat_logs, grid):
    """`pctiles --grid GRID` on the status streams against the per-I/O latency logs: per
    scope ("cluster", "host1", ...) the per-quantum relative errors of p50/p90/p99
    (direction all) over full quanta and their median straddled share; and the origin."""
    rc, out, err = run(["pctiles", "--quiet", "--scope", "cluster,host", "--direction", "all",
                        "--percentiles", "50,90,99", "--grid", grid] + streams)
    check(rc == 0, "pctiles --grid %s on the status streams (%s)" % (grid, err.strip()[-300:]))
    rows = list(csv.DictReader(io.StringIO(out)))
    if not rows:
        return {}, 0
    origin = int(rows[0]["start_ms"]) % 1000
    # Latencies (us) by scope and quantum of their completion time (log_unix_epoch=1:
    # epoch ms); a host's lat logs are in its directory.
    by_q = {}
    for log in lat_logs:
        host = os.path.basename(os.path.dirname(log))
        for line in open(log):
            cols = line.split(",")
            q = (int(cols[0]) - origin) // 1000
            for scope in ("cluster", host):
                by_q.setdefault((scope, q), []).append(int(cols[1]) / 1000.0)
    out = {}
    for scope in sorted({r["host"] or "cluster" for r in rows}):
        errors, straddled = {"50": [], "90": [], "99": []}, []
        # Full quanta only, and not the first or last (fio's set-up and end).
        full = [r for r in rows if (r["host"] or "cluster") == scope and
                r["partial"] != "true"][1:-1]
        for r in full:
            t = sorted(by_q.get((scope, (int(r["start_ms"]) - origin) // 1000), []))
            if len(t) < 1000:
                continue
            for p in errors:
                exact = exact_percentile(t, float(p))
                errors[p].append(abs(float(r["p" + p]) - exact) / exact)
            straddled.append(float(r["straddled"] or 0))
        out[scope] = (errors, statistics.median(straddled) if straddled else 0)
    return out, origin


def grid_test(tmp):
    """follow, then push of the same status streams: same grid, same ids; and the error of
    each grid against the per-I/O truth."""
    data = tempfile.mkdtemp(prefix="fiohist-live-",
                            dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    streams, lat_logs, procs = [], [], []
    try:
        for h in ("host1", "host2"):
            os.makedirs(os.path.join(tmp, h))
            streams.append(os.path.join(tmp, h + ".json"))
            # Reads (page cache, a few us) and writes (tens of us) at unequal rates, as
            # lat_log_truth.py: at equal ones the median of all I/Os falls in the gap.
            procs.append(subprocess.Popen(
                [FIO, "--name=" + h, "--filename=" + os.path.join(data, h + ".dat"),
                 "--size=16m", "--rw=randrw", "--bs=4k", "--ioengine=psync", "--time_based",
                 "--runtime=12", "--status-interval=1", "--output-format=json+",
                 "--output=" + streams[-1], "--rate_iops=6000,3000",
                 "--write_lat_log=" + os.path.join(tmp, h, "lat"), "--log_avg_msec=0",
                 "--log_unix_epoch=1"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            if h == "host1":
                time.sleep(0.4)  # the second host starts 0.4 s later: another phase
        for p in procs:
            check(p.wait(timeout=120) == 0, "fio exit 0")
    finally:
        shutil.rmtree(data, ignore_errors=True)
    lat_logs = [os.path.join(tmp, h, f) for h in ("host1", "host2")
                for f in sorted(os.listdir(os.path.join(tmp, h))) if "_clat." in f]
    phases = []
    for s in streams:
        firsts = [o["timestamp_ms"] for _, o in testlib.json_objects(s)
                  if any(j.get("job_runtime", 0) > 0 for j in o["jobs"])]
        phases.append(firsts[0] % 1000 if firsts else None)
    print("first report phases (ms): %s" % phases)

    # follow, then push of the same files, hosts in the other order.
    fol_dir, push_dir = os.path.join(tmp, "follow-out"), os.path.join(tmp, "push-out")
    rc, out, err = run(["follow", "--run", "g", "--out", fol_dir, "--quiet",
                        "host1=" + streams[0], "host2=" + streams[1]])
    check(rc == 0, "follow on the two streams: exit 0 (rc %d: %s)" % (rc, err.strip()[-300:]))
    rc, out, err = run(["push", "--run", "g", "--out", push_dir, "--quiet",
                        "--host", streams[1] + "=host2", "--host", streams[0] + "=host1",
                        streams[1], streams[0]])
    check(rc == 0, "push of the same files: exit 0 (rc %d: %s)" % (rc, err.strip()[-300:]))
    a, b = bulk_docs(fol_dir), bulk_docs(push_dir)
    runs = [d for (i, _), d in a.items() if "duration_s" in d]
    origin = runs[0].get("grid_origin_ms") if runs else None
    check(runs and runs[0].get("grid") == "logs" and origin in phases,
          "follow's run document: grid logs, origin %s ms, the phase of a host's first report "
          "%s" % (origin, phases))
    check(phases[0] != phases[1], "the two hosts report at different phases %s" % phases)
    pushed_runs = [d for (i, _), d in b.items() if "duration_s" in d]
    check(pushed_runs and pushed_runs[0].get("grid_origin_ms") == origin,
          "push chose the same origin (%s)" % (pushed_runs[0].get("grid_origin_ms")
                                               if pushed_runs else None))
    by_index = lambda docs: sorted(collections.Counter(i for i, _ in docs).items())
    check(len(a) > 100 and set(a) == set(b),
          "follow and push write the same document ids: %d and %d, %d only in follow, %d only "
          "in push; per index %s" % (len(a), len(b), len(set(a) - set(b)), len(set(b) - set(a)),
                                     by_index(a)))
    differ = [k for k in a if k in b and "duration_s" not in a[k] and a[k] != b[k]]
    check(not differ, "and the same quantum documents (%d differ%s)"
          % (len(differ), (": " + str(differ[0])) if differ else ""))

    # Each grid against the per-I/O truth.
    for grid in ("epoch", "logs"):
        scopes, origin = truth_errors(streams, lat_logs, grid)
        for scope, (errors, straddled) in sorted(scopes.items()):
            if not errors["50"]:
                check(False, "--grid %s %s: no full quantum compared" % (grid, scope))
                continue
            print("--grid %-5s (origin %3d ms) %-7s %d full quanta, median error p50/p90/p99 "
                  "%s, worst %s, median straddled %.1f%%" % (
                      grid, origin, scope, len(errors["50"]),
                      " / ".join("%.2f%%" % (100 * statistics.median(errors[p]))
                                 for p in errors),
                      " / ".join("%.2f%%" % (100 * max(errors[p])) for p in errors),
                      100 * straddled))


def main():
    tmp = tempfile.mkdtemp(prefix="fiohist-grid-")
    try:
        t0 = time.time()
        grid_test(tmp)
        print("took %.1f s" % (time.time() - t0))
    finally:
        if os.environ.get("FIOHIST_KEEP_TMP"):
            print("kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    if CHECKS.failures:
        print("%d check(s) failed" % len(CHECKS.failures))
        sys.exit(1)


main()
