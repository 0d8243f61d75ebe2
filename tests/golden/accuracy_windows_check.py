#!/usr/bin/env python3
"""`fiohist pctiles --accuracy` on real fio logs: the windows of each direction tile the run
(each starts where the previous ended, from the first quantum to the last), their I/Os add
up to the quanta's, every window but a reported last one meets its targets, CSV and NDJSON
agree, and bad --accuracy values are usage errors before any work.
Usage: accuracy_windows_check.py FIOHIST LOGDIR
       accuracy_windows_check.py FIOHIST --follow STATUS.json   (fiohist follow: the CSV on
       stdout, and window documents with --out, as push --out writes them)"""
import glob
import gzip
import json
import os
import shutil
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
    out_check(status, windows, env)


def window_docs(outdir):
    """{(direction, start): (id, source)} of the window documents in `outdir`'s bulk files."""
    docs = {}
    for path in sorted(glob.glob(os.path.join(outdir, '*.ndjson*'))):
        opener = gzip.open if path.endswith('.gz') else open
        with opener(path, 'rt') as f:
            lines = f.read().splitlines()
        for action, source in zip(lines[0::2], lines[1::2]):
            a, s = json.loads(action), json.loads(source)
            if 'window_quanta' in s:
                meta = next(iter(a.values()))
                docs[(s['direction'], s['@timestamp'])] = (meta['_id'], s)
    return docs


def out_check(status, csv_windows, env):
    """follow --out --accuracy: a window document per window of the CSV (same span, I/Os,
    percentiles and bounds), no resolution fields; the same ids when follow runs again and
    when push --accuracy writes the run."""
    import tempfile
    tmp = tempfile.mkdtemp(prefix='fiohist-accuracy-out-')
    acc = ['--accuracy', 'p99=10%', '--accuracy', 'p50=5%']
    got = []
    for cmd in (['follow', '--out', os.path.join(tmp, 'f1')], ['follow', '--out', os.path.join(tmp, 'f2')],
                ['push', '--out', os.path.join(tmp, 'p')]):
        r = subprocess.run([fiohist] + cmd + ['--run', 'acc'] + acc + [status],
                           capture_output=True, text=True, env=env)
        if r.returncode != 0:
            failed.append('%s --accuracy: exit %d, stderr %r' % (' '.join(cmd[:2]), r.returncode, r.stderr[-300:]))
        got.append(window_docs(cmd[2]))
    follow, again, push = got
    if len(follow) != len(csv_windows):
        failed.append('follow --out: %d window documents for %d CSV windows' % (len(follow), len(csv_windows)))
    by_start = {(w['direction'], w['start']): w for w in csv_windows}
    for (d, start), (_, s) in follow.items():
        w = by_start.get((d, start))
        if w is None:
            failed.append('follow --out: window %s %s is not a window of the CSV' % (d, start))
            continue
        same = (s['scope'] == 'cluster' and float(w['samples']) == s['samples']
                and abs(s['quantum_s'] * 1000 - (int(w['end_ms']) - int(w['start_ms']))) < 0.5
                # documents hold whole nanoseconds (docs/documents.md): half a ns in us
                and all(abs(float(w[k]) - s[k]) <= 0.5e-3 + 1e-9 * max(1.0, s[k])
                        for k in ('p99', 'p99_low', 'p99_high', 'p50', 'p50_low', 'p50_high')))
        if not same:
            failed.append('follow --out: window %s %s differs from its CSV row' % (d, start))
        if 'resolution' in s or 'zoom_gt_ms' in s:
            failed.append('follow --out: window %s %s has resolution fields' % (d, start))
        met = all(s[p + '_low'] >= s[p] * (1 - a) - 1e-9 and s[p + '_high'] <= s[p] * (1 + a) + 1e-9
                  for p, a in (('p99', 0.10), ('p50', 0.05)))
        if s['accurate'] != met:
            failed.append('follow --out: window %s %s: accurate is %s' % (d, start, s['accurate']))
    if {k: v[0] for k, v in follow.items()} != {k: v[0] for k, v in again.items()}:
        failed.append('follow --out twice: window ids differ')
    if {k: v[0] for k, v in follow.items()} != {k: v[0] for k, v in push.items()}:
        failed.append('push --out --accuracy: other windows or ids than follow (%d vs %d)' % (len(push), len(follow)))
    print('follow --out: %d window documents, %d accurate; push --out: %d, same ids' %
          (len(follow), sum(1 for v in follow.values() if v[1]['accurate']), len(push)))
    shutil.rmtree(tmp)


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
