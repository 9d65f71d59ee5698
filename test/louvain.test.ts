/**
 * The louvain built-in: the engine equals its serial reference (the same algorithm in plain
 * loops) on skewed and uniform graphs, directed and undirected, weighted, with isolated vertices
 * and pages split under hubs, on one thread, two threads and two sockets; its `modularity` note
 * is the modularity of its labels computed here from the edge list (networkx's formula); its
 * modularity reaches the classic sequential Louvain's and graphology-communities-louvain's on
 * random graphs, and networkx louvain_communities' (test/data/oracles/networkx.json) on the
 * Graphalytics and SNAP graphs; bad parameters and weights are one-line errors; beside an emulated
 * GPU (a share, all of it, RAND ranges, two sockets) the synchronous path gives the same labels.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGraph, generate, loadGraph, openSession, run, type Graph, type RunOptions, type RunReport, type Topology } from '../src/index.js';
import { nativeAvailable } from '../actors/gpu/native.js';
import { nativeCpuKernels } from '../actors/gpu/native-host.js';
import { AGGREGATE_BLOCK, aggregateSerial, classOrder, moveOrdered, moveOrderedSerial, relabel, sequentialRounds, undirectedView } from '../src/programs/louvain/serial.js';
import { TesseraError } from '../src/errors.js';
import { fillVertices, type FillState } from '../src/engine/csr-fill.js';
import { louvain } from '../src/programs/index.js';
import { referenceLouvain, sequentialLouvain } from '../src/programs/louvain/reference.js';
import { outCsr } from './helpers/references.js';
import { rawFrom } from './helpers/raw.js';

const topo = (threads: number[], gpus: Topology['gpus'] = []): Topology => ({ name: `${threads.length}S${gpus.length}G`, source: 'test', sockets: threads.map((t, id) => ({ id, threads: t })), gpus, interconnect: {}, model: {} });
const TOPOLOGIES = [topo([1]), topo([2]), topo([1, 1])];
const ONE = topo([2]);
const EMULATED = { device: 0, emulated: true, streams: 2 };
const GPU_RUNS: ReadonlyArray<readonly [Topology, RunOptions]> = [
  [topo([1], [EMULATED]), { gpuShare: 0.5 }],
  [topo([1], [EMULATED]), { gpuShare: 1 }],
  [topo([1, 1], [EMULATED]), { gpuShare: 0.4, partition: 'rand' }],
];
const native = nativeAvailable().ok;

/** Edges the GPU actors walked over a run. */
function gpuEdges(r: RunReport): number {
  return r.steps.reduce((a, s) => a + s.actors.filter((x) => x.kind === 'gpu').reduce((b, x) => b + x.edges, 0), 0);
}
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/data');

/**
 * networkx `modularity` of the labels on the undirected view, from the out-lists alone: one link
 * per linked pair with the smaller arc weight, Q = Σ_c [L_c / m - γ (d_c / 2m)^2].
 */
function modularityOf(g: Graph, labels: ArrayLike<number>, resolution = 1): number {
  const { n, offsets, nbrs, weights } = outCsr(g);
  const link = new Map<number, number>();
  for (let v = 0; v < n; v++) {
    for (let e = offsets[v]!; e < offsets[v + 1]!; e++) {
      const u = nbrs[e]!;
      const key = Math.min(u, v) * n + Math.max(u, v);
      const w = weights === undefined ? 1 : weights[e]!;
      link.set(key, Math.min(link.get(key) ?? Infinity, w));
    }
  }
  const degree = new Map<number, number>();
  let m = 0;
  let inside = 0;
  for (const [key, w] of link) {
    const a = Math.floor(key / n);
    const b = key % n;
    m += w;
    if (labels[a] === labels[b]) inside += w;
    degree.set(labels[a]!, (degree.get(labels[a]!) ?? 0) + w);
    degree.set(labels[b]!, (degree.get(labels[b]!) ?? 0) + w);
  }
  if (m === 0) return 0;
  let q = inside / m;
  for (const d of degree.values()) q -= resolution * (d / (2 * m)) ** 2;
  return q;
}

function lcg(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
}

