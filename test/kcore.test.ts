/**
 * The kcore built-in: the serial reference (Batagelj-Zaversnik) against coreness by its
 * definition on random small graphs (fast-check) and by hand on a hand-made graph (isolated
 * vertices, a chain, a clique with reciprocal edges, a self-loop); the engine against the
 * reference on RMAT graphs (directed, undirected, 64-edge pages so hubs span split pages) and
 * the hand-made one, on one socket, two sockets and an emulated GPU running the peel operator
 * beside a socket (one range, several ranges, every vertex); forced push and pull; by name and
 * alias in the library and the CLI. networkx's core numbers on the Graphalytics and SNAP graphs:
 * oracles.test.ts.
 */
import test from 'ava';
import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buildGraph, generate, loadGraph, openSession, run, undirectedNeighbours, type Graph, type RunReport } from '../src/index.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { writeTsr } from '../src/graph/tsr.js';
import { readTsrHeader } from '../src/graph/tsr-read.js';
import { pageBytesOf } from '../src/graph/store.js';
import { kcore } from '../src/programs/index.js';
import { referenceKcore } from '../src/programs/kcore/reference.js';
import { ALIVE_SHIFT, kcoreSelect } from '../src/programs/kcore/kernels.js';
import type { TaskOut } from '../src/engine/kernel.js';
import { GPU, ONE, TWO, withGpu } from './helpers/topologies.js';
import { CHAIN, CLIQUE, hand, HAND_VERTICES, TRIANGLE } from './helpers/hand-graph.js';
import { undirectedCsr } from './helpers/references.js';
import { csrPages, unionPages } from '../actors/gpu/pages.js';
import { rawFrom } from './helpers/raw.js';
import { removeTempDirs, tempDir, tessera } from './helpers/cli.js';

test.after.always(removeTempDirs);

const gpuTest = withGpu ? test : test.skip;

/** Coreness on the hand-made graph by original id, by hand. */
const HAND_CORE = new Map<number, number>([
  ...CLIQUE.map((v): [number, number] => [v, 4]),
  ...[...CHAIN, 300, 301].map((v): [number, number] => [v, 1]),
  ...TRIANGLE.map((v): [number, number] => [v, 2]),
  ...HAND_VERTICES.map((v): [number, number] => [v, 0]),
]);

const CASES: Array<[string, Graph]> = [
  ['rmat:10:ef=8', generate('rmat:10:ef=8')],
  ['rmat:10:ef=8 64-edge pages', generate('rmat:10:ef=8', { pageEdges: 64 })],
  ['rmat:10 undirected 64-edge pages', generate('rmat:10', { undirected: true, pageEdges: 64 })],
  ['hand-made, 3-edge pages', hand],
];

/** Coreness by the definition: the largest k whose k-core (vertices left after removing those of degree < k, repeatedly) holds v. */
function bruteCore(g: Graph): Int32Array {
  const { n, offsets, nbrs } = undirectedCsr(g);
  const core = new Int32Array(n);
  for (let k = 1; ; k++) {
    const alive = new Uint8Array(n).fill(1);
    for (let changed = true; changed; ) {
      changed = false;
      for (let v = 0; v < n; v++) {
        if (!alive[v]) continue;
        let d = 0;
        for (let e = offsets[v]!; e < offsets[v + 1]!; e++) d += alive[nbrs[e]!]!;
        if (d < k) (alive[v] = 0), (changed = true);
      }
    }
    if (!alive.includes(1)) return core;
    for (let v = 0; v < n; v++) if (alive[v]) core[v] = k;
  }
}

test('the test graphs: split pages, isolated vertices, deep cores', (t) => {
  t.true(CASES[1]![1].out.pages.some((p) => p.split) && CASES[2]![1].out.pages.some((p) => p.split), 'hubs span pages');
  t.true(hand.in.pages.some((p) => p.split) && hand.out.pages.some((p) => p.split), 'the clique spans pages in the hand-made graph');
  t.true(Math.max(...referenceKcore(CASES[0]![1])) >= 5, 'RMAT cores several levels deep');
});

