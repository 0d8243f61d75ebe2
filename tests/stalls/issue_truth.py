#!/usr/bin/env python3
"""--place issue against fio's per-I/O truth: each I/O where it was issued.

On a recorded run (tests/data/stalls/CASE: hist logs and per-I/O completion logs of the same
jobs), the truth places each I/O at completion - latency (the clat logs' latency runs from
submission to completion). `fiohist pctiles --place issue` (cluster scope, direction all)
must give, per quantum:

* from the per-I/O logs: exactly the truth's I/O count, every quantum (fiohist computes the
  same issue time), and the truth's slowest I/O within its bucket;
* from the histogram logs (each bucket's I/Os spread over the issue times its latency
  allows): the I/O count within 1 % of the truth in every quantum but the edges (the
  quanta holding a pause's first or last completion or the issue of one of its stuck
  I/Os, the run's first one and the last ones, where the logs lack I/Os), and at most one
  I/O where the truth has none inside a stall; the stuck I/Os (latency above half the
  longest pause) in exactly the quanta where they were issued;
* the last quanta flagged partial with the latency up to which they are complete
  (`complete_to`), none before the logs' last slowest-latency span.

--table prints the before/after table (completion placement beside issue placement and
the truth) in markdown for docs/stalls.md.

--refusals STATUS_JSON: --place issue on a fio status stream (no per-record latency spans),
in follow, on stored runs and with a bad value is refused before any output, saying why.

--compare-with DIR: `compare --place issue` of --data against DIR gives a verdict, and
figures other than completion placement's.

Usage: issue_truth.py FIOHIST --data DIR [--compare-with DIR] [--table]
       issue_truth.py FIOHIST --refusals STATUS_JSON
"""

import argparse
import csv
import glob
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fio_stall_run  # noqa: E402

QUANTUM_MS = fio_stall_run.LOG_HIST_MSEC
PAUSE_MS = QUANTUM_MS // 10
COUNT_LIMIT = 0.01
BUCKET_SHARE = 1 / 32  # fio's buckets are at most 1/64 of their value wide; twice for slack


