# win.py WINDOW.json TOP files...: self time by function over samples inside the window (hrtime us), summed
import json,sys,collections
w=json.load(open(sys.argv[1])); top=int(sys.argv[2]); byfn=collections.Counter(); tot=0
for f in sys.argv[3:]:
    p=json.load(open(f)); nodes={n['id']:n for n in p['nodes']}
    t=p['startTime']
    for s,d in zip(p['samples'],p['timeDeltas']):
        t+=d
        if w['a']<=t<=w['b']:
            cf=nodes[s]['callFrame']; byfn[(cf['functionName'] or '(anon)')+' '+cf['url'].split('/')[-1]+':'+str(cf['lineNumber'])]+=d; tot+=d
print('total ms',tot/1000, 'window ms', (w['b']-w['a'])/1000)
for k,v in byfn.most_common(top): print(f"{v/1000:9.2f} {k}")
