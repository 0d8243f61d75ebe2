"""Helpers shared by the push tests."""
import gzip
import os


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
