/**
 * Several GPU actors copy state to each other device to device (actors/gpu/group.ts,
 * residency.ts fromPeers): results equal the CPU's, and the copies happen where they should —
 * each GPU receives exactly the other GPUs' owned ranges of a resident 'owner' array, and with
 * the GPUs owning every vertex PageRank reads no contributions back between iterations.
 */
import test from 'ava';
import path from 'node:path';
import { GpuController, nativeAvailable } from '../actors/gpu/native.js';
import { Engine, type EngineOptions } from '../src/engine/coordinator.js';
import { withOwnership } from '../src/api.js';
import type { RunReport } from '../src/engine/report.js';
import type { Graph } from '../src/graph/types.js';
import type { Topology } from '../src/topology/schema.js';
import { algorithm } from './helpers/programs.js';
import { cpuResults, emulatedGpus, firstMismatch, makeGraph, paramsFor, rmat, PROGRAMS } from './helpers/gpu-compare.js';
import { hopsPull, relaxSwap } from './fixtures/operators/programs.js';
import { removeTempDirs, tempDir, tessera } from './helpers/cli.js';
import { all, close, G1, paginate, register, rng } from './helpers/native-pages.js';

test.after.always(removeTempDirs);

const avail = nativeAvailable();
const gpuTest = !avail.ok && avail.toolchainMissing ? test.skip : test.serial;

const oneSocket = emulatedGpus;
const twoTwo: Topology = { ...oneSocket(2), name: '2S2G', sockets: [{ id: 0, threads: 1 }, { id: 1, threads: 1 }] };

type Row = NonNullable<RunReport['steps'][number]['actors'][number]['gpu']> & { actor: string };
/** Per superstep, the GPU rows. */
function gpuSteps(r: RunReport): Row[][] {
  return r.steps.map((s) => s.actors.filter((a) => a.kind === 'gpu').map((a) => ({ ...a.gpu!, actor: a.actor })));
}

/** Vertices each GPU actor owns, by actor name. */
function ownedBy(r: RunReport): Map<string, number> {
  return new Map((r.partition?.gpus ?? []).map((g) => [g.actor, g.vertices]));
}

async function withEngine<T>(g: Graph, topo: Topology, opts: EngineOptions, f: (e: Engine) => Promise<T>): Promise<T> {
  const e = await Engine.create(g, topo, await withOwnership(g, topo, opts));
  try {
    return await f(e);
  } finally {
    await e.close();
  }
}

for (const [label, make] of [
  ['rmat:10 directed', () => rmat(true)],
  ['skewed undirected', () => makeGraph('skewed', false)],
] as const) {
  gpuTest(`every program on two and three emulated GPUs (peer copies) matches the CPU: ${label}`, async (t) => {
    const g = make();
    const want = await cpuResults(g);
    const cases: Array<[Topology, EngineOptions]> = [
      [oneSocket(2), { gpuShare: 1 }],
      [oneSocket(2), { gpuShare: 0.6 }],
      [oneSocket(3), { gpuShare: 1, partition: 'low' }],
      [twoTwo, { gpuShare: 0.5, partition: 'rand' }],
      [oneSocket(2), { gpuShare: 1, multiGpu: 's' }],
      [twoTwo, { gpuShare: 0.6, multiGpu: 's' }],
    ];
    for (const [topo, opts] of cases)
      await withEngine(g, topo, opts, async (e) => {
        for (const name of PROGRAMS) {
          const p = algorithm(name).program;
          const r = await e.run(p, paramsFor(g, name) as never);
          const bad = firstMismatch(r.values, want.get(name)!, p.output === 'float');
          t.is(bad, -1, `${name} ${topo.name} ${JSON.stringify(opts)}: vertex ${bad} got ${r.values[bad]} want ${want.get(name)![bad]}`);
        }
      });
  });
}

