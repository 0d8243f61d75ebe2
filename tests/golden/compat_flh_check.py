#!/usr/bin/env python3
"""`fiohist pctiles --compat fiologparser_hist` against fio's fiologparser_hist.py.

Reads the cases of tests/data/fiologparser-hist/cases.txt (name | expected CSV | logs |
options) and, for each, runs fiohist with those options on those logs and compares its
output byte for byte with the expected CSV.
  --fiohist BIN            the fiohist to test (without it: only --make)
  --script PY              also run this fiologparser_hist.py (with /usr/bin/python3) live
                           and compare it too; skipped when numpy/pandas are missing
  --make PY                (re)write the expected/<name>.csv files of the "-" cases with PY
  --only NAME              one case
Exit 0 when every case matches.
"""
import argparse
import glob
import gzip
import os
import shlex
import subprocess
import sys
import tempfile

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data')
CASES = os.path.join(DATA, 'fiologparser-hist', 'cases.txt')
PYTHON = '/usr/bin/python3'


def read_cases():
    cases = []
    with open(CASES) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            parts = [p.strip() for p in line.rstrip('\n').split('|')]
            if len(parts) != 4:
                raise SystemExit('%s:%d: expected name | expected | logs | options' % (CASES, n))
            name, expected, logs, options = parts
            if expected == '-':
                expected = os.path.join('fiologparser-hist', 'expected', name + '.csv')
            files = []
            for pattern in logs.split():
                found = sorted(glob.glob(os.path.join(DATA, pattern)))
                if not found:
                    raise SystemExit('%s:%d: no log matches %s' % (CASES, n, pattern))
                files += found
            words = shlex.split(options)
            # Paths given to --job-file are relative to tests/data.
            for i, w in enumerate(words):
                if w == '--job-file' and i + 1 < len(words):
                    words[i + 1] = os.path.join(DATA, words[i + 1])
            cases.append((name, os.path.join(DATA, expected), files, words))
    return cases


def script_works():
    r = subprocess.run([PYTHON, '-c', 'import numpy, pandas'], capture_output=True)
    return r.returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--fiohist')
    ap.add_argument('--script')
    ap.add_argument('--make')
    ap.add_argument('--only')
    a = ap.parse_args()
    cases = [c for c in read_cases() if not a.only or c[0] == a.only]
    failed = 0
    if a.make:
        for name, expected, files, words in cases:
            if not expected.startswith(os.path.join(DATA, 'fiologparser-hist')):
                continue
            out = subprocess.run([PYTHON, a.make] + words + files, capture_output=True, check=True)
            with open(expected, 'wb') as f:
                f.write(out.stdout)
            print('wrote', os.path.relpath(expected, DATA))
    live = a.script and os.path.exists(a.script) and script_works()
    if live and a.script.endswith('.gz'):
        # Debian ships the script compressed: run an uncompressed copy.
        tmp = tempfile.NamedTemporaryFile('wb', suffix='.py', delete=False)
        with gzip.open(a.script, 'rb') as f:
            tmp.write(f.read())
        tmp.close()
        a.script = tmp.name
    if a.script and not live:
        print('live: %s or numpy/pandas for %s missing, script not run' % (a.script, PYTHON))
    for name, expected, files, words in cases if a.fiohist else []:
        with open(expected, 'rb') as f:
            want = f.read()
        got = subprocess.run([a.fiohist, 'pctiles', '--compat', 'fiologparser_hist'] + words +
                             ['--'] + files, capture_output=True)
        ok = got.returncode == 0 and got.stdout == want
        if live:
            ref = subprocess.run([PYTHON, a.script] + words + files, capture_output=True)
            if ref.stdout != want:
                print('%s: the live script differs from %s' % (name, expected))
                ok = False
        print('%s %s' % ('ok  ' if ok else 'FAIL', name))
        if not ok:
            failed += 1
            sys.stdout.write(got.stderr.decode(errors='replace'))
            g = got.stdout.decode(errors='replace').splitlines()
            w = want.decode(errors='replace').splitlines()
            for i in range(max(len(g), len(w))):
                gl = g[i] if i < len(g) else '<none>'
                wl = w[i] if i < len(w) else '<none>'
                if gl != wl:
                    print('  line %d:\n    got  %s\n    want %s' % (i + 1, gl, wl))
                    break
    print('%d of %d cases differ' % (failed, len(cases)) if failed else '%d cases ok' % len(cases))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