test('reference: coreness by hand on the hand-made graph, by the definition on random small graphs', (t) => {
  const core = referenceKcore(hand);
  for (const [o, c] of HAND_CORE) t.is(core[hand.ids.toOriginal.indexOf(o)], c, `coreness of ${o}`);
  const edges = fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 })), { minLength: 1, maxLength: 90 });
  fc.assert(
    fc.property(edges, fc.boolean(), (es, undirected) => {
      const g = buildGraph(rawFrom(es), undirected ? { directed: false } : {});
      t.deepEqual([...referenceKcore(g)], [...bruteCore(g)]);
    }),
    { numRuns: 200 },
  );
});

for (const [label, g] of CASES) {
  test(`${label}: 1S and 2S equal the reference`, async (t) => {
    const want = [...referenceKcore(g)];
    for (const topology of [ONE, TWO]) {
      const r = await run(g, kcore, { topology });
      t.deepEqual([...r.values], want, topology.name);
      t.is(r.kind, 'int');
      t.is(r.report.notes.degeneracy, Math.max(...want));
    }
  });
  gpuTest(`${label}: 1S1G-emulated (the GPU operator peels its share) equals the reference`, async (t) => {
    // Pull forced: every peel round on the GPU too (by default sparse rounds push on the sockets).
    const r = await run(g, kcore, { topology: GPU, forceMode: 'pull' });
    t.deepEqual([...r.values], [...referenceKcore(g)]);
    // The GPU actor ran the operator on its share (not a CPU stand-in).
    const gpuSteps = r.report.steps.filter((s) => s.actors.some((a) => a.actor === 'gpu0' && (a.gpu?.calls ?? 0) > 0));
    t.true(gpuSteps.length > 0 && gpuSteps.every((s) => s.kernel === 'kcorePeel'));
    // By default every round runs on the sockets alone (no GPU row), pushes and pulls, with the same cores.
    const d = await run(g, kcore, { topology: GPU });
    t.deepEqual([...d.values], [...referenceKcore(g)]);
    const peels = d.report.steps.filter((s) => s.kernel === 'kcorePeel');
    t.true(peels.length > 0 && peels.every((s) => s.actors.every((a) => a.gpu === undefined)), 'no round on the GPU');
  });
}

test('by name and alias; the hand-made graph reads back by original id', async (t) => {
  const r = await run(hand, 'kcore', { topology: ONE });
  for (const [o, c] of HAND_CORE) t.is(r.get(o), c, `coreness of ${o}`);
  t.is(r.report.notes.degeneracy, 4);
  const a = await run(hand, 'core-number', { topology: TWO });
  t.deepEqual([...a.values], [...r.values]);
});

for (const mode of ['push', 'pull'] as const) {
  test(`forced to ${mode}: peeling runs in that mode and agrees`, async (t) => {
    for (const [label, g] of [CASES[1]!, CASES[2]!]) {
      const r = await run(g, kcore, { topology: TWO, forceMode: mode });
      t.true(r.report.steps.some((s) => s.kernel === 'kcorePeel' && s.mode === mode && s.active > 0), `${label}: a ${mode} peel`);
      t.deepEqual([...r.values], [...referenceKcore(g)], `${label} ${mode}`);
    }
  });
}

gpuTest('an emulated GPU owning several ranges (RAND pages), then every vertex (resident state)', async (t) => {
  const g = generate('rmat:10:ef=8', { pageEdges: 64 });
  const want = [...referenceKcore(g)];
  const k = await run(g, kcore, { topology: GPU, partition: 'rand' });
  t.true((k.report.partition?.gpus[0]?.ranges ?? 0) > 1, 'several ranges');
  t.deepEqual([...k.values], want, 'rand');
  // The GPU alone keeps the resident deg and core across a level's peel rounds.
  const alone = await run(g, kcore, { topology: GPU, gpuShare: 1, steal: 'off', forceMode: 'pull' });
  t.deepEqual([...alone.values], want, 'the GPU owning every vertex');
  const n = g.numVertices;
  // (Sparse rounds run on the sockets alone: no GPU row.)
  const bytes = alone.report.steps.flatMap((s) => s.actors.filter((a) => a.actor === 'gpu0' && a.gpu !== undefined).map((a) => a.gpu!.stateBytesIn));
  // Resident state kept: a round uploads at most its frontier (none where it is the last round's next flags, on the device).
  t.true(bytes.some((b) => b === 0 || b === n), `some peel rounds upload only the frontier, or nothing: ${bytes.join(',')}`);
});

