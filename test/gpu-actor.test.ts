/**
 * The GPU actor inside the engine, on emulated devices (the native controller's host backend:
 * the same kernels, no GPU needed): every program on 1S1G-emulated (configs/1S1G-emulated.yaml)
 * and on 2 sockets + 1 emulated GPU (and 1 socket + 2 GPUs on the skewed graphs) must give the CPU topology's results, integers exactly and
 * floats within 1e-6 relative, on skewed and uniform graphs (directed and undirected, 64-edge
 * pages so hubs span split pages, isolated vertices), an RMAT graph, and the Graphalytics
 * example graphs. A small memoryLimit forces streaming (page cache misses, evictions), a large
 * one shows page reuse; a device that does not exist and a memoryLimit too small for the vertex
 * state give one clear error each.
 */
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nativeAvailable } from '../actors/gpu/native.js';
import { Engine, type EngineOptions } from '../src/engine/coordinator.js';
import { withOwnership } from '../src/api.js';
import { checkedBfs, listMatchesBitmap } from './helpers/checked-bfs.js';
import type { RunReport } from '../src/engine/report.js';
import { summarize } from '../src/engine/report.js';
import { isTesseraError } from '../src/errors.js';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { loadGraph } from '../src/graph/load.js';
import type { Graph } from '../src/graph/types.js';
import { algorithm, takes } from './helpers/programs.js';
import { loadTopology } from '../src/topology/load.js';
import { parseTopology } from '../src/topology/parse.js';
import type { Topology } from '../src/topology/schema.js';
import { GRAPHALYTICS, REPO_ROOT } from './helpers/paths.js';
import { cpuResults, firstMismatch, makeGraph, paramsFor, rmat, PROGRAMS, type Cpu } from './helpers/gpu-compare.js';
import { PROGRAMS as ALL_BUILTINS } from '../src/programs/index.js';
import { defineProgram, type AnyProgram, type StateSpec } from '../src/engine/define.js';
import { pageView } from '../src/graph/pages.js';

/** The built-ins gpu-check runs by default: those with GPU kernels (all of them). */
const BUILTINS = ALL_BUILTINS.filter((p) => p.gpu !== undefined || p.operators !== undefined);

const avail = nativeAvailable();
// Only a machine without cmake / a C++ compiler may skip (the build then says so); any other
// failure to load the addon is a failure.
const gpuTest = !avail.ok && avail.toolchainMissing ? test.skip : test.serial;
if (!avail.ok && !avail.toolchainMissing) test('the native controller loads', (t) => t.fail(avail.reason));

const cpuTopo: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };
const emulatedGpu = { device: 0, emulated: true, streams: 4 };
const oneSocketOneGpu: Topology = { name: '1S1G', source: 'test', sockets: [{ id: 0, threads: 1 }], gpus: [emulatedGpu], interconnect: {}, model: {} };
const twoSocketsOneGpu: Topology = { name: '2S1G', source: 'test', sockets: [{ id: 0, threads: 1 }, { id: 1, threads: 1 }], gpus: [emulatedGpu], interconnect: {}, model: {} };

/**
 * A built-in whose `device` state is declared resident: true instead: a GPU owning every vertex
 * then copies its results back each superstep (the paths a GPU beside others takes), not once at
 * the end (held.ts; test/held.test.ts).
 */
function copiedBack(p: AnyProgram): AnyProgram {
  const state = Object.fromEntries(Object.entries(p.state as Record<string, StateSpec>).map(([k, s]) => [k, s.resident === 'device' ? { ...s, resident: true } : s]));
  return defineProgram({ ...p, name: `${p.name}-copied`, state } as never) as AnyProgram;
}

/** Tasks the GPU actors took from CPU queues over a run. */
function gpuStolen(r: RunReport): number {
  return r.steps.reduce((a, s) => a + s.actors.filter((x) => x.kind === 'gpu').reduce((b, x) => b + x.stolen, 0), 0);
}

/** The GPU rows of a report: the GPU actor ran kernels and is labelled emulated. */
function gpuRows(r: RunReport): NonNullable<RunReport['steps'][number]['actors'][number]['gpu']>[] {
  return r.steps.flatMap((s) => s.actors.filter((a) => a.kind === 'gpu').map((a) => a.gpu!));
}


