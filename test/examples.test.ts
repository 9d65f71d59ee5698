/**
 * The example programs (examples/mis, examples/hits), written against the public API only:
 * results against their serial references (ints exact, floats 1e-9 relative) on RMAT graphs
 * (directed, undirected, 64-edge pages so hubs span split pages) and a hand-made graph (isolated
 * vertices, a chain, a clique with reciprocal edges, a self-loop), on one socket of 2 threads and
 * two sockets of one; MIS's sets independent, maximal and greedy's in priority order, checked
 * over the test's own adjacency; both in one session; HITS by a dense matrix on the hand-made
 * graph; on emulated GPUs (their operators compiled by the host compiler) beside a socket, owning
 * one range or several (RAND); and mis copied to a folder outside the repository that sees
 * tessera only as a package, run there on a CPU and on an emulated GPU, its CUDA source included.
 */
import test, { type ExecutionContext } from 'ava';
import { copyFile, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generate, openSession, run, TesseraError, type Graph, type Topology } from 'tessera';
import { nativeAvailable } from '../actors/gpu/native.js';
import { mis } from '../examples/mis/index.js';
import { misPriority, referenceMis } from '../examples/mis/reference.js';
import { hits } from '../examples/hits/index.js';
import { referenceHits } from '../examples/hits/reference.js';
import { CLIQUE, hand, HAND_EDGES, HAND_VERTICES } from './helpers/hand-graph.js';
import { undirectedCsr } from './helpers/references.js';

const ONE: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };
const TWO: Topology = { name: '2S', source: 'test', sockets: [{ id: 0, threads: 1 }, { id: 1, threads: 1 }], gpus: [], interconnect: {}, model: {} };

/** The repository root: the folder of the package.json named tessera above this file. */
function repoRoot(): string {
  for (let d = path.dirname(fileURLToPath(import.meta.url)); d !== path.dirname(d); d = path.dirname(d)) {
    const pj = path.join(d, 'package.json');
    if (existsSync(pj) && (JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'tessera') return d;
  }
  throw new Error('no tessera package.json above ' + import.meta.url);
}


interface Case {
  label: string;
  graph: Graph;
}
const CASES: Case[] = [
  { label: 'rmat:10:ef=8', graph: generate('rmat:10:ef=8') },
  { label: 'rmat:10:ef=8 64-edge pages', graph: generate('rmat:10:ef=8', { pageEdges: 64 }) },
  { label: 'rmat:10 undirected 64-edge pages', graph: generate('rmat:10', { undirected: true, pageEdges: 64 }) },
  { label: 'hand-made, 3-edge pages', graph: hand },
];

/** Index of the first mismatch, or -1: exact, or within 1e-9 relative for floats. */
function mismatch(got: ArrayLike<number>, want: ArrayLike<number>, float: boolean): number {
  if (got.length !== want.length) return Math.min(got.length, want.length);
  for (let v = 0; v < want.length; v++) {
    const a = got[v]!;
    const b = want[v]!;
    if (float ? !(Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b))) : a !== b) return v;
  }
  return -1;
}

function same(t: ExecutionContext, got: ArrayLike<number>, want: ArrayLike<number>, float: boolean, what: string): void {
  const v = mismatch(got, want, float);
  t.is(v, -1, `${what}: vertex ${v} got ${got[v]} want ${want[v]}`);
}

interface Example {
  name: string;
  float: boolean;
  go(g: Graph, topology: Topology): ReturnType<typeof run>;
  reference(g: Graph): ArrayLike<number>;
}
const EXAMPLES: Example[] = [
  { name: 'mis', float: false, go: (g, topology) => run(g, mis, { topology }), reference: (g) => referenceMis(g, 1) },
  { name: 'hits', float: true, go: (g, topology) => run(g, hits, { iterations: 20, topology }), reference: (g) => referenceHits(g, 20) },
];

/**
 * What is wrong with `set` as MIS's result for `seed`, over the test's own adjacency, or '': a
 * member with a member neighbour (not independent), a non-member without one (not maximal), or a
 * vertex whose membership is not "no higher-priority neighbour is a member" (greedy in priority
 * order is the one set with that property).
 */