/** Skewed or uniform edges over ids 3i+1, some weights zero, a chain and isolated vertices. */
function graphOf(kind: 'skewed' | 'uniform', directed: boolean, weighted: boolean): Graph {
  const rnd = lcg(directed ? 11 : 12);
  const n = 300;
  const pick = (): number => Math.floor((kind === 'skewed' ? rnd() ** 3 : rnd()) * n) * 3 + 1;
  const list: Array<[number, number, number]> = [];
  for (let i = 0; i < (kind === 'skewed' ? 2400 : 1200); i++) {
    const r = rnd();
    list.push([pick(), pick(), r < 0.05 ? 0 : r < 0.3 ? Math.ceil(r * 10) : r * 4]);
  }
  for (let i = 0; i < 12; i++) list.push([3 * n + 20 + 2 * i, 3 * n + 22 + 2 * i, 0.5 + (i % 3)]);
  return buildGraph(rawFrom(list, { directed, vertices: [0, 3 * n + 2, 3 * n + 5], weighted }), { pageEdges: 64 });
}

for (const kind of ['skewed', 'uniform'] as const) {
  for (const directed of [true, false]) {
    for (const weighted of [true, false]) {
      test(`${kind} ${directed ? 'directed' : 'undirected'} ${weighted ? 'weighted' : 'unweighted'}: labels equal the reference on 1 and 2 threads and 2 sockets, on both level-0 paths; the note is their modularity`, async (t) => {
        const g = graphOf(kind, directed, weighted);
        if (kind === 'skewed') t.true(g.out.pages.some((p) => p.split), 'a hub spans pages');
        // Level 0 on the coordinator (the default on graphs this small) and synchronous on the sockets.
        for (const inlineEdges of [undefined, 0]) {
          const want = referenceLouvain(g, 1, inlineEdges);
          const q = modularityOf(g, want);
          t.true(q > 0.2, `modularity ${q}`);
          // The synchronous path also beside an emulated GPU (a share, all of it, RAND ranges).
          const gpuRuns = inlineEdges === 0 && native ? GPU_RUNS : [];
          for (const [topology, extra] of [...TOPOLOGIES.map((x) => [x, {}] as const), ...gpuRuns]) {
            const r = await run(g, louvain, { topology, ...extra, ...(inlineEdges !== undefined ? { inlineEdges } : {}) });
            const name = `${topology.name} ${JSON.stringify(extra)}, inlineEdges ${inlineEdges}`;
            if (topology.gpus.length > 0) t.true(gpuEdges(r.report) > 0, `${name}: the GPU evaluated vertices`);
            t.deepEqual([...r.values], [...want], name);
            t.true(Math.abs((r.report.notes.modularity as number) - q) < 1e-12, `${name}: note ${r.report.notes.modularity} vs ${q}`);
            t.true((r.report.notes.levels as number) >= 1);
            // Every label is the smallest original id of its community.
            const low = new Map<number, number>();
            r.values.forEach((l, v) => low.set(l, Math.min(low.get(l) ?? Infinity, g.ids.toOriginal[v]!)));
            for (const [l, m] of low) t.is(l, m);
            t.is(r.report.notes.communities, low.size);
          }
        }
      });
    }
  }
}

test('random graphs: modularity at least that of the classic sequential Louvain and of graphology-communities-louvain (median of 5 seeds)', async (t) => {
  const require = createRequire(import.meta.url);
  const Graphology = require('graphology') as new (o: object) => { addNode(k: number): void; mergeEdge(a: number, b: number): void };
  const glv = require('graphology-communities-louvain') as { detailed(g: unknown, o: object): { modularity: number } };
  for (const spec of ['rmat:12', 'rmat:13:ef=4', 'uniform:12:ef=8']) {
    const g = generate(spec, { undirected: spec.startsWith('uniform') });
    const r = await run(g, louvain, { topology: ONE });
    const q = modularityOf(g, r.values);
    const sync = modularityOf(g, (await run(g, louvain, { topology: ONE, inlineEdges: 0 })).values);
    const seq = modularityOf(g, sequentialLouvain(g, 1));
    const G = new Graphology({ type: 'undirected' });
    for (let v = 0; v < g.numVertices; v++) G.addNode(v);
    const { offsets, nbrs } = outCsr(g);
    for (let v = 0; v < g.numVertices; v++) for (let e = offsets[v]!; e < offsets[v + 1]!; e++) G.mergeEdge(v, nbrs[e]!);
    const qs = [1, 2, 3, 4, 5].map((s) => glv.detailed(G, { rng: lcg(s) }).modularity).sort();
    t.log(`${spec}: ${q.toFixed(4)} (synchronous level 0: ${sync.toFixed(4)}), sequential ${seq.toFixed(4)}, graphology ${qs.map((x) => x.toFixed(4)).join(' ')}`);
    for (const [path, x] of [['default', q], ['synchronous', sync]] as const) {
      t.true(x >= seq - 0.002, `${spec} ${path}: ${x} vs sequential ${seq}`);
      t.true(x >= qs[2]! - 0.002, `${spec} ${path}: ${x} vs graphology ${qs[2]}`);
    }
  }
});

