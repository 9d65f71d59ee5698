# python3 phases.py FILE: per cell of ft.mjs output, first/last run: ms from the run's start to its first kernel call (preK), the sum of its kernel calls (wcc_afforest, bfs/levels), its readState calls.
import sys,re
cell=None; sec=None; d={}
rows=[]
def flush():
    if cell and d: rows.append((cell,dict(d)))
for line in open(sys.argv[1]):
    line=line.rstrip('\n')
    if line.startswith('== ') and not line.startswith('== step'):
        flush(); cell=line[3:]; d={}; sec=None; continue
    if line.startswith('-- first'): sec='F'; continue
    if line.startswith('-- last'): sec='L'; continue
    if sec is None: continue
    p=line.split('\t')
    if len(p)<2: 
        if p[0].endswith('end') and '\t' in line: pass
        continue
    at=float(p[0]); ms=p[1]; k=p[2] if len(p)>2 else ''
    if ms == '': continue
    if k=='' and ms=='end': continue
    if 'wcc_afforest' in k or 'bfs' in k or 'levels' in k:
        d.setdefault(sec+'k0', at); d[sec+'kern']=d.get(sec+'kern',0)+float(ms)
    if k.startswith('readState'): d[sec+'read']=d.get(sec+'read',0)+float(ms)
flush()
for c,d in rows:
    print(f"{c:16s} preK {d.get('Fk0',0):5.2f}/{d.get('Lk0',0):5.2f} kern {d.get('Fkern',0):5.2f}/{d.get('Lkern',0):5.2f} read {d.get('Fread',0):5.2f}/{d.get('Lread',0):5.2f}")
