#!/usr/bin/env python3
"""Makes fio runs with stalls and idle gaps, and reads their per-I/O truth.

Used by stall_truth.py (the test) and to record tests/data/stalls/ (see its README):

* `stall`: libaio iodepth 16, 2 jobs randrw 4k direct, rate-limited, on ext4 in an image on a
  loop device; the filesystem is frozen (`fsfreeze -f`) twice: ~0.3 s (a hiccup: one record
  ~1.3 s long) and ~3 s (a stall: no completion for longer than twice log_hist_msec). Each
  freeze starts when fio's status stream (`--status-interval=1`, json+, into the output
  file as fio makes it) has reached a given report: an event, not a fixed sleep. Needs root
  and a loop device.
* `idle`: psync randread at a fixed rate with `thinktime` (2.5 s every 3000 blocks): idle
  gaps the job asked for. Needs fio only.

Both write `write_hist_log` (log_hist_msec=1000) and `write_lat_log` (log_avg_msec=0, the
per-I/O truth); the stall run with log_unix_epoch=1, the idle run with relative stamps that
fio's JSON output beside them anchors (so fiohist knows when the job started: where the
first record's reference began).

Usage: fio_stall_run.py {stall,idle} DIR    (runs fio, leaves its outputs in DIR)
"""

import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

LOG_HIST_MSEC = 1000
# Freezes of the stall case: (status report to wait for, seconds frozen). None: a hiccup,
# frozen from 0.3 s before one of fio's record deadlines to 0.3 s after it, so the record
# that deadline closes lasts about 1.3 s whatever time fsfreeze takes to freeze.
FREEZES = [(4, None), (8, 3.0)]
HICCUP_MS = 300
STALL_RUNTIME = 15
IDLE_RUNTIME = 9


class Unavailable(Exception):
    """The machine cannot make this run (not root, no loop device, no fio)."""


def _run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def status_reports(path):
    """The complete JSON objects in fio's output file so far."""
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        return []
    dec = json.JSONDecoder()
    out, i = [], 0
    while True:
        j = text.find("{", i)
        if j < 0:
            return out
        try:
            obj, i = dec.raw_decode(text, j)
        except ValueError:
            return out
        out.append(obj)


def job_start_ms(reports):
    """When the jobs started, from reports made while they ran (timestamp_ms - job_runtime;
    the first report may come while fio lays out its files): fio's record deadlines follow
    at every log_hist_msec from the first completion, right after it."""
    starts = [r["timestamp_ms"] - j["job_runtime"] for r in reports for j in r["jobs"]
              if j.get("job_runtime") and any(j[d].get("total_ios") for d in ("read", "write"))]
    return min(starts)


def wait_for_reports(proc, path, count, limit_s=120):
    """Waits until fio's output holds `count` reports (the event a freeze waits for). The
    limit only keeps a broken fio from hanging the test."""
    deadline = time.monotonic() + limit_s
    while len(status_reports(path)) < count:
        if proc.poll() is not None:
            raise RuntimeError("fio ended before status report %d" % count)
        if time.monotonic() > deadline:
            raise RuntimeError("no status report %d from fio within %d s" % (count, limit_s))
        time.sleep(0.02)


