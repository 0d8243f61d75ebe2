#!/usr/bin/env python3
"""`fiohist push` when things go wrong mid-push, against a real Elasticsearch or OpenSearch node.

1. fiohist is killed with SIGKILL in the middle of a push; pushing again ends with exactly
   the documents of one clean push (the ids `push --out --bucket-form compact` writes), none
   lost, none doubled, and puts back the refresh interval the killed push had turned off (and says so).
   Interrupted by SIGINT instead, push exits non-zero saying so, with the refresh interval
   of the run's indices restored at once.
2. The node is killed (SIGKILL) in the middle of a push: a clear error and a non-zero exit;
   once the node is back, pushing again ends with exactly one clean push's documents.

Usage: faults_test.py FIOHIST ES_NODE_SH SAMPLE_DIR PORT  (env FIOHIST_ENGINE: elasticsearch,
the default, or opensearch: the engine of the node this test starts)
"""
import glob
import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

FIOHIST, ES_NODE, SAMPLES, PORT = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
URL = "http://127.0.0.1:%s" % PORT
NAME = "push-faults"
ENGINE = os.environ.get("FIOHIST_ENGINE", "elasticsearch")
# A node name per engine, so both engines' fault tests can run on one machine.
NODE_NAME = "ctest-faults" if ENGINE == "elasticsearch" else "ctest-%s-faults" % ENGINE
MAPPINGS = os.environ.get("FIOHIST_MAPPINGS_DIR")
PROXY = os.path.join(os.path.dirname(os.path.abspath(ES_NODE)), "fault_proxy.py")
CHECKS = testlib.Checks()
failures = CHECKS.failures


check = CHECKS.check


def es(method, path, body=None):
    return testlib.es_request(URL, method, path, body)


def ids_in_es(run):
    out = set()
    for kind in ("pctiles", "buckets", "runs"):
        es("POST", "/fiohist-%s*/_refresh" % kind)
        body = {"size": 10000, "_source": False, "query": {"term": {"run": run}}}
        r = es("POST", "/fiohist-%s*/_search?scroll=1m" % kind, body)
        while r["hits"]["hits"]:
            out.update((h["_index"], h["_id"]) for h in r["hits"]["hits"])
            r = es("POST", "/_search/scroll", {"scroll": "1m", "scroll_id": r["_scroll_id"]})
    return out


def refresh_intervals():
    """refresh_interval of every pctiles and buckets index ("" where it has none)."""
    r = es("GET", "/fiohist-pctiles*,fiohist-buckets*/_settings/index.refresh_interval"
           "?flat_settings=true")
    return {i: v.get("settings", {}).get("index.refresh_interval", "") for i, v in r.items()}


def count(run):
    """The run's documents in the node now: refreshed first (the templates refresh every 5 s,
    longer than a push takes)."""
    total = 0
    for kind in ("pctiles", "buckets"):
        try:
            es("POST", "/fiohist-%s*/_refresh" % kind)
            total += es("POST", "/fiohist-%s*/_count" % kind,
                        {"query": {"term": {"run": run}}})["count"]
        except Exception:  # index not there yet
            pass
    return total


def node(cmd):
    p = subprocess.run([ES_NODE, cmd, "--engine", ENGINE, "--name", NODE_NAME, "--port", PORT],
                       capture_output=True, text=True, timeout=900)
    if p.returncode != 0:
        print(p.stdout + p.stderr)
    return p.returncode == 0


# A bigger input: the sample logs copied to 24 hosts, so a push takes a while.
work = tempfile.mkdtemp(prefix="fiohist-faults-")
logs = []
for h in range(24):
    for src in sorted(glob.glob(os.path.join(SAMPLES, "*_clat_hist.*.gz"))):
        base, host = os.path.basename(src).rsplit(".", 2)[:2]  # epoch2_clat_hist.1.log, hostX
        dst = os.path.join(work, "%s.%s-%02d.gz" % (base, host, h))
        shutil.copy(src, dst)
        logs.append(dst)
common = ["--mappings", MAPPINGS] if MAPPINGS else []
env = dict(os.environ)
env.pop("FIOHIST_ES_URL", None)

def clean_ids(run):
    """The ids of one clean push, from the NDJSON that push --out writes in the form a direct
    push to these nodes takes (no `histogram` type: one bucket document per job and window)."""
    out_dir = os.path.join(work, "out-" + run)
    p = subprocess.run([FIOHIST, "push", "--quiet", "--out", out_dir, "--run", run,
                        "--bucket-form", "compact", "--batch-docs", "100"] + common + logs,
                       capture_output=True, text=True, env=env)
    check(p.returncode == 0, "push --out writes the clean push's documents")
    ids = set()
    for f in testlib.bulk_files(out_dir):
        for i, line in enumerate(testlib.read_bulk_file(f).splitlines()):
            if i % 2 == 0:
                a = json.loads(line)["index"]
                ids.add((a["_index"], a["_id"]))
    return ids


clean = clean_ids(NAME)
print("clean push: %d documents" % len(clean))

if not node("start"):
    print("FAILED: cannot start the node")
    sys.exit(1)
