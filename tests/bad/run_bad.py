#!/usr/bin/env python3
"""Bad-input tests for `fiohist pctiles`: one case per run, driven by ctest.

Usage: run_bad.py FIOHIST CASE   (run_bad.py FIOHIST --list prints the case names)

Every case checks the exit code and the message (file, line, what was expected). Cases with
bad lines also run with --skip-bad-lines and check exit code 3, the reported skipped count
and that the output equals what the good lines alone give. Valid-but-unusual inputs must
exit 0 with the right numbers (checked against a small independent model of the method).
"""
import gzip
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
FIOHIST = None
TMP = None
CASES = {}


class Failure(Exception):
    pass


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def check(cond, what):
    if not cond:
        raise Failure(what)


# ---------------------------------------------------------------- running fiohist


class Run:
    def __init__(self, args, rc, out, err):
        self.args, self.rc, self.out, self.err = args, rc, out, err

    def describe(self):
        return "fiohist %s -> rc %d\nstderr:\n%s" % (" ".join(self.args), self.rc, self.err[-3000:])


def run(*args, timeout=120):
    args = ["pctiles"] + [str(a) for a in args]
    try:
        p = subprocess.run([FIOHIST] + args, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure("fiohist %s did not finish within %d s" % (" ".join(args), timeout))
    r = Run(args, p.returncode, p.stdout.decode(), p.stderr.decode(errors="replace"))
    check(r.rc >= 0, "fiohist crashed (signal %d)\n%s" % (-r.rc, r.describe()))
    check("AddressSanitizer" not in r.err and "runtime error" not in r.err,
          "sanitizer report\n" + r.describe())
    return r


def corpus(name):
    return os.path.join(CORPUS, name)


def scratch(name, data):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def read_lines(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n")


def without_lines(path, bad, name=None):
    """A copy of `path` without the 1-based line numbers in `bad` (the good lines only)."""
    lines = read_lines(path)
    if lines and lines[-1] == b"":
        lines = lines[:-1]
    kept = [l for i, l in enumerate(lines, 1) if i not in bad]
    return scratch(name or "good_" + os.path.basename(path), b"".join(l + b"\n" for l in kept))


def expect_error(r, rc, pattern):
    check(r.rc == rc, "expected exit code %d\n%s" % (rc, r.describe()))
    check(re.search(pattern, r.err, re.M) is not None,
          "stderr does not match /%s/\n%s" % (pattern, r.describe()))


def expect_ok(r):
    check(r.rc == 0, "expected exit code 0\n%s" % r.describe())
    check("error" not in r.err, "unexpected error\n" + r.describe())


def same_output(r, good, what="output"):
    check(r.out == good.out, "%s differs from what the good lines alone give\n%s\n--- got:\n%s\n"
          "--- good lines give:\n%s" % (what, r.describe(), r.out[:1500], good.out[:1500]))


def expect_skipped(paths, bad, extra=(), message=None, dropped=()):
    """--skip-bad-lines: exit 3, `bad` = {path: [line, ...]} reported, the rest used;
    files in `dropped` have nothing usable and are left out entirely."""
    r = run("--skip-bad-lines", *extra, *paths)
    check(r.rc == 3, "expected exit code 3 with --skip-bad-lines\n" + r.describe())
    goods = []
    for p in paths:
        if p in dropped:
            continue
        lines = bad.get(p, [])
        if lines:
            n = len(lines)
            check(re.search(r"%s: skipped %d bad line" % (re.escape(p), n), r.err),
                  "skipped count %d not reported for %s\n%s" % (n, p, r.describe()))
            for line in lines:
                check(re.search(r"%s:%d: " % (re.escape(p), line), r.err),
                      "skipped line %s:%d not named\n%s" % (p, line, r.describe()))
            goods.append(without_lines(p, set(lines)))
        else:
            goods.append(p)
    if message:
        check(re.search(message, r.err), "stderr does not match /%s/\n%s" % (message, r.describe()))
    good = run(*extra, *goods)
    expect_ok(good)
    same_output(r, good)
    return r


# ---------------------------------------------------------------- an independent model


def parse_log(path):
    """Records (time, direction, counts) of a clean text log."""
    records = []
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    for line in data.decode().splitlines():
        if not line.strip():
            continue
        cols = [int(c) for c in line.split(",")]
        records.append((cols[0], cols[1], cols[3:]))
    return records


def model_samples(paths, quantum_ms=1000, log_hist_msec=None, origin=0):
    """{(quantum start, direction): weighted I/Os}: each record covers (previous stamp of its
    direction, stamp], the first one log_hist_msec before its stamp (not before 0); counts
    are spread over the quanta (origin + k x quantum_ms) in proportion to overlap; repeated
    stamps are dropped."""
    logs = [parse_log(p) for p in paths]
    gaps = []
    for recs in logs:
        last, g = {}, None
        for t, d, _ in recs:
            if d in last and t > last[d]:
                g = t - last[d] if g is None else min(g, t - last[d])
            last[d] = t
        gaps.append(g)
    common = log_hist_msec or min(g for g in gaps if g)
    out = {}
    for recs, g in zip(logs, gaps):
        first = log_hist_msec or g or common
        last = {}
        for t, d, counts in recs:
            if last.get(d) == t:
                continue
            start = last.get(d, max(t - first, 0))
            last[d] = t
            total = sum(counts)
            q = ((start - origin) // quantum_ms) * quantum_ms + origin
            while q < t:
                overlap = min(t, q + quantum_ms) - max(start, q)
                if overlap > 0:
                    key = (q, d)
                    out[key] = out.get(key, 0.0) + total * overlap / (t - start)
                q += quantum_ms
    return out


def csv_rows(text):
    lines = text.splitlines()
    header = lines[0].split(",")
    return [dict(zip(header, l.split(","))) for l in lines[1:]]


def check_samples(r, paths, **kw):
    """The cluster read/write/all `samples` of every quantum equal the model's, on the grid
    fiohist chose (its origin: the phase of the rows' starts)."""
    rows = csv_rows(r.out)
    if rows and "origin" not in kw:
        kw["origin"] = int(rows[0]["start_ms"]) % kw.get("quantum_ms", 1000)
    want = model_samples(paths, **kw)
    names = {"read": 0, "write": 1, "trim": 2}
    got = {}
    all_dirs = {}
    for (wq, _), v in want.items():
        all_dirs[wq] = all_dirs.get(wq, 0.0) + v
    for row in csv_rows(r.out):
        if row["scope"] != "cluster":
            continue
        q = int(row["start_ms"])
        if row["direction"] == "all":
            expected = all_dirs.get(q, 0.0)
        else:
            expected = want.get((q, names[row["direction"]]), 0.0)
            got[(q, names[row["direction"]])] = float(row["samples"])
        s = float(row["samples"])
        check(abs(s - expected) <= 1e-6 * max(1.0, expected),
              "quantum %d %s: samples %r, expected %r\n%s" % (q, row["direction"], s, expected,
                                                              r.describe()))
    for key, v in want.items():
        check(v < 1e-9 or key in got, "quantum %d direction %d missing (expected %r samples)"
              % (key[0], key[1], v))


# ---------------------------------------------------------------- cases: bad lines


def bad_line_case(name, line, pattern):
    """A file whose line `line` is bad: error naming file:line, then --skip-bad-lines."""
    p = corpus(name)
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s:%d: %s" % (re.escape(p), line, pattern))
    expect_skipped([p], {p: [line]})


@case
def truncated_last_line():
    bad_line_case("truncated_last_line.log", 7,
                  r"last line is incomplete \(no newline at the end: fio killed mid-write\?\): "
                  r"line ends with ','")
    r = run("--skip-bad-lines", corpus("truncated_last_line.log"))
    check("it was complete and was used" not in r.err,
          "a skipped unterminated line is reported as used\n" + r.describe())


@case
def truncated_mid_number():
    bad_line_case("truncated_mid_number.log", 7,
                  r"last line is incomplete .*: expected 1856 bucket counts .*found \d+")


@case
def first_line_truncated():
    # fio killed within its first interval: one cut line must not pass for a coarse layout.
    p = corpus("first_line_truncated.log")
    for extra in ([], ["--log-hist-msec", "1000"]):
        r = run(*extra, p)
        expect_error(r, 1, r"^fiohist: error: %s:1: last line is incomplete" % re.escape(p))
    r = run("--skip-bad-lines", "--log-hist-msec", "1000", corpus("base.log"), p)
    check(r.rc == 3, "expected exit code 3\n" + r.describe())
    check(re.search(r"%s(:1: last line is incomplete|: .*no histogram records)" % re.escape(p),
                    r.err), r.describe())


@case
def non_numeric():
    bad_line_case("non_numeric.log", 3,
                  r"expected an integer for bucket count \(column 5\), found 'abc'")


@case
def float_time():
    bad_line_case("float_time.log", 3, r"expected ',' after column 1, found '\.5'")


@case
def negative_count():
    bad_line_case("negative_count.log", 3, r"expected a non-negative integer for bucket count "
                  r"\(column 5\), found a negative number '-3'")


@case
def overflow_count():
    bad_line_case("overflow_count.log", 3, r"bucket count \(column 5\) does not fit in 64 bits")


@case
def overflow_sum():
    bad_line_case("overflow_sum.log", 3, r"the counts of this line add up to more than 64 bits")


@case
def latency_target_reset():
    """fio's latency_target bug, from a real fio 3.33 run (randrw, libaio, iodepth=32,
    latency_target=100ms, latency_window=500ms, latency_percentile=99, write_hist_log,
    log_hist_msec=500): at line 13 fio reset its statistics but not the hist log's snapshot,
    so the line's counts wrap near 2^64 and 3093 lines of one I/O each follow, stamps
    restarting at 0. fio's own output counts 1535 + 1558 I/Os issued after the reset."""
    import gzip
    p = corpus("latency_target_reset.log.gz")
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s:13: fio reset its statistics here \(the "
                 r"latency_target search converged.*596 counts of this line wrapped near 2\^64"
                 r".*status stream .* json\+ result are unaffected" % re.escape(p))
    r = run("--skip-bad-lines", p)
    check(r.rc == 3, "expected exit code 3 with --skip-bad-lines\n" + r.describe())
    check(re.search(r"%s:13: .*left out 3093 lines from it on holding 3093 I/Os" % re.escape(p),
                    r.err), "the I/Os left out are not reported\n" + r.describe())
    with gzip.open(p, "rb") as f:
        before = f.read().split(b"\n")[:12]
    good = run(scratch("latency_target_before_reset.log", b"\n".join(before) + b"\n"))
    expect_ok(good)
    same_output(r, good)


def client_server_text():
    """fio 3.42's client/server output of two servers (tests/golden/data/fio-3.42)."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "golden", "data", "fio-3.42", "client-2servers.json"),
              "rb") as f:
        return f.read()


@case
def client_server_cut():
    """A client/server output cut in the middle (fio killed, or copied while it ran)."""
    text = client_server_text()
    p = scratch("cut-client.json", text[:len(text) // 2])
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s: byte %d: the JSON document starting at byte "
                 r"\d+ is cut \(expected it to end with '}'" % (re.escape(p), len(text) // 2))
    # Cut early: among the servers' text lines, and in the document before `client_stats`.
    start = text.index(b"\n{") + 1
    p = scratch("cut-text-client.json", text[:start // 2])
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s: byte %d: expected a line starting with '\{' "
                 r"\(fio's JSON document\) after \d+ text lines, found the end of the file"
                 % (re.escape(p), start // 2))
    p = scratch("cut-head-client.json", text[:start + 200])
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s: byte %d: the JSON document starting at byte "
                 r"%d is cut" % (re.escape(p), start + 200, start))


@case
def client_server_backwards():
    """A server whose entries go backwards: the entry, the server and what was expected."""
    import json
    text = client_server_text().decode()
    start = text.index("\n{") + 1
    doc = json.loads(text[start:])
    # The 8782 server's job 1 ('w') in its third report: fewer reads than in its second.
    es = [i for i, e in enumerate(doc["client_stats"]) if e.get("port") == 8782]
    third = doc["client_stats"][es[6]]
    bins = third["read"]["clat_ns"]["bins"]
    key = max(bins, key=lambda k: bins[k])
    bins[key] = 1
    p = scratch("backwards-client.json", text[:start] + json.dumps(doc, indent=1))
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s: client_stats\[%d\] \(server 127.0.0.1:8782, "
                 r"report 3\): job 1 \('w'\): read counts go backwards: the bucket of %s ns had "
                 r"\d+ I/Os and now has 1" % (re.escape(p), es[6], key))


@case
def client_server_other_layout():
    """Entries without `hostname` (another layout): named, with what was expected."""
    import json
    text = client_server_text().decode()
    start = text.index("\n{") + 1
    doc = json.loads(text[start:])
    for e in doc["client_stats"]:
        e.pop("hostname", None)
    p = scratch("layout-client.json", text[:start] + json.dumps(doc, indent=1))
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s: client_stats\[0\]: expected \"hostname\"" %
                 re.escape(p))


@case
def bad_direction():
    bad_line_case("bad_direction.log", 3, r"expected direction 0 \(read\), 1 \(write\) or 2 "
                  r"\(trim\) in column 2, found 3")


@case
def too_few_columns():
    bad_line_case("too_few_columns.log", 3, r"expected time, direction, block size and bucket "
                  r"counts, found only 3 columns")


@case
def wrong_column_count():
    bad_line_case("wrong_column_count.log", 3, r"expected 1856 bucket counts .*found 1855")


@case
def column_count_changes():
    p = corpus("column_count_changes.log")
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s:5: expected 1856 bucket counts .*found 464"
                 % re.escape(p))
    expect_skipped([p], {p: [5, 6]})


@case
def column_count_changes_late():
    # Past the lines read ahead to lay out the run: caught while streaming.
    base = read_lines(corpus("base.log"))[:6]
    coarse = read_lines(corpus("coarse.log"))[:2]
    lines = []
    for k in range(40):
        for l in base[:2]:
            lines.append(l.replace(b"1001", str(1001 + 1000 * k).encode(), 1))
    for l in coarse:
        lines.append(l.replace(b"1001", b"40001", 1))
    p = scratch("column_count_changes_late.log", b"".join(l + b"\n" for l in lines))
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s:81: expected 1856 bucket counts .*found 464"
                 % re.escape(p))
    expect_skipped([p], {p: [81, 82]})


@case
def layouts_differ_between_files():
    a, b = corpus("base.log"), corpus("coarse.log")
    for args in ([a, b], [b, a], ["--skip-bad-lines", a, b]):
        r = run(*args)
        expect_error(r, 1, r"^fiohist: error: .*\.log:1: has (1856|464) bucket counts per line "
                     r"but .*\.log has (464|1856): logs of different layouts cannot be added up")


@case
def time_backwards():
    bad_line_case("time_backwards.log", 5, r"time goes backwards: 1500 ms is before the "
                  r"previous read record at 2001 ms")


@case
def huge_time():
    # A stamp near 2^63 must be refused, not overflow the time grid (it used to hang).
    bad_line_case("huge_time.log", 5, r"time \(column 1\) is too large")


@case
def time_jump():
    # A corrupt stamp 3 years ahead would make one record span 10^8 quanta.
    bad_line_case("time_jump.log", 5, r"time jumps forward by 100000001000 ms .*the previous "
                  r"read record at 2001 ms")


@case
def epoch_time_jump():
    # Epoch stamps 3 years apart: refused, and the jump is not taken for log_hist_msec
    # (it was, and the first record then spanned 10^11 ms).
    lines = [b"1795306121001, 0, 4096, 0, 5", b"1895306122001, 0, 4096, 0, 5",
             b"1895306123001, 0, 4096, 0, 5"]
    p = scratch("epoch_jump.log", b"".join(l + b"\n" for l in lines))
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s:2: time jumps forward by 100000001000 ms"
                 % re.escape(p))


@case
def absurd_options():
    # Option values that would overflow the time line are usage errors, not hangs.
    p = corpus("base.log")
    for args, pattern in ((["--log-hist-msec", "9000000000000000000"], r"--log-hist-msec: "),
                          (["--start-time", "99999999999999999999"], r"--start-time: "),
                          (["--quantum", "0"], r"--quantum: "),
                          (["--quantum", "1e300"], r"--quantum: "),
                          (["--grid", "noon"],
                           r"--grid: expected logs, epoch or an origin time .*got 'noon'"),
                          (["--grid", "2026-13-01T00:00:00Z"], r"--grid: expected "),
                          (["--confidence", "1"], r"--confidence: expected a level strictly "
                                                  r"between 0 and 1"),
                          (["--confidence", "0"], r"--confidence: "),
                          (["--confidence", "-0.5"], r"--confidence: "),
                          (["--confidence", "95"], r"--confidence: "),
                          (["--confidence", "abc"], r"--confidence: "),
                          (["--confidence", "nan"], r"--confidence: ")):
        r = run(*args, p)
        expect_error(r, 2, r"^fiohist pctiles: " + pattern)
        check(r.out == "", "output before the usage error\n" + r.describe())
    # The reference has no intervals: asking compat mode for them is a usage error.
    r = run("--compat", "fio-histo-log-pctiles", "--confidence", "0.9", "--", p)
    expect_error(r, 2, r"^fiohist pctiles: --confidence cannot be combined with --compat")


@case
def grid_with_compat():
    # Compat mode keeps the reference's quanta (byte-identical output): a --grid contradicts
    # it, in either spelling, and nothing is read or written.
    p = corpus("base.log")
    for args in (["--grid", "epoch"], ["--grid=logs"]):
        r = run("--compat", "fio-histo-log-pctiles", *args, "--", p)
        expect_error(r, 2, r"^fiohist pctiles: --grid cannot be combined with --compat")
        check(r.out == "", "output before the usage error\n" + r.describe())


@case
def header_only():
    p = corpus("header_only.log")
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s:1: expected an integer for time \(column 1\), "
                 r"found 'time'" % re.escape(p))
    r = run("--skip-bad-lines", p)
    expect_error(r, 1, r"no log has any record")
    expect_skipped([corpus("base.log"), p], {}, message=re.escape(p) + r": .*no histogram rec",
                   dropped=[p])


@case
def header_then_records():
    bad_line_case("header_then_records.log", 1,
                  r"expected an integer for time \(column 1\), found 'msec'")


@case
def binary_garbage():
    rng = random.Random(1)
    data = bytes(rng.randrange(256) for _ in range(1 << 16)).replace(b"\n", b"")
    data = b"\x7fELF" + data[:4000] + b"\n" + data[4000:]
    p = scratch("binary_garbage.log", data)
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s:1: expected an integer for time \(column 1\), "
                 r"found '\?ELF" % re.escape(p))
    r = run("--skip-bad-lines", p)
    expect_error(r, 1, r"no log has any record")


@case
def garbage_lines_inside():
    base = read_lines(corpus("base.log"))[:6]
    rng = random.Random(2)
    junk = bytes(rng.randrange(256) for _ in range(3000)).replace(b"\n", b"")
    nul = base[3][:40] + b"\x00" + base[3][40:]
    lines = base[:3] + [junk, nul] + base[3:]
    p = scratch("garbage_lines_inside.log", b"".join(l + b"\n" for l in lines))
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s:4: expected an integer for time" % re.escape(p))
    expect_skipped([p], {p: [4, 5]})


@case
def huge_line_without_newline():
    # 32 MB with no newline: one enormous bad line, read without running out of memory.
    p = scratch("huge_line.log", b"1001, 0, 4096" + b", 0" * ((32 << 20) // 3))
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s:1: last line is incomplete" % re.escape(p))


# ---------------------------------------------------------------- cases: whole files


@case
def empty_file():
    p, good = corpus("empty.log"), corpus("base.log")
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s: empty file: no histogram records" % re.escape(p))
    r = run(good, p)
    expect_error(r, 1, r"^fiohist: error: %s: empty file" % re.escape(p))
    expect_skipped([good, p], {}, message=re.escape(p) + r": empty file.*skipped", dropped=[p])


@case
def truncated_gzip():
    gz_damaged("truncated_gzip.log.gz", r"bad gzip data: unexpected end of file")


@case
def corrupt_gzip():
    gz_damaged("corrupt_gzip.log.gz", r"bad gzip data: (invalid|incorrect)")


@case
def crc_mismatch_gzip():
    gz_damaged("crc_mismatch.log.gz", r"bad gzip data: incorrect data check")


def gz_damaged(name, pattern):
    """A damaged gzip log: error at the line where the damage was met; with --skip-bad-lines
    the complete lines before it are used and the rest is reported as skipped."""
    p = corpus(name)
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s:(\d+): %s" % (re.escape(p), pattern))
    check("<fd:" not in r.err, "zlib's internal file name leaks into the message\n"
          + r.describe())
    line = int(re.search(r"%s:(\d+):" % re.escape(p), r.err).group(1))
    r = run("--skip-bad-lines", p)
    check(r.rc == 3, "expected exit code 3\n" + r.describe())
    check(re.search(r"%s: skipped 1 bad line" % re.escape(p), r.err), r.describe())
    check(re.search(r"rest of file skipped", r.err), r.describe())
    # What zlib can still inflate, cut to the lines fiohist says it used.
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    with open(p, "rb") as f:
        raw = f.read()
    text = b""
    for i in range(0, len(raw), 512):
        try:
            text += d.decompress(raw[i:i + 512])
        except zlib.error:
            break
    lines = text.split(b"\n")[: line - 1]
    check(len(lines) == line - 1, "fiohist used more lines than can be inflated")
    good = run(scratch("good_" + name.replace(".gz", ""), b"".join(l + b"\n" for l in lines)))
    expect_ok(good)
    same_output(r, good)


@case
def directory_argument():
    d = os.path.join(TMP, "logs.d")
    os.mkdir(d)
    for args in ([corpus("base.log"), d], ["--skip-bad-lines", corpus("base.log"), d]):
        r = run(*args)
        # A directory is searched for inputs (issue 36): an empty one holds none, and says
        # what was expected and what it holds.
        expect_error(r, 1, r"^fiohist pctiles: error: %s: no input in this directory: expected "
                     r"fio histogram logs .*; it holds no files" % re.escape(d))


@case
def missing_file():
    m = os.path.join(TMP, "no_such_clat_hist.1.log")
    for args in ([corpus("base.log"), m], ["--skip-bad-lines", m, corpus("base.log")]):
        r = run(*args)
        expect_error(r, 1, r"^fiohist: error: %s: cannot open: No such file or directory"
                     % re.escape(m))


@case
def same_file_twice():
    p = corpus("base.log")
    r = run(p, p)
    expect_error(r, 1, r"%s: given twice" % re.escape(p))


@case
def one_record():
    p, other = corpus("one_record.log"), corpus("base.log")
    r = run(p)
    expect_error(r, 1, r"^fiohist: error: %s: cannot infer log_hist_msec: .*give "
                 r"--log-hist-msec" % re.escape(p))
    r = run("--log-hist-msec", "1000", p)
    expect_ok(r)
    check_samples(r, [p], log_hist_msec=1000)
    rows = csv_rows(r.out)
    # The record covers (1, 1001]: the grid aligned with it starts its quantum at 1 ms.
    check(rows[0]["start_ms"] == "1" and rows[0]["direction"] == "read", r.out[:500])
    # Another log tells log_hist_msec.
    r = run(p, other)
    expect_ok(r)
    check("log_hist_msec 1000 (inferred)" in r.err, r.describe())
    check_samples(r, [p, other])


@case
def epoch_and_relative_mixed():
    base = read_lines(corpus("base.log"))[:4]
    epoch = [l.replace(b"1001", b"1795306121001", 1).replace(b"2001", b"1795306122001", 1)
             for l in base]
    p = scratch("epoch_clat_hist.1.log", b"".join(l + b"\n" for l in epoch))
    r = run(corpus("base.log"), p)
    expect_error(r, 1, r"Unix-epoch time stamps but .* relative ones|relative time stamps but "
                 r".* Unix-epoch ones")


# ---------------------------------------------------------------- cases: valid input


def same_as_base(name, expect_warning=None):
    p, base = corpus(name), corpus("base.log")
    r, b = run(p), run(base)
    expect_ok(r)
    expect_ok(b)
    same_output(r, b, "output of %s" % name)
    check_samples(b, [base])
    if expect_warning:
        check(re.search(expect_warning, r.err), "warning /%s/ missing\n%s"
              % (expect_warning, r.describe()))
    return r


@case
def crlf_line_ends():
    same_as_base("crlf.log")


@case
def extra_spaces():
    same_as_base("extra_spaces.log")


@case
def blank_lines():
    same_as_base("blank_lines.log")


@case
def duplicate_records():
    # Records that repeat the last stamp are what fio writes after a long gap (one per
    # missed deadline, each holding the I/Os completed since the one before): kept, not
    # dropped as duplicates (docs/stalls.md). Every I/O of the log is in the output.
    p, base = corpus("duplicate_records.log"), corpus("base.log")
    r = run(p)
    expect_ok(r)
    check("dropped" not in r.err, "no record dropped as a duplicate\n" + r.describe())
    want = sum(sum(counts) for _, _, counts in parse_log(p))
    got = sum(float(x["samples"]) for x in csv_rows(r.out)
              if x["scope"] == "cluster" and x["direction"] != "all")
    check(abs(got - want) < 1e-6 * want, "I/Os lost: %r of %r" % (got, want))
    check(want > sum(sum(c) for _, _, c in parse_log(base)), "the repeated records hold I/Os")


@case
def gzip_log():
    base = corpus("base.log")
    with open(base, "rb") as f:
        p = scratch("base.log.gz", gzip.compress(f.read()))
    r, b = run(p), run(base)
    expect_ok(r)
    same_output(r, b)


def many_logs(count, records=20):
    """`count` logs of hosts h000.. (plain, gzip, and gzip of two members in turn), each
    with its own counts, so that a reader that mixed up files or offsets shows."""
    paths = []
    for i in range(count):
        lines = []
        for t in range(1, records + 1):
            for d in (0, 1):
                counts = [0] * 1856
                for k in range(5):
                    counts[(i * 7 + t * 3 + d * 11 + k * 97) % 1500 + 100] = (i + 1) * (k + 1) + t
                lines.append("%d, %d, 4096, %s\n" % (t * 1000 + 1, d, ", ".join(map(str, counts))))
        text = "".join(lines).encode()
        name = "many_clat_hist.1.log.h%03d" % i
        if i % 3 == 0:
            paths.append(scratch(name, text))
        elif i % 3 == 1:
            paths.append(scratch(name + ".gz", gzip.compress(text, mtime=0)))
        else:
            half = len(lines) // 2
            paths.append(scratch(name + ".gz", gzip.compress("".join(lines[:half]).encode(), mtime=0)
                                 + gzip.compress("".join(lines[half:]).encode(), mtime=0)))
    return paths


def run_limited(nofile, *args):
    """fiohist pctiles under `ulimit -n NOFILE` (soft and hard: fiohist cannot raise it)."""
    cmd = "ulimit -n %d && exec \"$@\"" % nofile
    p = subprocess.run(["bash", "-c", cmd, "bash", FIOHIST, "pctiles"] + [str(a) for a in args],
                       capture_output=True, timeout=300)
    return Run(["pctiles"] + list(args), p.returncode, p.stdout.decode(),
               p.stderr.decode(errors="replace"))


@case
def many_logs_fd_limit():
    """More logs than `ulimit -n` allows open: the same output, byte for byte, as without
    the limit (readers beyond the open-file budget open their file for each read)."""
    paths = many_logs(150)
    for scopes in ("cluster,host,job", "cluster"):
        free = run("--scope", scopes, *paths)
        expect_ok(free)
        limited = run_limited(64, "--scope", scopes, *paths)
        expect_ok(limited)
        check(limited.out == free.out, "output under ulimit -n 64 differs\n" + limited.describe())
        check(len(free.out) > 1000, free.describe())


@case
def unreadable_among_many():
    """One log among many cannot be read: the error names it and the reason, and the
    command fails (exit 1) rather than leaving it out silently."""
    paths = many_logs(40, records=4)
    os.chmod(paths[17], 0)
    cmd = [FIOHIST, "pctiles"] + paths
    if os.geteuid() == 0:
        # root reads any file: run as nobody (setpriv), in a directory nobody can enter.
        if shutil.which("setpriv") is None:
            print("skipped: root without setpriv")
            return
        os.chmod(TMP, 0o755)
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
    p = subprocess.run(cmd, capture_output=True, timeout=120)
    r = Run(cmd[1:], p.returncode, p.stdout.decode(), p.stderr.decode(errors="replace"))
    expect_error(r, 1, r"^fiohist: error: %s: cannot open: Permission denied"
                 % re.escape(paths[17]))
    # -o FILE: a run that fails leaves FILE as it was (nothing half-written); one that
    # succeeds writes the whole output there.
    out = os.path.join(TMP, "out.csv")
    scratch("out.csv", "from before\n")
    os.chmod(out, 0o666)
    os.chmod(TMP, 0o777)
    i = cmd.index("pctiles") + 1
    p = subprocess.run(cmd[:i] + ["-o", out] + cmd[i:], capture_output=True, timeout=120)
    check(p.returncode == 1, "pctiles -o: expected exit code 1, got %d" % p.returncode)
    with open(out) as f:
        check(f.read() == "from before\n", "pctiles -o: a failed run changed %s" % out)
    check(not os.path.exists(out + ".partial"), "pctiles -o: %s.partial left behind" % out)
    good = paths[:17] + paths[18:]
    r = run("-o", out, *good)
    expect_ok(r)
    with open(out) as f:
        check(f.read() == run(*good).out, "pctiles -o: the file differs from stdout")


@case
def stall():
    # Both directions stall for 2 hours; the records closing the stall hold 10 I/Os each.
    # fio writes a record at the first completion past its deadline, so all but the slowest
    # completed before the deadline (2001, 3001] and the slowest ended the stall at 7202001
    # (src/log/interval_model.h): no I/O inside the stall, the stall named.
    p = corpus("stall.log")
    r = run("--grid", "epoch", p)  # quanta on whole seconds, as the numbers below
    expect_ok(r)
    reads = {int(x["start_ms"]): float(x["samples"]) for x in csv_rows(r.out)
             if x["scope"] == "cluster" and x["direction"] == "read"}
    inside = [q for q in range(4000, 7201000, 1000) if reads.get(q, 0) != 0]
    check(not inside, "quanta inside the stall hold reads: %r" % inside[:5])
    want = sum(sum(c) for _, d, c in parse_log(p) if d == 0)
    check(abs(sum(reads.values()) - want) < 1e-9 * want,
          "read I/Os lost: %r of %r" % (sum(reads.values()), want))
    check(reads.get(7202000, 0) >= 1 - 1e-9,
          "the stuck read completed in the stall's last quantum: %r" % reads.get(7202000))
    check(re.search(r"stall \(cluster\): no I/O completed from \d+ ms to 7202001 ms", r.err),
          "the stall named\n" + r.describe())
    check("later quanta" not in r.err, r.describe())


@case
def stall_one_direction():
    # Reads stall for 2 hours while writes go on every second. The read record closing the
    # stall comes after 7200 write lines; the look-ahead reader finds it before the quanta it
    # covers are written out: no read inside the stall, none lost, none placed late.
    base = read_lines(corpus("base.log"))
    read1, write1 = base[0], base[1]
    lines = [read1, write1]
    for k in range(1, 7203):
        lines.append(write1.replace(b"1001", str(1001 + 1000 * k).encode(), 1))
    lines.insert(2 + 7200, read1.replace(b"1001", b"7202001", 1))
    p = scratch("stall_one_direction.log", b"".join(l + b"\n" for l in lines))
    r = run("--grid", "epoch", p)  # quanta on whole seconds, as the numbers below
    expect_ok(r)
    reads = {int(x["start_ms"]): float(x["samples"]) for x in csv_rows(r.out)
             if x["scope"] == "cluster" and x["direction"] == "read"}
    per_record = sum(parse_log(corpus("one_record.log"))[0][2])
    want = 2 * per_record
    check(abs(sum(reads.values()) - want) < 1e-6 * want,
          "read I/Os lost: %r of %r" % (sum(reads.values()), want))
    inside = [q for q in (3, 100, 3600, 7200) if reads.get(q * 1000, 0.0) != 0]
    check(not inside, "quanta inside the read stall hold reads: %r" % inside)
    check("stalled were placed in later quanta" not in r.err, r.describe())


@case
def top_bucket():
    # 50 reads per record in fio's last bucket (>= 17.05 s, clamped): percentiles there are
    # flagged as lower bounds in the lower_bound column, the others are not.
    p = corpus("top_bucket.log")
    r = run("--percentiles", "50,99,99.9", p)
    expect_ok(r)
    check_samples(r, [p])
    rows = [x for x in csv_rows(r.out) if x["scope"] == "cluster"]
    for x in rows:
        if x["direction"] == "write":
            check(x["lower_bound"] == "" and float(x["top_bucket"]) == 0, str(x))
            continue
        frac = float(x["top_bucket"]) / float(x["samples"])
        flags = set(filter(None, x["lower_bound"].split(";")))
        want = {"max"} | {n for n, p in (("p99", 99), ("p99.9", 99.9)) if 100 * (1 - frac) < p}
        check(flags == want, "lower_bound %r, expected %r (top share %.4f)\n%s"
              % (x["lower_bound"], sorted(want), frac, x))
        check("p50" not in flags, str(x))
        check(float(x["max"]) >= 17179869, "max %s is not the top bucket's edge" % x["max"])
    check(re.search(r"'\+' marks values in fio's last bucket", r.err), r.describe())


@case
def all_zero():
    # fio with clat_percentiles=0 writes only zeros: no samples, a warning, exit 0.
    p = corpus("all_zero.log")
    r = run(p)
    expect_ok(r)
    check(re.search(r"every bucket count is zero \(was fio run with clat_percentiles=0\?\)",
                    r.err), r.describe())
    for x in csv_rows(r.out):
        check(float(x["samples"]) == 0 and x["p50"] == "", str(x))
    r = run(p, corpus("base.log"))
    expect_ok(r)
    check_samples(r, [p, corpus("base.log")])


def run_push(*args, timeout=120):
    """`fiohist push ARGS` (not pctiles), checked for crashes like run()."""
    args = ["push"] + [str(a) for a in args]
    p = subprocess.run([FIOHIST] + args, capture_output=True, timeout=timeout)
    r = Run(args, p.returncode, p.stdout.decode(), p.stderr.decode(errors="replace"))
    check(r.rc >= 0, "fiohist crashed (signal %d)\n%s" % (-r.rc, r.describe()))
    return r


@case
def push_quiet_warnings():
    # --quiet silences the summary, never a warning about the input; exit 3 says it.
    p = corpus("non_numeric.log")
    for quiet in ([], ["--quiet"]):
        r = run_push("--run", "bad", "--out", os.path.join(TMP, "o%d" % len(quiet)),
                     "--skip-bad-lines", *quiet, p)
        check(r.rc == 3, "expected exit code 3\n" + r.describe())
        warnings = re.findall(r"^fiohist: warning: %s: skipped 1 bad line" % re.escape(p), r.err,
                              re.M)
        check(len(warnings) == 1, "the skipped line is warned about exactly once\n" + r.describe())
        check(re.search(r"^fiohist: warning:   %s:3: " % re.escape(p), r.err, re.M),
              "the skipped line is named\n" + r.describe())
        check(("dir " in r.err) != bool(quiet), "--quiet drops only the summary\n" + r.describe())
    r = run("--skip-bad-lines", "--quiet", p)
    check(r.rc == 3 and len(re.findall(r"skipped 1 bad line", r.err)) == 1,
          "pctiles --quiet: warned once, exit 3\n" + r.describe())


def main():
    global FIOHIST, TMP
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    FIOHIST = sys.argv[1]
    if sys.argv[2] == "--list":
        print("\n".join(CASES))
        return 0
    fn = CASES.get(sys.argv[2])
    if fn is None:
        sys.exit("unknown case %s" % sys.argv[2])
    TMP = tempfile.mkdtemp(prefix="fiohist_bad_")
    try:
        fn()
    except Failure as e:
        print("FAIL %s: %s" % (sys.argv[2], e))
        return 1
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    print("ok %s" % sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
