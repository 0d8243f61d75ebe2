#!/usr/bin/env python3
"""fio's client/server mode as input, with real fio.

Usage: client_server_test.py FIOHIST FIO PORT_BASE SOURCE_DIR

Starts two fio servers on 127.0.0.1 (ports PORT_BASE and PORT_BASE+1: two "hosts" told apart
only by port), runs `fio --client=... --status-interval=1 --output-format=json+` with 2 jobs
on each, rate-limited, writing histogram logs too (write_hist_log in client/server mode lands
on the client as NAME_clat_hist.N.log.HOST; each server's job file names its own logs, since
both servers have the same HOST). Then:
- `fiohist pctiles` on the client's JSON: hosts 127.0.0.1:PORT, whole-run I/O counts equal the
  last entries of each server exactly, and the text lines before the JSON are counted;
- its per-quantum cluster p50/p99 against `fiohist pctiles` on the histogram logs of the same
  run (anchored on the same instant). fio's status ticks and log records close different
  intervals (as in live mode, README "Live mode"), and fio 3.33's client/server hist logs
  over-count (line k of a direction holds its interval plus line k-2: 2.7 times fio's own count,
  printed); repaired (interval = line k - line k-2), their I/Os per quantum agree within 10 %
  (median); percentiles per quantum (and how often the two 95 % intervals overlap) and of
  the whole run are printed, not asserted: the repaired logs are an inference, fio 3.33's
  client JSON has no job_start to place its entries closer than the client's whole-second
  timestamp, and a loaded machine's latencies are bimodal from second to second. Live
  mode's bound (80 % overlap) holds for status streams against local hist logs
  (live.follow_es), not for these;
- `push --out` of the same file writes documents for both hosts;
- the shipped fio 3.42 client/server file (tests/golden/data/fio-3.42) reads with job_start.
Waits for events (a server's port listening, fio exiting), never fixed sleeps.
"""
import csv
import gzip
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

FIOHIST, FIO, PORT_BASE, SOURCE = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def run(args, cwd=None, timeout=120):
    p = subprocess.run([FIOHIST] + args, capture_output=True, cwd=cwd, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def listening(port, address="127.0.0.1"):
    """True when something listens on address:port (read from /proc, no connection made)."""
    a = [int(x) for x in address.split(".")]
    want = "%02X%02X%02X%02X:%04X" % (a[3], a[2], a[1], a[0], port)
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            if fields[1] == want and fields[3] == "0A":
                return True
    return False


def wait_listening(proc, port, address, deadline_s=30):
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if listening(port, address):
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.05)  # polling for the event; the deadline only stops a hang
    return False


def job_file(tmp, name):
    path = os.path.join(tmp, name + ".fio")
    with open(path, "w") as f:
        f.write("[global]\nioengine=psync\nsize=16m\nbs=4k\nrw=randrw\nrwmixread=67\n"
                "time_based=1\nruntime=10\nrate_iops=1500,750\nwrite_hist_log=%s\n"
                "log_hist_msec=1000\ndirectory=%s\n[%s]\nnumjobs=2\nfilename=%s.dat\n"
                % (name, tmp, name, name))
    return path