function misFault(g: Graph, set: ArrayLike<number>, seed: number): string {
  const { n, offsets, nbrs } = undirectedCsr(g);
  const prio = Array.from(g.ids.toOriginal, (id) => misPriority(id, seed));
  if (new Set(prio).size !== n) return 'priorities tie';
  for (let v = 0; v < n; v++) {
    if (set[v] !== 0 && set[v] !== 1) return `vertex ${v} is ${set[v]}`;
    let member = false;
    let higher = false;
    for (let e = offsets[v]!; e < offsets[v + 1]!; e++) {
      const u = nbrs[e]!;
      if (set[u] === 1) (member = true), (higher ||= prio[u]! > prio[v]!);
    }
    if (set[v] === 1 && member) return `members ${v} and a neighbour`;
    if (set[v] === 0 && !member) return `${v} could join`;
    if ((set[v] === 1) === higher) return `${v} is not greedy's`;
  }
  return '';
}

test('the test graphs: split pages, isolated vertices, several MIS rounds', async (t) => {
  t.true(CASES[1]!.graph.out.pages.some((p) => p.split) && CASES[2]!.graph.out.pages.some((p) => p.split), 'hubs span pages');
  t.true(hand.in.pages.some((p) => p.split) && hand.out.pages.some((p) => p.split), 'the clique spans pages in the hand-made graph');
  t.true(Number((await run(CASES[0]!.graph, mis, { topology: ONE })).report.notes.rounds) >= 3, 'RMAT takes several rounds');
});

test('the references: MIS independent, maximal and greedy (several seeds); HITS by a dense matrix', (t) => {
  for (const c of CASES) {
    for (const seed of [0, 1, 2, 0xffffffff]) t.is(misFault(c.graph, referenceMis(c.graph, seed), seed), '', `${c.label} seed ${seed}`);
  }
  // On the hand-made graph: isolated vertices are members, the clique gives exactly one.
  const set = referenceMis(hand, 1);
  const member = (o: number): number => set[hand.ids.toOriginal.indexOf(o)]!;
  for (const o of HAND_VERTICES) t.is(member(o), 1, `isolated ${o}`);
  t.is(CLIQUE.reduce((s, o) => s + member(o), 0), 1, 'one member of the clique');
  t.notDeepEqual([...referenceMis(CASES[0]!.graph, 1)], [...referenceMis(CASES[0]!.graph, 2)], 'another seed, another set');
  // HITS over the distinct non-loop edges by original id, with no pages involved.
  const ids = [...hand.ids.toOriginal];
  const at = new Map(ids.map((o, i) => [o, i]));
  const edges = [...new Set(HAND_EDGES.filter(([a, b]) => a !== b).map(([a, b]) => `${a} ${b}`))].map((s) => s.split(' ').map((x) => at.get(Number(x))!));
  const n = ids.length;
  let h = new Array<number>(n).fill(1);
  let a = new Array<number>(n).fill(1);
  const norm = (x: number[]): number[] => {
    const s = Math.sqrt(x.reduce((q, y) => q + y * y, 0));
    return s > 0 ? x.map((y) => y / s) : x;
  };
  for (let it = 0; it < 20; it++) {
    a = norm(ids.map((_, v) => edges.filter(([, d]) => d === v).reduce((s, [u]) => s + h[u!]!, 0)));
    h = norm(ids.map((_, v) => edges.filter(([s]) => s === v).reduce((q, [, w]) => q + a[w!]!, 0)));
  }
  same(t, referenceHits(hand, 20), a, true, 'hits reference');
});

for (const topo of [ONE, TWO]) {
  for (const c of CASES) {
    for (const ex of EXAMPLES) {
      test(`${ex.name} on ${c.label}, ${topo.name}: the reference's values`, async (t) => {
        const r = await ex.go(c.graph, topo);
        same(t, r.values, ex.reference(c.graph), ex.float, ex.name);
        t.is(r.kind, ex.float ? 'float' : 'int');
        if (ex.name === 'mis') t.is(misFault(c.graph, r.values, 1), '');
      });
    }
  }
}

