#!/usr/bin/env python3
"""`push --out` then `fiohist load` equals a direct push, against a real Elasticsearch or
OpenSearch node (neither test build has the `histogram` type: load must send the record form).

Pushes the shared sample logs directly (index prefix ldd) and writes them with `push --out`,
loaded with `fiohist load` (prefix ldl), and once more with `load --no-setup` into the
templates `setup` installed (prefix ldn). Checks: the same percentile and run documents (ids
and every source, byte for byte, but the run's bucket_version: 4 direct, 2 loaded); the
direct push's bucket documents one per job and window of 10 quanta (bucket_version 4),
their quanta holding exactly the loaded per-direction ones (the files carry both forms of the bucket counts and load
keeps the one this server takes: each direction's records and samples equal); the index
store of the two loaded copies, after refresh and force-merge, within 10 % of each other;
read-back (`pctiles --run --es-url`) of each copy byte-identical to the direct push's, which
equals `pctiles` of the logs (samples and percentiles within 1e-9 relative: the same sums up
to floating-point addition order). Re-push safety: loading the files over the direct push's
run, then pushing directly over the loaded one, then loading `--bucket-form compact` files
(one bucket document per job and window of quanta) over per-direction ones, deletes the run of the
other shape first, and leaves the documents and read-back of the last one alone.

Usage: load_test.py FIOHIST LOGDIR  (env: FIOHIST_ES_URL, FIOHIST_MAPPINGS_DIR)
"""
import csv
import datetime
import glob
import io
import json
import math
import os
import sys
import tempfile
import urllib.request
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pushlib  # noqa: E402

FIOHIST, LOGDIR = sys.argv[1], sys.argv[2]
URL = os.environ["FIOHIST_ES_URL"]
LOGS = sorted(glob.glob(os.path.join(LOGDIR, "*_clat_hist.*.log*")))
MAPPINGS = ["--mappings", os.environ["FIOHIST_MAPPINGS_DIR"]] \
    if os.environ.get("FIOHIST_MAPPINGS_DIR") else []
RUN = "load test"
CHECKS = testlib.Checks()
failures = CHECKS.failures


check = CHECKS.check


def es(method, path, body=None):
    return testlib.es_request(URL, method, path, body, timeout=300)


def fiohist(args):
    return pushlib.run_fiohist(FIOHIST, args)


def drop(prefix):
    for i in es("GET", "/_cat/indices/%s-*?format=json&h=index" % prefix):
        es("DELETE", "/" + i["index"])
    for kind in ("pctiles", "buckets", "runs"):
        try:
            es("DELETE", "/_index_template/%s-%s" % (prefix, kind))
        except urllib.error.HTTPError:
            pass


def documents(prefix):
    """{(index kind, id): _source} of every document under the prefix."""
    es("POST", "/%s-*/_refresh" % prefix)
    out = {}
    r = es("POST", "/%s-*/_search?scroll=1m" % prefix, {"size": 1000, "sort": ["_doc"]})
    while r["hits"]["hits"]:
        for h in r["hits"]["hits"]:
            kind = h["_index"][len(prefix) + 1:].split("-")[0]
            out[(kind, h["_id"])] = h["_source"]
        r = es("POST", "/_search/scroll", {"scroll": "1m", "scroll_id": r["_scroll_id"]})
    es("DELETE", "/_search/scroll", {"scroll_id": r["_scroll_id"]})  # it pins old segments
    return out


def store(prefix):
    """Bytes of index store under the prefix after a refresh and a force-merge (before any
    scroll: an open one keeps the merged-away segments on disk)."""
    es("POST", "/%s-*/_refresh" % prefix)
    es("POST", "/%s-*/_forcemerge?max_num_segments=1" % prefix)
    es("POST", "/%s-*/_refresh" % prefix)
    rows = es("GET", "/_cat/indices/%s-*?format=json&bytes=b&h=index,pri.store.size" % prefix)
    return sum(int(r["pri.store.size"]) for r in rows)


