"""Helpers shared by the push tests."""
import gzip
import os
import subprocess


def relative_logs(logs, dest):
    """Copies of the gzipped logs `logs` in `dest`, uncompressed and with relative stamps (ms
    from the first record, which ends at 1000), so that --start-time places them."""
    os.makedirs(dest, exist_ok=True)
    out = []
    for src in logs:
        with gzip.open(src, "rt") as f:
            lines = [l.split(",", 1) for l in f.read().splitlines() if l.strip()]
        base = int(lines[0][0]) - 1000
        dst = os.path.join(dest, os.path.basename(src)[:-3])
        with open(dst, "w") as f:
            f.write("".join("%d,%s\n" % (int(t) - base, rest) for t, rest in lines))
        out.append(dst)
    return out


def run_fiohist(fiohist, args):
    """`fiohist ARGS` without FIOHIST_ES_URL in its environment (each call names its server);
    (exit code, stdout, stderr), stderr's tail printed on failure."""
    env = dict(os.environ)
    env.pop("FIOHIST_ES_URL", None)
    p = subprocess.run([fiohist] + args, capture_output=True, text=True, env=env, timeout=600)
    if p.returncode != 0:
        print(p.stderr[-2000:])
    return p.returncode, p.stdout, p.stderr