def rows_of(fiohist, files, place):
    """fiohist's cluster rows of direction `all`: {quantum start ms: row}."""
    out = subprocess.run([fiohist, "pctiles", "--place", place] + files, check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rows = [r for r in csv.DictReader(io.StringIO(out.stdout))
            if r["scope"] == "cluster" and r["direction"] == "all"]
    return {int(r["start_ms"]): r for r in rows}


def quantum_at(t_ms, origin):
    """The quantum [qs, qs + Q) holding instant t_ms (an issue time)."""
    return origin + int((t_ms - origin) // QUANTUM_MS) * QUANTUM_MS


def quantum_of_completion(t_ms, origin):
    """The quantum (qs, qs + Q] a record stamped t_ms belongs to (as stall_truth.py)."""
    return origin + ((t_ms - 1 - origin) // QUANTUM_MS) * QUANTUM_MS


def pushed(fiohist, hist):
    """push --out: the run document names the placement, every percentile document carries
    it, the last quanta their complete_to."""
    failures = []
    with tempfile.TemporaryDirectory(prefix="fiohist-issue-push-") as out:
        subprocess.run([fiohist, "push", "--quiet", "--run", "issue-truth", "--place", "issue",
                        "--out", out] + hist, check=True, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
        docs = []
        for name in sorted(os.listdir(out)):
            # push --out writes gzip bulk files (bulk-NNNNNN.ndjson.gz) unless --plain-out.
            opener = gzip.open if name.endswith(".gz") else open
            with opener(os.path.join(out, name), "rt") as f:
                lines = f.read().splitlines()
            docs += [(json.loads(a)["index"]["_index"], json.loads(b))
                     for a, b in zip(lines[::2], lines[1::2])]
    runs = [d for i, d in docs if "-runs" in i]
    pctiles = [d for i, d in docs if "-pctiles-" in i]
    if len(runs) != 1 or runs[0].get("placement") != "issue":
        failures.append("push: the run document does not say placement issue: %s" %
                        [r.get("placement") for r in runs])
    if not pctiles or any(d.get("placement") != "issue" for d in pctiles):
        failures.append("push: percentile documents without placement issue")
    if not any("complete_to" in d and d.get("partial") for d in pctiles):
        failures.append("push: no percentile document with complete_to (and partial)")
    return failures


def compared(fiohist, datadir, other):
    """compare --place issue: both runs placed at issue (its figures differ from completion's
    on a run with stalls), a verdict given."""
    out = {}
    for place in ("completion", "issue"):
        r = subprocess.run([fiohist, "compare", "--place", place, "--format", "json",
                            "run=" + datadir, "base=" + other], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=300)
        if r.returncode not in (0, 5, 6):
            return ["compare --place %s: exit %d: %s" % (place, r.returncode, r.stderr[-300:])]
        out[place] = json.loads(r.stdout)
    if out["issue"] == out["completion"]:
        return ["compare --place issue gave the same comparison as completion placement"]
    return []


def issued_per_quantum(truth, origin):
    """{quantum start: (I/Os issued there, slowest latency ns)}; fiohist's issue time is
    completion ms * 10^6 - latency ns, floored to the ms."""
    issued = {}
    for t, lat, _ in truth:
        q = quantum_at((t * 1000000 - lat) // 1000000, origin)
        n, mx = issued.get(q, (0, 0))
        issued[q] = (n + 1, max(mx, lat))
    return issued


def evaluate(fiohist, datadir, table):
    hist = sorted(glob.glob(os.path.join(datadir, "*_clat_hist.*.log*")))
    per_io = sorted(glob.glob(os.path.join(datadir, "*_clat.*.log*")))
    if not hist or not per_io:
        raise SystemExit("%s: expected *_clat_hist.*.log* and *_clat.*.log*" % datadir)
    truth = fio_stall_run.completions(datadir)
    exact = rows_of(fiohist, per_io, "issue")
    spread = rows_of(fiohist, hist, "issue")
    before = rows_of(fiohist, hist, "completion")
    origin = min(spread) % QUANTUM_MS
    issued = issued_per_quantum(truth, origin)
    pauses = [(a, b) for (a, _, _), (b, _, _) in zip(truth, truth[1:]) if b - a > PAUSE_MS]
    longest = max((b - a for a, b in pauses), default=0)
    stuck_ns = longest * 1e6 / 2
    failures = []

    # Per-I/O logs: exact (on their own grid: quanta aligned with their first I/O) where
    # their stamps are absolute; relative ones are placed by fiohist's anchor, which this
    # script does not reproduce to the millisecond.
    exact_issued = issued_per_quantum(truth, min(exact) % QUANTUM_MS)
    if truth[0][0] - fio_stall_run.anchor_ms(datadir) < 10**12:
        exact_issued, exact = {}, {}
    for q in sorted(set(exact) | set(exact_issued)):
        n_truth, max_truth = exact_issued.get(q, (0, 0))
        row = exact.get(q)
        n = float(row["samples"]) if row else 0.0
        if n != n_truth:
            failures.append("per-I/O, quantum %d: %g I/Os issued, truth %d" % (q, n, n_truth))
        if n_truth and abs(float(row["max"]) * 1e3 - max_truth) > BUCKET_SHARE * max_truth:
            failures.append("per-I/O, quantum %d: max %s us, truth %.1f us" %
                            (q, row["max"], max_truth / 1e3))

    # Histogram logs: spread.
    edges = {quantum_at(truth[0][0] - truth[0][1] / 1e6, origin)}
    for a, b in pauses:
        edges.update({quantum_of_completion(a, origin), quantum_of_completion(b, origin),
                      quantum_at(a, origin), quantum_at(b, origin)})
    for t, lat, _ in truth:
        if lat > stuck_ns:
            edges.add(quantum_at(t - lat / 1e6, origin))
    partial_from = None
    for q in sorted(spread):
        if spread[q].get("complete_to"):
            partial_from = q if partial_from is None else partial_from
    if partial_from is None:
        failures.append("no quantum flagged partial (complete_to): the logs end before the "
                        "I/Os issued in their last quanta completed")
    else:
        q = partial_from
        while q <= max(set(spread) | set(issued)):
            edges.add(q)
            q += QUANTUM_MS
        # Flagged only within the slowest latency of the run before the logs' end.
        slowest_ms = max(lat for _, lat, _ in truth) / 1e6
        last_completion = truth[-1][0]
        if partial_from + QUANTUM_MS + slowest_ms + 2 * QUANTUM_MS < last_completion:
            failures.append("quantum %d flagged partial, more than the slowest latency "
                            "(%.0f ms) before the end" % (partial_from, slowest_ms))
    inside = set()
    for a, b in pauses:
        if b - a > 2 * QUANTUM_MS:
            q = quantum_at(a, origin) + QUANTUM_MS
            while q + QUANTUM_MS <= b:
                inside.add(q)
                q += QUANTUM_MS
    for q in sorted(set(spread) | set(issued)):
        n_truth, max_truth = issued.get(q, (0, 0))
        row = spread.get(q)
        n = float(row["samples"]) if row else 0.0
        max_ns = float(row["max"]) * 1e3 if row and n > 0 else 0.0
        if q in inside:
            if abs(n - n_truth) > 1:
                failures.append("histogram logs, quantum %d inside a stall: %.2f I/Os issued, "
                                "truth %d" % (q, n, n_truth))
        elif q not in edges and abs(n - n_truth) > max(COUNT_LIMIT * n_truth, 0.5):
            failures.append("histogram logs, quantum %d: %.1f I/Os issued, truth %d (more than "
                            "%.0f %% off)" % (q, n, n_truth, COUNT_LIMIT * 100))
        if longest > 2 * QUANTUM_MS and (max_truth > stuck_ns) != (max_ns > stuck_ns):
            failures.append("histogram logs, quantum %d: max %.0f ms, truth %.0f ms: stuck I/Os "
                            "(over %.0f ms) not where they were issued" %
                            (q, max_ns / 1e6, max_truth / 1e6, stuck_ns / 1e6))
    failures += pushed(fiohist, hist)
    print("%s: %d I/Os, pauses (ms) %s, edges %d, inside stalls %d, partial from %s" % (
        datadir, len(truth), [(a, b, b - a) for a, b in pauses], len(edges), len(inside),
        partial_from))
    if table:
        print_table(sorted(set(spread) | set(issued) | set(before)), before, spread, issued,
                    inside)
    return failures


def print_table(quanta, before, spread, issued, inside):
    print("| quantum | completion: I/Os | max ms | issue: I/Os | max ms | truth issued | max ms "
          "| complete to |")
    print("|" + "---|" * 8)

    def cells(r):
        if not r or float(r["samples"]) == 0:
            return "0 | - |"
        return "%s | %s |" % ("{:,.0f}".format(float(r["samples"])),
                              "{:,.1f}".format(float(r["max"]) / 1e3))
    for q in quanta:
        n, mx = issued.get(q, (0, 0))
        r = spread.get(q)
        complete = r.get("complete_to") if r else ""
        print("| :%06.3f%s | %s %s %s | %s | %s |" % (
            (q % 60000) / 1000, " (stall)" if q in inside else "", cells(before.get(q)),
            cells(r), "{:,}".format(n), "{:,.1f}".format(mx / 1e6) if n else "-",
            "{:,.0f} ms".format(float(complete) / 1e3) if complete else ""))


def refusals(fiohist, status_json):
    """--place issue where it cannot be done: refused before any work, saying why."""
    failures = []
    cases = [
        (["pctiles", "--place", "issue", status_json], ["--place issue", "fio JSON output",
                                                         "histogram logs"]),
        (["report", "--place", "issue", "-o", os.devnull, status_json],
         ["--place issue", "fio JSON output"]),
        (["follow", "--place", "issue", "--run", "x", status_json], ["--place"]),
        (["compare", "--place", "issue", "--es-url", "http://127.0.0.1:1", "a", "b"],
         ["--place issue", "stored runs"]),
        (["pctiles", "--place", "sideways", status_json], ["--place", "completion or issue"]),
    ]
    for args, words in cases:
        out = subprocess.run([fiohist] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, timeout=60)
        what = "fiohist " + " ".join(args)
        if out.returncode == 0:
            failures.append("%s: exit 0, expected a refusal" % what)
        if out.stdout.strip():
            failures.append("%s: wrote output before refusing: %r" % (what, out.stdout[:200]))
        for w in words:
            if w not in out.stderr:
                failures.append("%s: %r not in its message: %r" % (what, w, out.stderr[-400:]))
        print("%s -> exit %d: %s" % (what, out.returncode, out.stderr.strip().splitlines()[-1]
                                     if out.stderr.strip() else ""))
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fiohist")
    ap.add_argument("--data", help="a recorded run with per-I/O logs")
    ap.add_argument("--refusals", metavar="STATUS_JSON",
                    help="check instead that --place issue is refused on this fio status stream "
                         "(and where else it cannot be done)")
    ap.add_argument("--compare-with", metavar="DIR",
                    help="also compare --data with this run under both placements")
    ap.add_argument("--table", action="store_true")
    a = ap.parse_args()
    if a.refusals:
        failures = refusals(a.fiohist, a.refusals)
    elif a.data:
        failures = evaluate(a.fiohist, a.data, a.table)
        if a.compare_with:
            failures += compared(a.fiohist, a.data, a.compare_with)
    else:
        ap.error("give --data DIR or --refusals STATUS_JSON")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