interface Oracle {
  vertices: number;
  louvain: { min: number; median: number };
}
const ORACLES = (JSON.parse(readFileSync(path.join(DATA, 'oracles/networkx.json'), 'utf8')) as { graphs: Record<string, Oracle> }).graphs;

for (const [name, o] of Object.entries(ORACLES)) {
  test(`networkx louvain_communities on ${name}: modularity at least its median over 5 seeds`, async (t) => {
    const [kind, file] = name.split('/') as [string, string];
    const g = (await loadGraph(kind === 'graphalytics' ? path.join(DATA, kind, file) : path.join(DATA, kind, `${file}.txt.gz`), { undirected: file.startsWith('facebook') })).graph;
    const r = await run(g, louvain, { topology: ONE });
    const q = modularityOf(g, r.values);
    t.true(Math.abs((r.report.notes.modularity as number) - q) < 1e-12);
    t.true(q >= o.louvain.median - 1e-12, `${q} vs networkx ${o.louvain.median}`);
  });
}

test('resolution: a larger one gives more communities; the note is the modularity at that resolution', async (t) => {
  const g = generate('rmat:11');
  const low = await run(g, louvain, { topology: ONE, resolution: 0.5 });
  const high = await run(g, louvain, { topology: ONE, resolution: 2 });
  t.true((high.report.notes.communities as number) > (low.report.notes.communities as number));
  t.true(Math.abs((high.report.notes.modularity as number) - modularityOf(g, high.values, 2)) < 1e-12);
  t.deepEqual([...high.values], [...referenceLouvain(g, 2)]);
});

test('graphs without edges: every vertex its own community, modularity 0', async (t) => {
  const g = buildGraph(rawFrom([], { vertices: [4, 2, 9] }));
  const r = await run(g, louvain, { topology: ONE });
  t.deepEqual([...r.entries()], [[2, 2], [4, 4], [9, 9]]);
  t.is(r.report.notes.modularity, 0);
  t.is(r.report.notes.levels, 0);
});

test('bad resolution and negative weights: one-line errors with the fix', async (t) => {
  const g = generate('rmat:8');
  for (const resolution of [0, -1, NaN, Infinity]) {
    const e = await t.throwsAsync(run(g, louvain, { topology: ONE, resolution }));
    t.true(e instanceof TesseraError);
    t.false(e!.message.includes('\n'));
    t.regex(e!.message, /resolution/);
  }
  const neg = buildGraph(rawFrom([[1, 2, 1], [2, 3, -1]], { weighted: true }));
  const e = await t.throwsAsync(run(neg, louvain, { topology: ONE }));
  t.regex(e!.message, /louvain: 2 edge weights are negative or NaN .*Fix: give non-negative weights/);
});

