import test from 'ava';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { GRAPHALYTICS } from './helpers/paths.js';
import type { Graph } from '../src/graph/types.js';
import { flatten, undirectedCsr } from '../src/programs/adjacency.js';
import { referenceBetweenness } from '../src/programs/bc/reference.js';
import { referenceBfs } from '../src/programs/bfs/reference.js';
import { referenceCdlp } from '../src/programs/cdlp/reference.js';
import { referenceLcc } from '../src/programs/lcc/reference.js';
import { referencePageRank } from '../src/programs/pr/reference.js';
import { referenceSssp } from '../src/programs/sssp/reference.js';
import { referenceWcc } from '../src/programs/wcc/reference.js';
import { bfsDepthToOutput, matchFor, outputFromInternal, type GraphalyticsAlgorithm, type Output } from '../src/programs/validate.js';
import { GRAPHALYTICS_GRAPHS, internalOf, loadGraphalytics, tinyGraph, type GraphalyticsCase, type TinyEdge } from './helpers/tiny-graph.js';

/** Runs the reference for `algo` with the graph's .properties parameters; output in original ids. */
function run(c: GraphalyticsCase, g: Graph, algo: GraphalyticsAlgorithm): Output {
  const num = (k: string): number => {
    const v = c.props.get(k);
    if (v === undefined) throw new Error(`${c.name}: no ${k} in properties`);
    return Number(v);
  };
  const ids = g.ids.toOriginal;
  switch (algo) {
    case 'BFS':
      return outputFromInternal(ids, referenceBfs(g, internalOf(g, num('bfs.source-vertex'))), bfsDepthToOutput);
    case 'PR':
      return outputFromInternal(ids, referencePageRank(g, { iterations: num('pr.num-iterations'), damping: num('pr.damping-factor') }));
    case 'SSSP':
      return outputFromInternal(ids, referenceSssp(g, internalOf(g, num('sssp.source-vertex'))));
    case 'WCC':
      return outputFromInternal(ids, referenceWcc(g));
    case 'CDLP':
      return outputFromInternal(ids, referenceCdlp(g, num('cdlp.max-iterations')));
    case 'LCC':
      return outputFromInternal(ids, referenceLcc(g));
  }
}

// The (graph, algorithm) pairs from the folder names alone; each test loads its dataset, so a
// missing or broken file fails its own tests, not the whole file at import.
const ALGORITHMS: GraphalyticsAlgorithm[] = ['BFS', 'CDLP', 'LCC', 'PR', 'SSSP', 'WCC'];
let pairs = 0;
for (const name of GRAPHALYTICS_GRAPHS) {
  let listed: string[] = [];
  try {
    listed = readdirSync(path.join(GRAPHALYTICS, name));
  } catch (e) {
    test(`graphalytics ${name}: the dataset folder is readable`, (t) => t.fail(String(e)));
  }
  for (const algo of ALGORITHMS.filter((a) => listed.includes(`${name}-${a}`))) {
    pairs++;
    test(`graphalytics ${name} ${algo}: reference matches the expected output`, (t) => {
      const c = loadGraphalytics(name);
      const g = c.graph();
      t.is(g.directed, c.directed);
      const r = matchFor(algo, c.expected(algo), run(c, g, algo));
      t.true(r.ok, r.reason);
      // Same answer when the pages are tiny and high-degree vertices span split pages.
      const paged = c.graph({ pageEdges: 2 });
      t.true(paged.out.pages.some((p) => p.split));
      t.deepEqual(run(c, paged, algo), run(c, g, algo));
    });
  }
}

test('all 24 Graphalytics (graph, algorithm) pairs are covered', (t) => {
  t.is(pairs, 24);
});

test('WCC labels are exactly the smallest original id (the expected files use that convention)', (t) => {
  for (const name of ['example-directed', 'example-undirected', 'test-wcc-directed', 'test-wcc-undirected']) {
    const c = loadGraphalytics(name);
    const g = c.graph();
    t.deepEqual(outputFromInternal(g.ids.toOriginal, referenceWcc(g)), c.expected('WCC'), name);
  }
});

test('flatten: split pages concatenate into the same CSR as one page', (t) => {
  for (const name of ['test-pr-directed', 'example-undirected']) {
    const c = loadGraphalytics(name);
    const one = c.graph();
    const many = c.graph({ pageEdges: 3 });
    t.is(one.out.pages.length, 1);
    t.true(many.out.pages.length > 3);
    for (const k of ['out', 'in'] as const) {
      const a = flatten(one[k]);
      const b = flatten(many[k]);
      t.deepEqual(b.offsets, a.offsets);
      t.deepEqual(b.nbrs, a.nbrs);
      t.deepEqual(b.weights, a.weights);
      t.is(a.nbrs.length, one.numEdges);
    }
  }
});

