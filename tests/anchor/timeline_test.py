#!/usr/bin/env python3
"""Relative logs of fio < 3.36 placed job by job on the timeline its JSON describes.

Two real fio runs (fio 3.33 on Debian 12 has no `job_start`), each of one process with
ramp_time, startdelay, a size-based job that ends early and two stonewall groups:

1. log_unix_epoch=1 and a json+ output file. The stamps are the truth; the same logs made
   relative (each job's stamps minus its epoch, as fio writes them without the option) are
   placed by the JSON beside them: every job within 250 ms of the truth and inside the bound
   the summary states.
2. log_alternate_epoch=1, log_alternate_epoch_clock_id=1 (CLOCK_MONOTONIC: the machine's
   uptime) and a --status-interval json+ stream as the only JSON beside the logs (its last
   report is the result), with one more job whose startdelay is a range. The truth: the
   monotonic stamps plus the offset of the wall clock from the monotonic one, read here.
   Also the same logs made relative, anchored by the stream.

Bad input: a JSON listing fewer jobs than the logs name; monotonic stamps with no JSON.

Usage: timeline_test.py FIOHIST FIO
"""
import calendar
import gzip
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
CHECKS = testlib.Checks()
check = CHECKS.check
HIST_MSEC = 500
TOLERANCE_MS = 250

JOBS = """[global]
ioengine=psync
filename=data
size=16m
bs=4k
rw=randread
write_hist_log=h
log_hist_msec=%d
%s

[a]
time_based
runtime=4
ramp_time=2

[b]
time_based
runtime=4
ramp_time=2
startdelay=1

[c]
rate_iops=500
number_ios=1000
%s
[d]
stonewall
time_based
runtime=3
"""

RANGE_JOB = """
[e]
time_based
runtime=2
startdelay=500ms-1500ms
"""


def run(args, cwd):
    return testlib.run_fiohist(FIOHIST, args, cwd)


