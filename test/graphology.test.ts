/**
 * The graphology-facing API: fromGraphology (keys -> ids and back, directed / undirected / mixed /
 * multi graphs, weights), runs read by node key and written back as node attributes, checked
 * against graphology's own libraries (graphology-metrics pagerank, graphology-traversal bfs,
 * graphology-components, graphology-shortest-path dijkstra) and the serial references; the
 * library `generate`; the README's "From graphology" example; and that tessera's emitted code
 * does not load graphology.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { DirectedGraph, MultiDirectedGraph, UndirectedGraph } from 'graphology';
import * as graphologyEsm from 'graphology';
import type { AbstractGraph, Attributes } from 'graphology-types';
import {
  fromGraphology,
  generate,
  loadGraph,
  run,
  TesseraError,
  type GraphologyLike,
  type KeyedGraph,
  type RunResult,
} from '../src/index.js';
import { isTesseraError } from '../src/errors.js';
import { PROGRAMS, PROGRAM_NAMES } from '../src/programs/index.js';
import { referenceBfs, referencePageRank, referenceSssp, referenceWcc } from './helpers/references.js';
import type { Graph } from '../src/graph/types.js';
import type { Topology } from '../src/topology/schema.js';
import { pageView } from '../src/graph/pages.js';

// graphology's typings declare its mixed `Graph` as the default export only, which NodeNext reads
// as the CommonJS module object; the ESM build also exports it by name.
const Graph = (graphologyEsm as unknown as { Graph: typeof DirectedGraph }).Graph;

// The peers ship CommonJS typed as ES modules; load them as what they are.
const require = createRequire(import.meta.url);
const pagerank = require('graphology-metrics/centrality/pagerank') as typeof import('graphology-metrics/centrality/pagerank.js').default;
const { bfsFromNode } = require('graphology-traversal') as typeof import('graphology-traversal');
const { connectedComponents } = require('graphology-components') as typeof import('graphology-components');
const dijkstra = require('graphology-shortest-path/dijkstra') as typeof import('graphology-shortest-path/dijkstra.js');

function topo(threads: number[]): Topology {
  return { name: `${threads.length}S`, source: 'test', sockets: threads.map((t, id) => ({ id, threads: t })), gpus: [], interconnect: {}, model: {} };
}
const TOPO = topo([2]);

function lcg(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
}

type W = { weight?: number };
type G = AbstractGraph<Attributes, W>;

/**
 * n nodes with non-numeric keys inserted in shuffled order, a few of them isolated, m random
 * edges without self-loops or parallel edges (graphology's PageRank counts those; tessera's
 * Graphalytics semantics drop them), weights some zero, some integral, most fractional.
 * `kind` says which edges: directed, undirected, or a mix of both.
 */
function randomGraph(g: G, n: number, m: number, seed: number, kind: 'directed' | 'undirected' | 'mixed', numericKeys = false): G {
  const rnd = lcg(seed);
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [perm[i], perm[j]] = [perm[j]!, perm[i]!];
  }
  const key = (i: number): string => (numericKeys ? String(perm[i]! * 7 + 3) : `v${perm[i]!.toString(36)}-${i % 3 === 0 ? 'x' : 'y'}`);
  for (let i = 0; i < n; i++) {
    if (numericKeys) g.addNode(perm[i]! * 7 + 3);
    else g.addNode(key(i));
  }
  // The last nodes stay isolated; sources are skewed so that degrees vary.
  const live = n - 5;
  for (let e = 0; e < m; e++) {
    const a = key(Math.floor(rnd() ** 2 * live));
    const b = key(Math.floor(rnd() * live));
    const r = rnd();
    const w = r < 0.05 ? 0 : r < 0.3 ? Math.ceil(r * 10) : r * 4;
    if (a === b || g.hasEdge(a, b) || g.hasEdge(b, a)) continue;
    const undirected = kind === 'undirected' || (kind === 'mixed' && rnd() < 0.4);
    if (undirected) g.addUndirectedEdge(a, b, { weight: w });
    else g.addDirectedEdge(a, b, { weight: w });
  }
  return g;
}