test('tinyGraph conforms to types.ts', (t) => {
  const g = tinyGraph([[30, 10, 2], [10, 20, 5], [10, 20, 3], [20, 20, 1]], { vertices: [40], weighted: true, pageEdges: 1 });
  t.is(g.numVertices, 4);
  t.deepEqual([...g.ids.toOriginal], [10, 20, 30, 40]);
  t.deepEqual([...g.ids.byOriginal], [0, 1, 2, 3]);
  t.is(g.numEdges, 2); // duplicate and self-loop dropped
  t.deepEqual([...g.outDegree], [1, 0, 1, 0]);
  t.deepEqual([...g.inDegree], [1, 1, 0, 0]);
  const out = flatten(g.out);
  t.deepEqual([...out.nbrs], [1, 0]);
  t.deepEqual([...out.weights!], [3, 2]); // smallest weight kept
  for (const set of [g.out, g.in]) {
    t.is(set.firstPageOf.length, 4);
    for (const p of set.pages) {
      t.true(p.buffer instanceof SharedArrayBuffer);
      t.is(p.offsets.buffer, p.buffer);
      t.is(p.offsets[0], 0);
      t.is(p.offsets[p.vEnd - p.vBegin], p.edges);
      t.is(set.pages[set.firstPageOf[p.vBegin]!]!.vBegin <= p.vBegin, true);
    }
  }
  t.true(g.outDegree.buffer instanceof SharedArrayBuffer);
  const u = tinyGraph([[1, 2]], { directed: false });
  t.is(u.in, u.out);
  t.is(u.inDegree, u.outDegree);
  t.is(u.numEdges, 2);
});

test('isolated vertices: BFS -1, SSSP Infinity, WCC own id, CDLP keeps its label, LCC 0, PR gets the base share', (t) => {
  const g = tinyGraph([[1, 2], [2, 3], [3, 1]], { vertices: [7] });
  const iso = internalOf(g, 7);
  t.is(referenceBfs(g, 0)[iso], -1);
  t.is(referenceSssp(g, 0)[iso], Infinity);
  t.is(referenceWcc(g)[iso], 7);
  t.deepEqual([...referenceWcc(g)], [1, 1, 1, 7]);
  t.is(referenceCdlp(g, 3)[iso], 7);
  t.is(referenceLcc(g)[iso], 0);
  const pr = referencePageRank(g, { iterations: 5, damping: 0.85 });
  t.true(Math.abs(pr.reduce((a, b) => a + b, 0) - 1) < 1e-12, 'ranks sum to 1 with a dangling vertex');
});

test('SSSP: zero weights and a cheaper longer path', (t) => {
  const g = tinyGraph([[0, 1, 10], [0, 2, 1], [2, 3, 0], [3, 1, 2.5], [1, 4, 0]], { weighted: true });
  t.deepEqual([...referenceSssp(g, 0)], [0, 3.5, 1, 1, 3.5]);
  t.deepEqual([...referenceSssp(g, 4)], [Infinity, Infinity, Infinity, Infinity, 0]);
});

test('LCC directed: reciprocal pairs count twice, single edges once', (t) => {
  // v=0 with neighbours 1,2 (d=2): 1->2 only gives 1/2; 1<->2 gives 2/2.
  t.is(referenceLcc(tinyGraph([[0, 1], [0, 2], [1, 2]]))[0], 0.5);
  t.is(referenceLcc(tinyGraph([[0, 1], [2, 0], [1, 2], [2, 1]]))[0], 1);
  // Undirected triangle + pendant: 2·1/(3·2) for the vertex of degree 3.
  const u = referenceLcc(tinyGraph([[0, 1], [1, 2], [0, 2], [2, 3]], { directed: false }));
  t.deepEqual([...u], [1, 1, 1 / 3, 0]);
  const nb = undirectedCsr(tinyGraph([[0, 1], [1, 0], [2, 0]]));
  t.deepEqual([...nb.nbrs.subarray(nb.offsets[0]!, nb.offsets[1]!)], [1, 2]);
});