gpuTest('PageRank on two GPUs: each copies its owned contributions into the other after its kernels (an exchange, none at the meetings), and reads none back when they own every vertex', async (t) => {
  const g = rmat(true);
  const pr = algorithm('pr').program;
  for (const share of [1, 0.6]) {
    // forceMode: a superstep an iteration (without it, GPUs owning every vertex run pr_iterations: below).
    const r = await withEngine(g, oneSocket(2), { gpuShare: share, forceMode: 'pull' }, (e) => e.run(pr, paramsFor(g, 'pr') as never));
    const owned = ownedBy(r.report);
    const steps = gpuSteps(r.report);
    t.true(steps.length > 2);
    steps.forEach((rows, k) => {
      t.is(rows.length, 2);
      for (const row of rows) {
        // Every superstep sends its own new contributions (f64) to the peer; nothing is left for the meeting.
        t.is(row.peerSent, 8 * owned.get(row.actor)!, `${share} step ${k} ${row.actor} sent`);
        t.is(row.peerBytes, 0, `${share} step ${k} ${row.actor} received at the meeting`);
        // Owning every vertex together, contributions stay on the devices (ranks come back last).
        if (share === 1 && k < steps.length - 1) t.is(row.stateBytesOut, 0, `step ${k} ${row.actor} read back ${row.stateBytesOut} bytes`);
        if (share < 1 && k > 0) t.true(row.stateBytesOut > 0);
      }
    });
  }
});

gpuTest('PageRank on GPUs owning every vertex: every iteration in one call (pr_iterations), ranks equal to a superstep an iteration, contributions exchanged each iteration (stored into the peers by the apply), ranks read back once (several GPUs: each an even share of every rank)', async (t) => {
  const pr = algorithm('pr').program;
  for (const [label, g] of [['directed', rmat(true)], ['undirected', makeGraph('skewed', false)]] as const) {
    const params = { iterations: 7, damping: 0.85 };
    for (const [topo, opts] of [[oneSocket(1), {}], [oneSocket(2), {}], [oneSocket(2), { multiGpu: 's' }], [oneSocket(3), { partition: 'low' }]] as Array<[Topology, EngineOptions]>) {
      const what = `${label} ${topo.name} ${JSON.stringify(opts)}`;
      const loop = await withEngine(g, topo, { gpuShare: 1, ...opts }, (e) => e.run(pr, params as never));
      const steps = await withEngine(g, topo, { gpuShare: 1, forceMode: 'pull', ...opts }, (e) => e.run(pr, params as never));
      t.is(loop.report.supersteps, 1, what);
      t.is(steps.report.supersteps, 7, what);
      // The same kernels with the same bases (the dangling masses' block sums add atomically: the last bits may differ).
      t.is(firstMismatch(loop.values, steps.values, true), -1, what);
      const owned = ownedBy(loop.report);
      const k = topo.gpus.length, n = g.numVertices;
      const rows = gpuSteps(loop.report)[0]!;
      rows.forEach((row, i) => {
        const mine = owned.get(row.actor)!;
        // Ranks only: its own on one GPU; on several, which each end with every rank, an even share.
        t.is(row.stateBytesOut, 8 * (k > 1 ? Math.floor(((i + 1) * n) / k) - Math.floor((i * n) / k) : mine), `${what} ${row.actor}: ranks only`);
        // Six exchanges of its owned contributions and, last, its owned ranks, to every peer.
        t.is(row.peerSent ?? 0, k > 1 ? 7 * 8 * mine * (k - 1) : 0, `${what} ${row.actor} sent`);
      });
    }
  }
});

