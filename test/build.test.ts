import test from 'ava';
import { buildGraph } from '../src/graph/build.js';
import { forEachEdge } from '../src/graph/pages.js';
import type { Graph, PageSet } from '../src/graph/types.js';
import { rawFrom } from './helpers/raw.js';

/** Edge set of a page set in original ids: "a>b:w" strings, sorted. */
function edgesOf(g: Graph, set: PageSet): string[] {
  const out: string[] = [];
  forEachEdge(set, (v, u, w) => {
    const a = g.ids.toOriginal[v]!;
    const b = g.ids.toOriginal[u]!;
    out.push(set.orientation === 'out' ? `${a}>${b}:${w}` : `${b}>${a}:${w}`);
  });
  return out.sort();
}

function randomEdges(n: number, m: number, seed: number, maxW = 0): Array<[number, number, number]> {
  let x = seed;
  const rnd = (): number => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x / 0x80000000;
  };
  const e: Array<[number, number, number]> = [];
  for (let i = 0; i < m; i++) {
    // Skewed: vertex 0 gets many edges so it spans several pages.
    const s = rnd() < 0.3 ? 0 : Math.floor(rnd() * n);
    e.push([s * 7 + 3, Math.floor(rnd() * n) * 7 + 3, maxW ? 1 + Math.floor(rnd() * maxW) : 1]);
  }
  return e;
}

function expected(edges: Array<[number, number, number]>, directed: boolean): string[] {
  const best = new Map<string, number>();
  for (const [s, d, w] of edges) {
    if (s === d) continue;
    for (const [a, b] of directed ? [[s, d]] : [[s, d], [d, s]]) {
      const k = `${a}>${b}`;
      best.set(k, Math.min(best.get(k) ?? Infinity, w));
    }
  }
  return [...best].map(([k, w]) => `${k}:${w}`).sort();
}

for (const directed of [true, false]) {
  for (const renumber of ['degree', 'none'] as const) {
    test(`build ${directed ? 'directed' : 'undirected'} renumber=${renumber}: pages hold exactly the deduplicated edges`, (t) => {
      const edges = randomEdges(200, 3000, 7, 9);
      const g = buildGraph(rawFrom(edges, { directed, weighted: true }), { pageEdges: 64, renumber });
      const want = expected(edges, directed);
      t.deepEqual(edgesOf(g, g.out), want);
      t.deepEqual(edgesOf(g, g.in), want);
      t.is(g.numEdges, want.length);
      t.true(g.out.pages.some((p) => p.split), 'the hub spans several pages');
      for (const p of g.out.pages) t.true(p.edges <= 64);
      if (!directed) t.is(g.in, g.out);
      // Sorted, duplicate-free neighbour lists.
      for (const set of [g.out, g.in]) {
        for (const p of set.pages) {
          for (let i = 0; i < p.vEnd - p.vBegin; i++) {
            for (let e = p.offsets[i]! + 1; e < p.offsets[i + 1]!; e++) t.true(p.nbrs[e - 1]! < p.nbrs[e]!);
          }
        }
      }
    });
  }
}

test('degree renumbering puts high-degree vertices first and ids map back', (t) => {
  const edges: Array<[number, number]> = [[10, 20], [30, 20], [40, 20], [50, 20], [10, 30]];
  const g = buildGraph(rawFrom(edges), { renumber: 'degree' });
  t.is(g.numVertices, 5);
  t.is(g.ids.toOriginal[0], 20);
  t.deepEqual([...g.ids.byOriginal].map((i) => g.ids.toOriginal[i]), [10, 20, 30, 40, 50]);
  t.is(g.inDegree[0], 4);
});

test('isolated vertices from a vertex list exist; sparse huge ids work', (t) => {
  const big = 4_000_000_000;
  const g = buildGraph(rawFrom([[big, 5]], { vertices: [5, 7, big] }));
  t.is(g.numVertices, 3);
  t.deepEqual([...g.ids.byOriginal].map((i) => g.ids.toOriginal[i]), [5, 7, big]);
  t.is(g.numEdges, 1);
});
