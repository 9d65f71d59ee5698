# agg.py LASTMS TOP files...: self time by function over the last LASTMS ms of each profile, summed
import json,sys,collections
lastms=float(sys.argv[1]); top=int(sys.argv[2]); byfn=collections.Counter(); tot=0
for f in sys.argv[3:]:
    p=json.load(open(f)); nodes={n['id']:n for n in p['nodes']}
    t=p['startTime']; ts=[]
    for d in p['timeDeltas']: t+=d; ts.append(t)
    end=ts[-1]
    for i,s in enumerate(p['samples']):
        if ts[i]>=end-lastms*1000:
            cf=nodes[s]['callFrame']; byfn[(cf['functionName'] or '(anon)')+' '+cf['url'].split('/')[-1]+':'+str(cf['lineNumber'])]+=p['timeDeltas'][i]; tot+=p['timeDeltas'][i]
print('total ms',tot/1000)
for k,v in byfn.most_common(top): print(f"{v/1000:9.1f} {k}")