test('the undirected view merged in supersteps (RMAT 14, directed): 2S equals the reference; a session keeps it, and Louvain after kcore on a weighted graph gets the weighted view', async (t) => {
  // Its arcs (out and in) are above what merges on the coordinator: two kcoreView supersteps.
  const g = generate('rmat:14:weighted');
  const want = [...referenceKcore(g)];
  const views = (r: { report: RunReport }, k: string) => r.report.steps.filter((x) => x.kernel === k).length;
  // (Another copy of the graph: views are kept per graph object.)
  const alone = await run(generate('rmat:14:weighted'), 'louvain', { topology: ONE });
  const s = await openSession(g, { topology: TWO, preload: ['kcore', 'louvain'] });
  try {
    const first = await s.run('kcore', {});
    t.deepEqual([...first.values], want);
    t.is(views(first, 'kcoreView'), 2, 'the first run counts and fills the view');
    t.true(first.report.steps.some((x) => x.kernel === 'kcorePeel' && x.mode === 'pull') && first.report.steps.some((x) => x.kernel === 'kcorePeel' && x.mode === 'push'), 'pulls and pushes');
    const again = await s.run('kcore', {});
    t.deepEqual([...again.values], want);
    t.is(views(again, 'kcoreView'), 0, 'a later run merges nothing');
    // kcore kept its view without weights: Louvain merges one with them, and labels as alone.
    const l = await s.run('louvain', {});
    t.is(views(l, 'louvainFill'), 2);
    t.deepEqual([...l.values], [...alone.values]);
    t.is(l.report.notes.modularity, alone.report.notes.modularity);
    // The weighted view serves kcore too.
    const third = await s.run('kcore', {});
    t.is(views(third, 'kcoreView'), 0);
    t.deepEqual([...third.values], want);
  } finally {
    await s.close();
  }
});

test("kcoreSelect skips a block whose alive count is 0, walks the others and writes the count of each block a task holds whole (a block split between tasks keeps its count)", (t) => {
  const B = 1 << ALIVE_SHIFT;
  const n = 3 * B + 5;
  const deg = new Int32Array(n).fill(9);
  const core = new Int32Array(n).fill(-1);
  // Block 0: two vertices left at deg 9, the rest peeled; block 1: marked empty (alive 0) although
  // a vertex there could be selected (so a walk of it would show); block 2: one vertex at deg 1.
  core.fill(3, 2, B);
  core.fill(3, B, 2 * B);
  core[B + 7] = -1;
  deg[B + 7] = 1;
  core.fill(3, 2 * B, n);
  core[2 * B + 1] = -1;
  deg[2 * B + 1] = 1;
  core[3 * B + 2] = -1;
  const alive = Int32Array.from([5, 0, 5, 5]);
  const lowest = Int32Array.of(0x7fffffff);
  const next = new Uint8Array(n);
  const out = { active: 0, edges: 0, sum: 0 } as never as TaskOut;
  const ctx = { state: { deg, core, lowest, alive, off: undefined }, args: { c: 2 }, next } as never;
  // Two tasks: [0, 2B + 512) and [2B + 512, n): block 2 split between them, block 3 partial (the last).
  kcoreSelect.vertex!(ctx, 0, 2 * B + 512, out);
  kcoreSelect.vertex!(ctx, 2 * B + 512, n, out);
  t.is(next[B + 7], 0, 'block 1 skipped');
  t.is(core[B + 7], -1);
  t.is(next[2 * B + 1], 1, 'block 2 walked');
  t.is(core[2 * B + 1], 2);
  t.deepEqual(Array.from(alive), [2, 0, 5, 5], 'block 0 counted; block 2 split and block 3 partial keep theirs');
  t.is(out.active, 1);
  t.is(out.sum, 9 * 3, "the unpeeled vertices' degrees (no CSR): blocks 0 and 3");
  t.is(lowest[0], 9);
});

test('undirectedNeighbours walks N_out(v) ∪ N_in(v) once each, ascending (split hubs too), and stops where fn says', (t) => {
  for (const [label, g] of CASES) {
    const { offsets, nbrs } = undirectedCsr(g);
    for (let v = 0; v < g.numVertices; v++) {
      const want = [...nbrs.subarray(offsets[v]!, offsets[v + 1]!)];
      const got: number[] = [];
      const read = undirectedNeighbours(g, v, (u) => void got.push(u));
      t.deepEqual(got, want, `${label}: vertex ${v}`);
      const arcs = g.outDegree[v]! + (g.in === g.out ? 0 : g.inDegree[v]!);
      t.true(read >= want.length && read <= arcs, `${label}: vertex ${v} read ${read} of ${arcs}`);
      const stop = 1 + (v % 3);
      const first: number[] = [];
      undirectedNeighbours(g, v, (u) => first.push(u) < stop);
      t.deepEqual(first, want.slice(0, stop), `${label}: vertex ${v} stopped after ${stop}`);
    }
  }
});