async function compareAll(t: import('ava').ExecutionContext, g: Graph, want: Cpu, topo: Topology, opts: EngineOptions, label: string): Promise<void> {
  const e = await Engine.create(g, topo, await withOwnership(g, topo, opts));
  try {
    for (const name of PROGRAMS) {
      const p = algorithm(name).program;
      const r = await e.run(p, paramsFor(g, name) as never);
      const bad = firstMismatch(r.values, want.get(name)!, p.output === 'float');
      t.is(bad, -1, `${name} ${label}: vertex ${bad} got ${r.values[bad]} want ${want.get(name)![bad]}`);
      const rows = gpuRows(r.report);
      // CPU-only supersteps (EdgeMapOptions.cpuOnly: lcc's and tc's count and fill) have no GPU rows.
      const gpuSteps = r.report.steps.filter((s) => s.actors.some((x) => x.kind === 'gpu')).length;
      // kcore's peel rounds run on the sockets alone (cpuOnly) unless pull is forced:
      // kcore.test.ts checks its GPU operator with pull forced.
      t.true((gpuSteps > 0 || name === 'kcore') && rows.length === gpuSteps * topo.gpus.length && rows.every((x) => x.emulated), `${name} ${label}: a row per GPU and superstep, labelled emulated`);
      const share = opts.gpuShare ?? 0.5;
      if (share > 0 && name !== 'kcore') t.true(rows.some((x) => x.calls > 0), `${name} ${label}: the GPU ran kernels`);
    }
  } finally {
    await e.close();
  }
}

const GRAPHS: Array<[string, () => Graph]> = [
  ['skewed directed', () => makeGraph('skewed', true)],
  ['skewed undirected', () => makeGraph('skewed', false)],
  ['uniform directed', () => makeGraph('uniform', true)],
  ['uniform undirected', () => makeGraph('uniform', false)],
  ['rmat:10 directed', () => rmat(true)],
  ['rmat:10 undirected', () => rmat(false)],
];

for (const [label, make] of GRAPHS) {
  gpuTest(`every program on 1S1G-emulated and 2S+1G matches the CPU results: ${label}`, async (t) => {
    const g = make();
    t.true(g.out.pages.length > 8, 'several pages');
    const want = await cpuResults(g);
    const oneGpu = await loadTopology(path.join(REPO_ROOT, 'configs/1S1G-emulated.yaml'));
    t.true(oneGpu.gpus.length === 1 && oneGpu.gpus[0]!.emulated);
    await compareAll(t, g, want, oneGpu, {}, '1S1G-emulated');
    await compareAll(t, g, want, twoSocketsOneGpu, { gpuShare: 0.3 }, '2S1G share 0.3');
    if (label.startsWith('skewed')) {
      // The GPU owns everything, then nothing; then both forced modes (where the GPU kernel has them).
      await compareAll(t, g, want, oneGpu, { gpuShare: 1 }, 'share 1');
      await compareAll(t, g, want, oneGpu, { gpuShare: 0 }, 'share 0 (the GPU owns nothing)');
      await compareAll(t, g, want, oneGpu, { forceMode: 'push', gpuShare: 0.7 }, 'push share 0.7');
      await compareAll(t, g, want, oneGpu, { forceMode: 'pull' }, 'pull');
      // Two GPU actors, each owning part of the tail; updates between them go through the coordinator.
      const twoGpus: Topology = { ...twoSocketsOneGpu, name: '1S2G', sockets: [{ id: 0, threads: 1 }], gpus: [emulatedGpu, { device: 1, emulated: true, streams: 2 }] };
      await compareAll(t, g, want, twoGpus, { gpuShare: 0.6 }, '1S2G share 0.6');
      // Page stealing moves tasks between actors (sockets, and a GPU taking CPU pull tasks) and
      // changes no result; 'always' gives half of the victim's queue whenever asked.
      await compareAll(t, g, want, twoSocketsOneGpu, { gpuShare: 0.2, steal: 'always' }, '2S1G share 0.2 steal always');
      await compareAll(t, g, want, oneGpu, { gpuShare: 0.5, steal: 'off' }, 'steal off');
      // LOW: the GPUs own the hubs (head of the degree order) instead of the tail.
      await compareAll(t, g, want, twoSocketsOneGpu, { gpuShare: 0.4, partition: 'low', steal: 'always' }, '2S1G LOW share 0.4');
      await compareAll(t, g, want, twoGpus, { gpuShare: 0.6, partition: 'low' }, '1S2G LOW share 0.6');
      // Two sockets and two GPUs (TOTEM's 2S2G): one code path for every element count.
      const twoTwo: Topology = { ...twoSocketsOneGpu, name: '2S2G', gpus: [emulatedGpu, { device: 1, emulated: true, streams: 2 }] };
      for (const partition of ['high', 'low', 'rand'] as const) await compareAll(t, g, want, twoTwo, { gpuShare: 0.5, partition }, `2S2G ${partition} share 0.5`);
    }
  });
}

gpuTest('Graphalytics example graphs: every program on 1S1G-emulated matches the CPU results', async (t) => {
  const oneGpu = await loadTopology(path.join(REPO_ROOT, 'configs/1S1G-emulated.yaml'));
  for (const name of ['example-directed', 'example-undirected']) {
    for (const pageEdges of [undefined, 4]) {
      const { graph } = await loadGraph(path.join(GRAPHALYTICS, name), { pageEdges });
      await compareAll(t, graph, await cpuResults(graph), oneGpu, {}, `${name} pageEdges ${pageEdges ?? 'default'}`);
    }
  }
});

