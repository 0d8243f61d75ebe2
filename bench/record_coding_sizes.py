#!/usr/bin/env python3
"""record_coding_sizes.py: how small the bucket documents' records get under other codings.

    fiohist push --run isz --out DIR --plain-out LOGS...
    bench/record_coding_sizes.py DIR

Reads the bucket documents of plain bulk files, recodes their records' counts several ways
and prints, per coding, the raw bytes and the bytes after DEFLATE level 6 in blocks of 60 KB
(an estimate of what the server's stored-field compression makes of `_source`). Used for
bench/README.md, "Bucket documents: the `hist` coding".
"""
import json, sys, glob, zlib, collections
docs=[]
for f in sorted(glob.glob(sys.argv[1]+'/bulk-*.ndjson')):
    lines=open(f).read().splitlines()
    for i in range(0,len(lines),2):
        a=json.loads(lines[i]);
        if 'buckets' not in a['index']['_index']: continue
        docs.append(json.loads(lines[i+1]))
def measure(name, texts):
    raw=sum(len(t) for t in texts)
    blob=''.join(texts).encode()
    z=0
    for i in range(0,len(blob),60*1024):
        z+=len(zlib.compress(blob[i:i+60*1024],6))
    print('%-44s raw %9d  deflate %9d  (%.1f B/doc)'%(name,raw,z,z/len(texts)))
def dense(r):
    runs,ios=r['runs'],r['ios']; out={}
    b=-1;k=0
    for i in range(0,len(runs),2):
        b = runs[i] if i==0 else b+runs[i]
        for j in range(runs[i+1]):
            out[b]=ios[k];k+=1; b+=1
        b-=1
    return out
A='0123456789abcdefghijklmnopqrstuv' # 32 terminal digits
B='ABCDEFGHIJKLMNOPQRSTUVWXYZwxyz-_' # 32 continuation digits
def v32(v):
    s=A[v&31]; v>>=5
    while v: s=B[v&31]+s; v>>=5
    return s
def code_dense(h, zr=True):
    if not h: return ''
    lo,hi=min(h),max(h); s=v32(lo)
    z=0; out=[]
    for b in range(lo,hi+1):
        c=h.get(b,0)
        if c==0: z+=1; continue
        if z:
            out.append('.'*z if z<3 else '~'+v32(z)) if zr else out.append('0'*z)
            z=0
        out.append(v32(c))
    return s+'|'+''.join(out)


dump=lambda o: json.dumps(o,separators=(',',':'))
jd=[d for d in docs]
base=[dump([r['ios'] for r in d.get('records',[])])+dump([r['runs'] for r in d.get('records',[])]) for d in jd]
measure('runs+ios json', base)
measure('dense string zero-runs', [dump([code_dense(dense(r)) for r in d.get('records',[])]) for d in jd])
measure('dense string zeros as 0', [dump([code_dense(dense(r),False) for r in d.get('records',[])]) for d in jd])
# dense comma decimal
def dense_dec(h):
    if not h: return ''
    lo,hi=min(h),max(h)
    return str(lo)+':'+','.join(str(h.get(b,0)) if h.get(b,0) else '' for b in range(lo,hi+1))
measure('dense decimal, empty zeros', [dump([dense_dec(dense(r)) for r in d.get('records',[])]) for d in jd])
# delta vs previous record of same series
prev={}
out=[]
for d in jd:
    key=(d['host'],d['job'],d['direction'][0])
    rs=[]
    for r in d.get('records',[]):
        h=dense(r); p=prev.get(key,{})
        keys=sorted(set(h)|set(p))
        lo=min(keys); hi=max(keys)
        s=[]
        for b in range(lo,hi+1):
            x=h.get(b,0)-p.get(b,0)
            s.append(v32((x<<1)^(x>>63)) if True else '')
        rs.append(v32(lo)+'|'+''.join(s)); prev[key]=h
    out.append(dump(rs))
measure('delta vs prev record (zigzag v32)', out)
# delta vs neighbour bucket in same record
out=[]
for d in jd:
    rs=[]
    for r in d.get('records',[]):
        h=dense(r)
        if not h: rs.append('');continue
        lo,hi=min(h),max(h); last=0; s=[]
        for b in range(lo,hi+1):
            x=h.get(b,0)-last; last=h.get(b,0); s.append(v32((x<<1)^(x>>63)))
        rs.append(v32(lo)+'|'+''.join(s))
    out.append(dump(rs))
measure('delta vs neighbour bucket', out)
full=[]
for d in jd:
    o=dict(d)
    for k in ('bucket_runs','bucket_ios','latency_scale'): o.pop(k,None)
    o['records']=[{'span':r['span'],'hist':code_dense(dense(r))} for r in o.get('records',[])]
    full.append(o)
measure('new doc (hist string)', [dump(o) for o in full])
def drop(keys):
    return [dump({k:v for k,v in o.items() if k not in keys}) for o in full]
measure('new doc - quantum_s,layout', drop({'quantum_s','layout'}))
measure('new doc - quantum_s,layout,logs,records_end', drop({'quantum_s','layout','logs','records_end'}))
sp=[]
for o in full:
    p=dict(o); p['records']=[({'hist':r['hist']} if r['span']==[0,1000] else r) for r in o['records']]; sp.append(dump(p))
measure('new doc, span elided when the quantum', sp)