def read_back(prefix):
    rc, out, _ = fiohist(["pctiles", "--quiet", "--es-url", URL, "--index-prefix", prefix,
                          "--run", RUN, "--scope", "cluster,host,job"])
    check(rc == 0 and out.count("\n") > 10, "read-back of %s (%d lines)" % (prefix,
                                                                          out.count("\n")))
    return out


def close_rows(got, want):
    """Rows of the same keys whose numbers agree within 1e-9 relative."""
    g = list(csv.DictReader(io.StringIO(got)))
    w = list(csv.DictReader(io.StringIO(want)))
    if len(g) != len(w):
        return "%d rows against %d" % (len(g), len(w))
    for a, b in zip(g, w):
        for k in b:
            # Which I/Os spreading may have misplaced is known only where the logs' records
            # are placed: read-back leaves `straddled` empty (docs/documents.md).
            if k == "straddled" or a[k] == b[k]:
                continue
            try:
                x, y = float(a[k]), float(b[k])
            except ValueError:
                return "%s: %s vs %s" % (k, a[k], b[k])
            if not math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9):
                return "%s at %s: %s vs %s" % (k, a["start_ms"], a[k], b[k])
    return None


def job_key(s):
    return (s["host"], s["job"], s["@timestamp"])


def iso_plus(t, ms):
    """The ISO @timestamp `t` (2026-11-22T10:00:01.000Z) plus `ms` milliseconds, as written."""
    d = datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%S.%fZ") + datetime.timedelta(
        milliseconds=ms)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (d.microsecond // 1000)


def window_quanta(windows):
    """The quanta of window documents (bucket_version 4), each as a bucket_version 3
    document of its quantum: the window's fields, the quantum's records, samples,
    samples_by_direction and coverage, @timestamp its start and records_end its records'."""
    out = []
    for w in windows:
        for q in w["quanta"]:
            m = {k: v for k, v in w.items() if k not in ("quanta", "records_end", "samples")}
            m.update({k: v for k, v in q.items() if k != "offset_ms"})
            m["@timestamp"] = iso_plus(w["@timestamp"], q["offset_ms"])
            m["direction"] = [d for d in ("read", "write", "trim") if d in q["records"]] + ["all"]
            m["records_end"] = m["@timestamp"]
            for d, recs in q["records"].items():
                for r in recs:
                    m["records_end"] = max(m["records_end"],
                                           iso_plus(m["@timestamp"], r["span"][0] + r["span"][1]))
            out.append(m)
    return out


def same_buckets(windows, per_direction):
    """None when the window documents' quanta hold exactly the per-direction ones, else
    what differs first."""
    merged = window_quanta(windows)
    by_job = {}
    for s in per_direction:
        by_job.setdefault(job_key(s), {})[s["direction"][0]] = s
    if len(merged) != len(by_job):
        return "%d merged documents for %d job quanta" % (len(merged), len(by_job))
    order = ["read", "write", "trim"]
    for m in merged:
        dirs = by_job.get(job_key(m))
        if dirs is None:
            return "no per-direction documents of %s" % (job_key(m),)
        names = sorted(dirs, key=order.index)
        if m["direction"] != names + ["all"] or sorted(m["records"]) != sorted(names):
            return "%s: directions %s against %s" % (job_key(m), m["direction"], names)
        first = dirs[names[0]]
        for field in ("run", "scope", "logs", "layout", "quantum_s", "coverage"):
            if m.get(field) != first.get(field):
                return "%s: %s %s against %s" % (job_key(m), field, m.get(field),
                                                 first.get(field))
        for d in names:
            if m["records"][d] != dirs[d]["records"] or \
                    m["samples_by_direction"][d] != dirs[d]["samples"]:
                return "%s: %s's records or samples differ" % (job_key(m), d)
        if not math.isclose(m["samples"], sum(dirs[d]["samples"] for d in names),
                            rel_tol=1e-12) or \
                m["records_end"] != max(dirs[d]["records_end"] for d in names):
            return "%s: samples or records_end differ" % (job_key(m),)
    return None


def main():
    prefixes = ["ldd", "ldl", "ldn"]
    for p in prefixes:
        drop(p)
    with tempfile.TemporaryDirectory() as tmp:
        main_in(tmp, prefixes)
    if not os.environ.get("LOAD_TEST_KEEP"):
        for p in prefixes:
            drop(p)
    print("FAILED: %d" % len(failures) if failures else "PASSED")
    return 1 if failures else 0


def main_in(tmp, prefixes):
    if True:
        out_dir = os.path.join(tmp, "out")
        rc, _, err = fiohist(["push", "--quiet", "--es-url", URL, "--index-prefix", "ldd",
                              "--run", RUN] + MAPPINGS + LOGS)
        check(rc == 0, "direct push (%s)" % err.strip()[-200:])
        rc, _, err = fiohist(["push", "--quiet", "--out", out_dir, "--run", RUN] + LOGS)
        check(rc == 0, "push --out")
        size = sum(os.path.getsize(f) for f in testlib.bulk_files(out_dir))
        rc, out, err = fiohist(["load", out_dir, "--es-url", URL, "--index-prefix", "ldl"]
                               + MAPPINGS)
        check(rc == 0, "load (%s)" % (out + err).strip()[-300:])
        rc, _, err = fiohist(["setup", "--es-url", URL, "--index-prefix", "ldn"] + MAPPINGS)
        check(rc == 0, "setup (%s)" % err.strip()[-200:])
        rc, out, err = fiohist(["load", out_dir, "--no-setup", "--es-url", URL,
                                "--index-prefix", "ldn"])
        check(rc == 0, "load --no-setup (%s)" % (out + err).strip()[-300:])

    direct_store = store("ldd")
    want_store = store("ldl")
    print("bulk files %d bytes; index store: direct %d (one bucket document per job and "
          "quantum), loaded %d" % (size, direct_store, want_store))
    got = store("ldn")
    check(abs(got - want_store) <= 0.1 * want_store,
          "ldn: index store %d bytes, within 10%% of ldl's %d (%.3f)"
          % (got, want_store, got / want_store))

    direct = documents("ldd")
    buckets = [s for (kind, _), s in direct.items() if kind == "buckets"]
    # One bucket document per job and window of 10 quanta, one percentile document per
    # window with every direction: 87 documents of the sample logs (10 bucket documents).
    check(len(direct) > 60 and buckets and
          all(isinstance(s.get("quanta"), list) for s in buckets),
          "the direct push wrote %d documents, its %d bucket documents in the record form "
          "(no histogram type here), one per job and window" % (len(direct), len(buckets)))
    runs = [s for (kind, _), s in direct.items() if kind == "runs"]
    check(len(runs) == 1 and runs[0].get("bucket_version") == 4,
          "the direct push's run document says bucket_version 4")
    for p in prefixes[1:]:
        loaded = documents(p)
        rest = {k: v for k, v in direct.items() if k[0] != "buckets"}
        loaded_rest = {k: v for k, v in loaded.items() if k[0] != "buckets"}
        for docs in (rest, loaded_rest):
            for k in docs:
                if k[0] == "runs":
                    docs[k] = dict(docs[k], bucket_version=None)
        differ = [k for k in rest if loaded_rest.get(k) != rest[k]]
        check(set(loaded_rest) == set(rest) and not differ,
              "%s: the same %d percentile and run documents as the direct push, every source "
              "equal but the run's bucket_version (%d differ, %d missing or extra%s)"
              % (p, len(loaded_rest), len(differ), len(set(loaded_rest) ^ set(rest)),
                 ", e.g. %s" % (differ[0],) if differ else ""))
        loaded_buckets = [s for (kind, _), s in loaded.items() if kind == "buckets"]
        check(all(isinstance(s.get("records"), list) for s in loaded_buckets),
              "%s: %d loaded bucket documents, one per direction" % (p, len(loaded_buckets)))
        problem = same_buckets(buckets, loaded_buckets)
        check(problem is None, "%s: the direct push's bucket documents hold exactly the loaded "
              "ones (%s)" % (p, problem or "records and samples of every direction equal"))

    direct_rows = read_back("ldd")
    rc, logs_rows, _ = fiohist(["pctiles", "--quiet", "--scope", "cluster,host,job"] + LOGS)
    problem = close_rows(direct_rows, logs_rows)
    check(rc == 0 and problem is None,
          "read-back of the direct push equals pctiles of the logs (%s)" % (problem or "1e-9"))
    for p in prefixes[1:]:
        check(read_back(p) == direct_rows,
              "%s: read-back byte-identical to the direct push's" % p)

    # Re-push safety: the files loaded over the direct push's run (bucket_version 4), then a
    # direct push over the loaded one (2): each deletes the other shape first, so read-back
    # never counts both.
    def bucket_count(prefix):
        es("POST", "/%s-*/_refresh" % prefix)
        return es("POST", "/%s-buckets-*/_count" % prefix,
                  {"query": {"term": {"run": RUN}}})["count"]
    merged_count = bucket_count("ldd")
    rc, out, err = fiohist(["load", out_dir, "--es-url", URL, "--index-prefix", "ldd"]
                           + MAPPINGS)
    check(rc == 0 and "stored with bucket_version 4, the files hold 2" in err and
          "deleting it" in err, "load over a direct push's run deletes it first (%s)"
          % (out + err).strip()[-300:])
    check(bucket_count("ldd") == len(loaded_buckets),
          "after load: %d bucket documents, the files' %d" % (bucket_count("ldd"),
                                                               len(loaded_buckets)))
    check(read_back("ldd") == direct_rows, "after load over it: read-back unchanged")
    rc, _, err = fiohist(["push", "--quiet", "--es-url", URL, "--index-prefix", "ldd",
                          "--run", RUN] + MAPPINGS + LOGS)
    check(rc == 0 and "with other bucket documents (bucket_version 2" in err,
          "a direct push over the loaded run deletes it first (%s)" % err.strip()[-300:])
    check(bucket_count("ldd") == merged_count,
          "after the direct push: %d bucket documents, one per job and window (%d)"
          % (bucket_count("ldd"), merged_count))
    check(read_back("ldd") == direct_rows, "after the direct push over it: read-back unchanged")
    rc, _, err = fiohist(["push", "--quiet", "--es-url", URL, "--index-prefix", "ldd",
                          "--run", RUN] + MAPPINGS + LOGS)
    check(rc == 0 and "deleting" not in err, "a re-push of the same shape deletes nothing")
    # Files of one bucket document per job and window (--bucket-form compact, version 4)
    # loaded over the per-direction files' run (2): load learns the files' shape from their
    # first bucket document and deletes the other shape first.
    rc, out, err = fiohist(["load", out_dir, "--es-url", URL, "--index-prefix", "ldd"]
                           + MAPPINGS)
    check(rc == 0 and bucket_count("ldd") == len(loaded_buckets),
          "the per-direction files loaded again (%s)" % (out + err).strip()[-300:])
    compact_dir = os.path.join(os.path.dirname(out_dir), "compact")
    rc, _, err = fiohist(["push", "--quiet", "--out", compact_dir, "--bucket-form", "compact",
                          "--run", RUN] + LOGS)
    check(rc == 0, "push --out --bucket-form compact (%s)" % err.strip()[-300:])
    rc, out, err = fiohist(["load", compact_dir, "--es-url", URL, "--index-prefix", "ldd"]
                           + MAPPINGS)
    check(rc == 0 and "stored with bucket_version 2, the files hold 4" in err,
          "load of merged files over the per-direction run deletes it first (%s)"
          % (out + err).strip()[-300:])
    check(bucket_count("ldd") == merged_count,
          "after loading the merged files: %d bucket documents, one per job and window (%d)"
          % (bucket_count("ldd"), merged_count))
    check(read_back("ldd") == direct_rows, "after loading the merged files: read-back unchanged")


if __name__ == "__main__":
    sys.exit(main())