test('mis: other seeds, by original id; the size note; bad seeds are refused', async (t) => {
  const g = CASES[2]!.graph;
  for (const seed of [0, 7, 0xffffffff]) {
    const r = await run(g, mis, { seed, topology: TWO });
    same(t, r.values, referenceMis(g, seed), false, `seed ${seed}`);
    t.is(r.report.notes.size, [...r.values].filter((x) => x === 1).length);
  }
  const h = await run(hand, mis, { topology: ONE });
  for (const o of HAND_VERTICES) t.is(h.get(o), 1, `isolated ${o}`);
  await t.throwsAsync(run(g, mis, { seed: -1, topology: ONE }), { instanceOf: TesseraError, message: /seed -1 is out of range/ });
});

test('hits: authorities are unit length; 0 iterations leaves them 1; bad iterations are refused', async (t) => {
  const g = CASES[0]!.graph;
  const r = await run(g, hits, { iterations: 5, topology: ONE });
  t.true(Math.abs(r.values.reduce((s, x) => s + x * x, 0) - 1) < 1e-12);
  same(t, r.values, referenceHits(g, 5), true, 'hits 5');
  t.true(r.report.steps.some((s) => s.kernel === 'hitsGather' && s.edges === g.numEdges));
  const zero = await run(g, hits, { iterations: 0, topology: ONE });
  t.true(zero.values.every((x) => x === 1));
  await t.throwsAsync(run(g, hits, { iterations: -1, topology: ONE }), { instanceOf: TesseraError, message: /iterations -1 is out of range/ });
});

test('one session runs both examples (mis twice: state starts afresh)', async (t) => {
  const g = CASES[2]!.graph;
  const s = await openSession(g, { topology: ONE });
  try {
    const m1 = await s.run(mis);
    const h = await s.run(hits, { iterations: 7 });
    const m2 = await s.run(mis, { seed: 5 });
    same(t, m1.values, referenceMis(g, 1), false, 'mis');
    same(t, h.values, referenceHits(g, 7), true, 'hits');
    same(t, m2.values, referenceMis(g, 5), false, 'mis again, seed 5');
  } finally {
    await s.close();
  }
});

const avail = nativeAvailable();
// As gpu-actor.test.ts: only a machine without a toolchain for the native controller may skip.
const gpuTest = avail.ok || !avail.toolchainMissing ? test : test.skip;
const GPU: Topology = { name: '1S1G-emulated', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [{ device: 0, emulated: true, streams: 2 }], interconnect: {}, model: {} };

for (const c of CASES) {
  gpuTest(`mis and hits on ${c.label}, 1S1G-emulated: their GPU operators give the reference's values`, async (t) => {
    for (const ex of EXAMPLES) {
      const r = await ex.go(c.graph, GPU);
      same(t, r.values, ex.reference(c.graph), ex.float, ex.name);
      // The GPU actor ran the operator on its share (not a CPU stand-in).
      const gpuSteps = r.report.steps.filter((s) => s.actors.some((a) => a.actor === 'gpu0' && (a.gpu?.calls ?? 0) > 0));
      t.true(gpuSteps.length > 0 && gpuSteps.every((s) => s.kernel === (ex.name === 'mis' ? 'misRound' : 'hitsGather')), `${ex.name}: GPU supersteps`);
    }
  });
}

