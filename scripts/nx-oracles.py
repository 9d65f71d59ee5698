#!/usr/bin/env python3
"""Outside oracles from networkx for the programs without Graphalytics expected outputs.

    python3 scripts/nx-oracles.py > test/data/oracles/networkx.json

For each graph of test/data (Graphalytics .v/.e, SNAP edge lists): strongly connected components
(label = the smallest original id in the component; an undirected graph's are its connected
components), core numbers (networkx core_number of the undirected view, self-loops removed),
triangles per vertex (networkx triangles of the same undirected view) and
pagerank (weighted when the graph has weights; uniform, and personalized on the three smallest
ids): every value on small graphs, the 100 largest on the others; and the modularity of
louvain_communities (seeds 1..5: the smallest and the median) on the undirected view whose link
weight is the smaller of the two arcs' (the louvain built-in's view).
Each result is kept as its component/max count and the sha256 of the lines "<id> <value>\n" in
ascending id order, which test/oracles.test.ts recomputes from tessera's results.
"""
import gzip, hashlib, json, os, sys
import networkx as nx

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'test', 'data')

def graphalytics(name):
    d = os.path.join(ROOT, 'graphalytics', name)
    props = open(os.path.join(d, name + '.properties')).read()
    directed = 'directed = true' in props
    g = nx.DiGraph() if directed else nx.Graph()
    for line in open(os.path.join(d, name + '.v')):
        if line.strip(): g.add_node(int(line.split()[0]))
    for line in open(os.path.join(d, name + '.e')):
        f = line.split()
        if len(f) >= 3: g.add_edge(int(f[0]), int(f[1]), weight=float(f[2]))
        elif len(f) == 2: g.add_edge(int(f[0]), int(f[1]))
    return g

def snap(file, directed):
    g = nx.DiGraph() if directed else nx.Graph()
    for line in gzip.open(os.path.join(ROOT, 'snap', file), 'rt'):
        if line.startswith('#') or not line.strip(): continue
        a, b = line.split()[:2]
        g.add_edge(int(a), int(b))
    return g

def digest(values):
    h = hashlib.sha256()
    for v in sorted(values): h.update(f'{v} {values[v]}\n'.encode())
    return h.hexdigest()

GRAPHS = {
    'graphalytics/example-directed': lambda: graphalytics('example-directed'),
    'graphalytics/example-undirected': lambda: graphalytics('example-undirected'),
    'graphalytics/test-wcc-directed': lambda: graphalytics('test-wcc-directed'),
    'snap/wiki-Vote': lambda: snap('wiki-Vote.txt.gz', True),
    'snap/soc-Epinions1': lambda: snap('soc-Epinions1.txt.gz', True),
    'snap/facebook_combined': lambda: snap('facebook_combined.txt.gz', False),
}

out = {'networkx': nx.__version__, 'graphs': {}}
for name, load in GRAPHS.items():
    g = load()
    comps = nx.strongly_connected_components(g) if g.is_directed() else nx.connected_components(g)
    scc = {}
    k = 0
    for c in comps:
        k += 1
        m = min(c)
        for v in c: scc[v] = m
    u = g.to_undirected() if g.is_directed() else g.copy()
    u.remove_edges_from(nx.selfloop_edges(u))
    core = nx.core_number(u)
    tri = nx.triangles(u)
    def ranks(personalization):
        r = nx.pagerank(g, alpha=0.85, personalization=personalization, max_iter=100, tol=1e-6, weight='weight')
        top = sorted(r.items(), key=lambda kv: (-kv[1], kv[0]))
        return [[v, x] for v, x in (top if len(top) <= 100 else top[:100])]
    srcs = sorted(g.nodes())[:3]
    # The louvain built-in's undirected view: one link per linked pair, the smaller arc weight.
    lv = nx.Graph()
    lv.add_nodes_from(g.nodes())
    for a, b, d in g.edges(data=True):
        if a == b: continue
        w = d.get('weight', 1.0)
        if lv.has_edge(a, b): w = min(w, lv[a][b]['weight'])
        lv.add_edge(a, b, weight=w)
    qs = sorted(nx.community.modularity(lv, nx.community.louvain_communities(lv, weight='weight', seed=s), weight='weight') for s in range(1, 6))
    out['graphs'][name] = {
        'pagerank': {'uniform': ranks(None), 'sources': srcs, 'personalized': ranks({v: 1 for v in srcs})},
        'vertices': g.number_of_nodes(),
        'scc': {'components': k, 'sha256': digest(scc)},
        'core': {'max': max(core.values()), 'sha256': digest(core)},
        'triangles': {'total': sum(tri.values()) // 3, 'sha256': digest(tri)},
        'louvain': {'min': qs[0], 'median': qs[2]},
    }
json.dump(out, sys.stdout, indent=2)
sys.stdout.write('\n')
