/**
 * Several GPUs sharing the GPU side two ways (issue 26; engine/partition.ts MultiGpu): 'p' (one
 * range each) and 's' (the side's pages dealt round-robin in stripes), the model predicting both,
 * and the options refused where they cannot apply.
 */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { modelOwnership, partitionGraph, sweep } from '../src/model/partition.js';
import { predict, type ModelElement, type ModelParams } from '../src/model/model.js';
import { dealStripe, MAX_DEALT_RANGES, rangeVertices } from '../src/engine/partition.js';
import { Engine } from '../src/engine/coordinator.js';
import { findProgram } from '../src/programs/index.js';
import { prepareRun } from '../src/api.js';
import { nativeAvailable } from '../actors/gpu/native.js';
import type { RunReport } from '../src/engine/report.js';
import type { Topology } from '../src/topology/schema.js';
import { removeTempDirs, tempDir, tessera } from './helpers/cli.js';

test.after.always(removeTempDirs);

const avail = nativeAvailable();
const gpuTest = !avail.ok && avail.toolchainMissing ? test.skip : test.serial;

const g = buildGraph({ ...generateEdges('rmat:14:ef=8'), directed: true }, { pageEdges: 512 });
const els = (gpus: number, sockets = 1): ModelElement[] => [
  ...Array.from({ length: sockets }, (_, i): ModelElement => ({ name: `socket${i}`, kind: 'cpu', rate: 1e8, threads: 1 })),
  ...Array.from({ length: gpus }, (_, i): ModelElement => ({ name: `gpu${i}`, kind: 'gpu', rate: 1e9 })),
];

test('dealt pages: every GPU-side page owned once, at most MAX_DEALT_RANGES ranges a GPU, edges and vertices balanced where P is not', (t) => {
  for (const alpha of [0, 0.3]) {
    const p = partitionGraph(g, { elements: els(2) }, { strategy: 'high', alpha, multiGpu: 'p' });
    const s = partitionGraph(g, { elements: els(2) }, { strategy: 'high', alpha, multiGpu: 's' });
    t.is(s.multiGpu, 's');
    // The same CPU side; the GPUs' pages are the same set, split differently.
    t.deepEqual(s.elements[0]!.pages, p.elements[0]!.pages);
    const side = (x: typeof p): number[] => [...x.elements[1]!.pages, ...x.elements[2]!.pages].sort((a, b) => a - b);
    t.deepEqual(side(s), side(p));
    t.is(new Set(side(s)).size, side(s).length, 'no page owned twice');
    const [a, b] = [s.elements[1]!, s.elements[2]!];
    t.true(a.ranges.length > 1 && a.ranges.length <= MAX_DEALT_RANGES && b.ranges.length <= MAX_DEALT_RANGES, `${a.ranges.length} / ${b.ranges.length} ranges`);
    // Stripes alternate: each GPU within a stripe's edges and vertices of the other.
    const stripe = dealStripe(side(s).length, 2);
    t.true(Math.abs(a.edges - b.edges) <= stripe * 1024, `edges ${a.edges} / ${b.edges}`);
    const [va, vb] = [rangeVertices(a.ranges), rangeVertices(b.ranges)];
    t.true(Math.min(va, vb) / Math.max(va, vb) > 0.8, `vertices ${va} / ${vb}`);
    // P by equal edges: the GPU with the hubs owns far fewer vertices.
    const [pa, pb] = [p.elements[1]!.vertices, p.elements[2]!.vertices];
    t.true(Math.min(pa, pb) / Math.max(pa, pb) < 0.5, `P vertices ${pa} / ${pb}`);
  }
  // One GPU: nothing to deal (the same partition as P).
  const one = partitionGraph(g, { elements: els(1) }, { strategy: 'high', alpha: 0, multiGpu: 's' });
  t.is(one.multiGpu, 'p');
  t.is(one.elements[1]!.ranges.length, 1);
});

test("the model charges each GPU's extra ranges, predicts both ways on two GPUs and only P on one", (t) => {
  const params: ModelParams = { elements: els(2), c: 1e9, messageBytes: 8, rangeS: 1e-3 };
  const loads = [{ edges: 0 }, { edges: 1e9, ranges: 1 }, { edges: 1e9, ranges: 5 }];
  const pr = predict(params, loads, { messages: 0 });
  t.true(Math.abs(pr.elements[2]!.computeS - pr.elements[1]!.computeS - 4e-3) < 1e-12, 'four extra ranges, 1 ms each');
  const pts = sweep(g, params, { strategies: ['high'], steps: 2, multiGpu: ['p', 's'] });
  t.deepEqual([...new Set(pts.map((x) => x.multiGpu))].sort(), ['p', 's']);
  t.is(pts.length, 6);
  const single = sweep(g, { ...params, elements: els(1) }, { strategies: ['high'], steps: 2, multiGpu: ['p', 's'] });
  t.deepEqual([...new Set(single.map((x) => x.multiGpu))], ['p']);
});