gpuTest('page stealing: an idle GPU takes the tail of the CPU queue in PageRank; stolen tasks are counted, results unchanged', async (t) => {
  const g = buildGraph({ ...generateEdges('rmat:15'), directed: true }, { pageEdges: 4096 });
  const want = (await cpuResults(g)).get('pr')!;
  const oneGpu: Topology = { ...cpuTopo, name: '1S1G-steal', sockets: [{ id: 0, threads: 1 }], gpus: [emulatedGpu] };
  const counts: Record<string, number> = {};
  for (const steal of ['always', 'auto', 'off'] as const) {
    // The GPU owns 2% of the edges: it is idle almost at once and asks for work every superstep.
    const e = await Engine.create(g, oneGpu, { gpuShare: 0.02, steal });
    try {
      // Whether the GPU asks before the CPU's thread has taken its whole queue is timing: on a
      // loaded machine (the suite's other files) one run may see no steal; three runs, one engine.
      counts[steal] = 0;
      for (let run = 0; run < 3 && (run === 0 || (steal === 'always' && counts[steal] === 0)); run++) {
        const r = await e.run(algorithm('pr').program, paramsFor(g, 'pr') as never);
        const bad = firstMismatch(r.values, want, true);
        t.is(bad, -1, `pr steal ${steal}: vertex ${bad}`);
        t.is(r.report.steal?.policy, steal);
        const stolen = gpuStolen(r.report);
        t.is(r.report.steal?.tasks, stolen, 'only the GPU steals here');
        counts[steal] += stolen;
        if (stolen > 0) t.regex(summarize(r.report), /gpu0: .*stole \d+ tasks/);
      }
    } finally {
      await e.close();
    }
  }
  t.true(counts.always! > 0, 'with "always" the GPU took CPU tasks');
  t.is(counts.off, 0);
});

gpuTest('with a small CPU share the CPU queue is still cut into several dense tasks per thread (something for an idle GPU to steal)', async (t) => {
  const g = buildGraph({ ...generateEdges('rmat:15'), directed: true }, { pageEdges: 65536 });
  const topo: Topology = { ...cpuTopo, name: '1S1G-small-cpu', sockets: [{ id: 0, threads: 2 }], gpus: [emulatedGpu] };
  // alpha 0.05: the CPU's edges are ~one page; cut by the graph's size they would be one or two tasks.
  const e = await Engine.create(g, topo, { gpuShare: 0.95 });
  try {
    const cpu = e.denseShares('in')[0]!;
    const edges = cpu.reduce((a, x) => a + x.edges, 0);
    t.true(edges > 0.03 * g.numEdges && edges < 0.07 * g.numEdges, `CPU edges ${edges} of ${g.numEdges}`);
    t.true(cpu.length >= 8, `${cpu.length} CPU tasks for 2 threads`); // hubs: a vertex is not cut
    const target = Math.max(1024, Math.ceil(edges / 16));
    for (const x of cpu) if (x.hi - x.lo > 1 && x.count === 1) t.true(x.edges < 2 * target + 4096, `task of ${x.edges} edges (target ${target})`);
  } finally {
    await e.close();
  }
});

gpuTest('page stealing of push tasks: an idle GPU pushes from the tail of the CPU queue in top-down BFS; results unchanged', async (t) => {
  const g = buildGraph({ ...generateEdges('rmat:15'), directed: true }, { pageEdges: 4096 });
  // From the hub (internal id 0): wide levels, many CPU tasks to take.
  const params = { source: 0 };
  const cpu = await Engine.create(g, cpuTopo);
  const want = await cpu.run(algorithm('bfs').program, params as never).then((r) => r.values).finally(() => cpu.close());
  const cases: Array<[string, Topology, number]> = [
    ['1S1G', { ...cpuTopo, name: '1S1G-steal', sockets: [{ id: 0, threads: 1 }], gpus: [emulatedGpu] }, 0.02],
    ['2S1G', twoSocketsOneGpu, 0.02],
  ];
  for (const [label, topo, share] of cases) {
    const counts: Record<string, number> = {};
    for (const steal of ['always', 'off'] as const) {
      const e = await Engine.create(g, topo, { gpuShare: share, steal, forceMode: 'push' });
      try {
        // Whether the GPU asks while the CPU queue still holds tasks is a race: runs until it
        // does (16 were not always enough on a loaded 2-core box; each run takes ~0.1 s).
        counts[steal] = 0;
        for (let run = 0; run < 64 && counts[steal] === 0; run++) {
          const r = await e.run(algorithm('bfs').program, params as never);
          const bad = firstMismatch(r.values, want, false);
          t.is(bad, -1, `${label} bfs push steal ${steal}: vertex ${bad}`);
          counts[steal] += gpuStolen(r.report);
          // Every task ran once: the actors' edges add up to each superstep's.
          for (const s of r.report.steps) t.is(s.actors.reduce((a, x) => a + x.edges, 0), s.edges);
          if (steal === 'off') break;
        }
      } finally {
        await e.close();
      }
    }
    t.true(counts.always! > 0, `${label}: with "always" the GPU took CPU push tasks`);
    t.is(counts.off, 0);
  }
});