test("a session's runs on one graph build its undirected view once: the later runs merge nothing, the same labels and modularity", async (t) => {
  // RMAT 14 directed: its arcs (out and in) are above what merges on the coordinator, so the first
  // run merges in supersteps (louvainFill).
  const g = generate('rmat:14:weighted');
  const s = await openSession(g, { topology: ONE, preload: ['louvain'] });
  try {
    const fills = (r: { report: RunReport }) => r.report.steps.filter((x) => x.kernel === 'louvainFill').length;
    const first = await s.run('louvain', {});
    t.is(fills(first), 2, 'the first run counts and fills the view');
    await s.run('bfs', { source: g.ids.toOriginal[0]! });
    for (let i = 0; i < 2; i++) {
      const again = await s.run('louvain', {});
      t.is(fills(again), 0, `run ${i + 2} merges nothing`);
      t.deepEqual([...again.values], [...first.values]);
      t.is(again.report.notes.modularity, first.report.notes.modularity);
    }
  } finally {
    await s.close();
  }
});

test('the sequential rounds on the vertices with neighbours alone end as on every vertex', (t) => {
  for (const [g0, resolution] of [[generate('rmat:12'), 1], [generate('rmat:12:weighted'), 1.2], [graphOf('skewed', true, true), 0.8]] as const) {
    const g = undirectedView(g0);
    const m2 = g.k.reduce((a, b) => a + b, 0);
    let lone = 0;
    for (let v = 0; v < g.n; v++) if (g.off[v + 1] === g.off[v]) lone++;
    t.true(lone > 0, 'vertices without neighbours');
    const all = sequentialRounds(g, resolution, m2, false);
    const some = sequentialRounds(g, resolution, m2);
    t.true(all.levels > 1);
    t.deepEqual(some, all);
  }
});

test('the coarse graph summed in blocks: the same lists in the same order, weights to rounding (exact on unit weights)', (t) => {
  for (const [g0, exact] of [[generate('rmat:12:weighted'), false], [generate('rmat:11'), true]] as const) {
    const g = undirectedView(g0);
    const m2 = g.k.reduce((a, b) => a + b, 0);
    const a = { comm: new Uint32Array(g.n).map((_, i) => i), tot: g.k.slice(), size: new Uint32Array(g.n).fill(1) };
    moveOrderedSerial(g, a.comm, a.tot, a.size, classOrder(g.n), 1, m2);
    const C = relabel(a.comm);
    // One block a community (plain sums) against blocks of 1 entry and of 37.
    const plain = aggregateSerial(g, a.comm, C, 2 ** 40);
    for (const block of [1, 37]) {
      const got = aggregateSerial(g, a.comm, C, block);
      t.deepEqual([got.off, got.adj], [plain.off, plain.adj], `blocks of ${block}: lists`);
      const close = (x: Float64Array, y: Float64Array): boolean => x.every((v, i) => (exact ? v === y[i] : Math.abs(v - y[i]!) <= 1e-12 * Math.max(1, Math.abs(v))));
      t.true(close(got.wt!, plain.wt!) && close(got.k, plain.k) && close(got.loop, plain.loop), `blocks of ${block}: sums`);
      // The coarse graph's total weight is the view's.
      const sum = (x: Float64Array): number => x.reduce((p, v) => p + v, 0);
      t.true(Math.abs(sum(got.wt!) + sum(got.loop) - m2) <= 1e-9 * m2);
    }
  }
});

