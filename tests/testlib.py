"""Helpers shared by the Python test scripts: pass/fail checks and Elasticsearch requests."""
import glob
import gzip
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
