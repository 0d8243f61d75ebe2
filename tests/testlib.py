"""Helpers shared by the Python test scripts: pass/fail checks, Elasticsearch requests and the
read-back comparison of `fiohist pctiles` rows."""
import csv
import glob
import gzip
import io
import json
import os
import subprocess
import urllib.request


class Checks:
    """Prints each check as `ok` or `FAIL` and keeps the failures for the exit code."""

    def __init__(self, prefix=None):
        self.failures = []
        self._prefix = prefix  # a callable giving text put before each line (e.g. elapsed time)

    def check(self, cond, what):
        head = "ok   " if cond else "FAIL "
        if self._prefix:
            head += self._prefix()
        print(head + what, flush=True)
        if not cond:
            self.failures.append(what)
        return cond


def per_direction(docs):
    """Percentile documents one per direction, as before pctiles_version 2: a document
    holding every direction of its window (`directions`, an object per direction) becomes
    one per direction with that object's fields at the top and `direction`; others (runs
    pushed before it, accuracy windows) are kept as they are."""
    out = []
    for d in docs:
        names = d.get("directions")
        if names is None:
            out.append(d)
            continue
        top = {k: v for k, v in d.items()
               if k not in names and k not in ("directions", "pctiles_version")}
        for n in names:
            one = dict(top)
            one.update(d[n])
            one["direction"] = n
            out.append(one)
    return out


def bulk_files(out_dir):
    """The bulk files of a `push --out` / `follow --out` directory in name order: gzip
    (bulk-NNNNNN.ndjson.gz, push's default) or plain (*.ndjson)."""
    return sorted(glob.glob(os.path.join(out_dir, "*.ndjson")) +
                  glob.glob(os.path.join(out_dir, "*.ndjson.gz")))


def read_bulk_file(path):
    """The text of one bulk file, inflated when it is gzip."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return f.read()


def bulk_lines(out_dir):
    """Every NDJSON line of a --out directory's bulk files, in order."""
    out = []
    for f in bulk_files(out_dir):
        out += read_bulk_file(f).splitlines()
    return out


def es_request(url, method, path, body=None, timeout=60, ndjson=False):
    """One request to an Elasticsearch/OpenSearch node; `body` is JSON, or NDJSON text."""
    data = None
    if body is not None:
        data = body.encode() if ndjson else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method, headers={
        "Content-Type": "application/x-ndjson" if ndjson else "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read() or b"{}")


def json_objects(path):
    """(offset, object) of every JSON object in a file of concatenated objects (fio's
    --status-interval output)."""
    text = open(path).read()
    dec, i, out = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        o, j = dec.raw_decode(text, i)
        out.append((i, o))
        i = j


def run_fiohist(fiohist, args, cwd, timeout=300):
    """(exit code, stdout, stderr) of fiohist with `args` in `cwd`, never sending to an
    Elasticsearch named by the environment."""
    env = dict(os.environ)
    env.pop("FIOHIST_ES_URL", None)
    p = subprocess.run([fiohist] + args, cwd=cwd, capture_output=True, text=True, env=env,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


# The statistics of a `fiohist pctiles` row that read-back must reproduce.
PCTILES_STATS = ("samples", "min", "mean", "max", "p50", "p90", "p95", "p99", "p99.9", "p99.99")


def pctiles_rows(text):
    """{(start_ms, scope, host, job, direction): row} of a `fiohist pctiles` CSV."""
    return {(int(r["start_ms"]), r["scope"], r["host"], r["job"], r["direction"]): r
            for r in csv.DictReader(io.StringIO(text))}


def check_read_back(check, fiohist, what, args, inputs, source, url, prefix, run, claim,
                    row_differs=None, rel=1e-9):
    """`fiohist pctiles ARGS INPUTS` (from `source`, e.g. "the logs") against `fiohist pctiles
    --es-url URL --index-prefix PREFIX --run RUN ARGS` (read-back): both exit 0, the same rows,
    and every statistic of PCTILES_STATS equal within `rel` relative (an empty or "-" field
    only to an equal one). `check` is a Checks.check, `fiohist(args)` gives (exit code, stdout,
    stderr); `row_differs(key, local, back)` lists further (key, column, local, back)
    differences of a row. The last check says `claim` with the worst relative difference and
    the first three differences. Returns (local rows, read-back rows)."""
    rc, out, err = fiohist(["pctiles", "--quiet"] + args + inputs)
    check(rc == 0, "%s: pctiles from %s %s" % (what, source, err[-300:]))
    local = pctiles_rows(out)
    rc, out, err = fiohist(["pctiles", "--quiet", "--es-url", url, "--index-prefix", prefix,
                            "--run", run] + args)
    check(rc == 0, "%s: read-back %s" % (what, err[-300:]))
    back = pctiles_rows(out)
    check(len(local) > 0 and set(local) == set(back), "%s: the same rows (%d from %s, %d read "
          "back)" % (what, len(local), source, len(back)))
    worst, differ = 0.0, []
    for key, a in local.items():
        b = back.get(key)
        if b is None:
            continue
        for col in PCTILES_STATS:
            if a[col] in ("", "-") or b[col] in ("", "-"):
                if a[col] != b[col]:
                    differ.append((key, col, a[col], b[col]))
                continue
            x, y = float(a[col]), float(b[col])
            worst = max(worst, abs(x - y) / abs(x) if x else abs(y))
        if row_differs:
            differ += row_differs(key, a, b)
    check(not differ and worst <= rel, "%s: %s (worst relative %.1e; %s)"
          % (what, claim, worst, differ[:3] or "none differ"))
    return local, back
