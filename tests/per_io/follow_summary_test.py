#!/usr/bin/env python3
"""Per-I/O input outside pctiles' main path: `follow` refuses per-I/O logs, histogram logs
and smallfile files before any work (exit 2, nothing written, the message says why and what
to use), and the summary says what a quantum is made of (per-I/O records, not a
log_hist_msec that was never given; both for a mix).

Usage: follow_summary_test.py FIOHIST
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

CHECKS = testlib.Checks()
check = CHECKS.check


def write(path, lines):
    with open(path, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    return path


def main():
    fiohist = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        per_io = write(os.path.join(tmp, "t_clat.1.log"),
                       ["%d, %d, %d, 4096, 0" % (t, 50000 + 7 * t, t % 2) for t in range(0, 3000, 3)])
        hist = write(os.path.join(tmp, "u_clat_hist.1.log"),
                     ["%d, 0, 4096, " % t + ", ".join(["0"] * 1000 + ["3"] + ["0"] * 855)
                      for t in (1000, 2000, 3000)])  # fio 3's 1856 buckets
        small = write(os.path.join(tmp, "rsptimes_00_h1_create_1700000000.0.csv"),
                      ["create, 0.000000, 0.001000"])
        for path, words in ((per_io, "per-I/O latency log"), (hist, "histogram log"),
                            (small, "smallfile response-time file")):
            out_dir = os.path.join(tmp, "out-" + os.path.basename(path))
            r = subprocess.run([fiohist, "follow", "--run", "f", "--out", out_dir, path],
                               capture_output=True, text=True, timeout=60)
            check(r.returncode == 2, "follow %s: exit 2 (got %d)" % (path, r.returncode))
            check(words in r.stderr and "cannot be followed" in r.stderr
                  and os.path.basename(path) in r.stderr,
                  "follow names the file and why: %s" % r.stderr.strip()[:300])
            check(not os.path.exists(out_dir), "follow %s: nothing written" % path)

        r = subprocess.run([fiohist, "pctiles", per_io], capture_output=True, text=True)
        check(r.returncode == 0, "pctiles of a per-I/O log (%s)" % r.stderr[-300:])
        check("per-I/O records, each I/O counted in the quantum it completed in" in r.stderr
              and "log_hist_msec" not in r.stderr,
              "per-I/O only: the summary says what the quanta hold: %s" % r.stderr[:400])
        r = subprocess.run([fiohist, "pctiles", "--log-hist-msec", "1000", per_io, hist],
                           capture_output=True, text=True)
        check(r.returncode == 0, "pctiles of a per-I/O and a hist log (%s)" % r.stderr[-300:])
        check("log_hist_msec 1000 (given) for 1 histogram log(s); 1 per-I/O log(s), each I/O "
              "counted in the quantum it completed in" in r.stderr,
              "a mix: both named: %s" % r.stderr[:400])
        r = subprocess.run([fiohist, "pctiles", hist], capture_output=True, text=True)
        check("log_hist_msec 1000 (inferred)" in r.stderr, "hist only: as before: %s"
              % r.stderr[:300])
    return 1 if CHECKS.failures else 0


if __name__ == "__main__":
    sys.exit(main())