gpuTest('PageRank and bfs on GPUs owning every vertex without peer access (TESSERA_NO_PEER_ACCESS=1): the owned contributions copied after the kernels, not stored by the apply, bfs\'s next flags ORed in at each level\'s end; results equal to the CPU', async (t) => {
  const pr = algorithm('pr').program;
  const g = rmat(true);
  const params = { iterations: 7, damping: 0.85 };
  const cpu = await withEngine(g, { ...oneSocket(0), name: '1S' }, {}, (e) => e.run(pr, params as never));
  const want = await cpuResults(g);
  process.env.TESSERA_NO_PEER_ACCESS = '1';
  try {
    for (const [topo, opts] of [[oneSocket(2), {}], [oneSocket(2), { multiGpu: 's' }], [oneSocket(3), { partition: 'low' }]] as Array<[Topology, EngineOptions]>) {
      const what = `${topo.name} ${JSON.stringify(opts)}`;
      const r = await withEngine(g, topo, { gpuShare: 1, ...opts }, (e) => e.run(pr, params as never));
      t.is(r.report.supersteps, 1, what);
      t.is(firstMismatch(r.values, cpu.values, true), -1, what);
      const owned = ownedBy(r.report);
      for (const row of gpuSteps(r.report)[0]!) t.is(row.peerSent ?? 0, 7 * 8 * owned.get(row.actor)! * (topo.gpus.length - 1), `${what} ${row.actor} sent`);
      // bfs's levels OR each other's next flags at each level's end instead of claiming into them.
      const bfs = algorithm('bfs').program;
      const b = await withEngine(g, topo, { gpuShare: 1, ...opts }, (e) => e.run(bfs, paramsFor(g, 'bfs') as never));
      t.is(firstMismatch(b.values, want.get('bfs')!, false), -1, `bfs ${what}`);
      t.true(gpuSteps(b.report)[0]!.every((row) => (row.peerBytes ?? 0) + (row.peerSent ?? 0) > 0), `bfs ${what}: flags exchanged`);
    }
  } finally {
    delete process.env.TESSERA_NO_PEER_ACCESS;
  }
});

gpuTest('PageRank past 101 iterations on GPUs owning every vertex: the first 100 in one call, its last contributions handed back, the rest (watched) a superstep each; ranks equal to the CPU', async (t) => {
  const pr = algorithm('pr').program;
  const g = rmat(true);
  const params = { iterations: 110, damping: 0.85 };
  const cpu = await withEngine(g, { ...oneSocket(0), name: '1S' }, {}, (e) => e.run(pr, params as never));
  for (const [topo, opts] of [[oneSocket(1), {}], [oneSocket(2), {}], [oneSocket(2), { multiGpu: 's' }]] as Array<[Topology, EngineOptions]>) {
    const what = `${topo.name} ${JSON.stringify(opts)}`;
    const r = await withEngine(g, topo, { gpuShare: 1, ...opts }, (e) => e.run(pr, params as never));
    t.is(firstMismatch(r.values, cpu.values, true), -1, what);
    // One call for iterations 0-99, then at most ten supersteps (the watch may stop them early).
    t.true(r.report.supersteps >= 2 && r.report.supersteps <= 11, `${what}: ${r.report.supersteps} supersteps`);
    t.is(r.report.steps[0]!.kernel, 'pr_iterations', what);
  }
});

gpuTest("bfs's depth and wcc's label after pull levels come device to device on two GPUs (an owner array there) beside a CPU actor; owning every vertex, bfs's levels and wcc's Afforest exchange within one superstep; results unchanged", async (t) => {
  const g = rmat(true);
  const want = await cpuResults(g);
  for (const name of ['bfs', 'wcc'] as const)
    for (const share of [1, 0.6]) {
      const p = algorithm(name).program;
      const r = await withEngine(g, oneSocket(2), { gpuShare: share }, (e) => e.run(p, paramsFor(g, name) as never));
      t.is(firstMismatch(r.values, want.get(name)!, false), -1, `${name} ${share}`);
      if (share === 1) {
        // Two GPUs owning every vertex run bfs's levels in one call each, each claim written into
        // the other's copy (a GPU whose peer claimed everything first sends none), and wcc's
        // Afforest over their own pages, merging their forests (aff_merge).
        t.is(r.report.supersteps, 1, name);
        const gpus = r.report.steps[0]!.actors.filter((a) => a.kind === 'gpu');
        const sent = (a: (typeof gpus)[number]) => (a.gpu!.peerSent ?? 0) > 0;
        t.true(name === 'bfs' ? gpus.some(sent) : gpus.every(sent), `${name}: exchanged`);
        continue;
      }
      const pulls = r.report.steps.filter((s, i) => i > 0 && r.report.steps[i - 1]!.mode === 'pull');
      t.true(pulls.length > 0, `${name}: a superstep after a pull`);
      for (const s of pulls) t.true(s.actors.filter((a) => a.kind === 'gpu').every((a) => (a.gpu!.peerBytes ?? 0) > 0), `${name} ${share} step ${s.step}: peer bytes`);
    }
});

