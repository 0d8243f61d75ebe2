#!/usr/bin/env python3
"""`fiohist push` to a real 3-node Elasticsearch cluster that loses a node mid-push.

The test starts its own cluster (tests/es/es-cluster.sh: three integ-test nodes on 127.0.0.1,
512 MB heap each) and stops it at the end:

1. setup --replicas 1; the run's monthly indices are made first, so the node holding the
   primary of the bucket index is known: its URL is put FIRST in the push's --es-url list;
2. push a generated run (bench's gen_corpus from the sample logs) naming all three nodes;
   SIGKILL that node mid-push. The push exits 0; every document of `push --out` is there
   exactly once (same index, same id; counts per index equal), searchable while the node is
   down; the cluster is yellow (or green again), never red;
3. the node restarts on its data: green again; `runs` lists the run with its document count;
   documents read back by id equal push --out's;
4. a run of an old month: `delete --older-than 90d --dry-run` lists its indices, `delete
   --older-than 90d` drops them; the recent run is untouched.

Usage: cluster_test.py FIOHIST ES_CLUSTER_SH GEN_CORPUS SAMPLE_DIR HTTP_PORT TRANSPORT_PORT
"""
import datetime
import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pushlib  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

FIOHIST, CLUSTER, GEN, SAMPLES, HTTP, TRANSPORT = sys.argv[1:7]
HTTP, TRANSPORT = int(HTTP), int(TRANSPORT)
NAME = "fiohist-cl"
URLS = ["http://127.0.0.1:%d" % (HTTP + i) for i in range(3)]
MAPPINGS = os.environ.get("FIOHIST_MAPPINGS_DIR")
RUN = "cluster-run"
START = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0) - \
    datetime.timedelta(days=1)
MONTH = START.strftime("%Y.%m")
CHECKS = testlib.Checks(prefix=lambda: "[%5.1fs] " % (time.time() - t0))
failures = CHECKS.failures
t0 = time.time()


check = CHECKS.check