def fio(d, clock_opts, extra_job, args):
    os.makedirs(d)
    with open(os.path.join(d, "job.fio"), "w") as f:
        f.write(JOBS % (HIST_MSEC, clock_opts, extra_job))
    p = subprocess.run([FIO, "job.fio"] + args, cwd=d, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError("fio failed: " + p.stderr[-500:])
    os.remove(os.path.join(d, "data"))


def hist_logs(d):
    return sorted((f for f in os.listdir(d) if re.match(r"h_clat_hist\.\d+\.log(\.gz)?$", f)),
                  key=lambda f: int(f.split(".")[1]))


def rewrite(src, dst, shift):
    """Copies the log at `src` to `dst` with `shift` added to every stamp."""
    with open(src) as f, open(dst, "w") as out:
        for line in f:
            t, rest = line.split(",", 1)
            out.write("%d,%s" % (int(t) + shift, rest))


def grid_origin(path):
    """The job's logging epoch as its log shows it: fio writes record k of a direction at
    the first completion at or past origin + k * log_hist_msec (its reference advances by
    exactly log_hist_msec), so every stamp minus k * log_hist_msec is at least the origin,
    and the smallest is the closest. The first stamp alone is off by that record's
    lateness, tens of ms when the machine is loaded."""
    counts = {}
    origin = None
    with open(path) as f:
        for line in f:
            t, ddir = line.split(",")[:2]
            k = counts[ddir.strip()] = counts.get(ddir.strip(), 0) + 1
            candidate = int(t) - k * HIST_MSEC
            origin = candidate if origin is None else min(origin, candidate)
    return origin


def make_relative(src_dir, dst_dir, json_name):
    """The logs of `src_dir` with each job's stamps minus its epoch (grid_origin), beside
    a copy of the JSON. Returns {log: epoch}."""
    os.makedirs(dst_dir)
    epochs = {}
    for log in hist_logs(src_dir):
        epochs[log] = grid_origin(os.path.join(src_dir, log))
        rewrite(os.path.join(src_dir, log), os.path.join(dst_dir, log), -epochs[log])
    shutil.copy(os.path.join(src_dir, json_name), dst_dir)
    return epochs


def iso_ms(text):
    secs = calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S"))
    return secs * 1000 + int(text[20:23])


def anchors(err):
    """{log: (start_ms, early_ms, late_ms)} from the summary's `anchor of` lines."""
    out = {}
    for m in re.finditer(r"anchor of [^ ]*/(h_clat_hist\.\d+) \(job \w+\): (\S+) "
                         r"(?:\+-(\d+)|-(\d+)/\+(\d+)) ms", err):
        early = int(m.group(3) or m.group(4))
        late = int(m.group(3) or m.group(5))
        out[m.group(1) + ".log"] = (iso_ms(m.group(2)), early, late)
    return out


def job_first_quanta(out):
    """{job: start_ms of its first quantum} from `pctiles --scope job` CSV."""
    lines = out.splitlines()
    head = lines[0].split(",")
    starts = {}
    for line in lines[1:]:
        row = dict(zip(head, line.split(",")))
        job = row["job"] + ".log"
        starts[job] = min(starts.get(job, 1 << 62), int(row["start_ms"]))
    return starts


def check_placed(name, d, truth, extra_args=()):
    rc, out, err = run(["pctiles", "--scope", "job", "--direction", "all", "--grid", "epoch"]
                       + list(extra_args) + hist_logs(d), d)
    if not check(rc == 0, "%s: pctiles exits 0 (rc %d) %s" % (name, rc, err[-400:])):
        return None, err
    got = anchors(err)
    check(sorted(got) == sorted(truth), "%s: the summary names every job's anchor (%s)"
          % (name, sorted(got)))
    for log, t in sorted(truth.items()):
        if log not in got:
            continue
        start, early, late = got[log]
        bound = max(early, late)
        check(abs(start - t) <= max(TOLERANCE_MS, bound) and start - early <= t <= start + late,
              "%s: %s placed %+d ms from the truth, within its stated bound -%d/+%d ms"
              % (name, log, start - t, early, late))
    return job_first_quanta(out), err


def main():
    tmp = tempfile.mkdtemp(prefix="fiohist-timeline-")
    try:
        # Run 1: Unix-epoch stamps and a json+ output.
        gen1 = os.path.join(tmp, "gen1")
        fio(gen1, "log_unix_epoch=1", "", ["--output-format=json+", "--output=fio.json"])
        rel1 = os.path.join(tmp, "rel1")
        truth1 = make_relative(gen1, rel1, "fio.json")
        epoch_q, _ = check_placed("epoch logs", gen1, {}, ())
        rel_q, err = check_placed("relative logs + fio.json", rel1, truth1)
        check(epoch_q is not None and rel_q is not None
              and all(abs(rel_q[j] - epoch_q[j]) <= 1000 for j in epoch_q),
              "relative logs: every job's first quantum within one quantum of the epoch "
              "logs' (%s vs %s)" % (rel_q, epoch_q))
        check(re.search(r"fio JSON of host .*fio\.json .*found next to the logs", err),
              "the summary names the JSON found beside the logs")

        # gzip logs whose own end disagrees with the JSON (job b's job_runtime cut by 1.5 s:
        # taken as it stands, group 1 would end, and every job lie, 0.5 s off): the log's
        # length is trusted, as for plain logs, and every job lands where it ran.
        gz = os.path.join(tmp, "gz")
        os.makedirs(gz)
        for log in hist_logs(rel1):
            with open(os.path.join(rel1, log), "rb") as f, \
                    gzip.open(os.path.join(gz, log + ".gz"), "wb") as out:
                out.write(f.read())
        doc = json.load(open(os.path.join(rel1, "fio.json")))
        doc["jobs"][1]["job_runtime"] -= 1500
        json.dump(doc, open(os.path.join(gz, "fio.json"), "w"))
        _, err = check_placed("gzip logs + fio.json with job b cut short", gz, truth1)
        check(re.search(r"warning: \S*h_clat_hist\.2\.log\.gz: its records end \d+ ms after "
                        r"the job's start, but .* says job b ran \d+ ms \(job_runtime\): the "
                        r"log's length is taken for the job's", err),
              "a gzip log that outlasts its job_runtime is trusted and warned about: %s"
              % err[-800:])

        # Bad input: the JSON lists one job fewer than the logs name.
        bad = os.path.join(tmp, "bad")
        shutil.copytree(rel1, bad)
        doc = json.load(open(os.path.join(bad, "fio.json")))
        doc["jobs"] = doc["jobs"][:3]
        json.dump(doc, open(os.path.join(bad, "fio.json"), "w"))
        rc, _, err = run(["pctiles"] + hist_logs(bad), bad)
        check(rc == 1 and "h_clat_hist.4.log: is the log of fio's job 4, but" in err
              and "lists 3 job(s) (a, b, c)" in err,
              "a JSON with fewer jobs than the logs is refused, naming both (rc %d) %s"
              % (rc, err[-400:]))

        # Run 2: CLOCK_MONOTONIC stamps, a status stream, a startdelay range.
        gen2 = os.path.join(tmp, "gen2")
        offsets = [time.time() * 1000 - time.clock_gettime(time.CLOCK_MONOTONIC) * 1000]
        fio(gen2, "log_alternate_epoch=1\nlog_alternate_epoch_clock_id=1", RANGE_JOB,
            ["--status-interval=1", "--output-format=json+", "--output=status.json"])
        offsets.append(time.time() * 1000 - time.clock_gettime(time.CLOCK_MONOTONIC) * 1000)
        check(abs(offsets[1] - offsets[0]) < 5, "the wall clock kept its offset from the "
              "monotonic one during the run (%.1f ms)" % (offsets[1] - offsets[0]))
        wall = sum(offsets) / 2
        with open(os.path.join(gen2, "status.json")) as f:
            reports = f.read().count('"fio version"')
        check(reports > 3, "the status stream holds %d reports" % reports)
        mono_truth = {log: grid_origin(os.path.join(gen2, log)) + wall
                      for log in hist_logs(gen2)}
        check_placed("monotonic logs + status stream", gen2, mono_truth)
        rel2 = os.path.join(tmp, "rel2")
        epochs2 = make_relative(gen2, rel2, "status.json")
        truth2 = {log: e + wall for log, e in epochs2.items()}
        _, err = check_placed("relative logs + status stream", rel2, truth2)
        # Job e comes before the stonewall job d: it is fio's job 4.
        check("h_clat_hist.4 (job e): " in err and re.search(
            r"warning: .*h_clat_hist\.4 \(job e\): .*places this job only within", err),
              "the job with a startdelay range is warned about: %s" % err[-600:])

        # Monotonic stamps without any JSON: refused, saying why (when the machine has been up
        # long enough for them to be told from relative ones).
        if time.clock_gettime(time.CLOCK_MONOTONIC) < 120:
            print("skip monotonic stamps without JSON: the machine is up for < 2 min")
        else:
            bare = os.path.join(tmp, "bare")
            os.makedirs(bare)
            for log in hist_logs(gen2):
                shutil.copy(os.path.join(gen2, log), bare)
            rc, _, err = run(["pctiles"] + hist_logs(bare), bare)
            check(rc == 1 and "neither relative" in err and "--fio-json" in err,
                  "monotonic stamps without JSON are refused with the reason (rc %d) %s"
                  % (rc, err[-300:]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if CHECKS.failures:
        print("FAILED: %d check(s)" % len(CHECKS.failures))
        sys.exit(1)
    print("all timeline checks passed")


main()
