/**
 * RAND at run time (src/engine/partition.ts): a GPU actor owns the vertex ranges of the pages the
 * model's RAND partition gives it (src/model/partition.ts, same seed, same page orientation), the
 * CPU sockets the complement. Checked here: the owned set equals the model's choice for the same
 * alpha (several topologies, both orientations), and every program gives the CPU-only results
 * (integers exactly, floats within 1e-6 relative) with GPU actors owning several ranges — on
 * skewed and RMAT graphs, SNAP wiki-Vote and a Graphalytics example, with one GPU, two GPUs, two
 * sockets, forced push and pull, and page stealing.
 */
import test from 'ava';
import path from 'node:path';
import { nativeAvailable } from '../actors/gpu/native.js';
import { run, withOwnership } from '../src/api.js';
import { Engine, type EngineOptions } from '../src/engine/coordinator.js';
import { checkOwnership, complementRanges, gpuOwnership, rangeEdges, rangeVertices, type VertexRanges } from '../src/engine/partition.js';
import type { RunReport } from '../src/engine/report.js';
import { isTesseraError } from '../src/errors.js';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { loadGraph } from '../src/graph/load.js';
import { Xoshiro128 } from '../src/graph/generate/rng.js';
import { rawFrom } from './helpers/raw.js';
import type { Graph, Orientation } from '../src/graph/types.js';
import type { ModelElement } from '../src/model/model.js';
import { modelOwnership, partitionGraph } from '../src/model/partition.js';
import { algorithm, takes } from './helpers/programs.js';
import { loadTopology } from '../src/topology/load.js';
import type { Topology } from '../src/topology/schema.js';
import { GRAPHALYTICS, REPO_ROOT, SNAP } from './helpers/paths.js';
import { cpuResults, firstMismatch, makeGraph, paramsFor, rmat, PROGRAMS, type Cpu } from './helpers/gpu-compare.js';

const skewed = (directed: boolean): Graph => makeGraph('skewed', directed);

const avail = nativeAvailable();
const gpuTest = !avail.ok && avail.toolchainMissing ? test.skip : test.serial;

const emulatedGpu = { device: 0, emulated: true, streams: 4 };
const cpuTopo: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };
const oneOne: Topology = { ...cpuTopo, name: '1S1G', gpus: [emulatedGpu] };
const twoOne: Topology = { ...cpuTopo, name: '2S1G', sockets: [{ id: 0, threads: 1 }, { id: 1, threads: 1 }], gpus: [emulatedGpu] };
const oneTwo: Topology = { ...cpuTopo, name: '1S2G', sockets: [{ id: 0, threads: 1 }], gpus: [emulatedGpu, { device: 1, emulated: true, streams: 2 }] };

/** The model's RAND ranges per GPU, with element rates as a calibration would give them. */
function modelRand(g: Graph, topo: Topology, alpha: number, orientation: Orientation, seed = 1): VertexRanges[] {
  const elements: ModelElement[] = [
    ...topo.sockets.map((s): ModelElement => ({ name: `socket${s.id}`, kind: 'cpu', rate: s.threads * 3.7e7, threads: s.threads })),
    ...topo.gpus.map((x): ModelElement => ({ name: `gpu${x.device}`, kind: 'gpu', rate: 9.1e8, memoryBytes: 2 ** 31 })),
  ];
  const part = partitionGraph(g, { elements, gpuStateBytes: 16 * g.numVertices }, { strategy: 'rand', alpha, orientation, seed });
  return part.elements.filter((e) => e.kind === 'gpu').map((e) => e.ranges);
}

/** Sorted, disjoint, non-empty ranges; together with the complement exactly [0, n). */
function checkCover(t: import('ava').ExecutionContext, owned: VertexRanges[], n: number, label: string): void {
  const cpu = complementRanges(owned, n);
  const all = [...owned.flat(), ...cpu].sort((a, b) => a[0] - b[0]);
  let at = 0;
  for (const [b, e] of all) {
    if (b !== at || e <= b) return t.fail(`${label}: [${b}, ${e}) after ${at}`);
    at = e;
  }
  t.is(at, n, `${label}: the owners cover [0, n)`);
}