gpuTest('GPUs owning every vertex patch their copies where the fold wrote, instead of uploading what others own; a split GPU uploads it', async (t) => {
  const g = rmat(true);
  const want = await cpuResults(g);
  const n = g.numVertices;
  for (const [name, bytes] of [['bfs', 4], ['wcc', 4], ['sssp', 8]] as const)
    for (const [share, multiGpu] of [[1, 'p'], [1, 's'], [0.6, 'p']] as const) {
      const p = algorithm(name).program;
      const r = await withEngine(g, oneSocket(2), { gpuShare: share, multiGpu, forceMode: 'push' }, (e) => e.run(p, paramsFor(g, name) as never));
      t.is(firstMismatch(r.values, want.get(name)!, name === 'sssp'), -1, `${name} ${share} ${multiGpu}`);
      // After the first superstep: the state array whole (bytes a vertex) beside the frontier (at most a byte a vertex) when it goes up whole.
      const later = gpuSteps(r.report).slice(1).flat().map((row) => row.stateBytesIn);
      t.true(later.length >= 4, `${name}: ${later.length} GPU rows`);
      if (share === 1) {
        t.true(later.every((b) => b < (bytes + 1) * n), `${name} ${multiGpu}: no whole upload: ${later.join(',')}`);
        t.true(later.reduce((a, b) => a + b, 0) < later.length * bytes * n, `${name} ${multiGpu}: less than whole arrays: ${later.join(',')}`);
        // One range each: a level that changed few vertices sends lists, which go up as a few entries.
        if (multiGpu === 'p') t.true(later.some((b) => b < n / 4), `${name}: a small patch: ${later.join(',')}`);
      } else t.true(later.some((b) => b >= bytes * n), `${name} split: whole uploads: ${later.join(',')}`);
    }
});

gpuTest('GPU operators with resident owner arrays (hops-pull, relax-swap) on two GPUs: peer copies, results equal the CPU run', async (t) => {
  const g = rmat(true);
  const cpu: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };
  for (const [p, params] of [
    [hopsPull, { source: g.ids.toOriginal[0]! }],
    [relaxSwap, { source: g.ids.toOriginal[0]!, rounds: 4 }],
  ] as const) {
    const want = (await withEngine(g, cpu, {}, (e) => e.run(p as never, params as never))).values;
    for (const share of [1, 0.5]) {
      const r = await withEngine(g, oneSocket(2), { gpuShare: share }, (e) => e.run(p as never, params as never));
      t.is(firstMismatch(r.values, want, false), -1, `${p.name} share ${share}`);
      const peer = gpuSteps(r.report).flat().reduce((x, row) => x + (row.peerBytes ?? 0), 0);
      t.true(peer > 0, `${p.name} share ${share}: no bytes went device to device`);
    }
  }
});

gpuTest('a GPU failing on two GPUs ends the run with one line naming it (no actor left waiting for it)', async (t) => {
  const dir = await tempDir('tessera-peers-');
  const r = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:10', '--topology', path.join('configs', '1S2G-emulated.yaml'), '--out', path.join(dir, 'r.txt'), '-q'], {
    env: { TESSERA_FAULT: 'gpu-fail@2' },
  });
  t.is(r.code, 1);
  t.regex(r.stderr, /GPU actor gpu[01] failed in superstep 2: CUDA error 700/);
  t.is(r.stderr.trim().split('\n').length, 1, r.stderr);
});

