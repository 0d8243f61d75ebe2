#!/usr/bin/env python3
"""`fiohist pctiles --accuracy` on real fio logs: the windows of each direction tile the run
(each starts where the previous ended, from the first quantum to the last), their I/Os add
up to the quanta's, every window but a reported last one meets its targets, CSV and NDJSON
agree, and bad --accuracy values are usage errors before any work.
Usage: accuracy_windows_check.py FIOHIST LOGDIR"""
import glob
import json
import os
import subprocess
import sys

fiohist, logdir = sys.argv[1], sys.argv[2]
logs = sorted(glob.glob(os.path.join(logdir, '*_clat_hist.*')))
targets = {'p99': 0.10, 'p50': 0.02}
failed = []


def run(args):
    return subprocess.run([fiohist, 'pctiles', '--quiet'] + args + logs, capture_output=True,
                          text=True)


quanta = [json.loads(l) for l in run(['-f', 'ndjson']).stdout.splitlines()]
r = run(['-f', 'ndjson', '--accuracy', 'p99=10%', '--accuracy', 'p50=2%'])
windows = [json.loads(l) for l in r.stdout.splitlines()]
if r.returncode != 0:
    failed.append('exit %d: %s' % (r.returncode, r.stderr))
for d in ('read', 'write', 'all'):
    qs = [q for q in quanta if q['direction'] == d and q['scope'] == 'cluster']
    ws = [w for w in windows if w['direction'] == d]
    if not ws or ws[0]['@timestamp'] != qs[0]['@timestamp'] or ws[-1]['end'] != qs[-1]['end']:
        failed.append('%s: windows do not span the quanta' % d)
    for a, b in zip(ws, ws[1:]):
        if a['end'] != b['@timestamp']:
            failed.append('%s: gap or overlap at %s' % (d, a['end']))
    if abs(sum(w['samples'] for w in ws) - sum(q['samples'] for q in qs)) > 1e-6 * sum(
            q['samples'] for q in qs):
        failed.append('%s: windows hold other I/Os than the quanta' % d)
    for i, w in enumerate(ws):
        ok = all(w[p + '_low'] >= w[p] * (1 - a) and w[p + '_high'] <= w[p] * (1 + a)
                 for p, a in targets.items())
        if not ok and i != len(ws) - 1:
            failed.append('%s: window at %s misses the targets' % (d, w['@timestamp']))
    if len(ws) >= len(qs):
        failed.append('%s: %d windows for %d quanta: none merged' % (d, len(ws), len(qs)))
    print('%s: %d quanta -> %d windows' % (d, len(qs), len(ws)))
csv = run(['--accuracy', 'p99=10%', '--accuracy', 'p50=2%']).stdout.splitlines()
if len(csv) != len(windows) + 1:
    failed.append('CSV has %d rows, NDJSON %d' % (len(csv) - 1, len(windows)))
for bad in (['--accuracy', 'p99=10'], ['--accuracy', 'p99=0.1'], ['--accuracy', 'p97=10%'],
            ['--accuracy', 'p99=10%', '--whole-run'], ['--accuracy', 'x=1%'],
            ['--accuracy', 'p99=10%', '--accuracy-max-quanta', '0']):
    r = run(bad)
    if r.returncode != 2 or r.stdout or '--accuracy' not in r.stderr:
        failed.append('%s: exit %d, stderr %r' % (' '.join(bad), r.returncode, r.stderr))
for f in failed:
    print('FAIL', f)
sys.exit(1 if failed else 0)