def run_stall(outdir):
    if os.geteuid() != 0:
        raise Unavailable("not root: no loop device or fsfreeze")
    for tool in ("fio", "mkfs.ext4", "mount", "fsfreeze", "losetup"):
        if shutil.which(tool) is None:
            raise Unavailable(tool + " not installed")
    tmp = tempfile.mkdtemp(prefix="fiohist-stall-")
    img, mnt = os.path.join(tmp, "ext4.img"), os.path.join(tmp, "mnt")
    os.makedirs(mnt)
    mounted = frozen = False
    proc = None
    try:
        with open(img, "wb") as f:
            f.truncate(192 << 20)
        _run(["mkfs.ext4", "-q", "-F", img])
        try:
            _run(["mount", "-o", "loop", img, mnt])
        except subprocess.CalledProcessError as e:
            raise Unavailable("cannot loop-mount an ext4 image: " + e.stderr.strip())
        mounted = True
        out = os.path.join(outdir, "fio.json")
        cmd = ["fio", "--name=stall", "--directory=" + mnt, "--size=64m", "--rw=randrw",
               "--bs=4k", "--direct=1", "--ioengine=libaio", "--iodepth=16", "--numjobs=2",
               "--time_based", "--runtime=%d" % STALL_RUNTIME, "--rate_iops=600,600",
               "--write_hist_log=stall", "--log_hist_msec=%d" % LOG_HIST_MSEC,
               "--write_lat_log=stall", "--log_avg_msec=0", "--log_unix_epoch=1",
               "--status-interval=1", "--output-format=json+", "--output=" + out]
        proc = subprocess.Popen(cmd, cwd=outdir, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        freezes = []
        for report, seconds in FREEZES:
            wait_for_reports(proc, out, report)
            due = None
            if seconds is None:
                # fio's next record deadline at least 0.5 s ahead.
                start = job_start_ms(status_reports(out))
                now = time.time() * 1000
                due = start + ((now + 500 - start) // LOG_HIST_MSEC + 1) * LOG_HIST_MSEC
                time.sleep(max(0.0, (due - HICCUP_MS - now) / 1000))
            t0 = time.time()
            _run(["fsfreeze", "-f", mnt])
            frozen = True
            # The length of the freeze is the experiment, not a wait for an event.
            if due is None:
                time.sleep(seconds)
            else:
                time.sleep(max(0.0, (due + HICCUP_MS) / 1000 - time.time()))
            _run(["fsfreeze", "-u", mnt])
            frozen = False
            freezes.append((int(t0 * 1000), int(time.time() * 1000)))
        _, err = proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError("fio failed: " + err)
        with open(os.path.join(outdir, "freezes.json"), "w") as f:
            json.dump({"freezes_ms": freezes}, f)
    finally:
        if frozen:
            subprocess.run(["fsfreeze", "-u", mnt])
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        if mounted:
            subprocess.run(["umount", mnt])  # a loop device of mount -o loop detaches itself
        shutil.rmtree(tmp, ignore_errors=True)
    _tidy(outdir)


def run_idle(outdir):
    if shutil.which("fio") is None:
        raise Unavailable("fio not installed")
    datadir = tempfile.mkdtemp(prefix="fiohist-idle-",
                               dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        cmd = ["fio", "--name=idle", "--filename=" + os.path.join(datadir, "data"),
               "--size=16m", "--rw=randread", "--bs=4k", "--ioengine=psync", "--time_based",
               "--runtime=%d" % IDLE_RUNTIME, "--rate_iops=3000", "--thinktime=2500000",
               "--thinktime_blocks=3000", "--write_hist_log=idle",
               "--log_hist_msec=%d" % LOG_HIST_MSEC, "--write_lat_log=idle",
               "--log_avg_msec=0", "--output-format=json",
               "--output=" + os.path.join(outdir, "fio.json")]
        _run(cmd, cwd=outdir)
    finally:
        shutil.rmtree(datadir, ignore_errors=True)
    _tidy(outdir)


def _tidy(outdir):
    """Keeps the hist logs and the completion-latency logs (gzipped); drops slat and lat."""
    for p in glob.glob(os.path.join(outdir, "*_slat.*.log")) + \
            glob.glob(os.path.join(outdir, "*_lat.*.log")):
        os.remove(p)
    for p in glob.glob(os.path.join(outdir, "*_clat.*.log")):
        with open(p, "rb") as src, gzip.open(p + ".gz", "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.remove(p)


def anchor_ms(outdir):
    """What places relative stamps on absolute time, as fiohist does with fio's JSON
    output (fio_json.cc): the earliest job_start, else timestamp_ms minus the longest
    job_runtime; 0 for epoch stamps (no fio.json, or stamps already absolute)."""
    path = os.path.join(outdir, "fio.json")
    if not os.path.exists(path):
        return 0
    reports = status_reports(path)  # a status stream holds several: the last is final
    if not reports:
        return 0
    out = reports[-1]
    starts = [j["job_start"] for j in out["jobs"] if j.get("job_start")]
    if starts:
        return min(starts)
    return out["timestamp_ms"] - max(j["job_runtime"] for j in out["jobs"])


def completions(outdir):
    """The per-I/O truth: [(completion ms, latency ns, direction)] of every job, sorted,
    on fiohist's absolute time line."""
    out = []
    for p in sorted(glob.glob(os.path.join(outdir, "*_clat.*.log.gz"))):
        with gzip.open(p, "rt") as f:
            for n, line in enumerate(f, 1):
                cols = line.split(",")
                if len(cols) < 3:
                    raise SystemExit("%s:%d: expected 'time, latency, direction, ...'" % (p, n))
                out.append((int(cols[0]), int(cols[1]), int(cols[2])))
    out.sort()
    if out and out[0][0] < 10**12:  # relative stamps
        offset = anchor_ms(outdir)
        out = [(t + offset, lat, d) for t, lat, d in out]
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("stall", "idle"):
        print(__doc__)
        return 2
    os.makedirs(sys.argv[2], exist_ok=True)
    try:
        (run_stall if sys.argv[1] == "stall" else run_idle)(sys.argv[2])
    except Unavailable as e:
        print("cannot run here: %s" % e)
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