test("a GPU's union pages cut from the view's CSR equal those merged from its in- and out-pages (split hubs, one range and two)", (t) => {
  for (const [label, g] of [CASES[1]!, CASES[3]!, ['rmat:12 128-edge pages', generate('rmat:12', { pageEdges: 128 })] as const]) {
    const { offsets, nbrs } = undirectedCsr(g);
    const off = Float64Array.from(offsets);
    const n = g.numVertices;
    for (const ranges of [[[0, n]], [[0, n >> 2], [n >> 1, n]]] as Array<Array<[number, number]>>) {
      const cut = csrPages(off, Uint32Array.from(nbrs), ranges, g.pageEdges);
      const merged = unionPages(g.in, g.out, g.inDegree, g.outDegree, ranges, g.pageEdges);
      const shape = (ps: typeof cut) => ps.map((p) => [p.vBegin, p.vEnd, p.split, p.edges, [...p.offsets], [...p.nbrs.subarray(0, p.edges)]]);
      t.deepEqual(shape(cut), shape(merged), `${label} ${JSON.stringify(ranges)}`);
      t.true(cut.some((p) => p.split) || label.startsWith('hand'), `${label}: split pages`);
    }
  }
});

gpuTest("viewCsr: arrays of the wrong kinds are refused with one line; names the call does not pass merge the pages", async (t) => {
  const ops = kcore.operators!;
  const variant = (name: string, viewCsr: [string, string]) => ({ ...kcore, name, operators: { ...ops, program: name, kernels: { kcorePeel: { ...ops.kernels.kcorePeel!, viewCsr } } } });
  const g = CASES[0]![1];
  await t.throwsAsync(run(g, variant('kcore-swapped', ['adj', 'off']), { topology: GPU, forceMode: 'pull' }), { message: /viewCsr names 'adj' \(f64\) and 'off' \(u32\), which this call does not pass as such/ });
  const r = await run(g, variant('kcore-unnamed', ['offsets', 'nbrs']), { topology: GPU, forceMode: 'pull' });
  t.deepEqual([...r.values], [...referenceKcore(g)]);
});

test('a graph read from disk page by page gets no view (its memory stays bounded): the pages merged, equal to the reference', async (t) => {
  const dir = await tempDir('tessera-kcore-disk-');
  const g = buildGraph(generateEdges('rmat:14:ef=10:seed=3'), { pageEdges: 128 }); // above INLINE_FILL arcs: a view would be merged in supersteps
  const file = path.join(dir, 'g.tsr');
  await writeTsr(g, file);
  const { graph: stored } = await loadGraph(file, { hostMemoryLimit: Math.floor(pageBytesOf(await readTsrHeader(file)) / 8) });
  t.truthy(stored.out.stored, 'read from disk');
  const r = await run(stored, kcore, { topology: TWO });
  t.deepEqual([...r.values], [...referenceKcore(g)]);
  t.false(r.report.steps.some((s) => s.kernel === 'kcoreView'), 'no view built');
  t.true(r.report.steps.some((s) => s.kernel === 'kcorePeel' && s.mode === 'pull') && r.report.steps.some((s) => s.kernel === 'kcorePeel' && s.mode === 'push'), 'pulls and pushes');
});

test('the CLI: tessera run --algo kcore writes the coreness of every vertex', async (t) => {
  const dir = await tempDir('tessera-kcore-');
  const out = path.join(dir, 'core.txt');
  const r = await tessera(['run', '--algo', 'kcore', '--graph', 'rmat:9', '--topology', 'configs/1S.yaml', '--out', out, '-q']);
  t.is(r.code, 0, r.stderr);
  const g = generate('rmat:9');
  const want = referenceKcore(g);
  const lines = (await readFile(out, 'utf8')).trim().split('\n');
  t.is(lines.length, g.numVertices);
  for (const line of lines) {
    const [id, c] = line.split(/\s+/).map(Number) as [number, number];
    t.is(c, want[g.ids.byOriginal[id]!]!, `vertex ${id}`);
  }
});
