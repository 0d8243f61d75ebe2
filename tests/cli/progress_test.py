#!/usr/bin/env python3
"""Progress on a terminal (issue 36), under a pseudo-terminal (Python's pty module).

`pctiles`, `push --out` and `report` draw a progress line while they read the logs (bytes of
all inputs, rate, time left) when stderr is a terminal, none with --quiet and none when
stderr is not a terminal. FIOHIST_PROGRESS_AFTER_MS=0 makes the line show however short the
work is (the default waits a second), so the test waits for nothing but the process.

With `es` (and FIOHIST_ES_URL): `push` to the node draws the indexing line, ending at every
document of the known total; `pctiles --run` and `compare --es-url` the read-back line (of
the total the server counted first: one line per run for compare); `load` its indexing line;
with --quiet none of them.

Usage: progress_test.py FIOHIST DATA_DIR WORKDIR [es]
"""
import errno
import os
import pty
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import Checks  # noqa: E402

FIOHIST, DATA, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
c = Checks()
check = c.check
ENV = dict(os.environ, FIOHIST_PROGRESS_AFTER_MS="0")


def under_pty(args):
    """Runs fiohist with stderr (and stdin) on a pseudo-terminal; stdout to /dev/null.
    Returns (rc, everything written to the terminal)."""
    master, slave = pty.openpty()
    with open(os.devnull, "w") as null:
        p = subprocess.Popen([FIOHIST] + args, cwd=WORK, stdin=slave, stdout=null, stderr=slave,
                             env=ENV)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError as e:  # EIO: the last holder of the terminal closed it
            if e.errno != errno.EIO:
                raise
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return p.wait(timeout=600), b"".join(chunks).decode(errors="replace")


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
logs = os.path.join(DATA, "fio-logs", "randrw4")
size = sum(os.path.getsize(os.path.join(logs, f)) for f in os.listdir(logs) if "_hist." in f)
total = "%.1f kB" % (size / 1000) if size < 1e6 else "%.1f MB" % (size / 1e6)

if sys.argv[4:] == ["es"]:
    url = os.environ["FIOHIST_ES_URL"]
    rc, tty = under_pty(["push", "--es-url", url, "--index-prefix", "progress", "--run", "progress", logs])
    check(rc == 0, "push to the node under a terminal succeeds (rc %d)\n%s" % (rc, tty[-500:]))
    lines = re.findall(r"\rindexing: ([^\r\n\x1b]*)", tty)
    total = re.search(r"run 'progress': (\d+) documents", tty)
    check(lines and total and re.match(r"%s of %s documents \(100%%\)" % (total.group(1), total.group(1)),
                                       lines[-1]),
          "push draws the indexing line, ending at all documents of the total: %r" % lines[-1:])
    rc, tty = under_pty(["pctiles", "-o", "back.csv", "--es-url", url, "--index-prefix", "progress",
                         "--run", "progress"])
    lines = re.findall(r"\rreading back: ([^\r\n\x1b]*)", tty)
    read = re.search(r"run 'progress': (\d+) bucket documents", tty)
    check(rc == 0 and lines and read and
          re.match(r"%s of %s bucket documents \(100%%\)" % (read.group(1), read.group(1)), lines[-1]),
          "pctiles --run draws the read-back line, ending at the total the server counted: %r"
          % lines[-1:])
    # compare --es-url: a read-back line per run, each of its known total.
    rc, tty = under_pty(["push", "--es-url", url, "--index-prefix", "progress", "--run", "progress2",
                         "--quiet", logs])
    check(rc == 0 and "\r" not in tty.replace("\r\n", ""),
          "push --quiet to the node draws no progress (rc %d): %r" % (rc, tty[:200]))
    compare = ["compare", "--es-url", url, "--index-prefix", "progress", "progress", "progress2"]
    rc, tty = under_pty(compare)
    for run in ("progress", "progress2"):
        lines = re.findall(r"\rreading back run '%s': ([^\r\n\x1b]*)" % run, tty)
        check(rc in (0, 5, 6) and lines and re.match(r"(\d+) of \1 bucket documents \(100%\)", lines[-1]),
              "compare --es-url draws run %s's read-back line, ending at its total (rc %d): %r"
              % (run, rc, lines[-1:] or tty[-300:]))
    rc, tty = under_pty(compare + ["--quiet"])
    check(rc in (0, 5, 6) and "reading back" not in tty,
          "compare --es-url --quiet draws no progress: %r" % tty[:200])
    # load: its indexing line on a terminal, none with --quiet.
    rc, tty = under_pty(["push", "--run", "loaded", "--quiet", "--out", "loaded", logs])
    check(rc == 0, "push --out for load succeeds (rc %d)" % rc)
    rc, tty = under_pty(["load", "loaded", "--es-url", url, "--index-prefix", "progressload"])
    check(rc == 0 and re.search(r"\r  indexed \d+", tty),
          "load draws its indexing line (rc %d): %r" % (rc, tty[-300:]))
    rc, tty = under_pty(["load", "loaded", "--es-url", url, "--index-prefix", "progressload",
                         "--quiet"])
    check(rc == 0 and "\r" not in tty.replace("\r\n", ""),
          "load --quiet draws no progress (rc %d): %r" % (rc, tty[:300]))
    if c.failures:
        sys.exit("%d check(s) failed" % len(c.failures))
    print("all checks passed")
    sys.exit(0)

for cmd in (["pctiles", "-o", "p.csv"], ["push", "--run", "p", "--out", "out"], ["report", "-o", "r.html"]):
    name = cmd[0]
    rc, tty = under_pty(cmd + [logs])
    check(rc == 0, "%s under a terminal succeeds (rc %d)" % (name, rc))
    lines = re.findall(r"\rreading: ([^\r\n\x1b]*)", tty)
    check(lines and re.fullmatch(r"%s of %s \(100%%\), [\d.]+ [kMG]?B/s" % (re.escape(total), re.escape(total)),
                                 lines[-1]),
          "%s draws the reading line, ending at all %s read with the rate: %r" % (name, total, lines[-1:]))
    rc, tty = under_pty(cmd + ["--quiet", logs])
    check(rc == 0 and "reading:" not in tty and "\r" not in tty.replace("\r\n", ""),
          "%s --quiet draws no progress: %r" % (name, tty[:200]))
    p = subprocess.run([FIOHIST] + cmd + [logs], cwd=WORK, capture_output=True, text=True, env=ENV)
    check(p.returncode == 0 and "reading:" not in p.stderr and "\r" not in p.stderr,
          "%s with stderr not a terminal draws no progress" % name)

if c.failures:
    sys.exit("%d check(s) failed" % len(c.failures))
print("all checks passed")
