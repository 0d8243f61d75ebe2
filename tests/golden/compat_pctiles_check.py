#!/usr/bin/env python3
"""Runs `fiohist pctiles --compat fio-histo-log-pctiles` on one log folder with the options a
reference CSV's name encodes, and compares the output with that reference.

Reference names: pctiles-<opt>-<opt>...[.nowrap].csv with options
  default (none), tqN (--time-quantum N), pA_B_C (--percentiles A B C), lhmN
  (--log-hist-msec N), usec|msec (--output-unit), readonly / writeonly (only the read /
  write lines of every log are fed in: filtered copies are written to --workdir).
Logs: every *_clat_hist.* file of the folder (plain or .gz), sorted by name.
Numbers must agree within --rtol (relative); other text must be equal. Exit 0 when they do.
"""
import argparse
import glob
import gzip
import os
import re
import subprocess
import sys


def options_from_name(name):
    base = os.path.basename(name)
    m = re.match(r'pctiles-(.*?)(\.nowrap)?\.csv$', base)
    if not m:
        raise SystemExit('not a pctiles reference name: ' + base)
    args, direction = [], None
    for tok in m.group(1).split('-'):
        if tok == 'default':
            continue
        elif re.fullmatch(r'tq\d+', tok):
            args += ['--time-quantum', tok[2:]]
        elif re.fullmatch(r'lhm\d+', tok):
            args += ['--log-hist-msec', tok[3:]]
        elif re.fullmatch(r'p[\d._]+', tok):
            args += ['--percentiles'] + tok[1:].split('_')
        elif tok in ('usec', 'msec'):
            args += ['--output-unit', tok]
        elif tok == 'readonly':
            direction = '0'
        elif tok == 'writeonly':
            direction = '1'
        else:
            raise SystemExit('unknown option token %r in %s' % (tok, base))
    return args, direction


def read_text(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        return f.read()


def filtered_copies(logs, direction, workdir):
    os.makedirs(workdir, exist_ok=True)
    out = []
    for log in logs:
        name = os.path.basename(log)
        if name.endswith('.gz'):
            name = name[:-3]
        dest = os.path.join(workdir, name)
        with open(dest, 'w') as f:
            for line in read_text(log).splitlines():
                fields = line.split(',')
                if len(fields) > 1 and fields[1].strip() == direction:
                    f.write(line + '\n')
        out.append(dest)
    return out


def fields(line):
    return [x.strip() for x in line.split(',')]


def is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def compare(got, want, rtol):
    """Returns a list of differences (empty when equal within rtol)."""
    problems = []
    g_lines, w_lines = got.splitlines(), want.splitlines()
    if len(g_lines) != len(w_lines):
        problems.append('%d lines, reference has %d' % (len(g_lines), len(w_lines)))
    for n, (g, w) in enumerate(zip(g_lines, w_lines), 1):
        if g == w:
            continue
        gf, wf = fields(g), fields(w)
        if len(gf) != len(wf) or not all(is_number(a) for a in gf if a) \
                or not all(is_number(b) for b in wf if b):
            problems.append('line %d: %r != %r' % (n, g, w))
            continue
        for i, (a, b) in enumerate(zip(gf, wf)):
            if a == b:
                continue
            if not a or not b:
                problems.append('line %d field %d: %r != %r' % (n, i + 1, a, b))
                continue
            x, y = float(a), float(b)
            if abs(x - y) > rtol * max(abs(x), abs(y)):
                problems.append('line %d field %d: %s != %s' % (n, i + 1, a, b))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--fiohist', required=True)
    ap.add_argument('--logs', required=True, help='folder with the logs')
    ap.add_argument('--reference', required=True, help='pctiles-*.csv')
    ap.add_argument('--workdir', required=True, help='scratch folder for filtered logs')
    ap.add_argument('--rtol', type=float, default=1e-9)
    ap.add_argument('--tz', default='UTC', help='TZ for the epoch line (references: UTC)')
    a = ap.parse_args()

    logs = sorted(glob.glob(os.path.join(a.logs, '*_clat_hist.*')))
    if not logs:
        raise SystemExit('no *_clat_hist.* logs in ' + a.logs)
    args, direction = options_from_name(a.reference)
    if direction is not None:
        logs = filtered_copies(logs, direction, a.workdir)
    cmd = [a.fiohist, 'pctiles', '--compat', 'fio-histo-log-pctiles'] + args + ['--'] + logs
    env = dict(os.environ, TZ=a.tz)
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, env=env)
    if run.returncode != 0:
        print('FAIL: exit %d: %s\n%s' % (run.returncode, ' '.join(cmd), run.stderr))
        return 1
    want = read_text(a.reference)
    problems = compare(run.stdout, want, a.rtol)
    name = os.path.basename(a.reference)
    if problems:
        print('FAIL: %s differs from %s' % (' '.join(cmd), a.reference))
        for p in problems[:20]:
            print('  ' + p)
        return 1
    print('%s: %s' % (name, 'byte-identical' if run.stdout == want
                      else 'equal within %g relative' % a.rtol))
    return 0


if __name__ == '__main__':
    sys.exit(main())