gpuTest('one of two GPUs failing after the meeting while the other waits for it (pr\'s exchange and iterations, wcc\'s forests, bfs\'s levels): one line naming it, at once', async (t) => {
  const dir = await tempDir('tessera-peers-');
  for (const [algo, step, extra] of [['pr', 2, []], ['pr', 0, ['--alpha', '0']], ['wcc', 0, ['--alpha', '0']], ['bfs', 0, ['--source', '0']]] as const) {
    const t0 = performance.now();
    const r = await tessera(['run', '--algo', algo, ...extra, '--graph', 'rmat:10', '--topology', path.join('configs', '1S2G-emulated.yaml'), '--out', path.join(dir, `${algo}.txt`), '-q'], {
      env: { TESSERA_FAULT: `gpu-fail@${step}:1` },
    });
    t.is(r.code, 1, algo);
    t.regex(r.stderr, new RegExp(`GPU actor gpu1 failed in superstep ${step}: CUDA error 700`), algo);
    t.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    // gpu0 was waiting for gpu1's post: the failure ends that wait (not its one-minute limit).
    t.true(performance.now() - t0 < 30_000, `${algo}: ${performance.now() - t0} ms`);
  }
});

gpuTest('copyFromPeer copies the ranges asked for between two controllers; flaggedDegrees sums degrees under flags; scatterState sets entries, mergeState reduces them in; each checks its arguments', async (t) => {
  const a = await GpuController.create({ device: 0, emulated: true, streams: 2 });
  const b = await GpuController.create({ device: 1, emulated: true, streams: 2 });
  try {
    const n = 1000;
    for (const c of [a, b]) await c.allocState('x', 'u32', n);
    const src = Uint32Array.from({ length: n }, (_, i) => i * 7 + 1);
    await b.writeState('x', src);
    t.is(await a.copyFromPeer(b, 'x', 'x', [[10, 20], [500, 600]]), 110 * 4);
    const got = await a.readState('x', new Uint32Array(n));
    for (let i = 0; i < n; i++) t.is(got[i], (i >= 10 && i < 20) || (i >= 500 && i < 600) ? src[i] : 0, `x[${i}]`);
    t.true(await a.enablePeer(b));
    await t.throwsAsync(a.copyFromPeer(b, 'nope', 'x', [[0, 1]]), { code: 'TS_NO_STATE' });
    await b.allocState('f', 'f64', n);
    await t.throwsAsync(a.copyFromPeer(b, 'f', 'x', [[0, 1]]), { code: 'TS_TYPE' });
    await a.allocState('f', 'u8', n);
    await t.throwsAsync(a.copyFromPeer(b, 'x', 'x', [[900, 1001]]), { code: 'TS_RANGE' });
    t.throws(() => a.copyFromPeer(a, 'x', 'x', [[0, 1]]), { code: 'TS_ARG' });
    // Degrees of the flagged vertices, over a range.
    const flags = Uint8Array.from({ length: n }, (_, i) => (i % 3 === 0 || i % 7 === 0 ? 1 : 0));
    const deg = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) % 1000);
    await a.writeState('f', flags);
    await a.allocState('deg', 'u32', n);
    await a.writeState('deg', deg);
    for (const [lo, hi] of [[0, n], [123, 877], [5, 5]] as const) {
      let want = 0;
      for (let i = lo; i < hi; i++) if (flags[i]) want += deg[i]!;
      t.is(await a.flaggedDegrees('f', 'deg', lo, hi), want, `[${lo}, ${hi})`);
    }
    await t.throwsAsync(a.flaggedDegrees('deg', 'f', 0, 1), { code: 'TS_TYPE' });
    await t.throwsAsync(a.flaggedDegrees('f', 'deg', 0, n + 1), { code: 'TS_RANGE' });
    // scatterState: entries set where the ids say, the rest untouched; its arguments checked.
    const before = await a.readState('deg', new Uint32Array(n));
    const ids = Uint32Array.from([999, 0, 512, 3]);
    await a.scatterState('deg', ids, Uint32Array.from([7, 8, 9, 10]));
    const after = await a.readState('deg', new Uint32Array(n));
    const set = new Map([[999, 7], [0, 8], [512, 9], [3, 10]]);
    t.true(after.every((x, i) => x === (set.get(i) ?? before[i])), 'scattered entries');
    await t.throwsAsync(a.scatterState('deg', Uint32Array.from([n]), Uint32Array.from([1])), { code: 'TS_RANGE' });
    await t.throwsAsync(a.scatterState('deg', ids, new Float64Array(4)), { code: 'TS_TYPE' });
    t.throws(() => a.scatterState('deg', ids, new Uint32Array(3)), { code: 'TS_ARG' });
    // mergeState: other GPUs' updates reduced in (claim where -1, min, max), fresh next flags counted.
    const cases = [
      ['claim', Int32Array, (o: number, x: number) => (o === -1 ? x : o)],
      ['min', Int32Array, Math.min],
      ['min', Float64Array, Math.min],
      ['max', Uint32Array, Math.max],
    ] as const;
    await a.allocState('nx', 'u8', n);
    for (const [op, Ctor, fold] of cases) {
      const kind = Ctor === Int32Array ? 'i32' : Ctor === Uint32Array ? 'u32' : 'f64';
      const init = new Ctor(n);
      for (let i = 0; i < n; i++) init[i] = i % 4 === 0 ? -1 : (i * 37) % 500;
      await a.allocState(`m${kind}`, kind, n);
      await a.writeState(`m${kind}`, init);
      const flagsBefore = Uint8Array.from({ length: n }, (_, i) => (i % 10 === 0 ? 1 : 0));
      await a.writeState('nx', flagsBefore);
      // Repeated ids: the fold is order-independent for these reduces.
      const mids = Uint32Array.from({ length: 600 }, (_, k) => (k * 7919) % n);
      const vals = new Ctor(600);
      for (let k = 0; k < 600; k++) vals[k] = (k * 131) % 450;
      const want = Array.from(init);
      for (let k = 0; k < mids.length; k++) want[mids[k]!] = fold(want[mids[k]!]!, vals[k]!);
      const wantFresh = want.filter((x, i) => x !== init[i] && flagsBefore[i] === 0).length;
      t.is(await a.mergeState(`m${kind}`, mids, vals, op, 'nx'), wantFresh, `${op} ${kind}: fresh marks`);
      t.deepEqual(Array.from(await a.readState(`m${kind}`, new Ctor(n))), want, `${op} ${kind}: values`);
      const nx = await a.readState('nx', new Uint8Array(n));
      t.true(nx.every((f, i) => f === (flagsBefore[i] === 1 || want[i] !== init[i] ? 1 : 0)), `${op} ${kind}: next flags`);
    }
    await t.throwsAsync(a.mergeState('mu32', ids, Uint32Array.from([1, 2, 3, 4]), 'claim', 'nx'), { code: 'TS_TYPE' });
    await t.throwsAsync(a.mergeState('mi32', ids, Int32Array.from([1, 2, 3, 4]), 'min', 'deg'), { code: 'TS_TYPE' });
    await t.throwsAsync(a.mergeState('mi32', Uint32Array.from([n]), Int32Array.from([1]), 'min', 'nx'), { code: 'TS_RANGE' });
  } finally {
    await a.close();
    await b.close();
  }
});

