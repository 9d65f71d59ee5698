# Top self times of each .cpuprofile in a folder (ms), by function and url tail; one block per profile, biggest first.
import json,sys,os,collections
fs=[os.path.join(sys.argv[1],f) for f in os.listdir(sys.argv[1]) if f.endswith('.cpuprofile')]
res=[]
for f in fs:
    p=json.load(open(f)); nodes={n['id']:n for n in p['nodes']}
    dt=collections.Counter()
    for sid,d in zip(p['samples'],p['timeDeltas']): dt[sid]+=d
    by=collections.Counter()
    for nid,t in dt.items():
        cf=nodes[nid]['callFrame']; by[(cf['functionName'] or '(anon)')+' '+cf['url'].split('/')[-1]+':'+str(cf['lineNumber'])]+=t/1000
    tot=sum(by.values()); res.append((tot,f,by))
res.sort(key=lambda x:-x[0])
for tot,f,by in res[:4]:
    print('==',os.path.basename(f),'total %.1f ms'%tot)
    for k,v in by.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 25): print('  %8.1f %s'%(v,k))