gpuTest('push supersteps send only the pages of active vertices, and the outbox aggregates', async (t) => {
  const g = rmat(true);
  const e = await Engine.create(g, { ...twoSocketsOneGpu }, { forceMode: 'push', gpuShare: 0.5 });
  try {
    const r = await e.run(algorithm('sssp').program, paramsFor(g, 'sssp') as never);
    const gpu = r.report.steps.map((s) => s.actors.find((a) => a.kind === 'gpu')!);
    const gpuPages = g.out.pages.filter((p) => p.vEnd > g.numVertices / 2).length;
    t.true(gpu.some((a) => a.gpu!.calls > 0 && a.gpu!.pages < gpuPages / 2), 'some push superstep named few of the GPU pages');
    t.true(gpu.some((a) => a.messagesAggregated > 0), 'the outbox carried updates for CPU vertices');
    t.true(gpu.every((a) => a.messagesAggregated <= g.numVertices), 'one outbox entry per destination at most');
  } finally {
    await e.close();
  }
});

gpuTest('a small memoryLimit streams pages through an LRU cache; a large one reuses them', async (t) => {
  const g = rmat(false);
  const want = (await cpuResults(g)).get('pr')!;
  const slot = Math.max(...g.out.pages.map((p) => pageView(p).byteLength));
  const gpuPages = g.in.pages.filter((p) => p.vEnd > 0).length;
  const runPr = async (memoryLimit: number): Promise<RunReport> => {
    const topo: Topology = { ...cpuTopo, name: '1S1G-small', gpus: [{ ...emulatedGpu, memoryLimit }] };
    const e = await Engine.create(g, topo, { gpuShare: 1 });
    try {
      const r = await e.run(algorithm('pr').program, paramsFor(g, 'pr') as never);
      t.is(firstMismatch(r.values, want, true), -1, `pr with memoryLimit ${memoryLimit}`);
      return r.report;
    } finally {
      await e.close();
    }
  };
  // Vertex state (contrib, rank: 8 bytes per vertex each) + scratch + room for a few pages only.
  const small = await runPr(3 * 8 * g.numVertices + 64 * 1024 + 6 * 2 * slot);
  const rows = gpuRows(small);
  const misses = rows.reduce((a, x) => a + x.misses, 0);
  const evictions = rows.reduce((a, x) => a + x.evictions, 0);
  t.true(misses > gpuPages, `pages streamed again in later iterations (${misses} misses over ${gpuPages} pages)`);
  t.true(evictions > 0, 'LRU evictions');
  t.true(rows.every((x) => x.pageBytes > 0), 'every iteration copied pages');
  t.regex(summarize(small), /EMULATED GPU.*pages sent.*cache hits.*evictions/);
  const large = await runPr(256 * 1024 * 1024);
  const later = gpuRows(large).slice(1);
  t.true(later.every((x) => x.misses === 0 && x.hits === x.pages && x.pageBytes === 0), 'resident pages are reused: no copies after the first iteration');
});

gpuTest('a GPU that does not exist, or a memoryLimit below the vertex state, is one clear error', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-gpu-'));
  const file = path.join(dir, 'missing.yaml');
  writeFileSync(file, 'name: missing\nsockets:\n  - threads: 1\ngpus:\n  - device: 99\n');
  const g = rmat(true);
  const err = await t.throwsAsync(Engine.create(g, await loadTopology(file)));
  t.true(isTesseraError(err), String(err));
  t.true(err!.message.includes(file) && err!.message.includes('gpus.0.device') && /device 99/.test(err!.message), err!.message);
  t.regex(err!.message, /Fix: .*emulated: true/);
  t.false(err!.message.includes('\n'), 'one line');
  const emu = parseTopology('sockets:\n  - threads: 1\ngpus:\n  - device: 40\n    emulated: true\n', 'emu.yaml');
  const err2 = await t.throwsAsync(Engine.create(g, emu));
  t.true(isTesseraError(err2) && err2.message.includes('gpus.0.device'), String(err2));
  // 4 KiB cannot hold the vertex state of PageRank: an error naming memoryLimit, never a crash.
  const tiny = parseTopology('sockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\n    memoryLimit: 4096\n', 'tiny.yaml');
  const e = await Engine.create(g, tiny);
  try {
    const err3 = await t.throwsAsync(e.run(algorithm('pr').program, paramsFor(g, 'pr') as never));
    t.true(isTesseraError(err3), String(err3));
    t.regex(err3!.message, /tiny\.yaml.*GPU out of memory.*gpus\.0\.memoryLimit.*Fix: raise memoryLimit/);
  } finally {
    await e.close();
  }
});