try:
    def push(run, batch_docs=100):
        return ([FIOHIST, "push", "--quiet", "--es-url", URL, "--run", run,
                 "--batch-docs", str(batch_docs)] + common + logs)

    # 1. SIGKILL mid-push. The push goes through the fault proxy, which delays every bulk
    # request: an unhindered push of these logs takes about a second, less than the node's
    # refresh interval, so without the delay the kill would land after the last document.
    # The proxy's own count of bulk requests says when the push is under way.
    proxy = subprocess.Popen([sys.executable, PROXY, "--upstream", URL, "--stop-on-stdin-eof"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proxy_url = "http://127.0.0.1:%s" % proxy.stdout.readline().split()[1]

    def proxy_call(method, path, body=None):
        req = urllib.request.Request(proxy_url + path, method=method,
                                     data=json.dumps(body).encode() if body else None)
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    proxy_call("POST", "/__proxy/fault", {"mode": "delay", "seconds": 0.1, "count": -1})
    # Batches of 25: the run is about 1500 documents since documents hold every direction
    # and bucket documents a window of quanta, so 60 requests, of which 20 are waited for.
    cmd = push(NAME, batch_docs=25)
    cmd[cmd.index(URL)] = proxy_url
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = time.time() + 120
    while (time.time() < deadline and proc.poll() is None
           and proxy_call("GET", "/__proxy/stats")["bulk_requests"] < 20):
        time.sleep(0.05)
    killed_mid = proc.poll() is None
    paused = refresh_intervals()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    es("POST", "/fiohist-*/_refresh")
    partial = count(NAME)
    check(killed_mid and 0 < partial < len(clean) - 1,
          "fiohist killed with SIGKILL mid-push (%d of %d documents in)" % (partial, len(clean)))
    check(paused and all(v == "-1" for v in paused.values()),
          "refresh off on the run's indices during the push: %s" % paused)
    p = subprocess.run(push(NAME), capture_output=True, text=True, env=env)
    check(p.returncode == 0, "the same push again exits 0 (%s)" % p.stderr.strip()[-200:])
    check("had refresh off" in p.stderr, "the re-push says it restores the killed push's "
          "refresh interval: %s" % p.stderr.strip()[-300:])
    after = refresh_intervals()
    check(after and all(v == "5s" for v in after.values()),
          "after the re-push: the template's refresh interval (5s) again: %s" % after)

    # 1b. SIGINT mid-push: a non-zero exit naming the interrupt, refresh restored at once.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    start = proxy_call("GET", "/__proxy/stats")["bulk_requests"]
    deadline = time.time() + 120
    while (time.time() < deadline and proc.poll() is None
           and proxy_call("GET", "/__proxy/stats")["bulk_requests"] < start + 20):
        time.sleep(0.05)
    interrupted_mid = proc.poll() is None
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    proxy.stdin.close()
    proxy.wait(timeout=30)
    check(interrupted_mid and proc.returncode != 0 and "interrupted by SIGINT" in err,
          "SIGINT mid-push: non-zero exit (%s) naming the interrupt: %s"
          % (proc.returncode, err.strip()[-200:]))
    after = refresh_intervals()
    check(after and all(v == "5s" for v in after.values()),
          "after SIGINT: the refresh interval restored (5s): %s" % after)
    p = subprocess.run(push(NAME), capture_output=True, text=True, env=env)
    check(p.returncode == 0 and "had refresh off" not in p.stderr,
          "pushing again after SIGINT: nothing left to restore")
    got = ids_in_es(NAME)
    check(got == clean, "after the re-push: exactly the clean push's %d documents (have %d, "
          "missing %d, extra %d)" % (len(clean), len(got), len(clean - got), len(got - clean)))

    # 2. The node stops mid-push. Small batches: stopping the node takes a moment, and the
    # push must still be running when it is gone.
    proc = subprocess.Popen(push(NAME + "-2", batch_docs=10) + ["--max-retry-time", "20"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.time() + 120
    while time.time() < deadline and count(NAME + "-2") < 200 and proc.poll() is None:
        time.sleep(0.05)
    stopped_mid = proc.poll() is None
    node("kill")
    out, err = proc.communicate(timeout=600)
    last = err.strip().splitlines()[-1] if err.strip() else ""
    check(stopped_mid, "node killed while the push was running")
    check(proc.returncode != 0, "push exits non-zero when the node goes away (rc %d)"
          % proc.returncode)
    check("failed" in err.lower() or "error" in err.lower(),
          "and says what went wrong: %s" % last[:200])
    check(node("start"), "node started again (fresh data directory)")
    p = subprocess.run(push(NAME + "-2"), capture_output=True, text=True, env=env)
    check(p.returncode == 0, "the same push again exits 0")
    clean2 = clean_ids(NAME + "-2")
    got = ids_in_es(NAME + "-2")
    check(got == clean2, "after the node came back and the push ran again: exactly one clean "
          "push's %d documents (have %d)" % (len(clean2), len(got)))
finally:
    node("stop")
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print("FAILED: %d check(s)" % len(failures))
    sys.exit(1)
print("all fault checks passed")