test("the runtime RAND ownership is the model's RAND page choice for the same alpha and seed", (t) => {
  let multi = 0;
  for (const [label, g] of [
    ['skewed directed', skewed(true)],
    ['rmat:10 undirected', rmat(false)],
  ] as const) {
    for (const orientation of ['in', 'out'] as const)
      for (const topo of [oneOne, twoOne, oneTwo])
        for (const alpha of [0, 0.2, 0.5, 0.8, 1]) {
          const owned = modelOwnership(g, topo, 1 - alpha, { strategy: 'rand', orientation, seed: 1 });
          const what = `${label} ${orientation} ${topo.name} alpha ${alpha}`;
          t.deepEqual(owned, modelRand(g, topo, alpha, orientation), what);
          checkCover(t, owned, g.numVertices, what);
          if (owned.some((r) => r.length > 1)) multi++;
          const gpuEdges = owned.reduce((a, r) => a + rangeEdges(r, orientation === 'in' ? g.inDegree : g.outDegree), 0);
          if (alpha === 1) t.is(gpuEdges, 0, `${what}: alpha 1 leaves the GPUs nothing`);
          if (alpha === 0) t.is(gpuEdges, g.numEdges, `${what}: alpha 0 gives the GPUs every edge`);
          // Page granularity: within a page unit of the share (64 / 256 edges, hubs' split units more).
          if (alpha === 0.5) t.true(Math.abs(gpuEdges / g.numEdges - 0.5) < 0.15, `${what}: GPU share ${gpuEdges / g.numEdges}`);
        }
  }
  t.true(multi > 20, `GPUs own several ranges (${multi} cases)`);
  const g = skewed(true);
  const a = modelOwnership(g, oneOne, 0.5, { strategy: 'rand', seed: 1 });
  const b = modelOwnership(g, oneOne, 0.5, { strategy: 'rand', seed: 2 });
  t.notDeepEqual(a, b, 'another seed, other pages');
  t.deepEqual(b, modelRand(g, oneOne, 0.5, 'in', 2));
  // HIGH and LOW stay one range per GPU: the tail and the head.
  const high = gpuOwnership(g, oneTwo, 0.5, { strategy: 'high' });
  const low = gpuOwnership(g, oneTwo, 0.5, { strategy: 'low' });
  t.true(high.every((r) => r.length === 1) && high[1]![0]![1] === g.numVertices, 'HIGH: one range each, ending at n');
  t.true(low.every((r) => r.length === 1) && low[0]![0]![0] === 0, 'LOW: one range each, starting at 0');
});

test('RAND by hand: on a ring of equal pages the GPU owns the second half of the seed\'s Fisher-Yates order of the pages', (t) => {
  // 64 vertices, v -> v + 1: every in-page holds 4 edges, so an even split cuts the shuffled
  // page order in the middle (CPU sockets first, then the GPU). The order is recomputed here:
  // Fisher-Yates over xoshiro128** (checked against published vectors in generate.test.ts) on
  // the model's stream for RAND (units.ts, 0x7e55e4a0), draws below n by rejection.
  const n = 64;
  const g = buildGraph(rawFrom(Array.from({ length: n }, (_, v): [number, number] => [v, (v + 1) % n])), { pageEdges: 4 });
  const pages = g.in.pages;
  t.true(pages.length === 16 && pages.every((p) => p.edges === 4 && !p.split));
  for (const seed of [1, 7, 12345]) {
    const x = new Xoshiro128(seed, 0x7e55e4a0);
    const below = (m: number): number => {
      const limit = 2 ** 32 - (2 ** 32 % m);
      for (;;) {
        const r = x.nextU32();
        if (r < limit) return r % m;
      }
    };
    const order = pages.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = below(i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const mine = order.slice(order.length / 2).sort((a, b) => a - b);
    const want: Array<[number, number]> = [];
    for (const p of mine) {
      const last = want[want.length - 1];
      if (last !== undefined && last[1] === pages[p]!.vBegin) last[1] = pages[p]!.vEnd;
      else want.push([pages[p]!.vBegin, pages[p]!.vEnd]);
    }
    t.deepEqual(modelOwnership(g, oneOne, 0.5, { strategy: 'rand', orientation: 'in', seed }), [want], `seed ${seed}`);
  }
});

test("rangeEdges by pages: whole pages' edge counts and the cut pages' degrees sum to the degrees over the ranges (hubs split over pages)", async (t) => {
  const fc = (await import('fast-check')).default;
  const graphs = [3, 64].map((pageEdges) => buildGraph(generateEdges('rmat:9:ef=8'), { pageEdges }));
  const ranges = fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 });
  fc.assert(
    fc.property(fc.constantFrom(0, 1), ranges, fc.constantFrom('in', 'out'), (k, cuts, o: 'in' | 'out') => {
      const g = graphs[k]!;
      const n = g.numVertices;
      // Sorted, disjoint ranges from the cut points.
      const pts = [...new Set(cuts.flat().map((x) => x % (n + 1)))].sort((a, b) => a - b);
      const rs: VertexRanges = [];
      for (let i = 0; i + 1 < pts.length; i += 2) rs.push([pts[i]!, pts[i + 1]!]);
      const deg = o === 'in' ? g.inDegree : g.outDegree;
      t.true(g[o].pages.some((p, i) => i > 0 && p.vBegin === g[o].pages[i - 1]!.vBegin) || k === 1);
      return rangeEdges(rs, deg, g[o].pages) === rangeEdges(rs, deg);
    }),
    { numRuns: 200 },
  );
});

