#!/usr/bin/env python3
"""Byte-identity net: every output of fiohist on fixed inputs, as SHA-256 digests.

Runs a fixed list of fiohist commands (CSV, NDJSON, JSON, whole-run, compat mode, push --out,
the summary on stderr, every --help text) on the shared real fio logs and the bundled
samples, and compares the digest of each output with output-digests.txt beside this file.
A refactoring must leave every line unchanged; a change that means to alter an output
regenerates the file with --update and says why in its commit.

Usage: output_digests.py FIOHIST SHARED_FIO_LOGS SAMPLES [--update]
"""
import gzip
import hashlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DIGESTS = os.path.join(HERE, "output-digests.txt")


def cases(shared, samples):
    """(name, working directory, argv after fiohist, output: 'stdout' | 'stderr' | 'dir')."""
    epoch2 = os.path.join(shared, "epoch2")
    randrw4 = os.path.join(shared, "randrw4")
    coarse = os.path.join(shared, "coarse")
    e2 = ["epoch2_clat_hist.1.log.hostX", "epoch2_clat_hist.1.log.hostY",
          "epoch2_clat_hist.2.log.hostX", "epoch2_clat_hist.2.log.hostY"]
    r4 = ["randrw4_clat_hist.%d.log" % i for i in range(1, 5)]
    co = ["coarse_clat_hist.1.log", "coarse_clat_hist.2.log"]
    gz = sorted(f for f in os.listdir(samples) if f.endswith(".gz"))
    all_scopes = ["--scope", "cluster,host,job"]
    out = []
    for name, cwd, logs, extra in [
        ("epoch2", epoch2, e2, []),
        ("randrw4", randrw4, r4, ["--fio-json", "fio.json"]),
        ("coarse", coarse, co, ["--fio-json", "fio.json"]),
        ("samples", samples, gz, []),
    ]:
        out += [
            (name + ".csv", cwd, ["pctiles"] + all_scopes + extra + logs, "stdout"),
            (name + ".summary", cwd, ["pctiles"] + all_scopes + extra + logs, "stderr"),
            (name + ".ndjson.ms", cwd,
             ["pctiles", "--format", "ndjson", "--unit", "ms"] + all_scopes + extra + logs,
             "stdout"),
            (name + ".json.whole", cwd,
             ["pctiles", "--format", "json", "--whole-run"] + all_scopes + extra + logs, "stdout"),
            (name + ".csv.whole", cwd, ["pctiles", "--whole-run"] + all_scopes + extra + logs,
             "stdout"),
            (name + ".csv.q5", cwd,
             ["pctiles", "--quantum", "5", "-p", "1,50,99.5"] + extra + logs, "stdout"),
            (name + ".push", cwd,
             ["push", "--run", "digest-" + name, "--tag", "t", "--label", "k=v", "--quiet"]
             + extra + logs, "dir"),
        ]
    # SLA thresholds that some quanta breach: the breach lines and the SLA fields.
    sla = ["--sla", "p99=300us", "--sla", "read.p99.9=1ms", "--sla", "write.p97=15us"]
    out.append(("epoch2.sla.lines", epoch2, ["pctiles", "--quiet"] + sla + e2, "stderr"))
    out.append(("epoch2.sla.push", epoch2,
                ["push", "--run", "digest-sla", "--quiet"] + sla + e2, "dir"))
    out.append(("randrw4.compat", randrw4,
                ["pctiles", "--compat", "fio-histo-log-pctiles", "--"] + r4, "stdout"))
    status = os.path.join(os.path.dirname(os.path.abspath(shared)), "fio-status")
    if os.path.isfile(os.path.join(status, "randrw-4s-status1.json")):
        # fio json+ status stream: push's documents from it (follow writes the same ones).
        out.append(("status.push", status,
                    ["push", "--run", "digest-status", "--quiet", "randrw-4s-status1.json"], "dir"))
    # fio 3.42 (the newest release), shipped in the repository: hist logs with their json+
    # result (anchor: job_start), a status stream, a client/server output of two servers.
    v342 = os.path.join(HERE, "data", "fio-3.42")
    hist342 = ["v342_clat_hist.%d.log.node1.gz" % i for i in (1, 2, 3)]
    for name, inputs in [("fio342.hist", hist342 + ["--fio-json", "fio-node1.json"]),
                         ("fio342.status", ["status-node1.json"]),
                         ("fio342.client", ["client-2servers.json"])]:
        out.append((name + ".csv", v342, ["pctiles"] + all_scopes + inputs, "stdout"))
        out.append((name + ".csv.whole", v342, ["pctiles", "--whole-run"] + all_scopes + inputs,
                    "stdout"))
        out.append((name + ".summary", v342, ["pctiles"] + all_scopes + inputs, "stderr"))
    out.append(("usage", samples, ["--help"], "stdout"))
    for cmd in ["pctiles", "report", "push", "follow", "load", "setup", "runs", "compare", "history", "delete"]:
        out.append(("help." + cmd, samples, [cmd, "--help"], "stdout"))
    return out


def digest(fiohist, cwd, argv, kind):
    h = hashlib.sha256()
    env = dict(os.environ)
    env.pop("FIOHIST_ES_URL", None)
    with tempfile.TemporaryDirectory() as tmp:
        if kind == "dir":
            argv = argv[:1] + ["--out", os.path.join(tmp, "out")] + argv[1:]
        p = subprocess.run([fiohist] + argv, cwd=cwd, env=env, capture_output=True)
        h.update(b"exit %d\n" % p.returncode)
        if kind == "stdout":
            h.update(p.stdout)
        elif kind == "stderr":
            h.update(p.stderr)
        else:
            d = os.path.join(tmp, "out")
            # push --out writes gzip files: their content is the output (zlib's bytes are
            # not), digested as the plain files it inflates to.
            for f in sorted(os.listdir(d)):
                gz = f.endswith(".gz")
                h.update((f[:-3] if gz else f).encode() + b"\n")
                with (gzip.open if gz else open)(os.path.join(d, f), "rb") as fh:
                    h.update(fh.read())
    return h.hexdigest()


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    update = "--update" in sys.argv
    if len(args) != 3:
        sys.exit(__doc__)
    fiohist, shared, samples = (os.path.abspath(a) for a in args)
    got = {name: digest(fiohist, cwd, argv, kind) for name, cwd, argv, kind in cases(shared, samples)}
    if update:
        with open(DIGESTS, "w") as f:
            for name in sorted(got):
                f.write("%s %s\n" % (got[name], name))
        print("wrote %d digests to %s" % (len(got), DIGESTS))
        return 0
    want = {}
    with open(DIGESTS) as f:
        for line in f:
            d, name = line.split()
            want[name] = d
    bad = [n for n in sorted(set(got) | set(want)) if got.get(n) != want.get(n)]
    for n in bad:
        print("CHANGED: %s (expected %s, got %s)" % (n, want.get(n), got.get(n)))
    print("%d passed, %d failed" % (len(got) - len(bad), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