gpuTest("GPU pulls count their activations' out-edges (countNext): BFS switches direction by Ligra's rule on every level, with no listing", async (t) => {
  const g = rmat(true);
  const p = algorithm('bfs').program;
  const cpu: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };
  const params = paramsFor(g, 'bfs');
  // Supersteps, a level each (a team would run them in one step).
  const want = await withEngine(g, cpu, { teams: false }, (e) => e.run(p, params as never));
  for (const [topo, opts] of [[oneSocket(1), { gpuShare: 1 }], [oneSocket(1), { gpuShare: 0.5 }], [oneSocket(2), { gpuShare: 1 }], [oneSocket(2), { gpuShare: 0.6 }]] as const) {
    const r = await withEngine(g, topo, opts, (e) => e.run(p, params as never));
    t.is(firstMismatch(r.values, want.values, false), -1);
    // Ligra's switch on every level (the sockets' Beamer hysteresis is for CPU-only topologies):
    // level k's frontier is the vertices at depth k.
    const ligra = want.report.steps.map((_, k) => {
      let size = 0;
      let edges = 0;
      for (let v = 0; v < g.numVertices; v++) if (want.values[v] === k) (size++, (edges += g.outDegree[v]!));
      return size + edges > g.numEdges / 20 ? 'pull' : 'push';
    });
    if (opts.gpuShare === 1) {
      // GPUs owning every vertex (one, or two exchanging flags each level) run every level in one
      // call (kernel 'levels'), each by the same rule.
      t.is(r.report.supersteps, 1);
      for (const a of r.report.steps[0]!.actors.filter((x) => x.kind === 'gpu')) {
        t.is(a.gpu!.directions, ligra.map((m) => (m === 'pull' ? 'B' : 'T')).join(''), `${topo.name} ${a.actor}`);
        // Each level's four timed parts (pages, call, meeting, next frontier) within the call's wall.
        const times = a.gpu!.levelTimes!;
        t.is(times.length, ligra.length);
        t.true(times.every((x) => x.length === 4 && x.every((ms) => ms >= 0)));
        t.true(times.flat().reduce((x, ms) => x + ms, 0) <= a.gpu!.runMs! + 0.01, `${topo.name} ${a.actor}: levels within the call`);
      }
      continue;
    }
    t.deepEqual(r.report.steps.map((s) => s.mode), ligra, `${topo.name} ${JSON.stringify(opts)}`);
    const pulls = r.report.steps.filter((s, i) => s.mode === 'pull' && i < r.report.steps.length - 1);
    t.true(pulls.length > 0, 'the run has a pull before another superstep');
    for (const s of pulls) {
      const gpus = s.actors.filter((a) => a.kind === 'gpu');
      t.true(gpus.every((a) => a.nextEdges !== undefined), `step ${s.step}: every GPU counted`);
      // Superstep k activates the vertices at depth k + 1: the actors' counts add up to their out-edges.
      let edges = 0;
      for (let v = 0; v < g.numVertices; v++) if (r.values[v] === s.step + 1) edges += g.outDegree[v]!;
      t.is(s.actors.reduce((x, a) => x + (a.nextEdges ?? 0), 0), edges, `step ${s.step}`);
    }
  }
});