test('explicit ownership is checked: one list per GPU, sorted, disjoint, inside [0, n)', (t) => {
  t.deepEqual(checkOwnership([[[0, 3], [3, 5], [8, 9]]], 1, 10), [[[0, 5], [8, 9]]], 'adjacent ranges merge');
  t.deepEqual(complementRanges([[[0, 5], [8, 9]]], 10), [[5, 8], [9, 10]]);
  for (const [bad, gpus] of [
    [[[[0, 3]], [[2, 4]]], 2],
    [[[[4, 6], [0, 2]]], 1],
    [[[[0, 11]]], 1],
    [[[[3, 3]]], 1],
    [[[[0, 2]]], 2],
  ] as const) {
    const err = t.throws(() => checkOwnership(bad as never, gpus, 10));
    t.true(isTesseraError(err) && /ownership: /.test(err.message) && /Fix: /.test(err.message), String(err));
  }
});


/** Every program with RAND on `topo`: the CPU's values, GPU actors owning several ranges and working. */
async function compareRand(t: import('ava').ExecutionContext, g: Graph, want: Cpu, topo: Topology, opts: EngineOptions, label: string): Promise<RunReport[]> {
  const e = await Engine.create(g, topo, await withOwnership(g, topo, { partition: 'rand', ...opts }));
  const reports: RunReport[] = [];
  try {
    const owned = e.gpuOwned;
    t.deepEqual(owned, modelOwnership(g, topo, opts.gpuShare ?? 0.5, { strategy: 'rand', orientation: opts.partitionPages ?? 'in', seed: opts.partitionSeed ?? 1 }), `${label}: the engine's ranges`);
    t.true(owned.some((r) => r.length > 1), `${label}: a GPU owns several ranges (${owned.map((r) => r.length).join(', ')})`);
    t.deepEqual(e.cpuOwned, complementRanges(owned, g.numVertices), `${label}: the CPU sockets own the complement`);
    for (const name of PROGRAMS) {
      const p = algorithm(name).program;
      const r = await e.run(p, paramsFor(g, name) as never);
      const bad = firstMismatch(r.values, want.get(name)!, p.output === 'float');
      t.is(bad, -1, `${name} ${label}: vertex ${bad} got ${r.values[bad]} want ${want.get(name)![bad]}`);
      const gpuEdges = r.report.steps.reduce((a, s) => a + s.actors.filter((x) => x.kind === 'gpu').reduce((b, x) => b + x.edges, 0), 0);
      // (kcore's peel rounds run on the sockets alone unless pull is forced; kcore.test.ts forces it for its operator.)
      t.true(gpuEdges > 0 || name === 'kcore', `${name} ${label}: the GPU actors walked edges`);
      t.is(r.report.partition?.strategy, 'rand');
      t.deepEqual(
        r.report.partition?.gpus.map((x) => x.ranges),
        owned.map((x) => x.length),
        `${name} ${label}: the report names the ranges`,
      );
      reports.push(r.report);
    }
  } finally {
    await e.close();
  }
  return reports;
}

for (const [label, make] of [
  ['skewed directed', () => skewed(true)],
  ['skewed undirected', () => skewed(false)],
  ['rmat:10 directed', () => rmat(true)],
  ['rmat:10 undirected', () => rmat(false)],
] as const) {
  gpuTest(`--partition rand: every program matches the CPU results on ${label} (1S1G-emulated, 2S1G, 1S2G)`, async (t) => {
    const g = make();
    const want = await cpuResults(g);
    const emulated = await loadTopology(path.join(REPO_ROOT, 'configs/1S1G-emulated.yaml'));
    const main = await compareRand(t, g, want, emulated, {}, '1S1G-emulated');
    // Push supersteps send updates for vertices between the GPU's ranges through the outbox.
    t.true(main.some((r) => r.steps.some((s) => s.mode === 'push' && s.actors.some((a) => a.kind === 'gpu' && a.messagesAggregated > 0))), 'the outbox carried updates');
    await compareRand(t, g, want, twoOne, { gpuShare: 0.3, steal: 'always' }, '2S1G share 0.3 steal always');
    await compareRand(t, g, want, oneTwo, { gpuShare: 0.6 }, '1S2G share 0.6');
    if (label.startsWith('skewed')) {
      await compareRand(t, g, want, oneOne, { gpuShare: 0.7, forceMode: 'push', partitionPages: 'out' }, 'push share 0.7, out-pages');
      await compareRand(t, g, want, oneOne, { gpuShare: 0.4, forceMode: 'pull', partitionSeed: 5 }, 'pull share 0.4 seed 5');
    }
  });
}

