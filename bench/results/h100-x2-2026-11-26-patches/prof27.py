import json,collections,sys
p=json.load(open(sys.argv[1]))
nodes={n['id']:n for n in p['nodes']}
parent={}
for n in p['nodes']:
    for c in n.get('children',[]): parent[c]=n['id']
self=collections.Counter(); tot=collections.Counter()
for s,d in zip(p['samples'],p['timeDeltas']):
    cf=nodes[s]['callFrame']; self[(cf['functionName'],cf['url'].split('/')[-1],cf['lineNumber'])]+=d
    seen=set(); x=s
    while x is not None:
        cf=nodes[x]['callFrame']; k=(cf['functionName'],cf['url'].split('/')[-1],cf['lineNumber'])
        if k not in seen: tot[k]+=d; seen.add(k)
        x=parent.get(x)
print(sys.argv[1], 'ms', sum(self.values())/1000, '(6 runs)')
print('self:'); [print(' ',round(v/1000,1),k) for k,v in self.most_common(25)]
print('total:'); [print(' ',round(v/1000,1),k) for k,v in tot.most_common(40)]