def es(method, path, body=None, urls=None):
    """A request to the first node of `urls` that answers (the test's own failover)."""
    data = json.dumps(body).encode() if body is not None else None
    last = None
    for url in urls or live:
        req = urllib.request.Request(url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            if e.code == 404:
                return {}
            last = e
        except OSError as e:
            last = e
    raise RuntimeError("no node answered %s %s: %s" % (method, path, last))


def cluster(*args):
    p = subprocess.run([CLUSTER] + list(args[:1]) + ["--name", NAME, "--http", str(HTTP),
                                                     "--transport", str(TRANSPORT)] +
                       list(args[1:]), capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        print(p.stdout + p.stderr)
    return p.returncode == 0


def fiohist(*args, **kw):
    common = ["--mappings", MAPPINGS] if MAPPINGS and args[0] in ("push", "setup") else []
    return subprocess.run([FIOHIST] + list(args) + common, capture_output=True, text=True,
                          env=env, **kw)


def ids_in_es(run):
    out = {}
    es("POST", "/fiohist-*/_refresh")
    body = {"size": 5000, "_source": False, "query": {"term": {"run": run}}}
    r = es("POST", "/fiohist-*/_search?scroll=1m", body)
    while r["hits"]["hits"]:
        for h in r["hits"]["hits"]:
            out[(h["_index"], h["_id"])] = out.get((h["_index"], h["_id"]), 0) + 1
        r = es("POST", "/_search/scroll", {"scroll": "1m", "scroll_id": r["_scroll_id"]})
    return out


def count(run):
    """The run's documents in the cluster now: refreshed first (the templates refresh every
    5 s, longer than a push of this run takes)."""
    try:
        es("POST", "/fiohist-*/_refresh")
        return es("POST", "/fiohist-*/_count", {"query": {"term": {"run": run}}})["count"]
    except Exception:  # not there yet
        return 0


def clean_docs(run, logs, start):
    """The documents of one clean push, from the NDJSON that push --out writes."""
    out_dir = os.path.join(work, "out-" + run)
    # The integ-test cluster has no `histogram` type: push writes the compact form there.
    p = fiohist("push", "--quiet", "--out", out_dir, "--run", run, "--start-time", start,
                "--bucket-form", "compact", *logs)
    check(p.returncode == 0, "push --out writes the clean push of %s (%s)" % (run, p.stderr[-200:]))
    docs = {}
    for f in testlib.bulk_files(out_dir):
        lines = testlib.read_bulk_file(f).splitlines()
        for a, s in zip(lines[0::2], lines[1::2]):
            a = json.loads(a)["index"]
            docs[(a["_index"], a["_id"])] = json.loads(s)
    return docs


def relative_logs(dest):
    logs = sorted(glob.glob(os.path.join(SAMPLES, "*_clat_hist.*.gz")))
    return pushlib.relative_logs(logs, dest)


def health():
    return es("GET", "/_cluster/health")["status"]


env = dict(os.environ)
env.pop("FIOHIST_ES_URL", None)
work = tempfile.mkdtemp(prefix="fiohist-cluster-")
live = list(URLS)
try:
    # A run big enough to take a while on three JVMs sharing two cores: 3 hosts x 2 jobs x
    # 300 s generated from the real sample logs (about 14,000 documents, 100 a request: the push
    # is still running when the count, refreshed, passes 1000).
    tpl = os.path.join(work, "tpl")
    os.mkdir(tpl)
    for src in glob.glob(os.path.join(SAMPLES, "*_clat_hist.*.log.hostX.gz")):
        with gzip.open(src) as i, open(os.path.join(tpl, os.path.basename(src)[:-9]), "wb") as o:
            shutil.copyfileobj(i, o)
    corpus = os.path.join(work, "corpus")
    p = subprocess.run([GEN, "--logs", tpl, "--gz-out", corpus, "--hosts", "3", "--jobs", "2",
                        "--seconds", "300", "--threads", "1"], capture_output=True, text=True)
    check(p.returncode == 0, "gen_corpus made the run's logs (%s)" % p.stderr.strip()[-200:])
    logs = sorted(glob.glob(os.path.join(corpus, "*.gz")))
    start = START.isoformat().replace("+00:00", "Z")
    clean = clean_docs(RUN, logs, start)
    print("clean push: %d documents" % len(clean))

    check(cluster("start"), "three nodes form a green cluster")

    # 1. Templates with one replica; the run's indices made now, to see where the primaries are.
    p = fiohist("setup", "--es-url", ",".join(URLS), "--replicas", "1")
    check(p.returncode == 0, "setup --replicas 1 (%s)" % p.stderr.strip()[-200:])
    for kind in ("pctiles", "buckets", "runs"):
        es("PUT", "/fiohist-%s-%s" % (kind, MONTH), {})
    es("GET", "/_cluster/health?wait_for_status=green&timeout=60s")
    shards = es("GET", "/_cat/shards/fiohist-buckets-%s?format=json" % MONTH)
    primary = [s["node"] for s in shards if s["prirep"] == "p"][0]
    victim = int(primary.rsplit("-", 1)[1])  # node name NAME-I
    check(len([s for s in shards if s["state"] == "STARTED"]) == 2,
          "the bucket index has a primary and a replica (primary on node %d)" % victim)
    order = [URLS[victim - 1]] + [u for u in URLS if u != URLS[victim - 1]]

    # 2. Push naming the victim first; SIGKILL it mid-push.
    proc = subprocess.Popen([FIOHIST, "push", "--quiet", "--run", RUN, "--start-time", start,
                             "--batch-docs", "100", "--es-url", ",".join(order)] +
                            (["--mappings", MAPPINGS] if MAPPINGS else []) + logs,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    others = [u for u in URLS if u != URLS[victim - 1]]
    deadline = time.time() + 240
    while time.time() < deadline and count(RUN) < 1000 and proc.poll() is None:
        time.sleep(0.05)
    running = proc.poll() is None
    in_before = count(RUN)
    cluster("kill", str(victim))
    live = others
    check(running and in_before < len(clean),
          "node %d (first URL, bucket primary) killed mid-push with %d of %d documents in"
          % (victim, in_before, len(clean)))
    out, err = proc.communicate(timeout=600)
    print(err.strip()[-1500:])
    check(proc.returncode == 0, "the push completes with exit 0 (rc %d)" % proc.returncode)
    check("node %s gave no answer" % URLS[victim - 1] in err,
          "and says which node failed and which it used")
    status = health()
    check(status in ("yellow", "green"), "the cluster is %s, not red, with node %d down"
          % (status, victim))
    got = ids_in_es(RUN)
    check(set(got) == set(clean), "searchable while the node is down: exactly the %d documents "
          "of push --out (have %d, missing %d, extra %d)"
          % (len(clean), len(got), len(set(clean) - set(got)), len(set(got) - set(clean))))
    check(all(n == 1 for n in got.values()), "each document once")
    for kind in ("pctiles", "buckets", "runs"):
        index = "fiohist-%s-%s" % (kind, MONTH)
        want = sum(1 for i, _ in clean if i == index)
        have = es("GET", "/%s/_count" % index).get("count")
        check(want == have and want > 0, "%s: %d documents (push --out: %d)" % (index, have, want))

    # 3. The node comes back on its data.
    check(cluster("node", str(victim)), "node %d restarted" % victim)
    live = list(URLS)
    check(cluster("wait", "green"), "green again with three nodes")
    p = fiohist("runs", "--json", "--es-url", ",".join(URLS))
    runs = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    mine = [r for r in runs if r["run"] == RUN]
    check(p.returncode == 0 and len(mine) == 1 and mine[0]["documents"] == len(clean),
          "runs lists %s with its %d documents (%s)" % (RUN, len(clean), mine))
    # Read-back spot check: documents by id equal push --out's, percentiles included.
    sample = sorted(clean)[:: max(1, len(clean) // 25)]
    same = 0
    for index, doc_id in sample:
        r = es("GET", "/%s/_doc/%s" % (index, doc_id))
        same += r.get("_source") == clean[(index, doc_id)]
    check(same == len(sample), "%d of %d documents read back by id equal push --out's"
          % (same, len(sample)))

    # 4. Retention on the cluster: a run of 14 months ago goes, the recent one stays.
    old_start = (START - datetime.timedelta(days=430)).isoformat().replace("+00:00", "Z")
    old_month = (START - datetime.timedelta(days=430)).strftime("%Y.%m")
    sample_logs = relative_logs(os.path.join(work, "rel"))
    p = fiohist("push", "--quiet", "--run", "old-run", "--start-time", old_start, "--es-url",
                ",".join(URLS), *sample_logs)
    check(p.returncode == 0, "an old run pushed into %s (%s)" % (old_month, p.stderr[-200:]))
    p = fiohist("delete", "--older-than", "90d", "--dry-run", "--es-url", ",".join(URLS))
    check(p.returncode == 0 and "would drop index fiohist-buckets-%s" % old_month in p.stdout
          and RUN not in p.stdout, "delete --older-than 90d --dry-run lists the old month only:\n"
          + p.stdout)
    check(count("old-run") > 0, "and deletes nothing")
    p = fiohist("delete", "--older-than", "90d", "--es-url", ",".join(URLS))
    check(p.returncode == 0, "delete --older-than 90d (%s)" % (p.stdout + p.stderr).strip())
    left = es("GET", "/_cat/indices/fiohist-*?format=json&h=index")
    names = sorted(i["index"] for i in left)
    check(not any(n.endswith(old_month) for n in names) and
          "fiohist-pctiles-%s" % MONTH in names, "the old month's indices are gone, the recent "
          "month's stay: %s" % names)
    check(count(RUN) == len(clean) and count("old-run") == 0, "the recent run is whole")
finally:
    cluster("stop")
    shutil.rmtree(work, ignore_errors=True)

print("took %.0f s" % (time.time() - t0))
if failures:
    print("FAILED: %d check(s)" % len(failures))
    sys.exit(1)
print("all cluster checks passed")
