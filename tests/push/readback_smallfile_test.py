#!/usr/bin/env python3
"""smallfile response-time files pushed to a real Elasticsearch or OpenSearch node and read
back per op: two hosts, two threads each, three ops (create and append, both writes, and
read), written here. Checks:
- `pctiles` of the files has a row per op (direction = the op) and `all`;
- the pushed percentile and bucket documents carry `op` (= direction) on each op's
  documents and none on `all`;
- `fiohist pctiles --run` from the bucket documents gives the same rows, every statistic
  equal (1e-9 relative), at the push quantum and at 5x;
- the overview dashboard's `op` variable, its query read from the dashboard JSON and sent
  as Grafana would, offers the three ops, and a panel query with op=create draws create's
  documents (and `all`, which carries no op) only.

Usage: readback_smallfile_test.py FIOHIST  (env: FIOHIST_ES_URL)
"""
import os
import random
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "dashboards"))
import testlib  # noqa: E402
import pushlib  # noqa: E402
import dashlib as dl  # noqa: E402
import grafana_es as g  # noqa: E402

FIOHIST = sys.argv[1]
URL = os.environ["FIOHIST_ES_URL"]
PREFIX = "rbsmall"
RUN = "smallfile-readback"
OPS = {"create": -7.0, "append": -8.0, "read": -9.5}  # log-normal mu of the response (s)
CHECKS = testlib.Checks()
check = CHECKS.check


def write_files(tmp):
    rng = random.Random(32)
    paths = []
    for host in ("sf1", "sf2"):
        for thread in ("00", "01"):
            for op, mu in OPS.items():
                epoch = 1700000000.25 + (0.4 if thread == "01" else 0)
                path = os.path.join(tmp, "rsptimes_%s_%s_%s_%.2f.csv" % (thread, host, op, epoch))
                t = 0.0
                with open(path, "w") as f:
                    for _ in range(4000):
                        rsp = rng.lognormvariate(mu, 0.6)
                        f.write("%8s, %9.6f, %10.6f\n" % (op, t, rsp))
                        t = round(t + rsp + 0.0003, 6)
                paths.append(path)
    return paths


def compare(what, paths, args):
    local, _ = testlib.check_read_back(
        check, lambda a: pushlib.run_fiohist(FIOHIST, a), what, args, paths, "the files", URL,
        PREFIX, RUN, "every statistic equal per op")
    dirs = {k[4] for k in local}
    check(dirs == set(OPS) | {"all"}, "%s: a row per op and all: %s" % (what, sorted(dirs)))
    return local


def search(index, body):
    return testlib.es_request(URL, "POST", "/%s-%s*/_search" % (PREFIX, index), body)


def documents_carry_op():
    for index in ("pctiles", "buckets"):
        r = search(index, {"size": 0, "query": {"term": {"run": RUN}}, "aggs": {
            "op": {"terms": {"field": "op", "size": 10}},
            "no_op": {"missing": {"field": "op"},
                      "aggs": {"dir": {"terms": {"field": "directions" if index == "pctiles"
                                                 else "direction", "size": 10}}}}}})
        ops = sorted(b["key"] for b in r["aggregations"]["op"]["buckets"])
        check(ops == sorted(OPS), "%s documents: op %s" % (index, ops))
        no_op = sorted(b["key"] for b in r["aggregations"]["no_op"]["dir"]["buckets"])
        check(no_op in ([], ["all"]), "%s documents without op are all's: %s" % (index, no_op))
        r = search(index, {"size": 50, "query": {"bool": {"filter": [
            {"term": {"run": RUN}}, {"exists": {"field": "op"}}]}}})
        bad = []
        for h in r["hits"]["hits"]:
            s = h["_source"]
            # A percentile document holds every op of its window (pctiles_version 2), each
            # an object named after it, and lists them in `directions`.
            d = s.get("directions") or s["direction"]
            d = d if isinstance(d, list) else [d]
            if "directions" in s and not all(isinstance(s.get(x), dict) for x in d):
                bad.append(("no object", d))
            # A job's bucket document of a window (bucket_version 4) holds each of its ops.
            ops = s["op"] if isinstance(s["op"], list) else [s["op"]]
            if [x for x in d if x != "all"] != ops:
                bad.append((s["op"], s["direction"]))
        check(r["hits"]["hits"] and not bad, "%s documents: direction = op (%s)" % (index, bad[:3]))


def dashboard_variable():
    d = dl.load_dashboards()["fiohist-overview.json"]
    v = [x for x in d["templating"]["list"] if x["name"] == "op"]
    check(len(v) == 1 and v[0].get("multi") and v[0].get("includeAll"),
          "the overview has a multi-value op variable with All")
    if not v:
        return
    frm, to = 1699999000000, 1700003600000
    variables = g.Variables(d, {"run": [RUN]})
    body = g.variable_request(v[0], "@timestamp", frm, to, variables)
    r = search("pctiles", body)
    keys = [b["key"] for b in r["aggregations"]["1"]["buckets"]]
    check(keys == sorted(OPS), "the op variable's query (from the dashboard) offers %s" % keys)
    # A panel query with op=create: the windows where create has I/Os (each document holds
    # every op of its window, pctiles_version 2), all ops with All.
    iops = [t for p in dl.iter_panels(d) if p.get("title", "").startswith("IOPS")
            for t in p.get("targets", [])]
    check(len(iops) == 1, "one IOPS target")
    for chosen, want in ((["create"], ["all"] + sorted(OPS)), ("$__all", ["all"] + sorted(OPS))):
        variables = g.Variables(d, {"run": [RUN], "op": chosen, "partial": "true"})
        q = variables.lucene(iops[0]["query"]).replace("$__interval_ms", "1000")
        r = search("pctiles", {"size": 0, "query": {"query_string": {"query": q}},
                               "aggs": {"dir": {"terms": {"field": "directions", "size": 10}}}})
        got = sorted(b["key"] for b in r["aggregations"]["dir"]["buckets"])
        check(got == want, "IOPS panel with op=%s draws %s (want %s)" % (chosen, got, want))


def main():
    testlib.es_request(URL, "DELETE", "/%s-*" % PREFIX)
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_files(tmp)
        rc, _, err = pushlib.run_fiohist(FIOHIST, ["push", "--es-url", URL, "--index-prefix",
                                                   PREFIX, "--run", RUN, "--quiet"] + paths)
        check(rc == 0, "push of the response-time files " + err.strip()[-300:])
        testlib.es_request(URL, "POST", "/%s-*/_refresh" % PREFIX)
        scopes = ["--scope", "cluster,host,job"]
        local = compare("push quantum", paths, scopes)
        compare("5x quantum", paths, scopes + ["--quantum", "5"])
        whole = [r for k, r in local.items() if k[1] == "cluster"]
        check(len(whole) > 0, "cluster rows")
        documents_carry_op()
        dashboard_variable()
    testlib.es_request(URL, "DELETE", "/%s-*" % PREFIX)
    return 1 if CHECKS.failures else 0


if __name__ == "__main__":
    sys.exit(main())