test("modelOwnership gives the engine the model's dealt ranges", (t) => {
  const topo: Topology = { name: '1S2G', source: 'test', sockets: [{ id: 0, threads: 1 }], gpus: [0, 1].map((device) => ({ device, emulated: true, streams: 2 })), interconnect: {}, model: {} };
  const owned = modelOwnership(g, topo, 1, { strategy: 'high', multiGpu: 's' });
  const part = partitionGraph(g, { elements: [{ name: 'socket0', kind: 'cpu', rate: 1, threads: 1 }, ...els(2).slice(1).map((e) => ({ ...e, rate: 1 }))] }, { strategy: 'high', alpha: 0, multiGpu: 's' });
  t.deepEqual(owned, [part.elements[1]!.ranges, part.elements[2]!.ranges]);
  t.is(rangeVertices(owned[0]!) + rangeVertices(owned[1]!), g.numVertices);
});

test("the engine refuses multiGpu without two GPUs, and 's' without the model's ranges", async (t) => {
  const one: Topology = { name: '1S1G', source: 'one.yaml', sockets: [{ id: 0, threads: 1 }], gpus: [{ device: 0, emulated: true, streams: 2 }], interconnect: {}, model: {} };
  const e1 = await t.throwsAsync(Engine.create(g, one, { multiGpu: 's' }));
  t.regex(e1!.message, /multiGpu 's' shares work between GPUs, and this topology has one/);
  const two: Topology = { ...one, gpus: [0, 1].map((device) => ({ device, emulated: true, streams: 2 })) };
  const e2 = await t.throwsAsync(Engine.create(g, two, { multiGpu: 's' }));
  t.regex(e2!.message, /takes its ranges from the performance model/);
  const e3 = await t.throwsAsync(Engine.create(g, two, { multiGpu: 'x' as never }));
  t.regex(e3!.message, /multiGpu 'x' is not a strategy/);
});

gpuTest('tessera run --multi-gpu s on two emulated GPUs: the ranks of --multi-gpu p, dealt ranges in the report; refused on one GPU', async (t) => {
  const dir = await tempDir('tessera-mgpu-');
  const topo = path.join('configs', '1S2G-emulated.yaml');
  const got: Record<string, { out: string; report: RunReport }> = {};
  for (const mg of ['p', 's'] as const) {
    const out = path.join(dir, `${mg}.txt`);
    const report = path.join(dir, `${mg}.json`);
    const r = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:12', '--page-edges', '1024', '--topology', topo, '--multi-gpu', mg, '--out', out, '--report', report]);
    t.is(r.code, 0, r.stderr);
    t.regex(r.stdout, new RegExp(`multi-GPU ${mg.toUpperCase()}: gpu0 owns`));
    const { readFile } = await import('node:fs/promises');
    got[mg] = { out: await readFile(out, 'utf8'), report: JSON.parse(await readFile(report, 'utf8')) as RunReport };
  }
  const ranks = (text: string): number[][] => text.trim().split('\n').map((l) => l.split(' ').map(Number));
  const [a, b] = [ranks(got.s!.out), ranks(got.p!.out)];
  t.true(a.length === b.length && a.every(([id, x], i) => id === b[i]![0] && Math.abs(x! - b[i]![1]!) <= 1e-9 * Math.abs(b[i]![1]!)), 'the same ranks');
  const ps = got.s!.report.partition!;
  t.like(ps, { strategy: 'high', multiGpu: 's', explicit: false });
  t.true(ps.gpus.every((x) => x.ranges > 1), 'several ranges each');
  t.is(got.p!.report.partition!.multiGpu, 'p');
  // One GPU: the flag has nothing to share; one line, exit 1.
  const oneTopo = path.join(dir, 'one.yaml');
  await writeFile(oneTopo, 'name: one\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\n');
  const bad = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:8', '--topology', oneTopo, '--multi-gpu', 's']);
  t.is(bad.code, 1);
  t.regex(bad.stderr, /^tessera: --multi-gpu shares work between GPUs, and this topology has one/);
  t.is(bad.stderr.trim().split('\n').length, 1);
});

