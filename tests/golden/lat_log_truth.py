#!/usr/bin/env python3
"""Per-quantum percentiles against ground truth: fio's per-I/O completion latency log.

The test runs fio itself (randrw on a small file in a temporary directory, a few seconds)
with write_lat_log (every I/O's completion time and latency) beside write_hist_log
(log_hist_msec=1000), then compares `fiohist pctiles` per 1 s quantum with the exact
percentiles of the I/Os the lat logs put in that quantum:

* every quantum fiohist does not flag partial: p50 within one bucket (1.6 %), p90 and p99
  within 5 %, and over those quanta a median error of at most 0.5 % for each;
* the last quantum is flagged partial exactly when its coverage is below 1: fio does not log
  its last partial interval, so a quantum reaching past the last record holds only part of
  its I/Os (on a grid aligned with the records the last quantum ends with them and is full);
* on the default grid the median `straddled` share is at most 2 % and the summary names no
  host far from the grid's edges (one fio process).

--time says how the logs are placed on absolute time, as users run fio:
* relative: relative stamps, no fio JSON (quanta at the logs' time 0);
* fio-json: relative stamps with fio's JSON output (--output-format=json+) beside the
  logs, which anchors them at timestamp_ms - runtime: any phase of a second;
* epoch: log_unix_epoch=1 stamps, records end at whatever phase fio started.
--jobs runs that many jobs in one fio process. --grid passes fiohist's --grid; with
--report-only the errors are printed but not checked (to measure the epoch grid).

Exit 77 (skipped) when fio is not installed.

Usage: lat_log_truth.py FIOHIST [--keep DIR] [--seconds N] [--time MODE] [--jobs N]
                        [--grid G] [--report-only]
"""

import argparse
import calendar
import csv
import glob
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

QUANTUM_MS = 1000
PERCENTILES = ["50", "90", "99"]
# Allowed relative error per percentile, and for the median over the full quanta.
LIMITS = {"50": 0.016, "90": 0.05, "99": 0.05}
MEDIAN_LIMIT = 0.005
# On the default grid (aligned with the records), the median share of a quantum's I/Os
# that spreading records over its edges may have misplaced.
STRADDLED_LIMIT = 0.02