gpuTest('an exchange: two controllers each copy what their run wrote into the other after their kernels; a wait for a peer that never runs ends with TS_PEER when aborted or when the peer closes', async (t) => {
  const g = G1;
  const pages = paginate(g.in, 600, undefined);
  const k = pages.length >> 1;
  const h = pages[k]!.vBegin;
  const r = rng(5);
  const contrib = Float64Array.from({ length: g.n }, () => r());
  const want = new Float64Array(g.n);
  for (let v = 0; v < g.n; v++) for (const [u] of g.in[v]!) want[v]! += contrib[u]!;
  const a = await GpuController.create({ device: 0, emulated: true, streams: 2 });
  const b = await GpuController.create({ device: 1, emulated: true, streams: 2 });
  try {
    for (const c of [a, b]) {
      await register(c, 0, pages);
      await c.allocState('contrib', 'f64', g.n);
      await c.allocState('next', 'f64', g.n);
      await c.writeState('contrib', contrib);
    }
    // a computes the pages of [0, h), b the rest: each ends with every vertex.
    const [sa, sb] = await Promise.all([
      a.run('pr_pull', { setId: 0, pages: all(pages.slice(0, k)), exchange: { tag: 1, slot: 'next', ranges: Float64Array.of(0, h), peers: [b] } }),
      b.run('pr_pull', { setId: 0, pages: all(pages.slice(k)), exchange: { tag: 1, slot: 'next', ranges: Float64Array.of(h, g.n), peers: [a] } }),
    ]);
    t.is(sa.peerBytes, 8 * h);
    t.is(sb.peerBytes, 8 * (g.n - h));
    for (const c of [a, b]) close(t, await c.readState('next', new Float64Array(g.n)), want, 'exchanged pr_pull');
    // A peer that never posts tag 2: abortExchanges ends the wait.
    const waiting = a.run('pr_pull', { setId: 0, pages: all(pages), exchange: { tag: 2, slot: 'next', ranges: Float64Array.of(0, h), peers: [b] } });
    setTimeout(() => a.abortExchanges(2), 50);
    await t.throwsAsync(waiting, { code: 'TS_PEER', message: /torn down while this GPU waited for GPU 1/ });
    t.throws(() => a.run('pr_pull', { setId: 0, pages: all(pages), exchange: { tag: 3, slot: 'next', ranges: Float64Array.of(0, h), peers: [a] } }), { code: 'TS_ARG' });
    await t.throwsAsync(a.run('pr_pull', { setId: 0, pages: all(pages), exchange: { tag: 3, slot: 'next', ranges: Float64Array.of(0, g.n + 1), peers: [b] } }), { code: 'TS_RANGE' });
    // ...and so does the peer's close.
    const closing = a.run('pr_pull', { setId: 0, pages: all(pages), exchange: { tag: 4, slot: 'next', ranges: Float64Array.of(0, h), peers: [b] } });
    setTimeout(() => void b.close(), 50);
    await t.throwsAsync(closing, { code: 'TS_PEER', message: /GPU 1 closed before its superstep/ });
  } finally {
    await a.close();
    await b.close();
  }
});

