"""Hand-made fiohist documents that follow docs/documents.md, for exercising the dashboards
against a real Elasticsearch before (or without) `fiohist push`: two runs, two hosts with two
jobs each, read/write/all, 20 one-second quanta, one quantum with I/Os in fio's clamped last
bucket. Returns the documents and the rows `fiohist pctiles --scope cluster|host --direction
all` would print (their p99 series are what the dashboards must show)."""

import datetime
import hashlib
import random

FIO3_BUCKETS = 29 * 64
QUANTUM_S = 1.0
NQ = 20
HOSTS = ("hostX", "hostY")
PCTS = [("p50", 50.0), ("p90", 90.0), ("p95", 95.0), ("p99", 99.0), ("p99_9", 99.9),
        ("p99_99", 99.99)]
CSV_HEADER = ("start,start_ms,end_ms,elapsed_s,scope,host,job,direction,logs,samples,iops,min,"
              "mean,max,p50,p90,p95,p99,p99.9,p99.99,top_bucket,lower_bound")


def bucket_edges_ns(i):
    """fio3 bucket i: [lower, upper) in ns."""
    if i < 128:
        return float(i), float(i + 1)
    eb = (i >> 6) - 1
    lower = (1 << (eb + 6)) + (i % 64) * (1 << eb)
    return float(lower), float(lower + (1 << eb))


def bucket_of_ns(v):
    v = int(v)
    if v < 128:
        return v
    eb = v.bit_length() - 1 - 6
    return min(((eb + 1) << 6) + ((v >> eb) & 63), FIO3_BUCKETS - 1)


def mid_us(i):
    lo, hi = bucket_edges_ns(i)
    return (lo + hi) / 2 / 1000.0


def stats(hist):
    """min/mean/max and percentiles (first bucket whose running share exceeds p, linear
    interpolation inside it) of {bucket: count}, in us."""
    idx = sorted(i for i, c in hist.items() if c > 0)
    total = sum(hist[i] for i in idx)
    out = {"samples": total, "min": bucket_edges_ns(idx[0])[0] / 1000,
           "max": bucket_edges_ns(idx[-1])[1] / 1000,
           "mean": sum(hist[i] * mid_us(i) for i in idx) / total}
    for name, p in PCTS:
        run = 0.0
        for i in idx:
            before = run
            run += hist[i]
            if run / total * 100 > p:
                lo, hi = bucket_edges_ns(i)
                frac = (p / 100 * total - before) / hist[i]
                out[name] = (lo + frac * (hi - lo)) / 1000
                break
    top = hist.get(FIO3_BUCKETS - 1, 0.0)
    out["top_bucket"] = top
    top_lo = bucket_edges_ns(FIO3_BUCKETS - 1)[0] / 1000
    out["lower_bound"] = [n for n, _ in PCTS if out[n] >= top_lo] + (["max"] if top else [])
    out["clamped"] = top > 0
    return out


def doc_id(kind, run, start_ms, scope, host, job, direction):
    key = "\x1f".join([kind, run, str(start_ms), scope, host, job, direction])
    return hashlib.md5(key.encode()).hexdigest()


