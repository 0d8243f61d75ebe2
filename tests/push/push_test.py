#!/usr/bin/env python3
"""Integration test of `fiohist push` against a real Elasticsearch or OpenSearch node (no mocks).

Pushes real fio logs, then checks: document counts per kind; that Elasticsearch's own
aggregation over the percentile documents (max of p99 per quantum) equals fiohist's CSV; that
a second push changes nothing; `runs`; `delete`; bad credentials and an unreachable server;
a node with a tiny write queue (429s) loses nothing; monthly indices by the run's start;
several --es-url with a dead one first; the upgrade path (a run in the single indices of
before partitioning: runs, delete, retention work on it); `delete --older-than`; partition
settings and ages that make no sense are refused before any request.

Usage: push_test.py FIOHIST LOGDIR  (env: FIOHIST_ES_URL, optional FIOHIST_ENGINE
(elasticsearch or opensearch: what the node is, which push must find out and say),
FIOHIST_ES_TINYQUEUE_URL, FIOHIST_ES_SECURE_URL + FIOHIST_ES_SECURE_USER, FIOHIST_MAPPINGS_DIR)
"""
import csv
import datetime
import glob
import gzip
import io
import json
import os
import shutil
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pushlib  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

FIOHIST, LOGDIR = sys.argv[1], sys.argv[2]
URL = os.environ["FIOHIST_ES_URL"]
LOGS = sorted(glob.glob(os.path.join(LOGDIR, "*_clat_hist.*.log*")))
CHECKS = testlib.Checks()
failures = CHECKS.failures


check = CHECKS.check


def es(method, path, body=None, url=URL):
    return testlib.es_request(url, method, path, body)


def run(args, env=None):
    e = dict(os.environ)
    e.pop("FIOHIST_ES_URL", None)
    e.update(env or {})
    p = subprocess.run([FIOHIST] + args, capture_output=True, text=True, env=e, timeout=600)
    return p.returncode, p.stdout, p.stderr


def count(run_name, kind, url=URL, resolution=None):
    """Documents of a run; of one resolution only when given (percentile documents)."""
    es("POST", "/fiohist-%s*/_refresh" % kind, url=url)
    flt = [{"term": {"run": run_name}}]
    if resolution is not None:
        flt.append({"term": {"resolution": resolution}})
    return es("POST", "/fiohist-%s*/_count" % kind,
              {"query": {"bool": {"filter": flt}}}, url=url)["count"]


def all_docs(run_name):
    out = {}
    for kind in ("pctiles", "buckets", "runs"):
        r = es("POST", "/fiohist-%s*/_search" % kind,
               {"size": 10000, "query": {"term": {"run": run_name}}})
        for h in r["hits"]["hits"]:
            out[(h["_index"], h["_id"])] = h["_source"]
    return out


mappings = ["--mappings", os.environ["FIOHIST_MAPPINGS_DIR"]] if os.environ.get(
    "FIOHIST_MAPPINGS_DIR") else []
push = ["push", "--es-url", URL] + mappings
rc, out, err = run(["pctiles", "--quiet", "--scope", "cluster,host,job"] + LOGS)
check(rc == 0, "pctiles CSV of the same logs (rc %d: %s)" % (rc, err.strip()[-300:]))
rows = list(csv.DictReader(io.StringIO(out)))
# push also writes percentile documents of the coarser resolutions (10, 60, 600, 3600 and
# 36000 quanta by default): one per row of `pctiles --quantum R`, except the resolutions
# whose windows have the boundaries of the next finer one's (the same number of windows
# within the run: they would repeat it); the first coarser one is always written. The job
# scope's start at the job resolution (10): no job row of the quanta.
coarse, written, windows_before = 0, [1], None
for multiple in (10, 60, 600, 3600, 36000):
    rc, out, err = run(["pctiles", "--quiet", "--scope", "cluster,host,job", "--quantum",
                        str(multiple)] + LOGS)
    level = list(csv.DictReader(io.StringIO(out)))
    windows = len({r["start_ms"] for r in level})
    if multiple == 10 or windows < windows_before:
        # One document per window of a scope, host and job, holding its directions.
        coarse += len({(r["scope"], r["host"], r["job"], r["start_ms"]) for r in level})
        written.append(multiple)
    windows_before = windows
quanta_rows = len({(r["scope"], r["host"], r["job"], r["start_ms"]) for r in rows
                   if r["scope"] != "job"})