gpuTest('mis and hits on an emulated GPU owning several ranges (RAND pages)', async (t) => {
  const g = generate('rmat:10:ef=8', { pageEdges: 64 });
  const m = await run(g, mis, { topology: GPU, partition: 'rand' });
  const h = await run(g, hits, { topology: GPU, partition: 'rand', iterations: 20 });
  for (const r of [m, h]) t.true((r.report.partition?.gpus[0]?.ranges ?? 0) > 1, 'several ranges');
  same(t, m.values, referenceMis(g, 1), false, 'mis rand');
  same(t, h.values, referenceHits(g, 20), true, 'hits rand');
  // The GPU alone keeps mis's resident mis and prio from round to round.
  const alone = await run(g, mis, { topology: GPU, gpuShare: 1, steal: 'off' });
  same(t, alone.values, referenceMis(g, 1), false, 'mis, the GPU owning every vertex');
  const n = g.numVertices;
  const bytes = alone.report.steps.map((s) => s.actors.find((a) => a.actor === 'gpu0')!.gpu!.stateBytesIn);
  // Later rounds: mis's state stays on the device, and so does each round's frontier (the last round's next flags).
  t.true(bytes.length > 1 && bytes.slice(1).every((b) => b === 0), `later rounds upload nothing: ${bytes.join(',')}`);
  // hits on the GPU alone: its scaling runs there too (a vertex pass), so after the first gather
  // (the hubs' ones) nothing goes up: each gather fills its scores, each scaling reads them there.
  const h1 = await run(g, hits, { topology: GPU, gpuShare: 1, steal: 'off', iterations: 20 });
  same(t, h1.values, referenceHits(g, 20), true, 'hits, the GPU owning every vertex');
  t.true(h1.report.steps.filter((s) => s.kernel === 'hitsScale').length === 40 && h1.report.steps.every((s) => (s.kernel === 'hitsScale') === (s.vertexMap === true)));
  const up = h1.report.steps.map((s) => s.actors.find((a) => a.actor === 'gpu0')!.gpu!.stateBytesIn);
  t.deepEqual(up, up.map((_, i) => (i === 0 ? 8 * n : 0)), `only the hubs' first values go up: ${up.join(',')}`);
});

test('the examples (sources and compiled) import only tessera and their own files', async (t) => {
  const root = repoRoot();
  for (const ex of ['mis', 'hits']) {
    for (const [dir, ext] of [[path.join(root, 'examples', ex), '.ts'], [path.join(root, 'dist/examples', ex), '.js']] as const) {
      const files = (await readdir(dir)).filter((f) => f.endsWith(ext) && !f.endsWith('.d.ts'));
      t.deepEqual(files.sort(), ['index', 'kernels', 'reference'].map((f) => f + ext));
      for (const f of files) {
        const specs = [...(await readFile(path.join(dir, f), 'utf8')).matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
        if (ext === '.ts') t.true(specs.some((s) => s.startsWith('tessera')), `${ex}/${f} imports tessera`);
        for (const s of specs) t.regex(s, /^(tessera|tessera\/kernel|\.\/[a-z]+\.js)$/, `${ex}/${f} imports ${s}`);
      }
    }
  }
});

test('a program in a folder outside the repo, importing only the package', async (t) => {
  const root = repoRoot();
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tessera-mis-')));
  try {
    const from = path.join(root, 'dist/examples/mis');
    for (const f of await readdir(from)) if (f.endsWith('.js') || f.endsWith('.cu')) await copyFile(path.join(from, f), path.join(dir, f));
    await mkdir(path.join(dir, 'node_modules'));
    await symlink(root, path.join(dir, 'node_modules', 'tessera'), 'dir');
    // Typed as the repo's module (a user's own file would be): an AnyProgram takes no options in run.
    const mod = (await import(pathToFileURL(path.join(dir, 'index.js')).href)) as typeof import('../examples/mis/index.js');
    t.not(mod.mis, mis, 'a separate module');
    t.is(mod.mis.kernels, pathToFileURL(path.join(dir, 'kernels.js')).href, 'kernels from the copy');
    const g = CASES[1]!.graph;
    const r = await run(g, mod.mis, { topology: ONE });
    same(t, r.values, referenceMis(g, 1), false, 'mis from outside');
    same(t, r.values, mod.mis.reference!(g, { seed: 1 }), false, "the copy's own reference");
    t.is(mod.mis.operators?.file, path.join(dir, 'gpu.cu'), 'the CUDA source from the copy');
    if (avail.ok || !avail.toolchainMissing) {
      const onGpu = await run(g, mod.mis, { topology: GPU });
      same(t, onGpu.values, referenceMis(g, 1), false, 'mis from outside, on the emulated GPU');
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