gpuTest('npm run gpu-check runs in emulated mode: every program matches, the benchmark runs, one summary', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-gpu-check-'));
  const json = path.join(dir, 'check.json');
  const script = path.join(REPO_ROOT, 'scripts/gpu-check.mjs');
  // The shipped examples are checked too; --module adds a user's programs (their GPU operators
  // compiled here by the host compiler): an example's module given again is checked once.
  const hits = path.join(REPO_ROOT, 'dist/examples/hits/index.js');
  const r = spawnSync(process.execPath, [script, '--emulated', '--scale', '10', '--no-snap', '--bench-scale', '10', '--json', json, '--module', hits], { encoding: 'utf8' });
  t.is(r.status, 0, r.stderr + r.stdout);
  t.regex(r.stdout, /tessera gpu-check: EMULATED GPU/);
  const names = [...BUILTINS.map((p) => p.name), 'hits', 'mis'];
  t.regex(r.stdout, new RegExp(`OK: ${names.length} program runs match the CPU results`));
  const out = JSON.parse((await import('node:fs')).readFileSync(json, 'utf8')) as { rows: Array<{ program: string; ok: boolean; gpuEdges: number }>; bench: { bfsCorrect: boolean }; failures: number };
  t.deepEqual(out.rows.map((x) => x.program), names);
  // (kcore's peel rounds run on the sockets alone unless pull is forced.)
  t.true(out.rows.every((x) => x.ok && (x.gpuEdges > 0 || x.program === 'kcore')), 'every program matched and the GPU walked edges');
  t.true(out.bench.bfsCorrect);
  t.is(out.failures, 0);
  // --gpus 2: two GPU actors share the GPUs' edges and exchange with each other and the socket.
  const r3 = spawnSync(process.execPath, [script, '--emulated', '--gpus', '2', '--scale', '9', '--no-snap', '--no-bench', '--json', json], { encoding: 'utf8' });
  t.is(r3.status, 0, r3.stderr + r3.stdout);
  t.regex(r3.stdout, /tessera gpu-check: EMULATED GPUS x2/);
  const two = JSON.parse((await import('node:fs')).readFileSync(json, 'utf8')) as { gpus: number; rows: Array<{ program: string; ok: boolean; gpuActors: number }>; failures: number };
  t.is(two.gpus, 2);
  t.deepEqual(two.rows.map((x) => x.program), [...BUILTINS.map((p) => p.name), 'hits', 'mis']);
  t.true(two.rows.every((x) => x.ok && (x.gpuActors === 2 || x.program === 'kcore')), JSON.stringify(two.rows.map((x) => [x.program, x.ok, x.gpuActors])));
  // Without --emulated on a machine with no CUDA device: one clear line and exit 1.
  if (avail.ok && avail.cudaDevices === 0) {
    const r2 = spawnSync(process.execPath, [script, '--scale', '4', '--no-snap', '--no-bench'], { encoding: 'utf8' });
    t.is(r2.status, 1);
    t.regex(r2.stderr, /gpu-check: no CUDA device 0 here .*Fix: .*--emulated/);
  }
  // A GPU out of memory under --memory-limit: its one line, naming the fix, and exit 1 (no stack trace).
  const r4 = spawnSync(process.execPath, [script, '--emulated', '--scale', '12', '--no-snap', '--no-bench', '--programs', 'cdlp', '--memory-limit', '1MiB'], { encoding: 'utf8' });
  t.is(r4.status, 1, r4.stderr + r4.stdout);
  const errLines = r4.stderr.trim().split('\n');
  t.is(errLines.length, 1, r4.stderr);
  t.regex(errLines[0]!, /^gpu-check: GPU actor gpu0 failed .*GPU out of memory.*Fix: raise memoryLimit/);
});

gpuTest('BFS on a GPU that owns every vertex never uploads depth whole (set on the device from the seed), push and pull levels alike; a split GPU every later level', async (t) => {
  const g = rmat(true);
  const cpu = await cpuResults(g);
  const n = g.numVertices;
  for (const [gpuShare, forceMode] of [[1, 'push'], [0.6, 'push'], [1, undefined]] as const) {
    const e = await Engine.create(g, oneSocketOneGpu, { gpuShare, steal: 'off', ...(forceMode ? { forceMode } : {}) });
    try {
      for (let run = 0; run < 2; run++) {
        const { values, report } = await e.run(algorithm('bfs').program, paramsFor(g, 'bfs') as never);
        t.is(firstMismatch(values, cpu.get('bfs')!, false), -1, `share ${gpuShare} ${forceMode ?? 'auto'} run ${run}: the CPU's depths`);
        const rows = gpuRows(report);
        // Each upload of depth is the whole array (4 bytes a vertex) beside small frontier lists.
        const uploads = rows.map((r) => Math.floor(r.stateBytesIn / (4 * n)));
        const pushes = report.steps.map((s) => s.mode === 'push');
        // The first level sets depth on the device (-1, the source 0: args.seed), no upload.
        if (gpuShare < 1) t.true(uploads.every((u, i) => u === (i === 0 ? 0 : 1)), `a split uploads every later level: ${uploads.join(',')}`);
        else {
          t.deepEqual(uploads, uploads.map(() => 0), `depth never whole: ${uploads.join(',')} (${pushes.join(',')})`);
          // The seed: a few bytes a level at a time; none where every level runs in one call (the source a parameter).
          const oneCall = report.supersteps === 1 && forceMode === undefined;
          t.true(oneCall ? rows[0]!.stateBytesIn === 0 : rows[0]!.stateBytesIn > 0 && rows[0]!.stateBytesIn < 64, `the seed: ${rows[0]!.stateBytesIn} B`);
        }
        // The direction-optimising run must cross pull levels and come back to push (one GPU owning
        // every vertex: every level in one call, kernel 'levels', its directions in the report).
        const directions = report.steps[0]!.actors.find((a) => a.kind === 'gpu')!.gpu!.directions;
        if (forceMode === undefined) t.true(directions !== undefined ? /BT/.test(directions) : pushes.some((p, i) => p && pushes[i - 1] === false), `push after a pull level: ${directions ?? pushes.join(',')}`);
      }
    } finally {
      await e.close();
    }
  }
});