# Clean slate, then one push.
run(["delete", "--es-url", URL, "--run", "push-test"] + [])
rc, out, err = run(push + ["--run", "push-test", "--tag", "ci", "--label", "disk=nvme",
                           "--quantum", "1"] + LOGS)
check(rc == 0, "push exits 0 (rc %d; stderr tail: %s)" % (rc, err.strip()[-400:]))
check("indexed" in err or "indexed" in out, "push prints a summary line with 'indexed'")
product = {"opensearch": "OpenSearch"}.get(os.environ.get("FIOHIST_ENGINE"), "Elasticsearch")
said = [l for l in err.splitlines() if l.startswith("fiohist: server: ")]
check(len(said) == 1 and said[0].startswith("fiohist: server: %s " % product),
      "push says once what the server is and what it decided: %s" % said)
check(count("push-test", "pctiles", resolution=1) == quanta_rows,
      "one percentile document per quantum of the cluster and each host, every direction in "
      "it (%d vs %d)"
      % (count("push-test", "pctiles", resolution=1), quanta_rows))
check(count("push-test", "pctiles") == quanta_rows + coarse,
      "and one per row of pctiles at each coarser resolution (%d vs %d)"
      % (count("push-test", "pctiles"), quanta_rows + coarse))
# The last line is the Grafana link of the run on its own span (default: the compose stack's).
last = err.strip().splitlines()[-1] if err.strip() else ""
m = re.match(r"fiohist push: dashboard: http://127\.0\.0\.1:3000/d/fiohist-overview\?"
             r"var-run=push-test&from=(\d+)&to=(\d+)$", last)
check(m is not None and int(m.group(1)) < int(m.group(2)),
      "push ends with the run's Grafana link (%r)" % last)
# Bucket documents by default: per quantum, job and real direction (the rest are sums); where
# the push wrote records (no `histogram` type: bucket_version 4), one per job and window of
# 10 quanta (on the 10x resolution's grid) holding each of its quanta and directions.
job_rows = [r for r in rows if r["scope"] == "job" and r["direction"] != "all"]
merged = es("POST", "/fiohist-runs*/_search", {"query": {"term": {"run": "push-test"}}}
            )["hits"]["hits"][0]["_source"].get("bucket_version") == 4