gpuTest('--partition rand: every program matches the CPU results on SNAP wiki-Vote and a Graphalytics example', async (t) => {
  const { graph: wiki } = await loadGraph(path.join(SNAP, 'wiki-Vote.txt.gz'), { pageEdges: 4096 });
  t.true(wiki.in.pages.length > 8, 'several pages');
  await compareRand(t, wiki, await cpuResults(wiki), oneOne, { gpuShare: 0.5 }, 'wiki-Vote');
  const { graph: ex } = await loadGraph(path.join(GRAPHALYTICS, 'example-directed'), { pageEdges: 4 });
  await compareRand(t, ex, await cpuResults(ex), twoOne, { gpuShare: 0.5, steal: 'always' }, 'example-directed pageEdges 4');
});

gpuTest('PageRank stealing with RAND: a GPU owning several ranges takes CPU tasks, results unchanged', async (t) => {
  const g = buildGraph({ ...generateEdges('rmat:13'), directed: true }, { pageEdges: 2048 });
  const want = (await cpuResults(g)).get('pr')!;
  const single = { ...oneOne, sockets: [{ id: 0, threads: 1 }] };
  const e = await Engine.create(g, single, await withOwnership(g, single, { partition: 'rand', gpuShare: 0.05, steal: 'always' }));
  try {
    t.true(e.gpuOwned[0]!.length > 1, `several ranges: ${e.gpuOwned[0]!.length}`);
    // Whether the GPU runs out of work before the socket depends on the two threads' timing (a
    // loaded machine can hold the emulated GPU back for a whole run): up to five runs, each right.
    let stole = false;
    for (let run = 0; run < 5 && !stole; run++) {
      const r = await e.run(algorithm('pr').program, paramsFor(g, 'pr') as never);
      t.is(firstMismatch(r.values, want, true), -1, `run ${run}`);
      stole = r.report.steps.some((s) => s.actors.some((a) => a.kind === 'gpu' && a.stolen > 0));
    }
    t.true(stole, 'the GPU stole tasks');
  } finally {
    await e.close();
  }
});

gpuTest('run() shuffles the pages the model does for the program: in-pages for pull programs, out-pages for push', async (t) => {
  const g = skewed(true);
  for (const [algo, orientation] of [
    ['pr', 'in'],
    ['sssp', 'out'],
  ] as const) {
    const r = await run(g, algo, { topology: oneOne, partition: 'rand', gpuShare: 0.5, ...(algo === 'sssp' ? { source: g.ids.toOriginal[0]! } : {}) });
    const owned = modelRand(g, oneOne, 0.5, orientation);
    const deg = orientation === 'in' ? g.inDegree : g.outDegree;
    t.deepEqual(r.report.partition, {
      strategy: 'rand',
      seed: 1,
      explicit: false,
      pages: orientation,
      gpus: [{ actor: 'gpu0', ranges: owned[0]!.length, vertices: rangeVertices(owned[0]!), edges: rangeEdges(owned[0]!, deg) }],
    });
  }
});

gpuTest('npm run gpu-check --partition rand: every program matches with the GPU owning several ranges', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync } = await import('node:fs');
  const os = await import('node:os');
  const json = path.join(mkdtempSync(path.join(os.tmpdir(), 'tessera-gpu-check-rand-')), 'check.json');
  const script = path.join(REPO_ROOT, 'scripts/gpu-check.mjs');
  const r = spawnSync(process.execPath, [script, '--emulated', '--scale', '10', '--no-snap', '--no-bench', '--partition', 'rand', '--page-edges', '512', '--json', json], { encoding: 'utf8' });
  t.is(r.status, 0, r.stderr + r.stdout);
  t.regex(r.stdout, /partition RAND seed 1/);
  const out = JSON.parse(readFileSync(json, 'utf8')) as { partition: string; rows: Array<{ program: string; ok: boolean; gpuRanges: number }>; failures: number };
  t.is(out.partition, 'rand');
  t.is(out.failures, 0);
  // LCC runs with the GPU owning everything (one range); every other program on several.
  t.true(out.rows.every((x) => x.ok && (x.program === 'lcc' || x.gpuRanges > 1)), JSON.stringify(out.rows.map((x) => [x.program, x.gpuRanges])));
});

test("the engine takes RAND's ranges from the caller: without them partition 'rand' is a clear error", async (t) => {
  const g = buildGraph(generateEdges('rmat:8'));
  const err = await t.throwsAsync(Engine.create(g, oneOne, { partition: 'rand', gpuShare: 0.5 }));
  t.true(isTesseraError(err));
  t.regex(err!.message, /partition 'rand' takes its ranges from the performance model/);
});