/** Union-find over n vertices by `edges`, the larger root under the smaller, then each entry its root: Afforest's forest after compression. */
function forest(n: number, edges: ReadonlyArray<readonly [number, number]>): Uint32Array {
  const p = Uint32Array.from({ length: n }, (_, i) => i);
  const root = (v: number): number => (p[v] === v ? v : (p[v] = root(p[v]!)));
  for (const [u, v] of edges) {
    const a = root(u), b = root(v);
    if (a !== b) p[Math.max(a, b)] = Math.min(a, b);
  }
  return p.map((_, v) => root(v));
}

gpuTest('aff_merge: controllers holding the forests of disjoint edge sets each end with the forest of their union (two and three GPUs); its arguments are checked', async (t) => {
  const n = 2000;
  const r = rng(9);
  const edges = Array.from({ length: 1500 }, () => [Math.floor(r() * n), Math.floor(r() * n)] as const);
  const want = forest(n, edges);
  for (const k of [2, 3]) {
    const cs = await Promise.all(Array.from({ length: k }, (_, d) => GpuController.create({ device: d, emulated: true, streams: 2 })));
    try {
      await Promise.all(cs.map(async (c, i) => {
        await c.allocState('comp', 'u32', n);
        await c.writeState('comp', forest(n, edges.filter((_, e) => e % k === i)));
      }));
      const stats = await Promise.all(cs.map((c) => c.run('aff_merge', { setId: 0, pages: [], params: { step: 0 }, state: { comp: 'comp' }, exchange: { tag: 1, slot: 'comp', ranges: new Float64Array(0), peers: cs.filter((x) => x !== c) } })));
      for (const st of stats) t.is(st.peerBytes, 4 * n * (k - 1));
      for (const [i, c] of cs.entries()) t.deepEqual(await c.readState('comp', new Uint32Array(n)), want, `${k} GPUs: GPU ${i}`);
      // A second merge of the same run (step 2) changes nothing: the forests are equal.
      await Promise.all(cs.map((c) => c.run('aff_merge', { setId: 0, pages: [], params: { step: 2 }, state: { comp: 'comp' }, exchange: { tag: 1, slot: 'comp', ranges: new Float64Array(0), peers: cs.filter((x) => x !== c) } })));
      t.deepEqual(await cs[0]!.readState('comp', new Uint32Array(n)), want);
      await t.throwsAsync(cs[0]!.run('aff_merge', { setId: 0, pages: [], params: { step: 1 }, state: { comp: 'comp' }, exchange: { tag: 2, slot: 'comp', ranges: new Float64Array(0), peers: [cs[1]!] } }), { code: 'TS_ARG', message: /even/ });
      await t.throwsAsync(cs[0]!.run('aff_merge', { setId: 0, pages: [], params: { step: 0 }, state: { comp: 'comp' } }), { code: 'TS_ARG', message: /exchange/ });
    } finally {
      await Promise.all(cs.map((c) => c.close()));
    }
  }
});