(native ? test : test.skip)("the addon's serial passes (aggregate, moveOrdered) leave the TypeScript's arrays to the bit, on every level", (t) => {
  t.truthy(nativeCpuKernels()?.louvainAggregate && nativeCpuKernels()?.louvainMoveOrdered);
  for (const g0 of [generate('rmat:12'), generate('rmat:12:weighted'), graphOf('skewed', true, true), graphOf('uniform', false, false)]) {
    let g = undirectedView(g0);
    const m2 = g.k.reduce((a, b) => a + b, 0);
    for (let level = 0; g.n > 1; level++) {
      const init = (): { comm: Uint32Array; tot: Float64Array; size: Uint32Array } => ({ comm: new Uint32Array(g.n).map((_, i) => i), tot: g.k.slice(), size: new Uint32Array(g.n).fill(1) });
      const order = level === 0 ? classOrder(g.n) : new Uint32Array(g.n).map((_, i) => i);
      const [a, b] = [init(), init()];
      const ra = moveOrderedSerial(g, a.comm, a.tot, a.size, order, 1.3, m2);
      const rb = moveOrdered(g, b.comm, b.tot, b.size, order, 1.3, m2);
      t.deepEqual([b.comm, b.tot, b.size, rb], [a.comm, a.tot, a.size, ra], `level ${level}: moves`);
      const C = relabel(a.comm);
      if (C === g.n) break;
      // Above the native threshold on the first level only: force both ways through the two functions.
      const want = aggregateSerial(g, a.comm, C);
      const got = nativeCpuKernels()!.louvainAggregate!(g.off, g.adj, g.wt ?? null, g.k, g.loop, a.comm, C, AGGREGATE_BLOCK);
      t.deepEqual([got.off, got.adj, got.wt, got.k, got.loop], [want.off, want.adj, want.wt, want.k, want.loop], `level ${level}: coarse graph`);
      // Small blocks: most communities of several, folded.
      for (const block of [1, 50]) {
        const w = aggregateSerial(g, a.comm, C, block);
        const o = nativeCpuKernels()!.louvainAggregate!(g.off, g.adj, g.wt ?? null, g.k, g.loop, a.comm, C, block);
        t.deepEqual([o.off, o.adj, o.wt, o.k, o.loop], [w.off, w.adj, w.wt, w.k, w.loop], `level ${level}: coarse graph, blocks of ${block}`);
      }
      g = want;
    }
  }
  // A few communities, each with far more entries than the C - 1 others its list can hold (its bound in the output).
  const g = undirectedView(generate('rmat:12:weighted'));
  const comm = new Uint32Array(g.n).map((_, v) => v % 5);
  t.true(g.adj.length > 5 * AGGREGATE_BLOCK, 'each community of several blocks');
  const want = aggregateSerial(g, comm, 5);
  const got = nativeCpuKernels()!.louvainAggregate!(g.off, g.adj, g.wt ?? null, g.k, g.loop, comm, 5, AGGREGATE_BLOCK);
  t.is(want.adj.length, 20);
  t.deepEqual([got.off, got.adj, got.wt, got.k, got.loop], [want.off, want.adj, want.wt, want.k, want.loop], 'five communities');
});

(native ? test : test.skip)("the view's merge and the modularity pass on the addon equal the TypeScript's: lists, weights, degrees, sums and bad weights, split hubs too", (t) => {
  t.truthy(nativeCpuKernels()?.undirectedFill && nativeCpuKernels()?.louvainIntra);
  const cases = [generate('rmat:12:weighted'), generate('rmat:11'), graphOf('skewed', true, true), graphOf('skewed', false, true), graphOf('uniform', true, false)];
  // A negative weight and a NaN: counted alike.
  const bad = graphOf('skewed', true, true);
  for (const set of [bad.out, bad.in]) for (const p of set.pages) if (p.weights !== undefined && p.edges > 3) (p.weights[1] = -2), (p.weights[2] = NaN);
  cases.push(bad);
  let split = 0;
  for (const g of cases) {
    const n = g.numVertices;
    const weighted = g.out.pages[0]!.weights !== undefined;
    split += g.out.pages.filter((p) => p.split).length + g.in.pages.filter((p) => p.split).length;
    const make = (): FillState => ({ deg: new Uint32Array(n), off: new Float64Array(n + 1), k: new Float64Array(n) });
    const [a, b] = [make(), make()];
    const badA = fillVertices(g, a, 0, n, 1, true);
    const badB = fillVertices(g, b, 0, n, 1);
    // k as numbers: a bad vertex's NaN may carry other bits.
    t.deepEqual([b.deg, [...b.k], badB], [a.deg, [...a.k], badA], 'counts');
    for (let v = 0; v < n; v++) a.off[v + 1] = a.off[v]! + a.deg[v]!;
    b.off.set(a.off);
    for (const st of [a, b]) (st.adj = new Uint32Array(a.off[n]!)), (st.wt = weighted ? new Float64Array(a.off[n]!) : undefined);
    // In two ranges, as two tasks would.
    for (const [lo, hi] of [[0, n >> 1], [n >> 1, n]]) fillVertices(g, a, lo, hi, 0, true), fillVertices(g, b, lo, hi, 0);
    t.deepEqual([b.adj, b.wt && [...b.wt]], [a.adj, a.wt && [...a.wt]], 'lists');
    // The modularity pass's inside weight on the addon, against the plain loop (to the bit).
    const label = Uint32Array.from({ length: n }, (_, v) => (v * 7) % 5);
    let want = 0;
    for (let v = 0; v < n; v++) for (let e = a.off[v]!; e < a.off[v + 1]!; e++) if (label[a.adj![e]!] === label[v]) want += a.wt === undefined ? 1 : a.wt[e]!;
    const st = new Float64Array(2);
    nativeCpuKernels()!.louvainIntra!(a.off, a.adj!, a.wt ?? null, label, 0, 0, n, st);
    t.true(Object.is(st[1], want) && st[0] === a.off[n], `inside ${st[1]} against ${want}`);
  }
  t.true(split > 0, 'hubs over split pages');
  t.true(fillVertices(bad, { deg: new Uint32Array(bad.numVertices), off: new Float64Array(bad.numVertices + 1), k: new Float64Array(bad.numVertices) }, 0, bad.numVertices, 1) > 0, 'bad weights counted');
});

