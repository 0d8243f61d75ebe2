#!/usr/bin/env python3
"""Relative-time logs of several hosts, made by fio itself, placed on absolute time.

Three fio processes (hosts A, B, C) run with log_unix_epoch=0, started 1.5 s apart, each
writing its histogram log and its JSON output; the logs are renamed with a host suffix
(`out_clat_hist.1.log.hostA`) and put in one folder beside `fio-hostA.json` ... Then:

- every host is placed at its own start, whether the JSON files are given together, one by
  one, found next to the logs, given as HOST=FILE, or matched by directories spelt
  differently (`./hostA/fio.json`, `hostB//fio.json`);
- ambiguous matches are refused with a message saying what to do;
- without any anchor, push to Elasticsearch refuses (exit 2, naming --start-time and
  --unanchored) before contacting the server; pctiles and push --out still work;
- the share of fio's I/Os each log holds is reported (summary, run document), computed
  here independently from the logs and fio's JSON, with a warning below 95 %.

Usage: anchor_test.py FIOHIST FIO
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

FIOHIST, FIO = os.path.abspath(sys.argv[1]), sys.argv[2]
HOSTS = ["hostA", "hostB", "hostC"]
STAGGER_S = 1.5
CHECKS = testlib.Checks()
failures = CHECKS.failures


check = CHECKS.check


def run(args, cwd):
    return testlib.run_fiohist(FIOHIST, args, cwd)


def make_logs(tmp):
    """Runs the three fio processes; returns {host: launch time in epoch ms}."""
    launched, procs = {}, []
    for i, h in enumerate(HOSTS):
        d = os.path.join(tmp, "gen", h)
        os.makedirs(d)
        if i:
            time.sleep(STAGGER_S)
        launched[h] = time.time() * 1000
        procs.append(subprocess.Popen(
            [FIO, "--name=" + h, "--filename=data", "--size=8m", "--rw=randrw", "--bs=4k",
             "--ioengine=psync", "--time_based", "--runtime=4", "--write_hist_log=out",
             "--log_hist_msec=1000", "--log_unix_epoch=0", "--output-format=json",
             "--output=fio-%s.json" % h], cwd=d, stdout=subprocess.DEVNULL))
    for p in procs:
        if p.wait(timeout=120) != 0:
            raise RuntimeError("fio failed")
    run_dir = os.path.join(tmp, "run")
    os.makedirs(run_dir)
    for h in HOSTS:
        src = os.path.join(tmp, "gen", h)
        shutil.copy(os.path.join(src, "out_clat_hist.1.log"),
                    os.path.join(run_dir, "out_clat_hist.1.log." + h))
        shutil.copy(os.path.join(src, "fio-%s.json" % h), run_dir)
        os.makedirs(os.path.join(tmp, "dirs", h))
        shutil.copy(os.path.join(src, "out_clat_hist.1.log"), os.path.join(tmp, "dirs", h))
        shutil.copy(os.path.join(src, "fio-%s.json" % h), os.path.join(tmp, "dirs", h, "fio.json"))
    return launched


def logs_in(d):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "out_clat_hist.*")))


def host_starts(args, cwd):
    """{host: start_ms of its first quantum}, from `pctiles --scope host`, on whole seconds
    (--grid epoch: the grid aligned with the logs would follow whichever hosts are given)."""
    rc, out, err = run(["pctiles", "--scope", "host", "--direction", "all", "--grid", "epoch"]
                       + args, cwd)
    if rc != 0:
        return None, err
    starts = {}
    lines = out.splitlines()
    head = lines[0].split(",")
    for line in lines[1:]:
        row = dict(zip(head, line.split(",")))
        h = row["host"]
        starts[h] = min(starts.get(h, 1 << 62), int(row["start_ms"]))
    return starts, err


def run_document(out_dir):
    for f in testlib.bulk_files(out_dir):
        lines = testlib.read_bulk_file(f).splitlines()
        for i, line in enumerate(lines):
            if '"_index":"fiohist-runs' in line:
                return json.loads(lines[i + 1])
    return None


def log_ios(path):
    total = 0
    for line in open(path):
        cols = line.split(",")
        if len(cols) > 3:
            total += sum(int(c) for c in cols[3:])
    return total


def fio_ios(path):
    job = json.load(open(path))["jobs"][0]
    return sum(job[d]["total_ios"] for d in ("read", "write", "trim"))


def main():
    tmp = tempfile.mkdtemp(prefix="fiohist-anchor-")
    try:
        launched = make_logs(tmp)
        run_dir = os.path.join(tmp, "run")
        logs = logs_in(run_dir)
        jsons = ["fio-%s.json" % h for h in HOSTS]

        # Point 1: each host alone, then all together, found, HOST=FILE, directories.
        alone = {}
        for h in HOSTS:
            s, err = host_starts(["--fio-json", "fio-%s.json" % h, "out_clat_hist.1.log." + h],
                                 run_dir)
            check(s is not None and h in s, "host %s alone is anchored (%s)" % (h, err[-300:]))
            alone[h] = s[h] if s else None
        for h in HOSTS:
            check(alone[h] is not None and abs(alone[h] - launched[h]) <= 2000,
                  "host %s starts within 2 s of its fio's launch (%s vs %.0f)"
                  % (h, alone[h], launched[h]))
        # fio may start up to a second or two after its launch on a loaded machine (the
        # check above allows 2 s): C's anchor follows its own fio, not A's (one anchor for
        # every host would give 0).
        gap = (alone["hostC"] or 0) - (alone["hostA"] or 0)
        launch_gap = launched["hostC"] - launched["hostA"]
        check(gap >= 500 and abs(gap - launch_gap) <= 2000,
              "host C starts after host A as its fio was launched later (%d ms; launched %.0f "
              "ms later)" % (gap, launch_gap))

        together_args = []
        for j in reversed(jsons):  # the order given does not matter
            together_args += ["--fio-json", j]
        s, err = host_starts(together_args + logs, run_dir)
        check(s == alone, "three --fio-json: every host at its own start (%s vs alone %s) %s"
              % (s, alone, err[-300:]))
        s, err = host_starts(logs, run_dir)
        check(s == alone, "fio JSON found next to the logs: every host at its own start (%s)"
              % err[-300:])
        check(all(re.search(r"fio JSON of host %s: .*fio-%s\.json \(file name; .*found next "
                            r"to the logs" % (h, h), err) for h in HOSTS),
              "the summary names the fio JSON found for each host")

        explicit = os.path.join(tmp, "explicit")
        os.makedirs(explicit)
        for h, name in zip(HOSTS, ["a.json", "b.json", "c.json"]):
            shutil.copy(os.path.join(run_dir, "fio-%s.json" % h), os.path.join(explicit, name))
            shutil.copy(os.path.join(run_dir, "out_clat_hist.1.log." + h), explicit)
        args = ["--fio-json", "hostA=a.json", "--fio-json", "hostB=b.json",
                "--fio-json", "hostC=c.json"]
        s, err = host_starts(args + logs, explicit)
        check(s == alone, "--fio-json HOST=FILE places every host at its own start (%s)"
              % err[-300:])
        rc, _, err = run(["pctiles"] + logs, explicit)
        check(rc == 1 and "more than one fio JSON output could belong to this log" in err
              and "--fio-json HOST=FILE" in err,
              "unnamed JSON files in one folder of three hosts are refused: %s" % err[-400:])
        rc, _, err = run(["pctiles", "--fio-json", "a.json"] + logs, explicit)
        check(rc == 1 and "would place the logs of hosts hostA, hostB, hostC" in err,
              "one unnamed JSON for three hosts is refused: %s" % err[-400:])
        rc, _, err = run(["pctiles", "--fio-json", "hostD=a.json"] + logs, explicit)
        check(rc == 1 and "no log of host 'hostD'" in err, "HOST=FILE of an unknown host: %s"
              % err[-300:])
        rc, _, err = run(["pctiles", "--fio-json", "hostA=a.json", "--fio-json", "b.json"]
                         + logs, explicit)
        check(rc == 1 and "b.json: would place the logs of hosts hostB, hostC" in err,
              "an unnamed JSON beside two hosts' logs is refused: %s" % err[-300:])
        rc, _, err = run(["pctiles", "--fio-json", "hostA=a.json", "--fio-json", "hostB=b.json"]
                         + logs, explicit)
        check(rc == 1 and "out_clat_hist.1.log.hostC: no fio JSON output covers this log" in err
              and "--start-time" in err,
              "a host left without JSON is refused, not placed at 0: %s" % err[-300:])

        dirs = os.path.join(tmp, "dirs")
        s, err = host_starts(["--fio-json", "./hostA/fio.json", "--fio-json", "hostB//fio.json",
                              "--fio-json", os.path.join(dirs, "hostC", "fio.json"),
                              "hostA/out_clat_hist.1.log", "./hostB/out_clat_hist.1.log",
                              "hostC/out_clat_hist.1.log"], dirs)
        check(s == alone, "directories spelt differently still match (%s vs %s) %s"
              % (s, alone, err[-300:]))

        # Point 2: no anchor at all.
        bare = os.path.join(tmp, "bare")
        os.makedirs(bare)
        for l in logs:
            shutil.copy(os.path.join(run_dir, l), bare)
        with open(os.path.join(bare, "notes.json"), "w") as f:
            f.write('{"jobs": [1, 2], "comment": "not fio output"}')
        rc, out, err = run(["pctiles"] + logs, bare)
        check(rc == 0 and "times are ms since the jobs started" in err,
              "pctiles without anchor prints relative times (rc %d) %s" % (rc, err[-300:]))
        rc, out, err = run(["push", "--es-url", "http://127.0.0.1:9", "--run", "r"] + logs, bare)
        check(rc == 2 and "--start-time" in err and "--unanchored" in err
              and "127.0.0.1:9" not in err,
              "push to Elasticsearch without anchor: exit 2 before contacting it (rc %d) %s"
              % (rc, err[-500:]))
        rc, out, err = run(["push", "--es-url", "http://127.0.0.1:9", "--unanchored", "--timeout",
                            "2", "--run", "r"] + logs, bare)
        check(rc == 1 and "127.0.0.1:9" in err,
              "--unanchored goes on to the server (here: none) (rc %d) %s" % (rc, err[-300:]))
        rc, out, err = run(["push", "--out", "o", "--run", "r"] + logs, bare)
        doc = run_document(os.path.join(bare, "o"))
        check(rc == 0 and "no time anchor" in err and doc and doc["anchor"] == "none",
              "push --out without anchor: exit 0 with a warning (rc %d) %s" % (rc, err[-300:]))
        rc, out, err = run(["push", "--out", "o2", "--run", "r", "--start-time",
                            "2026-11-22T10:00:00Z"] + logs, bare)
        doc = run_document(os.path.join(bare, "o2"))
        check(rc == 0 and doc and doc["anchor"] == "start-time" and "logged_io_share" not in doc,
              "--start-time anchors; no fio JSON, no logged_io_share (rc %d)" % rc)

        # Point 4: the share of fio's I/Os in the logs, per job.
        rc, out, err = run(["push", "--out", "o", "--run", "r"] + logs, run_dir)
        doc = run_document(os.path.join(run_dir, "o"))
        check(rc == 0 and doc and doc["anchor"] == "fio-json", "push --out with found fio JSON")
        shares = {}
        for h in HOSTS:
            shares[h] = log_ios(os.path.join(run_dir, "out_clat_hist.1.log." + h)) / fio_ios(
                os.path.join(run_dir, "fio-%s.json" % h))
            m = re.search(r"%s/out_clat_hist\.1\s+([0-9.]+)%%" % h, err)
            check(m is not None and abs(float(m.group(1)) - 100 * shares[h]) < 0.051,
                  "summary: %s holds %.2f%% of fio's I/Os (%s)"
                  % (h, 100 * shares[h], m.group(0) if m else err[-600:]))
            warned = re.search(r"warning: %s/out_clat_hist\.1: the log holds" % h, err)
            check(bool(warned) == (shares[h] < 0.95),
                  "warning for %s iff below 95%% (%.1f%%)" % (h, 100 * shares[h]))
        check(doc and abs(doc.get("logged_io_share", -1) - min(shares.values())) < 1e-9,
              "run document: logged_io_share is the smallest share (%s vs %s)"
              % (doc.get("logged_io_share") if doc else None, min(shares.values())))
        jobs = [e for e in (doc or {}).get("summary", []) if e.get("scope") == "job"]
        check(jobs and all(abs(e["logged_io_share"] - shares[e["host"]]) < 1e-9 for e in jobs),
              "run document: every job entry of `summary` carries its share")
        rc, out, err = run(["push", "--quiet", "--out", "o3", "--run", "r"] + logs, run_dir)
        if min(shares.values()) < 0.95:
            check("the log holds" in err, "push --quiet still warns about incomplete logs")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("FAILED: %d check(s)" % len(failures))
        sys.exit(1)
    print("all anchor checks passed")


main()