test('CDLP directed: a neighbour linked both ways counts twice', (t) => {
  // Vertex 0: in-neighbour 5 (label 5) linked both ways -> count 2; out-neighbours 3 and 4 once each.
  const g = tinyGraph([[0, 5], [5, 0], [0, 3], [0, 4]]);
  t.is(referenceCdlp(g, 1)[internalOf(g, 0)], 5);
  // Tie (3 vs 4 for a vertex with one of each) goes to the smaller label.
  const h = tinyGraph([[0, 4], [0, 3]]);
  t.is(referenceCdlp(h, 1)[0], 3);
});

// ---- Betweenness: hand-computed graphs (networkx betweenness_centrality(normalized=False)) ----

const close = (t: import('ava').ExecutionContext, got: Float64Array, want: number[]): void => {
  t.is(got.length, want.length);
  for (let i = 0; i < want.length; i++) t.true(Math.abs(got[i]! - want[i]!) < 1e-12, `vertex ${i}: ${got[i]} vs ${want[i]}`);
};

test('betweenness: undirected path 0-1-2-3 is [0, 2, 2, 0]', (t) => {
  close(t, referenceBetweenness(tinyGraph([[0, 1], [1, 2], [2, 3]], { directed: false })), [0, 2, 2, 0]);
});

test('betweenness: undirected star with 4 leaves: centre C(4,2) = 6', (t) => {
  close(t, referenceBetweenness(tinyGraph([[0, 1], [0, 2], [0, 3], [0, 4]], { directed: false })), [6, 0, 0, 0, 0]);
});

test('betweenness: directed 4-cycle gives (n-1)(n-2)/2 = 3 each', (t) => {
  close(t, referenceBetweenness(tinyGraph([[0, 1], [1, 2], [2, 3], [3, 0]])), [3, 3, 3, 3]);
});

test('betweenness: directed path and undirected 4-cycle (split shortest paths)', (t) => {
  close(t, referenceBetweenness(tinyGraph([[0, 1], [1, 2]])), [0, 1, 0]);
  close(t, referenceBetweenness(tinyGraph([[0, 1], [1, 2], [2, 3], [3, 0]], { directed: false })), [0.5, 0.5, 0.5, 0.5]);
  // Diamond 0->{1,2}->3: each middle vertex carries half of the single pair (0,3).
  close(t, referenceBetweenness(tinyGraph([[0, 1], [0, 2], [1, 3], [2, 3]])), [0, 0.5, 0.5, 0]);
});

test('betweenness: a source list sums per-source dependencies', (t) => {
  const g = tinyGraph([[0, 1], [1, 2], [2, 3], [1, 4], [4, 3], [3, 5]], { directed: false });
  const all = referenceBetweenness(g);
  const sum = new Float64Array(g.numVertices);
  for (let s = 0; s < g.numVertices; s++) referenceBetweenness(g, [s]).forEach((x, i) => (sum[i]! += x));
  close(t, sum, [...all]);
  // From source 0 alone on the path 0-1-2-3: dependencies 2, 1 on vertices 1, 2, halved.
  close(t, referenceBetweenness(tinyGraph([[0, 1], [1, 2], [2, 3]], { directed: false }), [0]), [0, 1, 0.5, 0]);
  t.throws(() => referenceBetweenness(g, [99]), { instanceOf: RangeError });
});

test('betweenness agrees with graphology-metrics on random graphs', async (t) => {
  const { DirectedGraph, UndirectedGraph } = await import('graphology');
  const { default: betweenness } = (await import('graphology-metrics/centrality/betweenness.js')) as unknown as {
    default: (g: unknown, o: { normalized: boolean; getEdgeWeight: null }) => Record<string, number>;
  };
  let x = 12345;
  const rnd = (k: number): number => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x % k;
  };
  for (const directed of [true, false]) {
    for (let trial = 0; trial < 3; trial++) {
      const n = 30;
      const edges: TinyEdge[] = [];
      for (let i = 0; i < 70; i++) edges.push([rnd(n), rnd(n)]);
      const g = tinyGraph(edges, { directed, vertices: Array.from({ length: n }, (_, i) => i) });
      const G = directed ? new DirectedGraph({ allowSelfLoops: false }) : new UndirectedGraph({ allowSelfLoops: false });
      for (let i = 0; i < n; i++) G.addNode(String(i));
      for (const [a, b] of edges) if (a !== b) G.mergeEdge(String(a), String(b));
      const want = betweenness(G, { normalized: false, getEdgeWeight: null });
      close(t, referenceBetweenness(g), Array.from({ length: n }, (_, i) => want[String(i)]!));
    }
  }
});