def run_fio(a, workdir, datadir):
    """Runs fio with both logs in `workdir` and its file in `datadir`; returns the paths
    (hist logs, clat logs) and the offset (ms) that places the lat logs' stamps on the
    time line fiohist uses."""
    # A steady, modest rate: 18000 I/Os per quantum (over all jobs) keep the lat logs small
    # (about 400 kB per second) while p99 rests on 180 samples. Reads (from the page cache,
    # a few us) and writes (tens of us) at unequal rates: at equal ones the median of all
    # I/Os falls in the empty gap between the two modes, where a difference of a few I/Os
    # between quanta moves it across the gap.
    cmd = [
        "fio", "--name=t", "--filename=" + os.path.join(datadir, "data"), "--size=16m",
        "--rw=randrw", "--bs=4k", "--ioengine=psync", "--time_based",
        "--runtime=%d" % a.seconds, "--numjobs=%d" % a.jobs,
        "--rate_iops=%d,%d" % (12000 // a.jobs, 6000 // a.jobs),
        "--write_hist_log=t", "--log_hist_msec=%d" % QUANTUM_MS, "--write_lat_log=t",
    ]
    if a.time == "fio-json":
        cmd += ["--output-format=json+", "--output=" + os.path.join(workdir, "fio.json")]
    else:
        cmd += ["--output=" + os.path.join(workdir, "fio.txt")]
    if a.time == "epoch":
        cmd += ["--log_unix_epoch=1"]
    subprocess.run(cmd, cwd=workdir, check=True, stdout=subprocess.DEVNULL)
    offset = 0
    if a.time == "fio-json":
        # fio 3.33's JSON has no job_start: fiohist places each job on the process timeline
        # it describes (fio_timeline.cc; the time fio spends writing these per-I/O logs at
        # the jobs' end counts). The lat logs share the hist logs' relative clock, so the
        # truth takes fiohist's anchor from its summary (evaluate); this is the fallback.
        with open(os.path.join(workdir, "fio.json")) as f:
            out = json.load(f)
        starts = [j["job_start"] for j in out["jobs"] if j.get("job_start")]
        offset = min(starts) if starts else (
            out["timestamp_ms"] - max(j["job_runtime"] for j in out["jobs"]))
    hist = sorted(glob.glob(os.path.join(workdir, "t_clat_hist.*.log")))
    clat = sorted(glob.glob(os.path.join(workdir, "t_clat.*.log")))
    return hist, clat, offset


def truth_by_quantum(clat_logs, offset, origin):
    """Latencies in microseconds per quantum index (quanta at origin + k x QUANTUM_MS), all
    directions and jobs, from the per-I/O logs (`time ms, latency ns, direction, bs,
    offset`; the time is the completion)."""
    out = {}
    for clat_log in clat_logs:
        with open(clat_log) as f:
            for n, line in enumerate(f, 1):
                cols = [c.strip() for c in line.split(",")]
                if len(cols) < 3:
                    raise SystemExit("%s:%d: expected 'time, latency, direction, ...', found %r" %
                                     (clat_log, n, line))
                q = (int(cols[0]) + offset - origin) // QUANTUM_MS
                out.setdefault(q, []).append(int(cols[1]) / 1000.0)
    return out


def exact_percentile(sorted_values, p):
    """The p-th percentile by linear interpolation between order statistics."""
    rank = p / 100.0 * (len(sorted_values) - 1)
    lo = int(rank)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (rank - lo)


def stalled_quanta(hist_logs, offset, origin):
    """Quanta overlapped by a record whose span is off log_hist_msec by more than 5 %:
    fio lagged (on a loaded machine, or no I/O of that direction completed for a while)
    and wrote the record late. fiohist spreads a record's I/Os evenly over its span, by
    design; there the I/Os came unevenly (a pause, then a burst), so per-quantum values
    are not comparable with the per-I/O truth."""
    out = set()
    for hist_log in hist_logs:
        last = {}
        with open(hist_log) as f:
            for line in f:
                t, d = (int(c) + (offset if i == 0 else 0)
                        for i, c in enumerate(line.split(",", 2)[:2]))
                if d in last and abs(t - last[d] - QUANTUM_MS) > 0.05 * QUANTUM_MS:
                    out.update(range((last[d] - origin) // QUANTUM_MS,
                                     (t - origin) // QUANTUM_MS + 1))
                last[d] = t
    return out


def fiohist_rows(a, hist_logs):
    """fiohist's cluster rows of direction `all` by quantum index, the grid's origin (ms)
    and the summary."""
    cmd = [a.fiohist, "pctiles", "--percentiles", ",".join(PERCENTILES)]
    if a.grid:
        cmd += ["--grid", a.grid]
    out = subprocess.run(cmd + hist_logs, check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    rows = list(r for r in csv.DictReader(io.StringIO(out.stdout)) if r["direction"] == "all")
    origin = int(rows[0]["start_ms"]) % QUANTUM_MS if rows else 0
    return {(int(r["start_ms"]) - origin) // QUANTUM_MS: r for r in rows}, origin, out.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fiohist")
    ap.add_argument("--keep", help="run in this directory and keep the logs")
    ap.add_argument("--seconds", type=int, default=12)
    ap.add_argument("--attempts", type=int, default=2)
    ap.add_argument("--time", choices=["relative", "fio-json", "epoch"], default="relative")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--grid", help="fiohist's --grid (default: its own default)")
    ap.add_argument("--also-grid", help="also compare the same logs on this --grid (printed)")
    ap.add_argument("--report-only", action="store_true",
                    help="print the errors, check nothing (to measure another grid)")
    a = ap.parse_args()
    if shutil.which("fio") is None:
        print("fio not installed: skipped (apt-get install fio)")
        return 77
    # fio's latencies are the measurement: on a machine loaded by other work a stall can
    # land on a quantum edge. A fault of fiohist's fails every run; one fresh fio run more
    # tells the two apart.
    for attempt in range(1, a.attempts + 1):
        print("attempt %d of %d" % (attempt, a.attempts))
        failures = compare(a)
        for f in failures:
            print("FAIL: " + f)
        if not failures or a.report_only:
            return 0
    return 1


def compare(a):
    """One fio run, compared; returns the failures. With --also-grid the same logs are
    compared on that grid too, printed only (to measure the grid fiohist does not use)."""
    workdir = a.keep or tempfile.mkdtemp(prefix="fiohist-truth-")
    os.makedirs(workdir, exist_ok=True)
    # The data file in memory where there is a tmpfs: disk writeback stalls fio.
    datadir = tempfile.mkdtemp(prefix="fiohist-truth-",
                               dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        hist_logs, clat_logs, offset = run_fio(a, workdir, datadir)
        failures = evaluate(a, hist_logs, clat_logs, offset)
        if a.also_grid:
            other = argparse.Namespace(**vars(a))
            other.grid = a.also_grid
            print("--- the same logs on --grid %s (not checked)" % a.also_grid)
            evaluate(other, hist_logs, clat_logs, offset)
    finally:
        shutil.rmtree(datadir, ignore_errors=True)
        if not a.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return failures


def evaluate(a, hist_logs, clat_logs, offset):
    """fiohist on `hist_logs` (on a.grid) against the lat logs; returns the failures."""
    rows, origin, summary = fiohist_rows(a, hist_logs)
    if a.time == "fio-json":
        # The job's anchor as fiohist placed it (every job of this run starts together).
        m = re.search(r"anchor of \S+ \(job \S+\): (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{3})Z",
                      summary)
        if m:
            offset = calendar.timegm(time.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S")) * 1000 + \
                int(m.group(2))
    truth = truth_by_quantum(clat_logs, offset, origin)
    stalled = stalled_quanta(hist_logs, offset, origin)

    failures = []
    errors = {p: [] for p in PERCENTILES}
    straddled = []  # the share of I/Os spreading may have misplaced, per compared quantum
    print("grid origin %d ms (anchor offset %d ms)" % (origin, offset))
    print("quantum  ios(truth)  samples  coverage  partial  straddled  " +
          "  ".join("p%s err%%" % p for p in PERCENTILES))
    for q in sorted(set(truth) | set(rows)):
        t = sorted(truth.get(q, []))
        r = rows.get(q)
        if r is None and rows and (q > max(rows) or q < min(rows)):
            # fio did not log its last partial interval: no record reaches these I/Os.
            print("%7d  %10d  (beyond the histogram log's records: fio dropped them)" %
                  (q, len(t)))
            continue
        if r is None:
            failures.append("quantum %d: %d I/Os in the lat log, no row from fiohist" % (q, len(t)))
            continue
        partial = r["partial"] == "true"
        errs = {}
        for p in PERCENTILES:
            if t and r["p" + p]:
                exact = exact_percentile(t, float(p))
                errs[p] = (float(r["p" + p]) - exact) / exact
        print("%7d  %10d  %7.0f  %8.4f  %-7s  %9s  " % (q, len(t), float(r["samples"]),
                                                          float(r["coverage"]), r["partial"],
                                                          r["straddled"]) +
              "  ".join("%+8.2f" % (100 * errs[p]) if p in errs else "       -"
                        for p in PERCENTILES))
        if partial:
            continue
        if q in stalled:
            print("         quantum %d: fio lagged (a record spans more than 1000 +- 50 ms), "
                  "not compared" % q)
            continue
        for p in PERCENTILES:
            if p not in errs:
                failures.append("quantum %d: full, but no p%s to compare" % (q, p))
                continue
            errors[p].append(abs(errs[p]))
            if p == PERCENTILES[0]:
                straddled.append(float(r["straddled"]))
            if abs(errs[p]) > LIMITS[p]:
                failures.append("quantum %d: p%s off by %.2f%% (limit %.1f%%)" %
                                (q, p, 100 * errs[p], 100 * LIMITS[p]))
        if abs(float(r["samples"]) / len(t) - 1) > 0.03:
            failures.append("quantum %d: %s samples against %d I/Os in the lat logs" %
                            (q, r["samples"], len(t)))

    full = len(errors["50"])
    if full < a.seconds // 2:
        failures.append("only %d full quanta compared in a %d s run" % (full, a.seconds))
    for p in PERCENTILES:
        if errors[p]:
            med = statistics.median(errors[p])
            print("p%s: median error %.3f%%, worst %.3f%% over %d full quanta" %
                  (p, 100 * med, 100 * max(errors[p]), len(errors[p])))
            if med > MEDIAN_LIMIT:
                failures.append("p%s: median error %.3f%% (limit %.1f%%)" %
                                (p, 100 * med, 100 * MEDIAN_LIMIT))
    if straddled:
        med = statistics.median(straddled)
        print("straddled: median %.3f%%, largest %.3f%%" % (100 * med, 100 * max(straddled)))
        # Aligned with the records, only fio's few ms of jitter cross the edges.
        if not a.grid and med > STRADDLED_LIMIT:
            failures.append("median straddled share %.2f%% on the default grid (limit %.0f%%)"
                            % (100 * med, 100 * STRADDLED_LIMIT))
    if not a.grid and "quantum edges" in summary:
        failures.append("one fio process, yet the summary names a host far from the grid's "
                        "edges:\n" + summary)
    partial = sum(1 for r in rows.values() if r["partial"] == "true")
    if partial and ("fiohist: %d of %d quanta partial" % (partial, len(rows))) not in summary:
        failures.append("the summary does not say %d of %d quanta are partial:\n%s" %
                        (partial, len(rows), summary))
    # fio does not log its last partial interval: where the last quantum reaches past the
    # last record it must be flagged; where the grid ends with the records (aligned with
    # them) it is a full quantum, and the I/Os fio dropped fall beyond it.
    last = max(rows)
    coverage = float(rows[last]["coverage"])
    if (rows[last]["partial"] == "true") != (coverage < 0.999):
        failures.append("last quantum %d (%s samples against %d I/Os in the lat log): "
                        "coverage %s but partial %s" % (last, rows[last]["samples"],
                                                        len(truth.get(last, [])),
                                                        rows[last]["coverage"],
                                                        rows[last]["partial"]))
    return failures


if __name__ == "__main__":
    sys.exit(main())
