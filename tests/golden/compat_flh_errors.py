#!/usr/bin/env python3
"""Bad usage and bad input of `fiohist pctiles --compat fiologparser_hist`: each is a clear
error on stderr, with nothing on stdout and the right exit status (2 usage, 1 input).
Usage: compat_flh_errors.py FIOHIST WORKDIR"""
import os
import subprocess
import sys

fiohist, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
data = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data', 'fio-logs')
log = os.path.join(data, 'randrw4', 'randrw4_clat_hist.1.log')
coarse = os.path.join(data, 'coarse', 'coarse_clat_hist.1.log')


def write(name, text):
    path = os.path.join(work, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


empty = write('empty.log', '')
bad = write('bad.log', open(log).readline() + '2000, 0, 4096, 1, x\n')
job = write('bad.fio', 'log_hist_msec=1000\n[a]\n')

CASES = [
    # (arguments, exit status, text stderr must hold)
    (['--time-quantum', '1', '--', log], 2, '--time-quantum is not an option of fiologparser_hist.py'),
    (['--format', 'ndjson', '--', log], 2, "fiohist's own options cannot be combined"),
    (['--grid', '1s', '--', log], 2, "fiohist's own options cannot be combined"),
    (['-f', 'csv', '--', log], 2, '-f is not an option of fiologparser_hist.py'),
    (['--di', '2', '--', log], 2, 'not an option'),
    (['-i', '0', '--', log], 2, '--interval'),
    (['--divisor', '0', '--', log], 2, '--divisor'),
    (['--decimals', '-2', '--', log], 2, '--decimals'),
    (['--percentiles', '90,abc', '--', log], 2, "'abc'"),
    (['--buff_size', '0', '--', log], 2, '--buff_size'),
    (['--noweight=yes', '--', log], 2, 'noweight'),
    (['--job-file', job, '--', log], 2, 'bad.fio:1: a line before any [section]'),
    ([], 2, 'FILE'),
    (['--', empty], 1, 'empty.log'),
    (['--', log, bad], 1, 'bad.log:2:'),
    (['--', log, coarse], 1, 'coarse_clat_hist.1.log:1: 464 bucket counts'),
    (['--group_nr', '24', '--', log], 1, '1856 bucket counts per line fit no histogram of --group_nr 24'),
    (['--', os.path.join(work, 'missing.log')], 1, 'missing.log'),
]

failed = 0
for args, status, text in CASES:
    r = subprocess.run([fiohist, 'pctiles', '--compat', 'fiologparser_hist'] + args,
                       capture_output=True, text=True)
    ok = r.returncode == status and text in r.stderr and r.stdout == ''
    print('%s %s -> %d: %s' % ('ok  ' if ok else 'FAIL', ' '.join(args), r.returncode,
                               r.stderr.strip().splitlines()[0] if r.stderr.strip() else ''))
    failed += not ok
sys.exit(1 if failed else 0)