/** Internal id of a node key of a keyed graph. */
function internalOf(graph: KeyedGraph, key: string): number {
  return graph.ids.byOriginal[graph.keyIndex.get(key)!]!;
}

/** Shortest-path lengths from graphology's dijkstra (it returns paths; the lightest edge per hop). */
function dijkstraDistances(g: G, source: string): Map<string, number> {
  const paths = dijkstra.singleSource(g, source, 'weight');
  const out = new Map<string, number>();
  for (const [target, path] of Object.entries(paths)) {
    let d = 0;
    for (let i = 1; i < path.length; i++) {
      d += Math.min(...g.outboundEdges(path[i - 1], path[i]).map((e) => g.getEdgeAttribute(e, 'weight') ?? 1));
    }
    out.set(target, d);
  }
  return out;
}

function close(a: number, b: number, rel: number): boolean {
  return a === b || Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Every program with a graphology peer, on one graphology graph, checked by key. */
async function checkAgainstPeers(t: import('ava').ExecutionContext, g: G, graph: KeyedGraph, source: string): Promise<void> {
  const keys = g.nodes();
  t.deepEqual([...graph.keys], keys, 'keys in graphology node order');
  t.is(graph.numVertices, g.order);

  // PageRank: graphology iterates to convergence; 200 tessera iterations are well within 1e-9.
  const pr = await run(graph, 'pr', { iterations: 200, topology: TOPO });
  const peerPr = pagerank(g, { getEdgeWeight: null, tolerance: 1e-14, maxIterations: 2000 });
  const refPr = referencePageRank(graph, { iterations: 200, damping: 0.85 });
  for (const k of keys) {
    t.true(Math.abs(pr.get(k) - peerPr[k]!) < 1e-9, `pr ${k}: ${pr.get(k)} vs graphology ${peerPr[k]}`);
    t.true(close(pr.get(k), refPr[internalOf(graph, k)]!, 1e-12));
  }

  // BFS: depths of graphology's outbound traversal; unreachable nodes -1.
  const bfs = await run(graph, 'bfs', { source, topology: TOPO });
  const depth = new Map<string, number>();
  bfsFromNode(g, source, (k, _a, d) => void depth.set(k, d), { mode: 'outbound' });
  t.true(depth.size < keys.length, 'some nodes are unreachable');
  const refBfs = referenceBfs(graph, internalOf(graph, source));
  for (const k of keys) {
    t.is(bfs.get(k), depth.get(k) ?? -1, `bfs ${k}`);
    t.is(bfs.get(k), refBfs[internalOf(graph, k)]);
  }

  // WCC: graphology's components; the label is the original id (graphology position) of the
  // component's first node.
  const wcc = await run(graph, 'wcc', { topology: TOPO });
  const refWcc = referenceWcc(graph);
  const comps = connectedComponents(g);
  t.true(comps.length > 1);
  for (const comp of comps) {
    const first = Math.min(...comp.map((k) => graph.keyIndex.get(k)!));
    for (const k of comp) {
      t.is(wcc.get(k), first, `wcc ${k}`);
      t.is(wcc.get(k), refWcc[internalOf(graph, k)]);
    }
  }

  // SSSP on the 'weight' attribute: graphology's dijkstra; unreachable Infinity.
  const sssp = await run(graph, 'sssp', { source, topology: TOPO });
  const dist = dijkstraDistances(g, source);
  const refSssp = referenceSssp(graph, internalOf(graph, source));
  for (const k of keys) {
    t.true(close(sssp.get(k), dist.get(k) ?? Infinity, 1e-9), `sssp ${k}: ${sssp.get(k)} vs graphology ${dist.get(k)}`);
    t.true(close(sssp.get(k), refSssp[internalOf(graph, k)]!, 1e-12));
  }
}

test('directed graph with string keys in shuffled order: pr, bfs, wcc, sssp match graphology and the references', async (t) => {
  const g = randomGraph(new DirectedGraph<Attributes, W>(), 240, 700, 11, 'directed');
  const graph = fromGraphology(g);
  t.true(graph.directed);
  t.is(graph.weightType, 'float64');
  t.is(graph.numEdges, g.size);
  await checkAgainstPeers(t, g, graph, g.nodes()[3]!);
});

test('undirected graph with keys given as numbers: arcs both ways, results match graphology', async (t) => {
  const g = randomGraph(new UndirectedGraph<Attributes, W>(), 200, 260, 5, 'undirected', true);
  const graph = fromGraphology(g);
  t.false(graph.directed);
  t.is(graph.numEdges, 2 * g.size);
  // graphology stored the numbers as strings; tessera's keys are those strings.
  t.true(graph.keys.every((k) => typeof k === 'string' && /^\d+$/.test(k)));
  await checkAgainstPeers(t, g, graph, g.nodes()[0]!);
});

test('mixed graph: directed edges once, undirected edges both ways; small pages', async (t) => {
  const g = randomGraph(new Graph<Attributes, W>(), 220, 500, 23, 'mixed');
  t.is(g.type, 'mixed');
  t.true(g.directedSize > 0 && g.undirectedSize > 0);
  // 16-edge pages: hubs span several split pages.
  const graph = fromGraphology(g, { pageEdges: 16 });
  t.true(graph.directed);
  t.is(graph.numEdges, g.directedSize + 2 * g.undirectedSize);
  t.true(graph.out.pages.length > 10);
  await checkAgainstPeers(t, g, graph, g.nodes()[1]!);
});

test('multi graph: parallel edges become one edge with the smallest weight, self-loops are dropped', async (t) => {
  const g = new MultiDirectedGraph<Attributes, W>({ allowSelfLoops: true });
  for (const k of ['a', 'b', 'c', 'd']) g.addNode(k);
  g.addEdge('a', 'b', { weight: 5 });
  g.addEdge('a', 'b', { weight: 2 });
  g.addEdge('a', 'b', { weight: 7 });
  g.addEdge('a', 'c', { weight: 3 });
  g.addEdge('c', 'b', { weight: 0.5 });
  g.addEdge('c', 'd', { weight: 1 });
  g.addEdge('b', 'd', { weight: 4 });
  g.addEdge('d', 'd', { weight: 1 });
  g.addNode('e');
  const graph = fromGraphology(g);
  t.is(graph.numVertices, 5);
  t.is(graph.numEdges, 5);
  t.is(graph.build.duplicatesDropped, 2);
  t.is(graph.build.selfLoopsDropped, 1);
  const sssp = await run(graph, 'sssp', { source: 'a', topology: TOPO });
  const dist = dijkstraDistances(g, 'a');
  t.deepEqual(Object.fromEntries(sssp.entries()), { a: 0, b: 2, c: 3, d: 4, e: Infinity });
  for (const [k, d] of dist) t.is(sssp.get(k), d);
  // Out-degrees after dedupe: a -> {b, c}.
  t.is(graph.outDegree[internalOf(graph, 'a')], 2);
});

test('weights: default attribute when present, missing ones weigh 1, functions, null, and bad values', async (t) => {
  const plain = new DirectedGraph();
  plain.mergeEdge('x', 'y');
  plain.mergeEdge('y', 'z');
  t.is(fromGraphology(plain).weightType, undefined, 'no weight attribute: unweighted');

  const partial = new DirectedGraph<Attributes, { weight?: number; cost?: number }>();
  partial.mergeEdge('x', 'y', { cost: 10 });
  partial.mergeEdge('y', 'z', { weight: 2.5, cost: 20 });
  const pg = fromGraphology(partial);
  t.is(pg.weightType, 'float64');
  const d = await run(pg, 'sssp', { source: 'x', topology: TOPO });
  t.deepEqual([...d.entries()], [['x', 0], ['y', 1], ['z', 3.5]], 'the edge without a weight weighs 1, as in graphology');

  const byCost = await run(fromGraphology(partial, { getEdgeWeight: 'cost' }), 'sssp', { source: 'x', topology: TOPO });
  t.is(byCost.get('z'), 30);
  const byFn = await run(fromGraphology(partial, { getEdgeWeight: (_e, a, s) => (a.cost ?? 0) / 10 + (s === 'y' ? 100 : 0) }), 'sssp', { source: 'x', topology: TOPO });
  t.is(byFn.get('z'), 1 + 102);
  t.is(fromGraphology(partial, { getEdgeWeight: null }).weightType, undefined);

  const negative = new DirectedGraph();
  negative.mergeEdge('p', 'q', { weight: -1 });
  const ng = fromGraphology(negative);
  await t.throwsAsync(run(ng, 'sssp', { source: 'p', topology: TOPO }), { instanceOf: TesseraError }, 'SSSP refuses negative weights when it starts');
  t.is((await run(ng, 'bfs', { source: 'p', topology: TOPO })).get('q'), 1, 'other programs take them');

  const bad = (w: unknown, opts?: Parameters<typeof fromGraphology>[1]): TesseraError => {
    const b = new DirectedGraph();
    b.mergeEdge('u', 'v', { weight: 1 });
    b.mergeEdgeWithKey('edge-17', 'v', 'w', { weight: w });
    return t.throws(() => fromGraphology(b, opts), { instanceOf: TesseraError })!;
  };
  for (const w of [NaN, Infinity, -Infinity, '3', null, { x: 1 }]) {
    const e = bad(w);
    t.regex(e.message, /edge 'edge-17'/, `weight ${String(w)}`);
    t.false(e.message.includes('\n'));
    t.is(e.details.key, 'getEdgeWeight');
  }
  t.regex(bad(1, { getEdgeWeight: () => NaN }).message, /^graphology graph: edge '[^']+': getEdgeWeight returned NaN, not a finite number/);
  t.regex(bad(1, { getEdgeWeight: 'cost' }).message, /no edge has the weight attribute 'cost'/);
});

test('write-back: assign sets one attribute on every node, keeps the others, and refuses a graph it does not know', async (t) => {
  const g = randomGraph(new DirectedGraph<Attributes, W>(), 60, 120, 3, 'directed');
  g.forEachNode((k) => g.setNodeAttribute(k, 'label', k.toUpperCase()));
  const graph = fromGraphology(g);
  let events = 0;
  g.on('eachNodeAttributesUpdated', () => void events++);

  const pr = await run(graph, 'pr', { topology: TOPO });
  pr.assign(g, 'pagerank');
  t.is(events, 1, 'one update event for the whole write');
  g.forEachNode((k, a) => {
    t.is(a.pagerank, pr.get(k));
    t.is(a.label, k.toUpperCase());
  });

  // BFS unreachable: -1, as get() gives it.
  const source = g.nodes()[0]!;
  const bfs = await run(graph, 'bfs', { source, topology: TOPO });
  bfs.assign(g, 'depth');
  t.is(g.getNodeAttribute(g.nodes()[59]!, 'depth'), -1, 'an isolated node is unreachable');
  g.forEachNode((k, a) => t.is(a.depth, bfs.get(k)));

  // A transform: the wcc label as the key of the component's first node.
  const wcc = await run(graph, 'wcc', { topology: TOPO });
  wcc.assign(g, 'component', (label) => graph.keys[label]);
  for (const comp of connectedComponents(g)) {
    const names = new Set(comp.map((k) => g.getNodeAttribute(k, 'component') as string));
    t.deepEqual([...names], [comp.reduce((a, k) => (graph.keyIndex.get(k)! < graph.keyIndex.get(a)! ? k : a))]);
  }

  // Same nodes in another order (a copy built backwards): written by key.
  const copy = new DirectedGraph();
  for (const k of [...g.nodes()].reverse()) copy.addNode(k);
  pr.assign(copy, 'pr');
  copy.forEachNode((k, a) => t.is(a.pr, pr.get(k)));

  // A node tessera does not have: nothing is written.
  g.addNode('newcomer');
  const e = t.throws(() => pr.assign(g, 'pagerank2'), { instanceOf: TesseraError });
  t.regex(e!.message, /node 'newcomer'/);
  t.false(g.someNode((_k, a) => 'pagerank2' in a));
  t.throws(() => pr.assign(copy, ''), { instanceOf: TesseraError });

  // Not a keyed graph: assign has nothing to go by (the types refuse it too).
  const plainResult = await run(generate('uniform:4'), 'wcc', { topology: TOPO });
  t.throws(() => (plainResult as unknown as RunResult<string>).assign(copy, 'x'), { instanceOf: TesseraError, message: /not built from one/ });
});

test('keys in and out: run options by key, get by key, entries in node order, unknown keys', async (t) => {
  const g = new DirectedGraph();
  for (const k of ['zeta', 'alpha', 'mid', 'b e t a', '42']) g.addNode(k);
  g.addEdge('zeta', 'alpha');
  g.addEdge('alpha', 'b e t a');
  g.addEdge('b e t a', '42');
  const graph = fromGraphology(g);
  const bfs = await run(graph, 'bfs', { source: 'zeta', topology: TOPO });
  t.deepEqual([...bfs.entries()], [['zeta', 0], ['alpha', 1], ['mid', -1], ['b e t a', 2], ['42', 3]]);
  t.is(bfs.format('mid'), '9223372036854775807');
  t.throws(() => bfs.get('nope'), { instanceOf: TesseraError, message: /node 'nope' is not in the graph\. Fix: name a vertex of graphology graph \(node keys/ });
  t.throws(() => bfs.get(7 as never), { instanceOf: TesseraError, message: /vertex 7 is not in the graph: .* node keys \(strings\)\. Fix: pass a node key, e\.g\. 'zeta'/ });
  t.is(bfs.get(42 as never), 3, 'a number finds the key it reads as (as in graphology)');
  await t.throwsAsync(run(graph, 'bfs', { source: 'nope', topology: TOPO }), { instanceOf: TesseraError, message: /node 'nope' is not in the graph \(at source\)/ });
  const bc = await run(graph, 'bc', { sourceList: ['zeta'], topology: TOPO });
  // From zeta alone: alpha and 'b e t a' lie on one shortest path each to the nodes after them.
  t.deepEqual(Object.fromEntries(bc.entries()), { zeta: 0, alpha: 2, mid: 0, 'b e t a': 1, '42': 0 });
  await t.throwsAsync(run(graph, 'bc', { sourceList: ['zeta', 'x'], topology: TOPO }), { instanceOf: TesseraError, message: /node 'x'.*sourceList/ });
});

test('bad input to fromGraphology is a one-line TesseraError', (t) => {
  for (const x of [{}, null, 42, { forEachNode() {}, forEachEdge() {}, order: 1, size: 0, type: 'weird' }]) {
    const e = t.throws(() => fromGraphology(x as unknown as GraphologyLike), { instanceOf: TesseraError });
    t.regex(e!.message, /expects a graphology graph/);
  }
  const e = t.throws(() => fromGraphology(new DirectedGraph()), { instanceOf: TesseraError });
  t.regex(e!.message, /no vertices and no edges/);
  t.true(isTesseraError(e));
});

test('fromGraphology options: wrong types, unknown keys and null are one-line TesseraErrors', (t) => {
  const g = new DirectedGraph();
  g.mergeEdge('a', 'b', { weight: 2 });
  const cases: Array<[unknown, RegExp]> = [
    [{ getEdgeWeight: 5 }, /getEdgeWeight must be an edge attribute name, a function or null, got 5/],
    [{ getEdgeWeight: '' }, /getEdgeWeight must be/],
    [{ undirectd: true }, /unknown option 'undirectd'.*did you mean 'undirected'\?/],
    [{ undirected: 'yes' }, /undirected must be true or false/],
    [{ pageEdges: -1 }, /pageEdges must be an integer from 1/],
    [null, /fromGraphology options must be an object, got null/],
  ];
  for (const [opts, re] of cases) {
    const e = t.throws(() => fromGraphology(g, opts as never), { instanceOf: TesseraError });
    t.regex(e!.message, re);
    t.false(e!.message.includes('\n'));
  }
  // What the types say is taken.
  t.is(fromGraphology(g, { getEdgeWeight: null, undirected: false, pageEdges: 4 }).weightType, undefined);
  t.is(fromGraphology(g, { getEdgeWeight: (_e, a) => a.weight * 2 }).weightType, 'float64');
});

test('undirected option stores every edge both ways', async (t) => {
  const g = new DirectedGraph();
  g.mergeEdge('a', 'b');
  g.mergeEdge('b', 'c');
  g.mergeEdge('c', 'b');
  const graph = fromGraphology(g, { undirected: true });
  t.false(graph.directed);
  t.is(graph.numEdges, 4);
  const bfs = await run(graph, 'bfs', { source: 'c', topology: TOPO });
  t.is(bfs.get('a'), 2);
});

test('generate mirrors tessera generate: same edges as loadGraph, options form = spec form', async (t) => {
  const a = generate('rmat:10');
  const { graph: b } = await loadGraph('rmat:10');
  sameGraph(t, a, b);
  t.is(a.source, 'rmat:10:ef=16:seed=1');

  sameGraph(t, generate({ kind: 'rmat', scale: 9, weighted: true, seed: 4, edgeFactor: 8 }), generate('rmat:9:ef=8:seed=4:weighted'));
  const u = generate({ kind: 'uniform', scale: 8, undirected: true, pageEdges: 256 });
  t.false(u.directed);
  t.true(u.out.pages.length > 1);
  sameGraph(t, u, (await loadGraph('uniform:8', { undirected: true, pageEdges: 256 })).graph);
  sameGraph(t, generate('uniform:8', { undirected: true, pageEdges: 256 }), u);

  for (const bad of [{ kind: 'rmat', scale: 0 }, { kind: 'rmat', scale: 5, seed: -1 }, { kind: 'rmat', scale: 5, a: 0.9, b: 0.2 }, { kind: 'tree', scale: 3 }]) {
    t.throws(() => generate(bad as Parameters<typeof generate>[0] & object), { instanceOf: TesseraError }, JSON.stringify(bad));
  }
  t.throws(() => generate('foo:3'), { instanceOf: TesseraError });
  t.throws(() => generate('rmat:4', { pageEdges: 0 }), { instanceOf: TesseraError });
});

function sameGraph(t: import('ava').ExecutionContext, a: Graph, b: Graph): void {
  t.is(a.numVertices, b.numVertices);
  t.is(a.numEdges, b.numEdges);
  t.is(a.directed, b.directed);
  t.is(a.weightType, b.weightType);
  t.deepEqual(a.ids.toOriginal, b.ids.toOriginal);
  t.is(a.out.pages.length, b.out.pages.length);
  for (let i = 0; i < a.out.pages.length; i++) {
    t.deepEqual(pageView(a.out.pages[i]!), pageView(b.out.pages[i]!));
  }
}

test("the README's From graphology example runs as written", async (t) => {
  // ---- README.md, Library, "From graphology" (topology auto, as there) ----
  const g = new DirectedGraph();
  g.mergeEdge('alice', 'bob', { weight: 2 });
  g.mergeEdge('bob', 'carol', { weight: 1 });
  g.mergeEdge('alice', 'carol', { weight: 5 });
  g.addNode('dave'); // isolated

  const graph = fromGraphology(g); // keys -> ids 0..n-1, weights from 'weight'
  const pr = await run(graph, 'pr');
  pr.assign(g, 'pagerank'); // node attribute 'pagerank' on every node
  const sp = await run(graph, 'sssp', { source: 'alice' });
  sp.get('carol'); // 3 (unreachable: Infinity; bfs: -1)
  const distances = Object.fromEntries(sp.entries()); // { alice: 0, bob: 2, carol: 3, dave: Infinity }
  // ---- end of the example ----
  t.is(sp.get('carol'), 3);
  t.deepEqual(distances, { alice: 0, bob: 2, carol: 3, dave: Infinity });
  const ranks = g.mapNodes((_k, a) => a.pagerank as number);
  t.true(Math.abs(ranks.reduce((x, y) => x + y, 0) - 1) < 1e-12);
  t.true(g.getNodeAttribute('carol', 'pagerank') > g.getNodeAttribute('alice', 'pagerank'));
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  for (const line of ["const graph = fromGraphology(g);", "pr.assign(g, 'pagerank');", "const sp = await run(graph, 'sssp', { source: 'alice' });", "const distances = Object.fromEntries(sp.entries());"]) {
    t.true(readme.includes(line), `README shows: ${line}`);
  }
});

test('tessera never loads graphology: no reference in the emitted JavaScript or declarations', async (t) => {
  for (const f of ['graphology.js', 'graphology.d.ts', 'api.js', 'api.d.ts', 'index.js', 'index.d.ts']) {
    const text = await readFile(new URL(`../src/${f}`, import.meta.url), 'utf8');
    t.notRegex(text, /(from\s+|require\(\s*|import\(\s*)['"]graphology/, f);
  }
});

test('PROGRAM_NAMES lists exactly the programs and aliases run knows', (t) => {
  t.deepEqual([...PROGRAM_NAMES].sort(), PROGRAMS.flatMap((p) => [p.name, ...(p.aliases ?? [])]).sort());
  t.true(PROGRAM_NAMES.includes('pagerank') && PROGRAM_NAMES.includes('betweenness'));
});

/**
 * Compile-time checks (never called): tsc fails on an unused @ts-expect-error, so each line
 * below must stay a type error.
 */
export function typeChecks(keyed: KeyedGraph, plain: Graph, typed: AbstractGraph<{ name: string }, { cost: number }>): void {
  const _asLike: GraphologyLike = new UndirectedGraph();
  const _multi: GraphologyLike = new MultiDirectedGraph<{ name: string }, { w: number }>();
  void [_asLike, _multi];
  fromGraphology(typed, { getEdgeWeight: 'cost' });
  fromGraphology(typed, { getEdgeWeight: (_e, attrs) => attrs.cost * 2 });
  // @ts-expect-error -- not an edge attribute of this graph
  fromGraphology(typed, { getEdgeWeight: 'weight' });
  void run(keyed, 'bfs', { source: 'alice' }).then((r) => r.get('bob'));
  // @ts-expect-error -- a keyed graph takes node keys
  void run(keyed, 'bfs', { source: 0 });
  void run(plain, 'bfs', { source: 0 }).then((r) => {
    // @ts-expect-error -- a plain graph's vertices are original ids
    r.get('bob');
    // @ts-expect-error -- only keyed results write into graphology
    r.assign(new DirectedGraph(), 'x');
  });
  // @ts-expect-error -- a misspelt program name
  void run(plain, 'pagernak');
  // @ts-expect-error -- bfs needs a source
  void run(plain, 'bfs');
  // @ts-expect-error -- bfs takes no damping
  void run(plain, 'bfs', { source: 0, damping: 0.85 });
  void run(plain, 'bfs', { source: 0 }).then((r) => {
    const depths: Int32Array = r.values;
    // @ts-expect-error -- bfs depths are integers, not a Float64Array
    const ranks: Float64Array = r.values;
    void [depths, ranks];
  });
  void run(plain, 'pagerank').then((r) => {
    const ranks: Float64Array = r.values;
    void ranks;
  });
  // with a Graphalytics graph's defaults every parameter may come from its .properties
  void run(plain, 'bfs', { defaults: {} });
  // @ts-expect-error -- a, b, c are RMAT parameters
  generate({ kind: 'uniform', scale: 4, a: 0.5 });
}
