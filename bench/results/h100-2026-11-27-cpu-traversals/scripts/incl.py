import json,sys,collections
p=json.load(open(sys.argv[1]))
nodes={n['id']:n for n in p['nodes']}
parent={}
for n in p['nodes']:
    for c in n.get('children',[]): parent[c]=n['id']
self_t=collections.Counter()
for s,d in zip(p['samples'],p['timeDeltas']): self_t[s]+=d
name=lambda nid: (nodes[nid]['callFrame']['functionName'] or '(anon)')+' '+nodes[nid]['callFrame']['url'].split('/')[-1]+':'+str(nodes[nid]['callFrame']['lineNumber'])
incl=collections.Counter(); selfn=collections.Counter()
for nid,t in self_t.items():
    selfn[name(nid)]+=t
    seen=set(); x=nid
    while x is not None:
        k=name(x)
        if k not in seen: incl[k]+=t; seen.add(k)
        x=parent.get(x)
tot=sum(self_t.values())
print('total ms',tot/1000)
print('--- self'); [print(f"{v/1000:9.1f} {k}") for k,v in selfn.most_common(35)]
print('--- inclusive'); [print(f"{v/1000:9.1f} {k}") for k,v in incl.most_common(60)]