quantum_rows = len({(r["start_ms"], r["host"], r["job"]) for r in job_rows})
bucket_rows = len(job_rows)
if merged:
    windows = sorted({int(r["start_ms"]) for r in rows if r["scope"] == "cluster"})
    first = windows[0]
    # The window of a quantum: the 10 s grid from the quanta's origin, clipped to the run.
    origin = first % 1000
    bucket_rows = len({(max(first, (int(r["start_ms"]) - origin) // 10000 * 10000 + origin),
                        r["host"], r["job"]) for r in job_rows})
check(count("push-test", "buckets") == bucket_rows,
      "one bucket document per job row of a real direction%s (%d vs %d; %d job quanta)"
      % (", its quanta of a window and their directions in one" if merged else "",
         count("push-test", "buckets"), bucket_rows, quantum_rows))
check(count("push-test", "runs") == 1, "one run document")
run_resolutions = es("POST", "/fiohist-runs*/_search", {"query": {"term": {"run": "push-test"}}}
                     )["hits"]["hits"][0]["_source"]["resolutions"]
check(run_resolutions == written and written[-1] < 36000,
      "the run document lists the resolutions written (%s; want %s)" % (run_resolutions, written))
job_resolution = es("POST", "/fiohist-runs*/_search", {"query": {"term": {"run": "push-test"}}}
                    )["hits"]["hits"][0]["_source"].get("job_resolution")
check(job_resolution == 10, "the run document says job percentiles start at 10 quanta (%s)"
      % job_resolution)

# The server's own aggregation over the percentile documents equals the CSV: its 1 s
# buckets start at the grid origin the run document records (the quanta's phase).
run_doc = es("POST", "/fiohist-runs*/_search",
             {"query": {"term": {"run": "push-test"}}})["hits"]["hits"][0]["_source"]
origin = run_doc.get("grid_origin_ms")
check(run_doc.get("grid") == "logs" and isinstance(origin, int) and 0 <= origin < 1000,
      "the run document records the grid and its origin (%r, %r)"
      % (run_doc.get("grid"), origin))
agg = es("POST", "/fiohist-pctiles*/_search", {
    "size": 0,
    "query": {"bool": {"filter": [{"term": {"run": "push-test"}}, {"term": {"scope": "cluster"}},
                                  {"term": {"directions": "all"}}, {"term": {"resolution": 1}}]}},
    "aggs": {"t": {"date_histogram": {"field": "@timestamp", "fixed_interval": "1s",
                                      "offset": "+%dms" % (origin or 0), "min_doc_count": 1},
                   "aggs": {"p99": {"max": {"field": "all.p99"}}}}}})
es_p99 = {b["key"]: b["p99"]["value"] for b in agg["aggregations"]["t"]["buckets"]}
csv_p99 = {int(r["start_ms"]): float(r["p99"]) for r in rows
           if r["scope"] == "cluster" and r["direction"] == "all" and r["p99"]}
check(len(es_p99) == len(csv_p99) and len(csv_p99) > 5,
      "as many quanta in the server as in the CSV (%d vs %d)" % (len(es_p99), len(csv_p99)))
# Documents hold whole nanoseconds (docs/documents.md), the CSV the exact interpolation.
worst = max((abs(es_p99.get(k, 0) - v) for k, v in csv_p99.items()), default=1)
check(worst <= 0.5e-3 + 1e-9, "max of p99 per quantum from the server equals the CSV within "
      "half a nanosecond (worst %.2g us)" % worst)

# The run document and `fiohist runs`.
rdoc = es("POST", "/fiohist-runs*/_search", {"query": {"term": {"run": "push-test"}}})
src = rdoc["hits"]["hits"][0]["_source"]
check(src.get("tags") == ["ci"] and src.get("labels", {}).get("disk") == "nvme",
      "run document keeps tags and labels")
check(sorted(src.get("hosts", [])) == sorted({r["host"] for r in rows if r["host"]}),
      "run document lists the hosts")
rc, out, err = run(["runs", "--es-url", URL])
check(rc == 0 and "push-test" in out, "`fiohist runs` lists the run")
# START and END are the run's (the documents at coarser resolutions span whole windows of
# their width around it, up to 10 h), DOCUMENTS counts them all.
listed = [l.split() for l in out.splitlines() if l.startswith("push-test ")]
total = sum(count("push-test", k) for k in ("pctiles", "buckets", "runs"))
check(len(listed) == 1 and listed[0][1:3] == [src.get("start"), src.get("end")]
      and listed[0][5] == str(total),
      "`fiohist runs`: START, END as the run document's (%s, %s), DOCUMENTS %d: %s"
      % (src.get("start"), src.get("end"), total, listed))

if m:
    span = es("POST", "/fiohist-runs*/_search", {
        "query": {"term": {"run": "push-test"}}, "size": 1,
        "docvalue_fields": [{"field": "start", "format": "epoch_millis"},
                            {"field": "end", "format": "epoch_millis"}]})["hits"]["hits"][0]
    want = (int(float(span["fields"]["start"][0])), int(float(span["fields"]["end"][0])))
    check((int(m.group(1)), int(m.group(2))) == want,
          "the link's from/to are the run document's start/end %s" % (want,))
    check((span["_source"].get("start_ms"), span["_source"].get("end_ms")) == want,
          "the run document's start_ms/end_ms (the runs dashboard's links) are its start/end")
rc, out, err = run(push + ["--run", "push test/2", "--quantum", "1", "--resolutions", "none"]
                   + LOGS, env={"FIOHIST_GRAFANA_URL": "https://grafana.example/"})
check(rc == 0 and err.strip().splitlines()[-1].startswith(
    "fiohist push: dashboard: https://grafana.example/d/fiohist-overview?var-run=push%20test%2F2&"),
      "FIOHIST_GRAFANA_URL and an encoded run name (%r)" % err.strip().splitlines()[-1:])
rc, out, err = run(push + ["--run", "push test/2", "--quiet", "--resolutions", "none"] + LOGS)
check(rc == 0 and "dashboard:" not in err, "--quiet prints no link")
run(["delete", "--es-url", URL, "--run", "push test/2"])

# A second push changes nothing.
before = all_docs("push-test")
rc, out, err = run(push + ["--run", "push-test", "--tag", "ci", "--label", "disk=nvme"] + LOGS)
check(rc == 0, "second push exits 0")
after = all_docs("push-test")
check(before == after and len(after) == quanta_rows + bucket_rows + coarse + 1,
      "second push leaves exactly the same documents (%d)" % len(after))

# Delete removes exactly that run.
rc, _, _ = run(push + ["--run", "push-other"] + LOGS[:1])
check(rc == 0, "push of a second run")
other = count("push-other", "pctiles")
rc, out, err = run(["delete", "--es-url", URL, "--run", "push-test"])
check(rc == 0, "delete exits 0 (%s)" % err.strip()[-200:])
check(sum(count("push-test", k) for k in ("pctiles", "buckets", "runs")) == 0,
      "delete removed every document of the run")
check(count("push-other", "pctiles") == other and other > 0, "the other run is intact")
run(["delete", "--es-url", URL, "--run", "push-other"])

# Hostile names round-trip exactly: quotes, newlines, unicode, control characters, and
# characters that would break a URL or a JSON string if pasted in.
weird = 'r"un\n\u00e9\u6f22\U0001F600 \\ / ? & # %2F \x01\t{"x":1}'
weird_tag = 'tag "q" \u00fc\n'
weird_label = ('k\u00e9y', 'v"al\\ue\n\u2603')
rc, out, err = run(push + ["--run", weird, "--tag", weird_tag, "--label",
                           "%s=%s" % weird_label] + LOGS[:1])
check(rc == 0, "push with a hostile run name exits 0 (%s)" % err.strip()[-200:])
es("POST", "/fiohist-runs*/_refresh")
r = es("POST", "/fiohist-runs*/_search", {"query": {"term": {"run": weird}}})
hits = r["hits"]["hits"]
check(len(hits) == 1 and hits[0]["_source"]["run"] == weird,
      "the run name round-trips exactly through the server")
check(len(hits) == 1 and hits[0]["_source"].get("tags") == [weird_tag] and
      hits[0]["_source"].get("labels", {}).get(weird_label[0]) == weird_label[1],
      "tags and labels round-trip exactly")
rc, out, err = run(["runs", "--es-url", URL, "--json"])
check(rc == 0 and any(json.loads(l).get("run") == weird for l in out.splitlines() if l.strip()),
      "`fiohist runs --json` reports the hostile name exactly")
rc, out, err = run(["delete", "--es-url", URL, "--run", weird])
check(rc == 0 and sum(count(weird, k) for k in ("pctiles", "buckets", "runs")) == 0,
      "delete removes exactly the hostile-named run")
rc, out, err = run(push + ["--run", "x", "--index-prefix", "Bad/Prefix"] + LOGS[:1])
check(rc != 0 and "prefix" in err.lower(), "an invalid index prefix is refused: %s"
      % (err.strip().splitlines()[-1] if err.strip() else ""))

# An unreachable server: a clear error and a non-zero exit.
rc, out, err = run(["push", "--es-url", "http://127.0.0.1:1", "--run", "x", "--timeout", "5"]
                   + mappings + LOGS[:1])
check(rc != 0 and "127.0.0.1:1" in err, "unreachable server: exit %d, message: %s"
      % (rc, err.strip().splitlines()[-1] if err.strip() else ""))

secure = os.environ.get("FIOHIST_ES_SECURE_URL")
if secure:
    rc, out, err = run(["push", "--es-url", secure, "--user",
                        os.environ.get("FIOHIST_ES_SECURE_USER", "fiohist"), "--run", "x"]
                       + mappings + LOGS[:1], env={"FIOHIST_ES_PASSWORD": "wrong-Secret-42"})
    check(rc != 0 and "401" in err, "bad credentials: exit %d, message names HTTP 401" % rc)
    check("wrong-Secret-42" not in out + err, "the password appears nowhere in the output")

tiny = os.environ.get("FIOHIST_ES_TINYQUEUE_URL")
if tiny:
    rc, out, err = run(["push", "--es-url", tiny, "--run", "tiny", "--batch-docs", "50"]
                       + mappings + LOGS)
    check(rc == 0, "push to a node with a tiny write queue exits 0 (%s)" % err.strip()[-300:])
    n = count("tiny", "pctiles", url=tiny) + count("tiny", "buckets", url=tiny)
    check(n == quanta_rows + bucket_rows + coarse,
          "nothing lost despite 429s (%d of %d)" % (n, quanta_rows + bucket_rows + coarse))
    print("  tiny-queue summary: " + (err.strip().splitlines()[-1] if err.strip() else ""))

# A push that fails at the server after reading everything (the runs index refuses writes)
# still warns about the input it skipped, also with --quiet, and exits 3.
tmp = tempfile.mkdtemp(prefix="push-test-")
bad = os.path.join(tmp, "bad_clat_hist.1.log.hostX")
with gzip.open(LOGS[0], "rb") as f:
    lines = f.read().split(b"\n")
with open(bad, "wb") as f:
    f.write(b"\n".join(lines[:5] + [b"abc, 0, 4096, 0"] + lines[5:]))
try:
    es("DELETE", "/fiohist-blocked-*")
except urllib.error.HTTPError:
    pass
# The runs index of the month of the log's first stamp (epoch milliseconds).
blocked = "fiohist-blocked-runs-" + datetime.datetime.fromtimestamp(
    int(lines[0].split(b",")[0]) / 1000, datetime.timezone.utc).strftime("%Y.%m")
es("PUT", "/" + blocked, {})
es("PUT", "/%s/_settings" % blocked, {"index.blocks.write": True})
for quiet in ([], ["--quiet"]):
    rc, out, err = run(push + ["--run", "blocked", "--index-prefix", "fiohist-blocked",
                               "--skip-bad-lines"] + quiet + [bad])
    check(rc == 3 and "failed 1" in err,
          "push into a write-blocked runs index exits 3 (rc %d, %s)" % (rc, err.strip()[-300:]))
    check(err.count("skipped 1 bad line") == 1,
          "a failing push%s still warns once about the skipped line" % (" --quiet" if quiet else ""))
es("PUT", "/%s/_settings" % blocked, {"index.blocks.write": False})
es("DELETE", "/fiohist-blocked-*")
shutil.rmtree(tmp, ignore_errors=True)


# --- Monthly indices, several nodes ------------------------------------------------------------
# Every document of a run goes to the indices of the month of its start (UTC).
rc, out, err = run(["push", "--quiet", "--es-url", "http://127.0.0.1:1," + URL, "--run", "multi",
                    "--timeout", "20"] + mappings + LOGS[:1])
check(rc == 0 and "node http://127.0.0.1:1 gave no answer" in err and "trying " + URL in err,
      "--es-url DEAD,LIVE: the push fails over and says so (rc %d, %s)" % (rc, err.strip()[-300:]))
docs = all_docs("multi")
months = {re.sub(r"^fiohist-(pctiles|buckets|runs)-", "", i) for i, _ in docs}
check(len(docs) > 0 and len(months) == 1 and re.match(r"^\d{4}\.\d\d$", months.pop() or ""),
      "the run's documents are in the three indices of one month: %s"
      % sorted({i for i, _ in docs}))
rc, out, err = run(["runs"], env={"FIOHIST_ES_URL": "http://127.0.0.1:1, " + URL})
check(rc == 0 and "multi" in out, "FIOHIST_ES_URL as a comma list (rc %d)" % rc)
run(["delete", "--es-url", URL, "--run", "multi"])

# --- Bad input: refused before any request (the URL is a closed port) ------------------------
for args, option in ((["setup", "--shards", "0"], "--shards"),
                     (["setup", "--replicas", "-1"], "--replicas"),
                     (["push", "--run", "x", "--shards", "-3"] + LOGS[:1], "--shards"),
                     (["push", "--run", "x", "--replicas", "many"] + LOGS[:1], "--replicas"),
                     (["delete", "--older-than", "-5d"], "--older-than"),
                     (["delete", "--older-than", "90"], "--older-than"),
                     (["delete", "--older-than", "0d"], "--older-than"),
                     (["delete", "--older-than", "ninety days"], "--older-than")):
    rc, out, err = run(args + ["--es-url", "http://127.0.0.1:1"])
    check(rc == 2 and option in err and "127.0.0.1:1" not in err,
          "%s: refused before any request, naming %s (rc %d: %s)"
          % (" ".join(args[:3]), option, rc, err.strip()[-200:]))


# --- Upgrade path and retention ---------------------------------------------------------------
def relative_logs(dest):
    return pushlib.relative_logs(LOGS, dest)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def ndjson_into_legacy(out_dir):
    """Renames a push --out's monthly indices to the single ones of before partitioning."""
    for f in testlib.bulk_files(out_dir):
        text = testlib.read_bulk_file(f)
        with (gzip.open if f.endswith(".gz") else open)(f, "wt") as fh:
            fh.write(re.sub(r'"_index":"([a-z0-9.-]+)-\d{4}\.\d\d"', r'"_index":"\1"', text))


def compact(o):
    """JSON as fiohist writes it (load finds some keys by their text)."""
    return json.dumps(o, separators=(",", ":"))


def to_previous_layout(out_dir):
    """Rewrites a push --out's percentile documents as fiohist wrote them before
    pctiles_version 2 (one per direction, `direction` and its statistics at the top, ids of
    their own), and its run document without pctiles_version."""
    for f in testlib.bulk_files(out_dir):
        lines = testlib.read_bulk_file(f).splitlines()
        out = []
        for a, b in zip(lines[::2], lines[1::2]):
            action, doc = json.loads(a), json.loads(b)
            index = next(iter(action.values()))
            if "-pctiles" in index["_index"] and "directions" in doc:
                for one in testlib.per_direction([doc]):
                    act = {"index": dict(index, _id=index["_id"] + "-" + one["direction"])}
                    out += [compact(act), compact(one)]
                continue
            doc.pop("pctiles_version", None)
            out += [compact(action), compact(doc)]
        with (gzip.open if f.endswith(".gz") else open)(f, "wt") as fh:
            fh.write("\n".join(out) + "\n")


def make_legacy_indices(prefix):
    """The indices as fiohist wrote them before partitioning: one per kind, no month, the
    mappings of mappings/ (unchanged), 1 shard, 0 replicas."""
    mdir = os.environ.get("FIOHIST_MAPPINGS_DIR") or os.path.join(
        os.path.dirname(__file__), "..", "..", "mappings")
    for kind, fname in (("pctiles", "fiohist-pctiles.json"),
                        ("buckets", "fiohist-buckets-nohistogram.json"),
                        ("runs", "fiohist-runs.json")):
        with open(os.path.join(mdir, fname)) as f:
            tmpl = json.load(f)["template"]
        try:
            es("DELETE", "/%s-%s" % (prefix, kind))
        except urllib.error.HTTPError:
            pass
        es("PUT", "/%s-%s" % (prefix, kind), {
            "settings": {"index": {"number_of_shards": 1, "number_of_replicas": 0}},
            "mappings": tmpl["mappings"]})


def prefixed_count(prefix, run_name):
    es("POST", "/%s-*/_refresh" % prefix)
    return es("POST", "/%s-*/_count" % prefix, {"query": {"term": {"run": run_name}}})["count"]


def indices(prefix):
    return sorted(i["index"] for i in es("GET", "/_cat/indices/%s-*?format=json&h=index" % prefix))


tmp = tempfile.mkdtemp(prefix="push-upgrade-")
try:
    rel = relative_logs(os.path.join(tmp, "rel"))
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    # A run stored by fiohist before partitioning: indices upg-pctiles/-buckets/-runs.
    make_legacy_indices("upg")
    rc, out, err = run(["push", "--quiet", "--out", os.path.join(tmp, "legacy"), "--run",
                        "legacy-run", "--index-prefix", "upg", "--start-time",
                        iso(now - datetime.timedelta(days=3))] + rel)
    ndjson_into_legacy(os.path.join(tmp, "legacy"))
    rc, out, err = run(["load", os.path.join(tmp, "legacy"), "--no-setup", "--es-url", URL,
                        "--index-prefix", "upg"])
    legacy_docs = prefixed_count("upg", "legacy-run")
    check(rc == 0 and legacy_docs > 0 and indices("upg") == ["upg-buckets", "upg-pctiles",
                                                             "upg-runs"],
          "a run in the single indices of before partitioning (%d documents, %s)"
          % (legacy_docs, indices("upg")))
    # Today's fiohist on the same prefix: templates cover both, new runs go monthly.
    rc, out, err = run(["setup", "--es-url", URL, "--index-prefix", "upg"] + mappings)
    check(rc == 0, "setup over the old indices (%s)" % err.strip()[-200:])
    rc, out, err = run(push + ["--quiet", "--run", "new-run", "--index-prefix", "upg"] + LOGS)
    check(rc == 0, "push of a new run beside them")
    rc, out, err = run(["runs", "--json", "--es-url", URL, "--index-prefix", "upg"])
    listed = {json.loads(l)["run"]: json.loads(l) for l in out.splitlines() if l.strip()}
    check(rc == 0 and set(listed) == {"legacy-run", "new-run"} and
          listed["legacy-run"]["documents"] == legacy_docs and
          listed["legacy-run"]["has_run_document"],
          "runs lists the old run (from the old indices) and the new one: %s" % sorted(listed))
    # What a Grafana data source on `upg-pctiles*` sees: both runs.
    r = es("POST", "/upg-pctiles*/_search", {"size": 0, "aggs": {"r": {"terms": {
        "field": "run"}}}})
    check({b["key"] for b in r["aggregations"]["r"]["buckets"]} == {"legacy-run", "new-run"},
          "the index pattern upg-pctiles* (data sources, data views) covers old and new indices")
    rc, out, err = run(["delete", "--es-url", URL, "--index-prefix", "upg", "--run",
                        "legacy-run"])
    check(rc == 0 and prefixed_count("upg", "legacy-run") == 0 and
          prefixed_count("upg", "new-run") > 0,
          "delete --run removes the old run from the old indices (%s)" % err.strip()[-200:])

    # A run of the previous percentile layout (one document per direction, no
    # pctiles_version: made here from push --out's files as an earlier fiohist wrote them)
    # stays readable by runs, read-back and compare; a push of the same run name replaces it.
    old_dir = os.path.join(tmp, "old-layout")
    rc, out, err = run(["push", "--quiet", "--out", old_dir, "--run", "old-layout",
                        "--index-prefix", "olp"] + LOGS)
    to_previous_layout(old_dir)
    rc, out, err = run(["load", old_dir, "--es-url", URL, "--index-prefix", "olp"] + mappings)
    old_docs = prefixed_count("olp", "old-layout")
    es("POST", "/olp-*/_refresh")
    dirs = es("POST", "/olp-pctiles*/_search", {"size": 0, "query": {"term": {
        "run": "old-layout"}}, "aggs": {"d": {"terms": {"field": "direction"}}}})
    check(rc == 0 and old_docs > 0 and
          {b["key"] for b in dirs["aggregations"]["d"]["buckets"]} == {"read", "write", "all"},
          "a run of the previous layout: one percentile document per direction (%d documents; "
          "%s)" % (old_docs, err.strip()[-200:]))
    rc, out, err = run(["runs", "--json", "--es-url", URL, "--index-prefix", "olp"])
    listed = {json.loads(l)["run"]: json.loads(l) for l in out.splitlines() if l.strip()}
    check(rc == 0 and listed.get("old-layout", {}).get("documents") == old_docs,
          "runs lists the run of the previous layout (%s)" % listed.get("old-layout"))
    rc, out_old, err = run(["pctiles", "--quiet", "--run", "old-layout", "--es-url", URL,
                            "--index-prefix", "olp"])
    rc2, out_logs, _ = run(["pctiles", "--quiet"] + LOGS)
    check(rc == 0 and rc2 == 0 and out_old.splitlines()[0] == out_logs.splitlines()[0] and
          len(out_old.splitlines()) == len(out_logs.splitlines()),
          "read-back of the run of the previous layout (%d rows, logs %d; %s)"
          % (len(out_old.splitlines()), len(out_logs.splitlines()), err.strip()[-200:]))
    run(push + ["--quiet", "--run", "olp-new", "--index-prefix", "olp"] + LOGS)
    rc, out, err = run(["compare", "--es-url", URL, "--index-prefix", "olp", "old-layout",
                        "olp-new"])
    # Its verdict on the same logs twice: no change, or too little data to say (exit 6).
    check(rc in (0, 6) and out.strip(), "compare reads the run of the previous layout against "
          "one of today's (rc %d %s)" % (rc, err.strip()[-200:]))
    def per_direction_left():
        es("POST", "/olp-*/_refresh")
        return es("POST", "/olp-pctiles*/_count", {"query": {"bool": {"filter": [
            {"term": {"run": "old-layout"}}, {"exists": {"field": "direction"}}]}}})["count"]
    # load of today's files over it (the same bucket_version): deleted first for the layout.
    new_dir = os.path.join(tmp, "new-layout")
    run(["push", "--quiet", "--out", new_dir, "--run", "old-layout", "--index-prefix", "olp"] +
        LOGS)
    rc, out, err = run(["load", new_dir, "--es-url", URL, "--index-prefix", "olp"] + mappings)
    fresh = prefixed_count("olp", "old-layout")
    check(rc == 0 and "pctiles_version 1" in err and per_direction_left() == 0 and
          0 < fresh < old_docs,
          "load of today's files over the run of the previous layout deletes it first (%d -> "
          "%d documents; %s)" % (old_docs, fresh, err.strip()[-300:]))
    # And a direct push over it (the old files loaded again first: deleted for the layout).
    rc, out, err = run(["load", old_dir, "--es-url", URL, "--index-prefix", "olp"] + mappings)
    check(rc == 0 and "pctiles_version 2" in err and per_direction_left() > 0,
          "load of the previous layout's files over today's run deletes it first (%s)"
          % err.strip()[-300:])
    rc, out, err = run(push + ["--run", "old-layout", "--index-prefix", "olp"] + LOGS)
    check(rc == 0 and "deleting it before pushing it again" in err and
          per_direction_left() == 0 and 0 < prefixed_count("olp", "old-layout") < old_docs,
          "a push over the run of the previous layout deletes it first, then writes one "
          "document per window (%s)" % err.strip()[-300:])

    # Retention: runs relative to the cutoff (now - 90 days).
    cutoff = now - datetime.timedelta(days=90)
    starts = {"ret-old": now - datetime.timedelta(days=400),          # a whole old month
              "ret-edge-old": cutoff - datetime.timedelta(hours=2),   # ended before the cutoff
              "ret-edge-new": cutoff + datetime.timedelta(hours=2),   # ended after it
              "ret-new": now - datetime.timedelta(days=1)}
    make_legacy_indices("ret")
    for name, start in starts.items():
        rc, out, err = run(["push", "--quiet", "--es-url", URL, "--index-prefix", "ret", "--run",
                            name, "--start-time", iso(start)] + mappings + rel)
        check(rc == 0, "retention: push of %s at %s" % (name, iso(start)))
    # And an old run in the single indices of before partitioning.
    rc, out, err = run(["push", "--quiet", "--out", os.path.join(tmp, "ret-legacy"), "--run",
                        "ret-legacy-old", "--index-prefix", "ret", "--start-time",
                        iso(now - datetime.timedelta(days=200))] + rel)
    ndjson_into_legacy(os.path.join(tmp, "ret-legacy"))
    run(["load", os.path.join(tmp, "ret-legacy"), "--no-setup", "--es-url", URL,
         "--index-prefix", "ret"])
    before = {n: prefixed_count("ret", n) for n in list(starts) + ["ret-legacy-old"]}
    old_month = starts["ret-old"].strftime("%Y.%m")
    rc, out, err = run(["delete", "--older-than", "90d", "--dry-run", "--es-url", URL,
                        "--index-prefix", "ret"])
    check(rc == 0 and "would drop index ret-pctiles-%s" % old_month in out and
          "would delete run ret-legacy-old" in out and "ret-new" not in out and
          "ret-edge-new" not in out and "ret-edge-old" in out,
          "delete --older-than 90d --dry-run lists the old month, the old runs elsewhere:\n" + out)
    check({n: prefixed_count("ret", n) for n in before} == before, "--dry-run deletes nothing")
    rc, out, err = run(["delete", "--older-than", "90d", "--es-url", URL, "--index-prefix",
                        "ret"])
    after = {n: prefixed_count("ret", n) for n in before}
    check(rc == 0 and after["ret-old"] == 0 and after["ret-edge-old"] == 0 and
          after["ret-legacy-old"] == 0 and after["ret-edge-new"] == before["ret-edge-new"] and
          after["ret-new"] == before["ret-new"] and before["ret-new"] > 0,
          "delete --older-than 90d removes exactly the runs ended before the cutoff (%s; %s)"
          % (after, (out + err).strip()[-300:]))
    check(not any(i.endswith(old_month) for i in indices("ret")) and "ret-pctiles" in
          indices("ret"), "the old month's indices are dropped; the old single ones stay "
          "(other runs may live there): %s" % indices("ret"))
    rc, out, err = run(["delete", "--older-than", "90d", "--es-url", URL, "--index-prefix",
                        "ret"])
    check(rc == 0 and "nothing ended before the cutoff" in out, "a second run finds nothing")
finally:
    for prefix in ("upg", "ret", "olp"):
        try:
            es("DELETE", "/%s-*" % prefix)
            for kind in ("pctiles", "buckets", "runs", "changes"):
                es("DELETE", "/_index_template/%s-%s" % (prefix, kind))
        except urllib.error.HTTPError:
            pass
    shutil.rmtree(tmp, ignore_errors=True)

if failures:
    print("FAILED: %d check(s)" % len(failures))
    sys.exit(1)
print("all push checks passed")
