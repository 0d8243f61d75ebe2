#!/usr/bin/env python3
"""Per-I/O logs pushed to a real Elasticsearch or OpenSearch node and read back: the shipped
fio 3.42 client/server per-I/O logs (two hosts, two jobs each, Unix-epoch stamps) pushed,
then `fiohist pctiles --run` from their bucket documents compared with `fiohist pctiles`
of the same logs: every row of every scope present, samples equal, every percentile and
min/mean/max equal (within 1e-9 relative: the same sums, up to addition order), the logs'
`straddled` 0 (bucket documents do not carry it), and the same at 5x the quantum.

Usage: readback_per_io_test.py FIOHIST DATADIR  (env: FIOHIST_ES_URL)
"""
import glob
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402
import pushlib  # noqa: E402

FIOHIST, DATADIR = sys.argv[1], sys.argv[2]
URL = os.environ["FIOHIST_ES_URL"]
LOGS = sorted(glob.glob(os.path.join(DATADIR, "csa_clat.*.log.*.gz")))
PREFIX = "rbperio"
RUN = "per-io-readback"
CHECKS = testlib.Checks()
check = CHECKS.check


def fiohist(args):
    return pushlib.run_fiohist(FIOHIST, args)


def straddled(key, a, b):
    """Bucket documents do not carry `straddled` (read-back leaves it empty); the logs' is 0:
    per-I/O input places every I/O exactly."""
    if a["straddled"] != "0" or b["straddled"] not in ("", "0"):
        return [(key, "straddled", a["straddled"], b["straddled"])]
    return []


def compare(what, args):
    testlib.check_read_back(check, fiohist, what, args, LOGS, "the per-I/O logs", URL, PREFIX,
                            RUN, "samples, min/mean/max and percentiles equal, straddled 0",
                            row_differs=straddled)


def main():
    check(len(LOGS) == 4, "the shipped per-I/O logs: %d" % len(LOGS))
    testlib.es_request(URL, "DELETE", "/%s-*" % PREFIX)
    rc, _, err = fiohist(["push", "--es-url", URL, "--index-prefix", PREFIX, "--run", RUN,
                          "--quiet"] + LOGS)
    check(rc == 0, "push of the per-I/O logs " + err.strip()[-300:])
    testlib.es_request(URL, "POST", "/%s-*/_refresh" % PREFIX)
    scopes = ["--scope", "cluster,host,job"]
    compare("push quantum", scopes)
    compare("5x quantum", scopes + ["--quantum", "5"])
    testlib.es_request(URL, "DELETE", "/%s-*" % PREFIX)
    return 1 if CHECKS.failures else 0


if __name__ == "__main__":
    sys.exit(main())
