#!/usr/bin/env python3
"""`fiohist pctiles --accuracy` on real fio logs: the windows of each direction tile the run
(each starts where the previous ended, from the first quantum to the last), their I/Os add
up to the quanta's, every window but a reported last one meets its targets, CSV and NDJSON
agree, and bad --accuracy values are usage errors before any work.
Usage: accuracy_windows_check.py FIOHIST LOGDIR
       accuracy_windows_check.py FIOHIST --follow STATUS.json   (fiohist follow, CSV on stdout)"""
import glob
import json
import os
import subprocess
import sys

fiohist, logdir = sys.argv[1], sys.argv[2]
targets = {'p99': 0.10, 'p50': 0.02}
failed = []


def follow_check(status):
    """follow --accuracy on a recorded fio status stream: windows tile the quanta of each
    direction and hold their I/Os; a window short of the targets is counted on stderr."""
    import csv
    env = dict(os.environ)
    env.pop('FIOHIST_ES_URL', None)

    def rows(extra):
        r = subprocess.run([fiohist, 'follow', '--run', 'acc'] + extra + [status],
                           capture_output=True, text=True, env=env)
        return [x for x in csv.DictReader(r.stdout.splitlines()) if x['scope'] == 'cluster'], r
    quanta, _ = rows([])
    windows, r = rows(['--accuracy', 'p99=10%', '--accuracy', 'p50=5%'])
    for d in ('read', 'write', 'all'):
        qs = [q for q in quanta if q['direction'] == d]
        ws = [w for w in windows if w['direction'] == d]
        if not ws or ws[0]['start_ms'] != qs[0]['start_ms'] or ws[-1]['end_ms'] != qs[-1]['end_ms']:
            failed.append('follow %s: windows do not span the quanta' % d)
        for a, b in zip(ws, ws[1:]):
            if a['end_ms'] != b['start_ms']:
                failed.append('follow %s: gap or overlap at %s' % (d, a['end_ms']))
        if abs(sum(float(w['samples']) for w in ws) - sum(float(q['samples']) for q in qs)) > 1e-6:
            failed.append('follow %s: windows hold other I/Os than the quanta' % d)
        print('follow %s: %d quanta -> %d windows' % (d, len(qs), len(ws)))
    if r.returncode != 0 or 'did not reach the --accuracy targets' not in r.stderr:
        failed.append('follow: exit %d, stderr %r' % (r.returncode, r.stderr))
    r = subprocess.run([fiohist, 'follow', '--run', 'acc', '--out', '/nonexistent', '--accuracy',
                        'p99=10%', status], capture_output=True, text=True, env=env)
    if r.returncode != 2 or '--accuracy' not in r.stderr:
        failed.append('follow --out --accuracy: exit %d, stderr %r' % (r.returncode, r.stderr))


if logdir == '--follow':
    follow_check(sys.argv[3])
    for f in failed:
        print('FAIL', f)
    sys.exit(1 if failed else 0)
logs = sorted(glob.glob(os.path.join(logdir, '*_clat_hist.*')))


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