(native ? test : test.skip)("the addon's batched moves (neighbours gathered on every core, choices in order) leave the serial loop's arrays to the bit", (t) => {
  const move = nativeCpuKernels()!.louvainMoveOrdered!;
  for (const g0 of [generate('rmat:12:weighted'), generate('rmat:11'), graphOf('skewed', true, true)]) {
    let g = undirectedView(g0);
    const m2 = g.k.reduce((a, b) => a + b, 0);
    for (let level = 0; level < 2; level++) {
      const init = (): { comm: Uint32Array; tot: Float64Array; size: Uint32Array } => ({ comm: new Uint32Array(g.n).map((_, i) => i), tot: g.k.slice(), size: new Uint32Array(g.n).fill(1) });
      const order = level === 0 ? classOrder(g.n) : new Uint32Array(g.n).map((_, i) => i);
      const want = init();
      const rw = moveOrderedSerial(g, want.comm, want.tot, want.size, order, 1.1, m2);
      t.true(rw.sweeps > 1, 'several sweeps');
      // Batches of 2-3 vertices (the neighbours of a batch's mover often in it), of one entry's
      // worth (one vertex each) and large ones: each ends as the serial loop.
      for (const [bv, be] of [[2, 4], [3, 1 << 20], [1, 1], [512, 64], [4096, 1 << 16]] as const) {
        const got = init();
        const rg = move(g.off, g.adj, g.wt ?? null, g.k, got.comm, got.tot, got.size, order, 1.1, m2, 200, 1e-7, bv, be);
        t.deepEqual([got.comm, got.tot, got.size, rg], [want.comm, want.tot, want.size, rw], `level ${level}, batches ${bv} / ${be}`);
      }
      const C = relabel(want.comm);
      if (C === g.n) break;
      g = aggregateSerial(g, want.comm, C);
    }
  }
});

(native ? test : test.skip)('beside a GPU: a directed graph whose view is merged in a superstep (CPU-only), both actors moving vertices, labels equal to the CPU\'s', async (t) => {
  const g = generate('rmat:14:weighted');
  t.true(g.numEdges * 2 > 1 << 18, 'above the inline merge');
  const want = await run(g, louvain, { topology: ONE, inlineEdges: 0 });
  const r = await run(g, louvain, { topology: topo([1], [EMULATED]), gpuShare: 0.5, inlineEdges: 0 });
  t.deepEqual([...r.values], [...want.values]);
  t.is(r.report.notes.modularity, want.report.notes.modularity);
  const moves = r.report.steps.filter((s) => s.kernel === 'louvainMove');
  t.true(moves.length > 2 && moves.every((s) => s.actors.some((x) => x.kind === 'gpu')));
  t.true(moves.some((s) => s.actors.some((x) => x.kind === 'cpu' && x.edges > 0)) && gpuEdges(r.report) > 0, 'both actors evaluated vertices');
  // The merge and the modularity pass ran on the socket alone.
  for (const k of ['louvainFill', 'louvainIntra']) t.true(r.report.steps.filter((s) => s.kernel === k).every((s) => s.actors.every((x) => x.kind !== 'gpu')), k);
});