gpuTest('push frontiers: a short one goes to a split GPU as its ids, a long one as the owned byte map; a GPU owning every vertex keeps the next flags as its frontier', async (t) => {
  const g = rmat(true);
  const cpu = await cpuResults(g);
  const n = g.numVertices;
  for (const gpuShare of [1, 0.6]) {
    const e = await Engine.create(g, oneSocketOneGpu, { gpuShare, steal: 'off', forceMode: 'push' });
    try {
      const { values, report } = await e.run(algorithm('bfs').program, paramsFor(g, 'bfs') as never);
      t.is(firstMismatch(values, cpu.get('bfs')!, false), -1, `share ${gpuShare}`);
      const rows = gpuRows(report);
      const owned = report.partition!.gpus[0]!.vertices;
      if (gpuShare === 1) {
        // Depth set on the device with the source's seed (8 bytes), the source as one id; then nothing: the next flags stay on the device.
        t.deepEqual(rows.map((r) => r.stateBytesIn), rows.map((_, i) => (i === 0 ? 8 + 5 : 0)), `share 1: ${rows.map((r) => r.stateBytesIn).join(',')}`);
        continue;
      }
      // Split: depth whole every superstep but the first (set on the device: the seed's 8 bytes), and
      // the owned frontier as ids (5 bytes each) or the owned byte map.
      const kinds = rows.map((r, i) => {
        const f = r.stateBytesIn - (i === 0 ? 8 : 4 * n);
        t.true(f === owned || (f % 5 === 0 && (f / 5) * 16 < owned), `superstep ${i}: ${f} frontier bytes (${owned} owned)`);
        return f === owned ? 'map' : 'ids';
      });
      t.true(kinds.includes('map') && kinds.includes('ids'), `both ways: ${kinds.join(',')}`);
    } finally {
      await e.close();
    }
  }
});

gpuTest('SSSP on a GPU that owns every vertex uploads its distances once per run; a split GPU every superstep', async (t) => {
  const g = rmat(true);
  const cpu = await cpuResults(g);
  const n = g.numVertices;
  for (const gpuShare of [1, 0.6]) {
    // Push forced: the bucket supersteps (one GPU owning every vertex otherwise runs every bucket
    // in one call, sssp_steps: gpu-levels.test.ts).
    const e = await Engine.create(g, oneSocketOneGpu, { gpuShare, steal: 'off', forceMode: 'push' });
    try {
      for (let run = 0; run < 2; run++) {
        const { values, report } = await e.run(algorithm('sssp').program, paramsFor(g, 'sssp') as never);
        t.is(firstMismatch(values, cpu.get('sssp')!, true), -1, `share ${gpuShare} run ${run}: the CPU's distances`);
        // Each upload of dist is the whole array (8 bytes a vertex) beside small frontier lists.
        const uploads = gpuRows(report).map((r) => Math.floor(r.stateBytesIn / (8 * n)));
        t.true(uploads.length > 3, `${uploads.length} supersteps`);
        if (gpuShare === 1) t.deepEqual(uploads, uploads.map((_, i) => (i === 0 ? 1 : 0)), `dist once: ${uploads.join(',')}`);
        else t.true(uploads.every((u) => u === 1), `a split uploads every superstep: ${uploads.join(',')}`);
      }
    } finally {
      await e.close();
    }
  }
});

