#!/usr/bin/env python3
"""Checks that `fiohist pctiles --compat fio-histo-log-pctiles` turns the inputs and options
the reference tool rejects or crashes on into clear errors (file and line), and that the
inputs it mishandles (zero-length records) still give a result.

Usage: compat_pctiles_errors.py FIOHIST WORKDIR
"""
import os
import re
import subprocess
import sys

COLS = 1856


def line(t, d, counts=None, columns=COLS):
    c = [0] * columns
    for i, v in (counts or {}).items():
        c[i] = v
    return '%d, %d, 4096, %s\n' % (t, d, ', '.join(map(str, c)))


def write(workdir, name, lines):
    path = os.path.join(workdir, name)
    with open(path, 'w') as f:
        f.writelines(lines)
    return path


def main():
    fiohist, workdir = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    good = write(workdir, 'good.log',
                 [line(t, d, {300: 10, 400: 5}) for t in (1000, 2000, 3000) for d in (0, 1)])
    coarse = write(workdir, 'coarse.log', [line(1000, 0, {10: 1}, COLS // 4)])
    trim = write(workdir, 'trim.log', [line(1000, 0, {10: 1}), line(1000, 2, {10: 1})])
    backwards = write(workdir, 'backwards.log',
                      [line(2000, 0, {10: 1}), line(1000, 1, {10: 1}), line(1000, 0, {10: 1})])
    # Epoch stamps: the second log starts after the first one ended.
    early = write(workdir, 'early.log', [line(1700000000000 + t, 0, {10: 1}) for t in (0, 1000)])
    late = write(workdir, 'late.log', [line(1700000009000 + t, 0, {10: 1}) for t in (0, 1000)])
    # read t, write t, read t: the filter only drops a repeat of the previous line, so the
    # first read is zero-length (the reference divides by zero on it).
    dup = write(workdir, 'dup.log',
                [line(1500, 0, {300: 4}), line(1500, 1, {300: 4}), line(1500, 0, {300: 4}),
                 line(2500, 0, {300: 4}), line(2500, 1, {300: 4})])
    # A relative log whose last stamp is damaged (10^12 ms): 10^9 one-second quanta.
    huge = write(workdir, 'huge.log', [line(1000, 0, {10: 1}), line(10 ** 12, 0, {10: 1})])
    bigbs = write(workdir, 'bigbs.log', [line(1000, 0, {1: 1}).replace(', 4096,', ', 20000000,')])
    cases = [
        ('coarsened log', [coarse], 1, re.escape(coarse) + r':1: 464 bucket counts.*coarsened'),
        ('trim line', [trim], 1, re.escape(trim) + r':2: trim line'),
        ('timestamp backwards', [backwards], 1, re.escape(backwards) + r':3: read timestamp'),
        ('block size', [bigbs], 1, re.escape(bigbs) + r':1: block size too large'),
        ('no overlap', ['--', early, late], 1, r'no time interval when all logs overlapped'),
        ('damaged stamp', [huge], 1, r'spans 1000000001 quanta.*damaged time stamp'),
        ('missing file', [os.path.join(workdir, 'nope.log')], 1, r'nope\.log'),
        ('output unit nsec', ['--output-unit', 'nsec', good], 2, r'--output-unit: expected usec'),
        ('time quantum 0', ['--time-quantum', '0', good], 2, r'time-quantum must be a positive'),
        ('percentile > 100', ['--percentiles', '101', '--', good], 2, r'expected 0 to 100'),
        ('files after --percentiles', ['--percentiles', '50', good], 2,
         r"invalid float value.*put '--'"),
        ('fio version 4', ['--fio-version', '4', good], 2, r'invalid choice'),
        ('no files', ['--time-quantum', '2'], 2, r'required: file_list'),
        ('zero-length record', ['--', dup], 0, r'warning: 1 zero-length record'),
    ]
    failed = 0
    for name, args, want_rc, pattern in cases:
        cmd = [fiohist, 'pctiles', '--compat', 'fio-histo-log-pctiles'] + args
        run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True)
        ok = run.returncode == want_rc and re.search(pattern, run.stderr)
        print('%s: %s (exit %d) %s' % ('ok' if ok else 'FAIL', name, run.returncode,
                                       run.stderr.strip().splitlines()[:1]))
        if not ok:
            print('  expected exit %d and stderr matching %r' % (want_rc, pattern))
            failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
