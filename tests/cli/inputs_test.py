#!/usr/bin/env python3
"""One way to name inputs (issue 36): every command that reads logs takes directories.

Checks, on the real fio logs of tests/data:
- `pctiles DIR` prints exactly what `pctiles` of the directory's logs prints, and says what
  the directory gave; `push --out DIR` and `report DIR` read it too;
- a directory without input, and directories of two kinds, are errors saying what was found
  and what is expected, and nothing is written;
- `report RUN --baseline B1 --baseline B2` shows the verdict table `compare RUN B1 B2` prints
  (several baselines, each a directory);
- the summary of a client/server output names its client entries and servers, not
  "0 record(s)" and "log_hist_msec 0".

Usage: inputs_test.py FIOHIST DATA_DIR WORKDIR
"""
import glob
import html
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import Checks  # noqa: E402

FIOHIST, DATA, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
c = Checks()
check = c.check


def run(args, cwd=WORK):
    p = subprocess.run([FIOHIST] + args, cwd=cwd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
epoch2 = os.path.join(DATA, "fio-logs", "epoch2")
logs = sorted(glob.glob(os.path.join(epoch2, "*_clat_hist.*")))

# A directory is its logs (fio JSON beside them anchors them, commands.txt and job files are
# not inputs).
rc_dir, out_dir, err_dir = run(["pctiles", epoch2])
rc_files, out_files, _ = run(["pctiles"] + logs)
check(rc_dir == 0 and rc_files == 0, "pctiles DIR and pctiles LOGS succeed (rc %d, %d) %s"
      % (rc_dir, rc_files, err_dir[-300:]))
check(out_dir == out_files and len(out_dir) > 1000, "pctiles DIR prints what pctiles LOGS prints")
check("fiohist pctiles: %s: 4 histogram logs (and 2 fio JSON outputs beside them" % epoch2
      in err_dir, "pctiles says what the directory gave\n" + err_dir[:500])
rc, _, err = run(["pctiles", "--quiet", epoch2])
check(rc == 0 and "histogram logs" not in err, "--quiet leaves out what the directory gave")

rc, _, err = run(["push", "--run", "dir", "--out", "out-dir", epoch2])
check(rc == 0 and glob.glob(os.path.join(WORK, "out-dir", "*.ndjson.gz")),
      "push --out DIR reads the directory (rc %d) %s" % (rc, err[-300:]))
check("fiohist push: %s: 4 histogram logs" % epoch2 in err, "push says what the directory gave")
rc, _, err = run(["report", "-o", "dir.html", epoch2])
check(rc == 0 and os.path.getsize(os.path.join(WORK, "dir.html")) > 100000,
      "report DIR writes the page (rc %d) %s" % (rc, err[-300:]))

# Bad input: nothing of either kind, or two kinds.
empty = os.path.join(WORK, "no-input")
os.makedirs(empty)
for f in ("commands.txt", "job.fio"):
    shutil.copy(os.path.join(epoch2, "job-hostX.fio" if f == "job.fio" else f), os.path.join(empty, f))
for cmd in (["pctiles", "-o", "x.csv"], ["push", "--run", "x", "--out", "out-x"], ["report", "-o", "x.html"]):
    rc, out, err = run(cmd + [empty])
    name = cmd[0]
    check(rc == 1 and re.search(r"fiohist %s: error: .*no-input: no input in this directory: "
                                r"expected fio histogram logs .* or fio JSON outputs .*it holds 2 "
                                r"files \((commands\.txt|job\.fio), " % name, err),
          "%s of a directory without input says what it holds and what is expected (rc %d)\n%s"
          % (name, rc, err))
    check(not any(os.path.exists(os.path.join(WORK, p)) for p in ("x.csv", "x.csv.partial", "out-x", "x.html")),
          "%s wrote nothing" % name)
json_dir = os.path.join(WORK, "status-only")
os.makedirs(json_dir)
shutil.copy(os.path.join(DATA, "fio-status", "randrw-4s-status1.json"), json_dir)
rc, _, err = run(["pctiles", epoch2, json_dir])
check(rc == 1 and "holds histogram logs and %s only fio JSON outputs" % json_dir in err,
      "directories of two kinds are refused, naming both\n" + err)
rc, out, err = run(["pctiles", json_dir])
check(rc == 0 and "%s: no histogram logs; 1 fio JSON output" % json_dir in err and out,
      "a directory of fio JSON outputs alone is read as them\n" + err[-300:])

# The summary of fio JSON inputs names what they hold.
client = os.path.join(DATA, "fio-3.42-client-server", "client.json")
rc, _, err = run(["pctiles", "-o", "client.csv", client])
check(rc == 0 and re.search(r"fiohist: fio JSON outputs: 1 client/server output\(s\) with \d+ "
                            r"client entries of 2 server\(s\); \d+ job\(s\) on 2 host\(s\)", err)
      and "0 record(s)" not in err and "log_hist_msec 0" not in err,
      "the summary of a client/server output counts its entries and servers\n" + err[:600])
rc, _, err = run(["pctiles", "-o", "status.csv", os.path.join(json_dir, "randrw-4s-status1.json")])
check(rc == 0 and re.search(r"fiohist: fio JSON outputs: 1 status file\(s\) with \d+ status "
                            r"report\(s\)", err), "the summary of a status stream counts its reports\n"
      + err[:600])

# report's verdict table is compare's, against several baselines (each a directory).
runs = {}
for name, sources in (("run", glob.glob(os.path.join(DATA, "fio-logs", "randrw4", "*"))),
                      ("base-x", glob.glob(os.path.join(epoch2, "*hostX*"))),
                      ("base-y", glob.glob(os.path.join(epoch2, "*hostY*")))):
    d = os.path.join(WORK, name)
    os.makedirs(d)
    for f in sources:
        if os.path.isfile(f):
            shutil.copy(f, d)
    runs[name] = d
rc_c, out_c, err_c = run(["compare", "--format", "json", runs["run"], runs["base-x"], runs["base-y"]])
check(rc_c in (0, 5, 6) and out_c.strip(), "compare of the run and two baselines (rc %d) %s"
      % (rc_c, err_c[-300:]))
rc_r, _, err_r = run(["report", "-o", "cmp.html", runs["run"], "--baseline", runs["base-x"],
                      "--baseline", runs["base-y"]])
check(rc_r == 0, "report with two baselines (rc %d) %s" % (rc_r, err_r[-300:]))
if rc_r == 0 and out_c.strip():
    cmp = json.loads(out_c)
    page = open(os.path.join(WORK, "cmp.html"), encoding="utf-8").read()
    data = json.loads(html.unescape(re.search(
        r'<script id="fiohist-data" type="application/json">(.*?)</script>', page, re.S).group(1)))
    v = data["verdicts"]
    check(v.get("overall") == cmp["verdict"], "overall verdict: report %s, compare %s"
          % (v.get("overall"), cmp["verdict"]))
    check(len(cmp["baselines"]) == 2, "compare used two baselines")
    head = v.get("head", [])
    rows = [dict(zip(head, r)) for r in v.get("rows", [])]
    check(len(rows) == len(cmp["metrics"]) and rows, "as many rows as compare's metrics (%d, %d)"
          % (len(rows), len(cmp["metrics"])))
    for r, m in zip(rows, cmp["metrics"]):
        what = "%s %s" % (m["direction"], m["metric"])
        check(r["direction"] == m["direction"] and r["metric"] == m["metric"], what + ": same metric")
        check(r["verdict"] == m["verdict"] and r["why"] == m["reason"],
              what + ": verdict %s / %s" % (r["verdict"], m["verdict"]))
        want = "%+.1f %%" % (100 * m["change"]) if m["change"] is not None else None
        check(want is None or r["change"] == want, what + ": change %s / %s" % (r["change"], want))
        if m["change_low"] is not None and m["change_high"] is not None:
            want = "%+.1f %% .. %+.1f %%" % (100 * m["change_low"], 100 * m["change_high"])
            check(r["interval"] == want, what + ": interval %s / %s" % (r["interval"], want))
    check(v.get("notes") == cmp["notes"], "the same notes")

if c.failures:
    sys.exit("%d check(s) failed" % len(c.failures))
print("all checks passed")