def make_run(run, start_ms, seed, clamp_quantum=None):
    """(docs as (index, id, source), csv rows of cluster/all and host/all)."""
    rng = random.Random(seed)
    jobs = [(h, f"syn_clat_hist.{j}.log.{h}") for h in HOSTS for j in (1, 2)]
    docs, csv_rows = [], []
    whole = {}
    for q in range(NQ):
        qs = start_ms + int(q * QUANTUM_S * 1000)
        qe = qs + int(QUANTUM_S * 1000)
        per = {}  # (scope, host, job, direction) -> hist
        for host, job in jobs:
            for direction, base_us in (("read", 80.0), ("write", 250.0)):
                h = {}
                slow = 1.0 + (3.0 if 8 <= q <= 10 and host == "hostY" else 0.0)
                for _ in range(400):
                    v_ns = rng.lognormvariate(0, 0.5) * base_us * slow * 1000
                    b = bucket_of_ns(v_ns)
                    h[b] = h.get(b, 0.0) + rng.choice((2.5, 3.0, 3.5))
                if clamp_quantum == q and host == "hostY" and direction == "write" and \
                        job.endswith("2.log.hostY"):
                    h[FIO3_BUCKETS - 1] = 2.0
                for d in (direction, "all"):
                    for key in (("job", host, job, d), ("host", host, "", d),
                                ("cluster", "", "", d)):
                        acc = per.setdefault(key, {})
                        for b, c in h.items():
                            acc[b] = acc.get(b, 0.0) + c
        merged = {}  # (scope, host, job) -> its percentile document of the quantum
        for (scope, host, job, d), hist in sorted(per.items()):
            s = stats(hist)
            logs = 1 if scope == "job" else (2 if scope == "host" else len(jobs))
            common = {"@timestamp": qs, "end": qe, "elapsed_s": q * QUANTUM_S,
                      "quantum_s": QUANTUM_S, "run": run, "tags": ["synthetic"],
                      "labels": {"suite": "dashcheck"}, "scope": scope, "direction": d,
                      "logs": logs, "samples": s["samples"]}
            if host:
                common["host"] = host
            if job:
                common["job"] = job
            # One resolution (the quantum) drawn at every zoom level: docs/documents.md. One
            # document per scope, host, job and quantum holding every direction as an object
            # (pctiles_version 2), as push writes them.
            part = dict(samples=s["samples"], iops=s["samples"] / QUANTUM_S,
                        **{k: s[k] for k in ("min", "mean", "max", "top_bucket", "lower_bound",
                                             "clamped")},
                        **{n: s[n] for n, _ in PCTS})
            pdoc = merged.get((scope, host, job))
            if pdoc is None:
                pdoc = {k: v for k, v in common.items() if k not in ("direction", "samples")}
                pdoc.update(resolution=1, zoom_gt_ms=0, zoom_le_ms=2 ** 53, pctiles_version=2,
                            directions=[])
                merged[(scope, host, job)] = pdoc
                docs.append(("fiohist-pctiles", doc_id("pctiles", run, qs, scope, host, job, ""),
                             pdoc))
            pdoc["directions"].append(d)
            pdoc[d] = part
            if scope == "job" and d != "all":
                # As push writes them: per job and real direction (which also counts as
                # `all`), fixed-point counts (latency_scale), one copy (docs/documents.md).
                idx = sorted(b for b, c in hist.items() if c > 0)
                bdoc = {k: v for k, v in common.items() if k not in ("end", "elapsed_s")}
                bdoc.update(direction=[d, "all"], layout="fio3-g29-c0",
                            latency={"values": [mid_us(b) for b in idx],
                                     "counts": [round(hist[b] * 5000) for b in idx]},
                            latency_scale=5000)
                docs.append(("fiohist-buckets", doc_id("buckets", run, qs, scope, host, job, d),
                             bdoc))
            if scope == "cluster":
                w = whole.setdefault(d, {})
                for b, c in hist.items():
                    w[b] = w.get(b, 0.0) + c
            if scope in ("cluster", "host") and d == "all":
                iso = datetime.datetime.fromtimestamp(qs / 1000, datetime.timezone.utc)
                csv_rows.append([iso.strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z", qs, qe,
                                 q * QUANTUM_S, scope, host, "", "all", logs, s["samples"],
                                 s["samples"] / QUANTUM_S, s["min"], s["mean"], s["max"]] +
                                [s[n] for n, _ in PCTS] +
                                [s["top_bucket"], ";".join(s["lower_bound"])])
    end_ms = start_ms + int(NQ * QUANTUM_S * 1000)
    s = stats(whole["all"])
    rdoc = {"run": run, "tags": ["synthetic"], "labels": {"suite": "dashcheck"},
            "@timestamp": start_ms, "start": start_ms, "end": end_ms,
            "start_ms": start_ms, "end_ms": end_ms,
            "duration_s": NQ * QUANTUM_S, "hosts": list(HOSTS), "jobs": [j for _, j in jobs],
            "files": len(jobs), "quantum_s": QUANTUM_S, "layout": "fio3-g29-c0",
            "fio_versions": ["fio-3.33"], "anchor": "epoch", "state": "finished",
            "samples": s["samples"],
            "iops": s["samples"] / (NQ * QUANTUM_S),
            **{k: s[k] for k in ("min", "mean", "max")},
            **{n: s[n] for n, _ in PCTS}, "resolutions": [1],
            "summary": {"note": "whole-run stats of every scope x direction"}}
    for d in ("read", "write"):
        sd = stats(whole[d])
        rdoc[f"{d}_p99"] = sd["p99"]
        rdoc[f"{d}_samples"] = sd["samples"]
    docs.append(("fiohist-runs", hashlib.md5(run.encode()).hexdigest(), rdoc))
    return docs, csv_rows


def csv_text(rows):
    return "\n".join([CSV_HEADER] + [",".join("" if v is None else repr(v) if isinstance(v, float)
                                              else str(v) for v in r) for r in rows]) + "\n"
