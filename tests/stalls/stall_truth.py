#!/usr/bin/env python3
"""Stalls and idle gaps as they happened: fiohist's quanta against fio's per-I/O truth.

A fio run (fio_stall_run.py: a frozen ext4 on a loop device, or thinktime) writes hist logs
(log_hist_msec=1000) and per-I/O completion logs (the truth). `fiohist pctiles` (cluster
scope, all directions, its default grid) must give, per quantum:

* the I/O count within 1 % of the truth, in every quantum but the two edges of each pause
  (the quanta holding the last completion before it and the first after it; a pause is a
  span of more than a tenth of log_hist_msec with no completion in the cluster) and the
  run's first and last (partial) quanta;
* zero I/Os in every quantum that lies inside a pause;
* the stuck I/Os (latency above half the longest pause) in exactly the quanta where they
  completed: fiohist's max reaches that latency there and nowhere else.

--data DIR reads a recorded run (tests/data/stalls/CASE); without it the test makes a fresh
run and falls back to the recorded one where the machine cannot (not root, no loop device,
no fio). --table prints the per-quantum table (markdown), with --before FIOHIST2 beside it.

Exit 77 (skipped) when neither a fresh run nor recorded data is available.

With --input status (or both) fiohist reads the run's status stream (fio.json: json+
reports, --status-interval=1) instead of (or besides) the hist logs, checked the same way,
and the stall must be named in its summary.

Usage: stall_truth.py FIOHIST --case {stall,idle} [--data DIR] [--recorded DIR] [--table]
                      [--before FIOHIST2] [--keep DIR] [--input {hist,status,both}]
"""

import argparse
import csv
import glob
import gzip
import io
import re
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fio_stall_run  # noqa: E402

QUANTUM_MS = fio_stall_run.LOG_HIST_MSEC
PAUSE_MS = QUANTUM_MS // 10
STALL_MS = 2 * QUANTUM_MS
COUNT_LIMIT = 0.01
# fio's status reports: the bins of a report lag the per-I/O logs at its timestamp_ms by up
# to 26 I/Os (fresh runs here, 1.1 % of a quantum of 2,400), and after a stall the reports'
# phase moves off the quanta's: the counts of a quantum from reports are held to 2 %.
STATUS_COUNT_LIMIT = 0.02