def client_run(tmp, addresses, out):
    """Two fio servers (ports PORT_BASE, PORT_BASE+1) on `addresses`, and one client run.
    fio gives every server of one host name the first job file given for that name, and names
    the logs it brings back after the host only: a comparison with the logs needs two
    addresses (127.0.0.1 and 127.0.0.2, both loopback; "localhost" resolved to either server
    from one run to the next)."""
    servers = []
    ok = True
    try:
        for k in range(2):
            port = PORT_BASE + k
            ok = ok and not listening(port, addresses[k])
            p = subprocess.Popen([FIO, "--server=%s,%d" % (addresses[k], port)], cwd=tmp,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            servers.append(p)
            check(wait_listening(p, port, addresses[k]),
                  "fio server listening on %s:%d" % (addresses[k], port))
        args = [FIO, "--output-format=json+", "--output=" + out]
        job = job_file(tmp, "cs")
        # Both servers run in `tmp` on one data file: lay it out before, so that they do not
        # race to create it (one of them then failed the run under load).
        with open(os.path.join(tmp, "cs.dat"), "wb") as f:
            f.write(b"\0" * (16 << 20))
        for k, name in enumerate(addresses):
            args += ["--client=%s,%d" % (name, PORT_BASE + k), "--status-interval=1", job]
        # fio's client sometimes ends with exit 1 and no message on a loaded machine (seen
        # for the second pair of servers only); that is fio's, not what this test is about,
        # so the run is tried up to three times, each failure printed.
        for attempt in range(3):
            c = subprocess.run(args, cwd=tmp, capture_output=True, timeout=120)
            if c.returncode == 0:
                break
            print("fio client run %s, attempt %d: rc %d: %s" % (
                addresses, attempt + 1, c.returncode, (c.stderr + c.stdout).decode()[-300:]))
        check(c.returncode == 0, "fio client run %s (rc %d)" % (addresses, c.returncode))
    finally:
        for p in servers:
            p.send_signal(signal.SIGTERM)
        for p in servers:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
    return ok


def repaired(log, out):
    """fio 3.33's client/server hist logs: line k of a direction holds its interval plus line
    k-2 of that direction (checked on every bucket: the differences are never negative, and
    their sums are fio's own counts less its last partial interval). Writes the intervals, as
    fio writes the log locally."""
    lines = {}
    with open(out, "w") as o:
        for line in open(log):
            f = [int(x) for x in line.split(",")]
            seen = lines.setdefault(f[1], [])
            back = seen[-2] if len(seen) >= 2 else [0] * (len(f) - 3)
            seen.append(f[3:])
            o.write(", ".join(str(x) for x in f[:3] + [a - b for a, b in zip(f[3:], back)]))
            o.write("\n")
    return out


def rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def fio_json_entries(path):
    text = open(path).read()
    start = text.index("\n{") + 1
    return text[:start].count("\n"), json.loads(text[start:])


def compare(client_rows, log_rows, fields=("p50", "p99")):
    """Relative differences of `fields` of full cluster quanta with >= 1000 I/Os in both."""
    ref = {(r["start_ms"], r["direction"]): r for r in log_rows if r["scope"] == "cluster"}
    rels = []
    for r in client_rows:
        o = ref.get((r["start_ms"], r["direction"]))
        if not o or r["direction"] not in ("read", "write") or r["partial"] == "true" or \
                o["partial"] == "true" or float(r["samples"]) < 1000 or \
                float(o["samples"]) < 1000:
            continue
        for p in fields:
            a, b = float(r[p]), float(o[p])
            rels.append(abs(a - b) / max(a, b))
    return sorted(rels)


def overlap(client_rows, log_rows, fields=("p50", "p99")):
    """(overlapping, pairs): full cluster quanta's percentiles whose 95 % intervals from the
    client JSON and from the logs overlap (a missing `_high`, too few I/Os, is unbounded), as
    live mode's comparison counts them (tests/live/live_test.py)."""
    ref = {(r["start_ms"], r["direction"]): r for r in log_rows if r["scope"] == "cluster"}
    pairs = overlapping = 0
    for r in client_rows:
        o = ref.get((r["start_ms"], r["direction"]))
        if not o or r["scope"] != "cluster" or r["direction"] not in ("read", "write") or \
                r["partial"] == "true" or o["partial"] == "true":
            continue
        for p in fields:
            if not r[p] or not o[p]:
                continue
            a_lo, b_lo = float(r[p + "_low"] or r[p]), float(o[p + "_low"] or o[p])
            a_hi = float(r[p + "_high"]) if r[p + "_high"] else float("inf")
            b_hi = float(o[p + "_high"]) if o[p + "_high"] else float("inf")
            pairs += 1
            overlapping += a_lo <= b_hi and b_lo <= a_hi
    return overlapping, pairs


def live(tmp):
    # Two servers on one host: told apart by port (their logs would overwrite each other).
    one = os.path.join(tmp, "one-host")
    os.mkdir(one)
    out = os.path.join(one, "client.json")
    check(client_run(one, ("127.0.0.1", "127.0.0.1"), out), "ports %d, %d free"
          % (PORT_BASE, PORT_BASE + 1))
    whole_run_counts(out, ["127.0.0.1:%d" % PORT_BASE, "127.0.0.1:%d" % (PORT_BASE + 1)])
    # Servers on 127.0.0.1 and 127.0.0.2: the logs they bring back are named apart
    # (cs_clat_hist.N.log.HOST), so the client JSON can be compared with them.
    two = os.path.join(tmp, "two-names")
    os.mkdir(two)
    out = os.path.join(two, "client.json")
    client_run(two, ("127.0.0.1", "127.0.0.2"), out)
    whole_run_counts(out, ["127.0.0.1", "127.0.0.2"])
    logs = sorted(os.path.join(two, f) for f in os.listdir(two) if "_clat_hist." in f)
    check(len(logs) == 4, "4 histogram logs on the client: %s" % [os.path.basename(x)
                                                                   for x in logs])
    # As fio wrote them they over-count: fiohist refuses them, naming fio's bug.
    rc, _, err = run(["pctiles", "--quiet"] + logs)
    check(rc != 0 and "client/server bug" in err and "--repair-client-logs" in err,
          "the hist logs as fio wrote them are refused, naming fio's bug (rc %d: %s)"
          % (rc, err.strip()[-300:]))
    against_logs(out, logs, "as fio wrote them, --repair-client-logs", None,
                 ["--repair-client-logs"])
    fixed = os.path.join(two, "repaired")
    os.mkdir(fixed)
    fixed_logs = [repaired(f, os.path.join(fixed, os.path.basename(f))) for f in logs]
    against_logs(out, fixed_logs, "repaired", 0.10)
    # --repair-client-logs takes the same differences as this script.
    rc, a, _ = run(["pctiles", "--quiet", "--repair-client-logs", "--start-time", "0"] + logs)
    rc2, b, _ = run(["pctiles", "--quiet", "--start-time", "0"] + fixed_logs)
    check(rc == 0 and rc2 == 0 and a == b,
          "--repair-client-logs gives the rows of the logs repaired here (line k - line k-2)")
    push(out, os.path.join(tmp, "push"), ["127.0.0.1", "127.0.0.2"])


def last_entries(doc):
    """The last round of every server (2 jobs each): the whole run."""
    last = {}
    for e in doc["client_stats"]:  # per server, jobs in order every round
        if e["jobname"] != "All clients":
            last.setdefault(e["port"], []).append(e)
    return [e for es in last.values() for e in es[-2:]]


def whole_run_counts(out, hosts):
    text_lines, doc = fio_json_entries(out)
    expect = {}
    two_ports = len(hosts) > len({h.split(":")[0] for h in hosts})
    for e in last_entries(doc):
        host = e["hostname"] + (":%d" % e["port"] if two_ports else "")
        expect[host] = expect.get(host, 0) + e["read"]["total_ios"] + e["write"]["total_ios"]
    check(sorted(expect) == sorted(hosts), "hosts %s" % sorted(expect))

    rc, whole, err = run(["pctiles", "--whole-run", "--scope", "host", out])
    check(rc == 0, "pctiles --whole-run on the client JSON (rc %d: %s)" % (rc, err[-400:]))
    got = {r["host"]: float(r["samples"]) for r in rows(whole) if r["direction"] == "all"}
    check(got == {h: float(n) for h, n in expect.items()},
          "whole-run I/Os per host equal the last entries: %s vs %s" % (got, expect))
    check("%d text lines before fio's JSON document skipped" % text_lines in err,
          "the %d text lines are counted on stderr" % text_lines)


def against_logs(out, logs, what, bound, extra=()):
    text_lines, doc = fio_json_entries(out)
    # Same instant for both: the client's timestamp, which fio 3.33 places the entries on.
    start = str(doc["timestamp"])
    rc, client_q, err = run(["pctiles", "--quiet", "-p", "50,99", out])
    check(rc == 0, "pctiles on the client JSON (%s)" % err[-300:])
    # The logs go on the client output's grid (the phase of its servers' first reports).
    starts = [int(r["start_ms"]) for r in rows(client_q)]
    origin = "%.3f" % (min(starts) % 1000 / 1000.0) if starts else "epoch"
    rc, log_q, err = run(["pctiles", "--quiet", "-p", "50,99", "--grid", origin,
                          "--start-time", start] + list(extra) + logs)
    check(rc == 0, "pctiles on the histogram logs (%s)" % err[-300:])
    rels = compare(rows(client_q), rows(log_q))
    med = rels[len(rels) // 2] if rels else 1
    print("client JSON vs hist logs (%s), p50/p99 of full cluster quanta with >= 1000 I/Os: %d "
          "compared, median %.2f%%, largest %.2f%%" % (what, len(rels), 100 * med,
                                                        100 * (rels[-1] if rels else 0)))
    check(len(rels) >= 20, "compared in %d places" % len(rels))
    # fio 3.33's client/server hist logs over-count (line k holds its interval plus line k-2:
    # measured 38001 logged reads for a job fio counted 14990), so as written they show a mix
    # of earlier intervals; at a constant rate the percentiles stay close, not equal.
    # Not asserted, as in live mode (tests/live/live_test.py): status ticks and log records
    # close different intervals, and on this loaded machine a second's latencies are often
    # bimodal (p50 jumps between ~5 and ~60 us from one second to the next). Asserted: the
    # I/Os per quantum (the timing model), within 10 % (median; measured 4.9 %) once the logs
    # are repaired.
    both, pairs = overlap(rows(client_q), rows(log_q))
    print("  p50/p99 of full cluster quanta: the two 95%% intervals overlap in %d of %d (%.1f%%)"
          % (both, pairs, 100.0 * both / pairs if pairs else 0))
    # Printed, not held to live mode's bound (80 %): fio 3.33's client/server hist logs are
    # only an inference once repaired, and fio 3.33's client JSON has no job_start, so its
    # entries sit on the client's whole-second `timestamp`, seconds from the logs' own time
    # line. Measured on one run: 69-75 % overlap as placed; the logs' start moved in 250 ms
    # steps over +-3 s gave 54-91 % with no shift standing out (median difference 6-23 %).
    counts = compare(rows(client_q), rows(log_q), ("samples",))
    cmed = counts[len(counts) // 2] if counts else 1
    print("  I/Os per quantum: median difference %.2f%%" % (100 * cmed))
    if bound is not None:
        check(cmed <= bound, "I/Os per quantum: median difference %.2f%% within %d%% (%s)"
              % (100 * cmed, 100 * bound, what))
    logged = sum(sum(int(x) for x in line.split(",")[3:]) for f in logs for line in open(f))
    print("I/Os in the client/server hist logs: %d; fio's client_stats: %d" % (
        logged, sum(e[d]["total_ios"] for e in last_entries(doc) for d in ("read", "write"))))
    rc, cw, _ = run(["pctiles", "--quiet", "--whole-run", "-p", "50,99", out])
    rc2, lw, _ = run(["pctiles", "--quiet", "--whole-run", "-p", "50,99", "--start-time", start]
                     + list(extra) + logs)
    for a, b in zip(rows(cw), rows(lw)):
        for p in ("p50", "p99"):
            x, y = float(a[p]), float(b[p])
            print("  whole run %s %s: client %.2f, logs %.2f" % (a["direction"], p, x, y))



def push(out, outdir, want):
    rc, _, err = run(["push", "--run", "cs", "--out", outdir, "--quiet", out])
    check(rc == 0, "push --out of the client JSON (rc %d: %s)" % (rc, err[-300:]))
    hosts = set()
    for root, _, files in os.walk(outdir):
        for f in files:
            opener = gzip.open if f.endswith(".gz") else open  # push --out writes gzip
            for line in opener(os.path.join(root, f), "rt"):
                if '"host"' in line:
                    hosts.add(json.loads(line).get("host"))
    check(set(want) <= hosts, "push documents name both servers (%s)"
          % sorted(h for h in hosts if h))


def shipped():
    path = os.path.join(SOURCE, "tests/golden/data/fio-3.42/client-2servers.json")
    rc, out, err = run(["pctiles", "--whole-run", "--scope", "host", path])
    check(rc == 0, "pctiles on fio 3.42's client/server file (%s)" % err[-300:])
    hosts = sorted({r["host"] for r in rows(out)})
    check(hosts == ["127.0.0.1:8781", "127.0.0.1:8782"], "hosts by port: %s" % hosts)
    check("job_start" not in err, "fio 3.42 gives job_start: no warning about the anchor")


def main():
    tmp = tempfile.mkdtemp(prefix="fiohist-cs-")
    try:
        live(tmp)
        shipped()
    finally:
        if os.environ.get("FIOHIST_KEEP_TMP"):
            print("kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)


main()