gpuTest('tessera model --multi-gpu auto on two GPUs predicts P and S columns and names its choice; run --multi-gpu auto runs it', async (t) => {
  const dir = await tempDir('tessera-mgpu-model-');
  const topo = path.join(dir, '1S2G.yaml');
  await writeFile(topo, 'name: two\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\n  - device: 1\n    emulated: true\nmodel:\n  rCpu: 1e7\n  rGpu: 2e8\n  c: 1e9\n');
  const env = { TESSERA_CACHE_DIR: dir };
  const m = await tessera(['model', '--graph', 'rmat:12', '--algo', 'pr', '--topology', topo, '--alpha-steps', '2', '--page-edges', '1024'], { env });
  t.is(m.code, 0, m.stderr);
  t.regex(m.stdout, /HIGH-P ms .* HIGH-S ms/);
  t.regex(m.stdout, /chosen: (HIGH|LOW|RAND), multi-GPU [PS], alpha/);
  const j = JSON.parse((await tessera(['model', '--graph', 'rmat:12', '--algo', 'pr', '--topology', topo, '--alpha-steps', '2', '--page-edges', '1024', '--multi-gpu', 's', '--json'], { env })).stdout) as { points: Array<{ multiGpu: string }>; chosen: { multiGpu: string } };
  t.true(j.points.every((p) => p.multiGpu === 's') && j.chosen.multiGpu === 's');
  const report = path.join(dir, 'r.json');
  const r = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:12', '--page-edges', '1024', '--topology', topo, '--multi-gpu', 'auto', '--report', report, '-q'], { env });
  t.is(r.code, 0, r.stderr);
  const { readFile } = await import('node:fs/promises');
  const rep = JSON.parse(await readFile(report, 'utf8')) as RunReport;
  t.true(rep.partition!.multiGpu === 'p' || rep.partition!.multiGpu === 's');
  t.is(rep.model!.multiGpu, rep.partition!.multiGpu!, 'the model chose what ran');
});

gpuTest('tessera run --algo sssp on two emulated GPUs: on the first alone, one line saying so, the report one GPU; with --multi-gpu p, on both; a refused run says only why', async (t) => {
  const dir = await tempDir('tessera-sole-');
  const topo = path.join('configs', '1S2G-emulated.yaml');
  const { readFile } = await import('node:fs/promises');
  for (const mg of [undefined, 'p'] as const) {
    const report = path.join(dir, `${mg ?? 'none'}.json`);
    const r = await tessera(['run', '--algo', 'sssp', '--graph', 'rmat:10:weighted', '--source', '0', '--topology', topo, '--alpha', '0', ...(mg !== undefined ? ['--multi-gpu', mg] : []), '--report', report, '-q']);
    t.is(r.code, 0, r.stderr);
    const said = r.stderr.split('\n').filter((l) => l.startsWith("tessera: program 'sssp' runs on one GPU (device 0) of the topology's 2"));
    t.is(said.length, mg === undefined ? 1 : 0, r.stderr);
    const rep = JSON.parse(await readFile(report, 'utf8')) as RunReport;
    t.is(rep.topology.gpus.length, mg === undefined ? 1 : 2);
    if (mg === undefined) t.deepEqual([...new Set(rep.steps.map((s) => s.kernel))], ['sssp_steps'], 'its device loop');
  }
  // A refused run says one line, not the notice too.
  const bad = await tessera(['run', '--algo', 'sssp', '--graph', 'rmat:8:weighted', '--topology', topo]);
  t.is(bad.code, 1);
  t.is(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  t.regex(bad.stderr, /^tessera: sssp needs --source/);
});

gpuTest('two emulated GPUs, one owning every vertex and the other none (fewer dealt pages than GPUs): the results of the CPU', async (t) => {
  const small = buildGraph({ ...generateEdges('rmat:9:ef=8'), directed: true }, { pageEdges: 1 << 16 });
  const n = small.numVertices;
  const cpu: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 1 }], gpus: [], interconnect: {}, model: {} };
  const two: Topology = { ...cpu, name: '1S2G', gpus: [0, 1].map((device) => ({ device, emulated: true, streams: 2 })) };
  const ref = await Engine.create(small, cpu, {});
  // ppr keeps its state on the device (resident: 'device'), bfs its next flags, wcc its labels.
  for (const owned of [[[[0, n]], []], [[], [[0, n]]]] as Array<Array<Array<[number, number]>>>) {
    const e = await Engine.create(small, two, { ownership: owned, steal: 'off' });
    try {
      for (const name of ['ppr', 'bfs', 'wcc', 'pr']) {
        const program = findProgram(name);
        const params = prepareRun(small, program, program.params.source !== undefined ? { source: small.ids.toOriginal[0] } : {}).params;
        const want = (await ref.run(program, params)).values as ArrayLike<number>;
        const got = (await e.run(program, params)).values as ArrayLike<number>;
        t.true(Array.from(want).every((x, i) => Math.abs(x - got[i]!) <= 1e-9 * Math.max(1, Math.abs(x))), `${name}, owned ${JSON.stringify(owned)}`);
      }
    } finally {
      await e.close();
    }
  }
  await ref.close();
});