def fiohist_rows(fiohist, hist_logs):
    """fiohist's cluster rows of direction `all`: {quantum start ms: row}."""
    out = subprocess.run([fiohist, "pctiles"] + hist_logs, check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    rows = [r for r in csv.DictReader(io.StringIO(out.stdout))
            if r["scope"] == "cluster" and r["direction"] == "all"]
    return {int(r["start_ms"]): r for r in rows}, out.stderr


def quantum_of(t_ms, origin):
    """The start of the quantum a completion stamped `t_ms` belongs to. fiohist's records
    end at their stamp, (t - 1, t]: a completion stamped at a quantum's start belongs to
    the quantum before."""
    return origin + ((t_ms - 1 - origin) // QUANTUM_MS) * QUANTUM_MS


def pauses_of(completions):
    """Spans (last completion before, first after) longer than PAUSE_MS with no completion."""
    out = []
    for (a, _, _), (b, _, _) in zip(completions, completions[1:]):
        if b - a > PAUSE_MS:
            out.append((a, b))
    return out


def logged_until(hist_logs, offset):
    """The earliest last stamp of any log and direction: past it some log holds no record
    (fio 3.33 never writes a job's last partial interval), so the logs lack I/Os the
    truth has."""
    ends = []
    for path in hist_logs:
        last = {}
        with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
            for line in f:
                t, d = line.split(",", 2)[:2]
                last[int(d)] = int(t) + (offset if int(t) < 10**12 else 0)
        ends.extend(last.values())
    return min(ends)


def status_stream(datadir, tmp):
    """fio's status stream of the run (fio.json, or fio.json.gz unpacked into `tmp`) and the
    timestamp_ms of its last report."""
    path = os.path.join(datadir, "fio.json")
    if not os.path.exists(path):
        with gzip.open(path + ".gz", "rb") as f, open(os.path.join(tmp, "fio.json"), "wb") as g:
            shutil.copyfileobj(f, g)
        path = os.path.join(tmp, "fio.json")
    reports = fio_stall_run.status_reports(path)
    if len(reports) < 3:
        raise SystemExit("%s: not a status stream (%d reports)" % (path, len(reports)))
    return path, reports[-1]["timestamp_ms"]


def check_named_stall(stderr, truth, pauses, datadir):
    """The longest pause as the summary names it: a stall where the jobs' options do not
    explain it (the stall case: rate_iops, whose gaps are iodepth/rate), idle where they do
    (the idle case: thinktime); its stuck I/Os those of the per-I/O truth in flight for most
    of it (issued before its middle, completed at its end or after)."""
    a, b = max(pauses, key=lambda p: p[1] - p[0])
    middle = (a + b) / 2
    stuck = sum(1 for t, lat, _ in truth if t >= b and t - lat / 1e6 < middle)
    named = [l for l in stderr.splitlines() if re.match(r"fiohist: (stall|idle) \(cluster\)", l)]
    if not named:
        return ["the longest pause (%d ms) is not named in the summary" % (b - a)]
    # The line whose span is nearest the truth's.
    kind, n = None, None
    for line in named:
        m = re.match(r"fiohist: (stall|idle) \(cluster\).*; ([0-9]+) I/O\(s\) stuck in it", line)
        if m and (kind is None or m.group(1) == "stall"):
            kind, n = m.group(1), int(m.group(2))
    # The idle case's job asks for thinktime; the stall case's only for a rate limit.
    json_path = os.path.join(datadir, "fio.json")
    opener = open if os.path.exists(json_path) else gzip.open
    with opener(json_path if os.path.exists(json_path) else json_path + ".gz", "rt") as f:
        idle_case = '"thinktime"' in f.read()
    failures = []
    want = "idle" if idle_case else "stall"
    if kind != want:
        failures.append("the longest pause is named %s, expected %s: %s" % (kind, want, named))
    if n is None or abs(n - stuck) > max(1, 0.1 * stuck):
        failures.append("stuck I/Os: fiohist %s, truth %d (in flight through the pause's middle)" %
                        (n, stuck))
    print("named %s, %s stuck I/Os (truth %d)" % (kind, n, stuck))
    return failures


def evaluate(fiohist, datadir, table=False, before=None, source="hist"):
    """Checks fiohist's quanta from the run's hist logs (`source` hist) or from its status
    stream (status: fio's json+ reports, --status-interval=1) against the per-I/O truth."""
    hist_logs = sorted(glob.glob(os.path.join(datadir, "*_clat_hist.*.log")) +
                       glob.glob(os.path.join(datadir, "*_clat_hist.*.log.gz")))
    if not hist_logs:
        raise SystemExit("%s: no *_clat_hist.*.log[.gz]" % datadir)
    truth = fio_stall_run.completions(datadir)
    with tempfile.TemporaryDirectory(prefix="fiohist-stall-status-") as tmp:
        if source == "status":
            stream, last_report = status_stream(datadir, tmp)
            inputs = [stream]
        elif os.path.exists(os.path.join(datadir, "fio.json.gz")) and \
                not os.path.exists(os.path.join(datadir, "fio.json")):
            # The recorded stall: its fio JSON (job options: rate_iops) beside the logs, as a
            # fresh run has it, so that the idle-vs-stall rule reads the options.
            status_stream(datadir, tmp)
            inputs = []
            for path in hist_logs:
                inputs.append(os.path.join(tmp, os.path.basename(path)))
                shutil.copyfile(path, inputs[-1])
        else:
            inputs = hist_logs
        rows, stderr = fiohist_rows(fiohist, inputs)
        if before:
            before = fiohist_rows(before, inputs)[0]
    print(stderr.strip())
    if not rows:
        raise SystemExit("fiohist gave no rows:\n" + stderr)
    origin = min(rows) % QUANTUM_MS
    per_q = {}
    for t, lat, _ in truth:
        q = quantum_of(t, origin)
        n, mx = per_q.get(q, (0, 0))
        per_q[q] = (n + 1, max(mx, lat))
    pauses = pauses_of(truth)
    longest = max((b - a for a, b in pauses), default=0)
    stuck_ns = longest * 1e6 / 2  # latencies above this are I/Os stuck in the longest pause
    edges = {quantum_of(truth[0][0], origin)}
    ended = (last_report if source == "status" else
             logged_until(hist_logs, fio_stall_run.anchor_ms(datadir)))
    q = quantum_of(ended, origin)
    while q <= quantum_of(truth[-1][0], origin):
        edges.add(q)  # the run's end, where not every log has its records
        q += QUANTUM_MS
    inside = set()
    for a, b in pauses:
        edges.update({quantum_of(a, origin), quantum_of(b, origin)})
        if b - a > STALL_MS:
            q = quantum_of(a, origin) + QUANTUM_MS
            while q + QUANTUM_MS < b:  # (q, q + QUANTUM_MS] before b
                inside.add(q)
                q += QUANTUM_MS
    failures = []
    limit = STATUS_COUNT_LIMIT if source == "status" else COUNT_LIMIT
    quanta = sorted(set(rows) | set(per_q))
    for q in quanta:
        n_truth, max_truth = per_q.get(q, (0, 0))
        row = rows.get(q)
        n = float(row["samples"]) if row else 0.0
        max_ns = float(row["max"]) * 1e3 if row and n > 0 else 0.0  # µs
        if row and row.get("partial") == "true":
            edges.add(q)
        if q in inside:
            if n > 1e-9 or n_truth:
                failures.append("quantum %d inside a stall: %.3f I/Os (truth %d), none expected" %
                                (q, n, n_truth))
        elif q not in edges and abs(n - n_truth) > limit * n_truth:
            failures.append("quantum %d: %.1f I/Os, truth %d (more than %.0f %% off)" %
                            (q, n, n_truth, limit * 100))
        if longest > STALL_MS and (max_truth > stuck_ns) != (max_ns > stuck_ns):
            failures.append("quantum %d: max %.0f ms, truth %.0f ms: stuck I/Os (over %.0f ms) "
                            "not where they completed" % (q, max_ns / 1e6, max_truth / 1e6,
                                                          stuck_ns / 1e6))
    if source == "hist" and longest > STALL_MS:
        failures += check_named_stall(stderr, truth, pauses, datadir)
    if source == "status" and longest > STALL_MS and \
            not any(l.startswith("fiohist: stall (cluster)") for l in stderr.splitlines()):
        failures.append("the status stream's stall is not named in the summary")
    print("%s (%s): %d I/Os, %d quanta, pauses (ms): %s; edges %d, inside stalls %d" % (
        datadir, source, len(truth), len(quanta), [(a, b, b - a) for a, b in pauses],
        len(edges), len(inside)))
    if table:
        print_table(quanta, rows, per_q, before, inside)
    return [source + ": " + f for f in failures]


def print_table(quanta, rows, per_q, before_rows, inside):
    head = "| quantum | fiohist I/Os | max ms |"
    if before_rows is not None:
        head += " before: I/Os | max ms |"
    head += " truth I/Os | max ms |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for q in quanta:
        def cells(r):
            if not r or float(r["samples"]) == 0:
                return "0 | - |"
            return "%s | %s |" % ("{:,.0f}".format(float(r["samples"])),
                                  "{:,.1f}".format(float(r["max"]) / 1e3))
        n, mx = per_q.get(q, (0, 0))
        line = "| :%06.3f%s | %s" % ((q % 60000) / 1000, " (stall)" if q in inside else "",
                                     cells(rows.get(q)))
        if before_rows is not None:
            line += " " + cells(before_rows.get(q))
        line += " %s | %s |" % ("{:,}".format(n), "{:,.1f}".format(mx / 1e6) if n else "-")
        print(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fiohist")
    ap.add_argument("--case", choices=["stall", "idle"], required=True)
    ap.add_argument("--data", help="a recorded run: check it, make no fio run")
    ap.add_argument("--recorded", help="the recorded run to fall back to")
    ap.add_argument("--keep", help="make the fresh run in this directory and keep it")
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--before", help="another fiohist for the table's 'before' columns")
    ap.add_argument("--input", choices=["hist", "status", "both"], default="hist",
                    help="what fiohist reads: the hist logs, fio's status stream (fio.json of "
                         "the stall case), or both in turn")
    ap.add_argument("--attempts", type=int, default=1,
                    help="fresh fio runs to try: fio's own timing on a loaded machine can add a "
                         "pause at a stall's edge; a fault of fiohist's fails every run")
    a = ap.parse_args()
    code = 1
    for attempt in range(1, (1 if a.data else a.attempts) + 1):
        if attempt > 1:
            print("attempt %d of %d" % (attempt, a.attempts))
        code = run_once(a)
        if code != 1:
            return code
    return code


def run_once(a):
    datadir = a.data
    tmp = None
    if datadir is None:
        tmp = a.keep or tempfile.mkdtemp(prefix="fiohist-stall-truth-")
        os.makedirs(tmp, exist_ok=True)
        run = fio_stall_run.run_stall if a.case == "stall" else fio_stall_run.run_idle
        try:
            run(tmp)
            datadir = tmp
        except fio_stall_run.Unavailable as e:
            print("no fresh fio run here (%s): the recorded run instead" % e)
            datadir = a.recorded
            if not datadir or not os.path.isdir(datadir):
                print("no recorded run either: skipped")
                return 77
    failures = ["not evaluated"]
    try:
        sources = ["hist", "status"] if a.input == "both" else [a.input]
        failures = []
        for source in sources:
            failures += evaluate(a.fiohist, datadir, a.table, a.before, source)
    finally:
        if tmp and not a.keep and not failures:
            shutil.rmtree(tmp, ignore_errors=True)
        elif tmp and failures:
            print("the failing run is kept in " + tmp)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
