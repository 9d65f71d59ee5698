/**
 * Shortest paths from bfs and sssp results: RunResult.parent / pathTo / parents and
 * `tessera run --parents`. Every path starts at the source, follows stored edges, and has the
 * vertex's depth (edges) or distance (the sum of its weights, exactly); unreachable vertices have
 * none; zero-weight cycles do not loop; node keys on graphs from graphology; clear errors for
 * programs without paths and for --parents without --out.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DirectedGraph } from 'graphology';
import { buildGraph, fromGraphology, generate, run, TesseraError, type Graph as TGraph, type Topology } from '../src/index.js';
import { tempDir, tessera } from './helpers/cli.js';
import { rawFrom } from './helpers/raw.js';

const ONE: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };

/** The weight of edge a -> b (original ids), or undefined. */
function edgeWeight(g: TGraph, a: number, b: number): number | undefined {
  const { toOriginal, byOriginal } = g.ids;
  const idx = (o: number): number => byOriginal[[...byOriginal].findIndex((v) => toOriginal[v] === o)]!;
  const u = idx(a);
  const v = idx(b);
  for (const p of g.out.pages) {
    if (u < p.vBegin || u >= p.vEnd) continue;
    const [lo, hi] = p.split ? [0, p.edges] : [p.offsets[u - p.vBegin]!, p.offsets[u - p.vBegin + 1]!];
    for (let e = lo; e < hi; e++) if (p.nbrs[e] === v) return p.weights === undefined ? 1 : p.weights[e]!;
  }
  return undefined;
}

test('bfs and sssp: every path starts at the source, follows edges, and has the depth / distance', async (t) => {
  for (const g of [generate('rmat:9:ef=8:weighted'), generate('rmat:9:ef=8:weighted', { pageEdges: 32 })]) {
    const source = g.ids.toOriginal[0]!;
    for (const algo of ['bfs', 'sssp'] as const) {
      const r = await run(g, algo, { source, topology: ONE });
      t.is(r.parent(source), undefined);
      t.deepEqual(r.pathTo(source), [source]);
      let reached = 0;
      for (const [v, x] of r.entries()) {
        const p = r.pathTo(v);
        const unreachable = algo === 'bfs' ? x === -1 : x === Infinity;
        if (unreachable) {
          t.is(p, undefined);
          t.is(r.parent(v), undefined);
          continue;
        }
        reached++;
        t.is(p![0], source);
        t.is(p![p!.length - 1], v);
        if (v !== source) t.is(r.parent(v), p![p!.length - 2]);
        let sum = 0;
        for (let i = 1; i < p!.length; i++) {
          const w = edgeWeight(g, p![i - 1]!, p![i]!);
          if (w === undefined) return t.fail(`${algo}: ${p![i - 1]} -> ${p![i]} is not an edge`);
          sum = algo === 'bfs' ? sum + 1 : sum + w;
        }
        t.is(sum, x, `${algo}: length of the path to ${v}`);
      }
      t.true(reached > 100, `${algo}: many reachable vertices`);
    }
  }
});

test('zero-weight cycles do not loop; the parents array names the source itself and -1 for unreachable', async (t) => {
  const g = buildGraph(rawFrom([[1, 2, 0], [2, 1, 0], [2, 3, 0], [3, 4, 2.5], [9, 8, 1]], { weighted: true }));
  const r = await run(g, 'sssp', { source: 1, topology: ONE });
  t.deepEqual(r.pathTo(4), [1, 2, 3, 4]);
  t.deepEqual(r.pathTo(2), [1, 2]);
  t.is(r.get(4), 2.5);
  t.is(r.pathTo(8), undefined);
  const par = r.parents();
  const internal = (o: number): number => [...g.ids.toOriginal].indexOf(o);
  t.is(par[internal(1)], internal(1));
  t.is(par[internal(9)], -1);
});

test('node keys on a graph from graphology', async (t) => {
  const G = new DirectedGraph();
  for (const [a, b] of [['ann', 'bob'], ['bob', 'cy'], ['ann', 'dee'], ['dee', 'cy'], ['cy', 'eve']]) G.mergeEdge(a, b);
  G.addNode('zed');
  const r = await run(fromGraphology(G), 'bfs', { source: 'ann', topology: ONE });
  const p = r.pathTo('eve')!;
  t.is(p.length, 4);
  t.is(p[0], 'ann');
  t.is(p[3], 'eve');
  t.true(p[1] === 'bob' || p[1] === 'dee');
  t.is(r.pathTo('zed'), undefined);
});

test('paths of a program without depths or distances are a clear error', async (t) => {
  const r = await run(generate('rmat:8'), 'wcc', { topology: ONE });
  const e = t.throws(() => r.pathTo(r.graph.ids.toOriginal[0]!), { instanceOf: TesseraError });
  t.regex(e!.message, /paths need a run whose output is a depth or a distance/);
});

test('tessera run --parents: a third column of parents; refused without --out and for wcc', async (t) => {
  const dir = await tempDir('paths');
  const out = path.join(dir, 'bfs.txt');
  const r = await tessera(['run', '--algo', 'bfs', '--graph', 'rmat:8', '--source', '0', '--parents', '--out', out, '--topology', 'configs/1S.yaml', '-q']);
  t.is(r.code, 0, r.stderr);
  const rows = (await readFile(out, 'utf8')).trim().split('\n').map((l) => l.split(' ').map(Number));
  const depth = new Map(rows.map(([v, d]) => [v!, d!]));
  for (const [v, d, p] of rows) {
    if (v === 0) t.is(p, 0, 'the source is its own parent');
    else if (d === 9223372036854775807) t.is(p, -1);
    else t.is(depth.get(p!), d! - 1, `parent of ${v} one level up`);
  }
  const noOut = await tessera(['run', '--algo', 'bfs', '--graph', 'rmat:8', '--source', '0', '--parents', '-q']);
  t.is(noOut.code, 1);
  t.regex(noOut.stderr, /--parents adds a column to the --out file/);
  const wcc = await tessera(['run', '--algo', 'wcc', '--graph', 'rmat:8', '--parents', '--out', out]);
  t.is(wcc.code, 1);
  t.regex(wcc.stderr, /--parents needs a program whose output is a depth or a distance/);
  t.is(wcc.stderr.trim().split('\n').length, 1, 'one line');
});