gpuTest('PageRank keeps its contributions on the device: none go up in the first superstep, then only the CPU range', async (t) => {
  const g = rmat(true);
  const topo = oneSocketOneGpu;
  const cpu = await cpuResults(g);
  for (const gpuShare of [1, 0.5]) {
    // No stealing: the bytes per step then follow the split alone.
    const e = await Engine.create(g, topo, { gpuShare, steal: 'off' });
    try {
      const entry = algorithm('pr');
      const { values, report } = await e.run(entry.program, paramsFor(g, 'pr') as never);
      t.is(firstMismatch(values, cpu.get('pr')!, true), -1, `gpuShare ${gpuShare}: same ranks as the CPU`);
      const rows = gpuRows(report);
      const later = rows.slice(1).map((r) => r.stateBytesIn);
      // The first iteration divides r0 by the out-degrees (4 bytes a vertex, once): no contributions.
      t.true(rows[0]!.stateBytesIn <= 4 * g.numVertices, `the first step uploads no contributions: ${rows[0]!.stateBytesIn}`);
      if (gpuShare === 1) t.deepEqual(later, later.map(() => 0), 'nothing to upload when the GPU owns every vertex');
      else t.true(later.every((b) => b > 0 && b < 8 * g.numVertices), `only the CPU range: ${later.join(',')}`);
      // Back to the host: ranks after the last iteration only; contributions only when the CPU
      // owns vertices (it gathers them next step).
      const out = rows.map((r) => r.stateBytesOut);
      const last = out.length - 1;
      if (gpuShare === 1) t.deepEqual(out, out.map((_, i) => (i === last ? 8 * g.numVertices : 0)), `GPU alone: ranks once at the end (${out.join(',')})`);
      else t.true(out.every((b, i) => (i === last ? b === 2 * out[0]! : b === out[0]! && b > 0)), `contributions every step, ranks too at the end: ${out.join(',')}`);
    } finally {
      await e.close();
    }
  }
});

gpuTest('BFS pull on a GPU actor syncs its depth range and next flags in place: no merge to fold, same depths', async (t) => {
  const g = rmat(true);
  const topo = oneSocketOneGpu;
  const cpu = await cpuResults(g);
  for (const gpuShare of [1, 0.5]) {
    const e = await Engine.create(g, topo, { gpuShare, steal: 'off', forceMode: 'pull' });
    try {
      const { values, report } = await e.run(copiedBack(algorithm('bfs').program), paramsFor(g, 'bfs') as never);
      t.is(firstMismatch(values, cpu.get('bfs')!, false), -1, `gpuShare ${gpuShare}: same depths as the CPU`);
      // Every superstep's frontier size is what the actors activated (the GPU counts its flags).
      const sizes = report.steps.map((s) => s.active);
      t.true(sizes.some((a) => a > 0), `some level activates vertices: ${sizes.join(',')}`);
      for (const s of report.steps) t.is(s.actors.find((a) => a.kind === 'gpu')!.messagesAggregated, 0, 'pull steps send no outbox');
      // Depth (4 B) and a flag (1 B) per owned vertex come back every level, whatever changed,
      // never a compacted merge (12 B per changed vertex); the flags not where the GPU marked none.
      const out = gpuRows(report).map((r) => r.stateBytesOut);
      t.true(out[0]! > 0 && out.every((b) => b === out[0] || b === (out[0]! * 4) / 5), `the same dense range every level: ${out.join(',')}`);
      if (gpuShare === 1) t.deepEqual(out, report.steps.map((s) => (s.active > 0 ? 5 : 4) * g.numVertices));
    } finally {
      await e.close();
    }
  }
});

gpuTest('BFS push on a GPU actor returns a large level as claim flags, a small one as a compacted merge: same depths and frontiers', async (t) => {
  const g = rmat(true);
  const topo = oneSocketOneGpu;
  const cpu = await cpuResults(g);
  const ref = await Engine.create(g, { ...topo, gpus: [] }, { forceMode: 'push' });
  const want = (await ref.run(algorithm('bfs').program, paramsFor(g, 'bfs') as never)).report.steps.map((s) => s.active);
  await ref.close();
  for (const gpuShare of [1, 0.5]) {
    const e = await Engine.create(g, topo, { gpuShare, steal: 'off', forceMode: 'push' });
    try {
      const { values, report } = await e.run(copiedBack(algorithm('bfs').program), paramsFor(g, 'bfs') as never);
      t.is(firstMismatch(values, cpu.get('bfs')!, false), -1, `gpuShare ${gpuShare}: same depths as the CPU`);
      // Each level activates exactly the vertices a CPU-only push does (flags and merges both
      // count a vertex once, whoever claimed it).
      t.deepEqual(report.steps.map((s) => s.active), want);
      const owned = gpuShare === 1 ? g.numVertices : undefined;
      const out = gpuRows(report).map((r) => r.stateBytesOut);
      if (owned !== undefined) {
        // Flags: one byte per owned vertex; a compacted merge: 12 B per claimed vertex (< n / 64 of them).
        const flags = out.filter((b) => b === owned);
        t.true(flags.length > 0 && flags.length < out.length, `some levels as flags, some as lists: ${out.join(',')}`);
        for (const b of out) if (b !== owned) t.true(b % 12 === 0 && b / 12 < owned / 64, `small level ${b} B`);
      }
    } finally {
      await e.close();
    }
  }
});

gpuTest('WCC and SSSP on a GPU actor: supersteps that change many owned vertices send flags and values, not lists (Afforest on a GPU owning every vertex: its labels once); same results', async (t) => {
  const g = rmat(true);
  const topo = oneSocketOneGpu;
  const cpu = await cpuResults(g);
  for (const [algo, valueBytes] of [['wcc', 4], ['sssp', 8]] as const) {
    for (const gpuShare of [1, 0.5]) {
      // sssp's bucket supersteps: push forced (else one call, sssp_steps, on one GPU owning every vertex).
      const e = await Engine.create(g, topo, { gpuShare, steal: 'off', ...(algo === 'sssp' ? { forceMode: 'push' as const } : {}) });
      try {
        const { values, report } = await e.run(copiedBack(algorithm(algo).program), paramsFor(g, algo) as never);
        t.is(firstMismatch(values, cpu.get(algo)!, algo === 'sssp'), -1, `${algo} gpuShare ${gpuShare}: same as the CPU`);
        const out = gpuRows(report).map((r) => r.stateBytesOut);
        if (gpuShare === 1 && algo === 'wcc') {
          // One GPU owning every vertex runs Afforest in one superstep: the labels come back once.
          t.is(report.notes.algorithm, 'afforest');
          t.deepEqual(out, [g.numVertices * valueBytes]);
        } else if (gpuShare === 1) {
          // A flag byte and a value per owned vertex when many changed; 12 B per changed vertex otherwise.
          t.true(out.some((b) => b === g.numVertices * (1 + valueBytes)), `${algo}: some superstep as flags + values: ${out.join(',')}`);
        }
      } finally {
        await e.close();
      }
    }
  }
});

gpuTest('runs of one engine reuse the arrays of earlier runs: results equal, returned values untouched (CPU and GPU)', async (t) => {
  const g = rmat(true);
  const cpu = await cpuResults(g);
  const cases: Array<[Topology, { gpuShare?: number }]> = [[oneSocketOneGpu, { gpuShare: 0.5 }], [oneSocketOneGpu, { gpuShare: 1 }], [{ ...oneSocketOneGpu, name: '1S', gpus: [] }, {}]];
  for (const [topo, opts] of cases) {
    const e = await Engine.create(g, topo, { ...opts, steal: 'off' });
    try {
      const first: Record<string, { values: Float64Array | Int32Array | Uint32Array; copy: number[] }> = {};
      for (const round of [0, 1]) {
        for (const algo of ['pr', 'bfs', 'sssp', 'pr'] as const) {
          const { values } = await e.run(algorithm(algo).program, paramsFor(g, algo) as never);
          t.is(firstMismatch(values, cpu.get(algo)!, algo !== 'bfs'), -1, `${topo.name} ${JSON.stringify(opts)} round ${round} ${algo}`);
          if (round === 0 && first[algo] === undefined) first[algo] = { values, copy: [...values] };
        }
      }
      for (const [algo, f] of Object.entries(first)) t.deepEqual([...f.values], f.copy, `${algo}: the first run's values are not reused`);
      t.true(e.arrayPool.size > 0 && e.bitmapPool.length > 0, 'finished runs left arrays and bitmaps to reuse');
    } finally {
      await e.close();
    }
  }
});

// Push supersteps hand the next frontier over as a list in vertex order: joined and sorted from
// the actors' lists when short, read off the next bitmap when longer than Engine.listCap. Each
// owner's frontier vertices are then one slice of the list (pushTaskShares' binary searches).
gpuTest('push frontiers are ascending lists of exactly the next bitmap, short and long levels, every topology and partition', async (t) => {
  const g = makeGraph('skewed', true);
  const want = (await cpuResults(g)).get('bfs')!;
  const levels: number[] = [];
  const checked = checkedBfs((frontier, level) => {
    t.true(listMatchesBitmap(frontier, g.numVertices), `level ${level}: ${frontier.size} listed`);
    levels.push(frontier.size);
  });
  const cases: Array<[string, Topology, EngineOptions]> = [
    ['1S', cpuTopo, {}],
    ['2S', { ...cpuTopo, sockets: [{ id: 0, threads: 1 }, { id: 1, threads: 1 }] }, {}],
    ['1S1G high', oneSocketOneGpu, { gpuShare: 0.6 }],
    ['1S1G low', oneSocketOneGpu, { gpuShare: 0.6, partition: 'low' }],
    ['2S1G rand', twoSocketsOneGpu, { gpuShare: 0.5, partition: 'rand' }],
  ];
  for (const [label, topo, opts] of cases) {
    const e = await Engine.create(g, topo, await withOwnership(g, topo, { forceMode: 'push', ...opts }));
    try {
      levels.length = 0;
      const r = await e.run(checked, { source: 0 });
      t.is(firstMismatch(r.values, want, false), -1, `${label}: depths`);
      const cap = g.numVertices >> 8;
      t.true(levels.some((s) => s > cap) && levels.some((s) => s > 0 && s <= cap), `${label}: levels ${levels.join(',')} on both sides of ${cap}`);
    } finally {
      await e.close();
    }
  }
});
