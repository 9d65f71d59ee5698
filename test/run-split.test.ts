/**
 * `tessera run --alpha / --partition` on GPU topologies (emulated GPU): the split reaches the
 * engine, `--alpha auto` runs the performance model's choice and the report carries prediction
 * beside measurement, a GPU rate can be calibrated through the GPU actor, and the flags are refused
 * with a clear line where they cannot apply.
 */
import test from 'ava';
import { generate } from '../src/index.js';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { nativeAvailable } from '../actors/gpu/native.js';
import { measureGpu } from '../src/model/calibrate.js';
import type { RunReport } from '../src/engine/report.js';
import { removeTempDirs, tempDir, tessera } from './helpers/cli.js';

const native = nativeAvailable();
const gpuTest = native.ok || !native.toolchainMissing ? test : test.skip;

test.after.always(removeTempDirs);

async function emulatedTopology(dir: string, model: string): Promise<string> {
  const file = path.join(dir, 'emu.yaml');
  await writeFile(file, `name: emu-split\nsockets:\n  - id: 0\n    threads: 2\ngpus:\n  - device: 0\n    emulated: true\n    memoryLimit: 64MiB\n${model}`);
  return file;
}

function gpuEdgeShare(r: RunReport): number {
  let gpu = 0;
  let all = 0;
  for (const s of r.steps)
    for (const a of s.actors) {
      all += a.edges;
      if (a.kind === 'gpu') gpu += a.edges;
    }
  return all > 0 ? gpu / all : 0;
}

gpuTest('--alpha X gives the CPU sockets about X of the edges; --alpha 1 leaves the GPU idle', async (t) => {
  const dir = await tempDir();
  process.env.TESSERA_CACHE_DIR = dir;
  const topo = await emulatedTopology(dir, '');
  const shares: number[] = [];
  for (const alpha of ['0.25', '1']) {
    const report = path.join(dir, `r${alpha}.json`);
    const r = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:11', '--topology', topo, '--alpha', alpha, '--report', report, '-q']);
    t.is(r.code, 0, r.stderr);
    shares.push(gpuEdgeShare(JSON.parse(await readFile(report, 'utf8')) as RunReport));
  }
  // PageRank pulls every in-edge on its vertex's owner, so the GPU walks exactly the in-edges it
  // owns; ownership is cut at a page boundary, so the share is 1 - alpha within one in-page.
  const g = generate('rmat:11');
  const page = Math.max(...g.in.pages.map((p) => p.edges)) / g.numEdges;
  t.true(Math.abs(shares[0]! - 0.75) <= page + 1e-12, `GPU share at alpha 0.25: ${shares[0]} (one page: ${page})`);
  t.is(shares[1], 0);
});

gpuTest('--alpha auto runs the model choice and reports prediction vs measurement', async (t) => {
  const dir = await tempDir();
  process.env.TESSERA_CACHE_DIR = dir;
  const topo = await emulatedTopology(dir, 'model:\n  rCpu: 20000000\n  rGpu: 400000000\n  c: 1000000000\n');
  const report = path.join(dir, 'r.json');
  const r = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:11', '--topology', topo, '--alpha', 'auto', '--report', report, '-q']);
  t.is(r.code, 0, r.stderr);
  const rep = JSON.parse(await readFile(report, 'utf8')) as RunReport;
  t.truthy(rep.model);
  t.is(rep.model!.strategy, 'high');
  // A GPU 20x faster per edge than one CPU thread and a fast link: the model gives the GPU most edges.
  t.true(rep.model!.alpha < 0.5, `alpha ${rep.model!.alpha}`);
  t.true(rep.model!.predictedMs > 0);
  t.is(rep.model!.measuredMs, rep.totalMs);
  t.true(Math.abs(gpuEdgeShare(rep) - (1 - rep.model!.alpha)) < 0.25, `measured GPU share ${gpuEdgeShare(rep)} vs 1 - alpha ${1 - rep.model!.alpha}`);
});

gpuTest('--partition low gives the GPU the hubs (the head of the degree order), high the tail; the values agree', async (t) => {
  const dir = await tempDir();
  process.env.TESSERA_CACHE_DIR = dir;
  const topo = await emulatedTopology(dir, '');
  const got: Record<string, { out: string; report: RunReport }> = {};
  for (const partition of ['high', 'low'] as const) {
    const report = path.join(dir, `${partition}.json`);
    const out = path.join(dir, `${partition}.txt`);
    const r = await tessera(['run', '--algo', 'bfs', '--source', '1', '--graph', 'rmat:11', '--topology', topo, '--alpha', '0.5', '--partition', partition, '--report', report, '--out', out, '-q']);
    t.is(r.code, 0, r.stderr);
    got[partition] = { out: await readFile(out, 'utf8'), report: JSON.parse(await readFile(report, 'utf8')) as RunReport };
  }
  t.is(got.low!.out, got.high!.out, 'the same depths either way');
  for (const p of ['high', 'low'] as const) t.true(gpuEdgeShare(got[p]!.report) > 0.1, `${p}: the GPU walked edges`);
});

gpuTest('--partition auto --alpha X asks the model for the strategy at X and runs it', async (t) => {
  const dir = await tempDir();
  process.env.TESSERA_CACHE_DIR = dir;
  const topo = await emulatedTopology(dir, 'model:\n  rCpu: 20000000\n  rGpu: 400000000\n  c: 1000000000\n');
  const report = path.join(dir, 'r.json');
  const r = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:11', '--page-edges', '512', '--topology', topo, '--partition', 'auto', '--alpha', '0.5', '--report', report, '-q']);
  t.is(r.code, 0, r.stderr);
  const rep = JSON.parse(await readFile(report, 'utf8')) as RunReport;
  t.is(rep.model!.alphaRequested, 0.5);
  t.is(rep.partition!.strategy, rep.model!.strategy, 'the run used the strategy the model chose');
});

gpuTest('measureGpu calibrates a GPU rate through the GPU actor', async (t) => {
  const gpu = { device: 0, emulated: true, streams: 2, memoryLimit: 64 * 2 ** 20 };
  const m = await measureGpu({ name: 'g', source: 'test', sockets: [{ id: 0, threads: 1 }], gpus: [gpu], interconnect: {}, model: {} }, gpu, 'pr', 'pull', { graph: 'rmat:10', repetitions: 1 });
  t.true(m.rate > 0);
  t.regex(m.on ?? '', /emulated GPU 0/);
  // The coordinator's share of the superstep time: measured, a fraction.
  t.true(m.coordShare !== undefined && m.coordShare >= 0 && m.coordShare < 1, `coordinator share ${m.coordShare}`);
  // What the device held per vertex beside its pages: at least PageRank's arrays (two f64
  // contribution arrays and an f64 rank: the model's state before it pages), measured, not declared.
  t.true(m.stateBytesPerVertex !== undefined && m.stateBytesPerVertex >= 24, `${m.stateBytesPerVertex} B a vertex`);
});

test('--alpha or --partition rand on a CPU-only topology, a bad --alpha and a bad --partition-seed are one-line errors', async (t) => {
  const r1 = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:8', '--topology', 'configs/1S.yaml', '--alpha', '0.5']);
  t.is(r1.code, 1);
  t.regex(r1.stderr, /^tessera: .*has no GPU.*--alpha/);
  t.is(r1.stderr.trim().split('\n').length, 1);
  const r2 = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:8', '--topology', 'configs/1S.yaml', '--partition', 'rand']);
  t.is(r2.code, 1);
  t.regex(r2.stderr, /^tessera: .*has no GPU.*--partition/);
  const r3 = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:8', '--alpha', '1.5']);
  t.is(r3.code, 1);
  t.regex(r3.stderr, /--alpha must be a number from 0 to 1 or auto, got '1\.5'/);
  const r4 = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:8', '--partition', 'rand', '--partition-seed', 'x']);
  t.is(r4.code, 1);
  t.regex(r4.stderr, /--partition-seed must be an integer >= 0, got 'x'/);
});

gpuTest('--partition rand runs the model\'s RAND pages: same values as high, the owned set `tessera model` predicts, another seed other pages', async (t) => {
  const dir = await tempDir();
  process.env.TESSERA_CACHE_DIR = dir;
  const topo = await emulatedTopology(dir, 'model:\n  rCpu: 20000000\n  rGpu: 400000000\n  c: 1000000000\n');
  const graph = ['--graph', 'rmat:11', '--page-edges', '512'];
  const got: Record<string, { out: string; report: RunReport }> = {};
  for (const [name, extra] of [
    ['high', ['--partition', 'high']],
    ['rand', ['--partition', 'rand']],
    ['rand2', ['--partition', 'rand', '--partition-seed', '2']],
  ] as const) {
    const report = path.join(dir, `${name}.json`);
    const out = path.join(dir, `${name}.txt`);
    const r = await tessera(['run', '--algo', 'pr', ...graph, '--topology', topo, '--alpha', '0.5', ...extra, '--report', report, '--out', out]);
    t.is(r.code, 0, r.stderr);
    got[name] = { out: await readFile(out, 'utf8'), report: JSON.parse(await readFile(report, 'utf8')) as RunReport };
    if (name !== 'high') t.regex(r.stdout, /partition RAND seed \d: gpu0 owns .*vertices \(\d+ ranges/);
  }
  // The same ranks either way (summation order differs between actors: 1e-9 relative).
  const ranks = (text: string): number[][] => text.trim().split('\n').map((l) => l.split(' ').map(Number));
  const [a, b] = [ranks(got.rand!.out), ranks(got.high!.out)];
  t.is(a.length, b.length);
  t.true(a.length > 1000 && a.every(([id, x], i) => id === b[i]![0] && Math.abs(x! - b[i]![1]!) <= 1e-9 * Math.abs(b[i]![1]!)), 'the same ranks either way');
  const rand = got.rand!.report.partition!;
  t.like(rand, { strategy: 'rand', seed: 1, explicit: false, pages: 'in' });
  t.true(rand.gpus[0]!.ranges > 1, `several ranges: ${rand.gpus[0]!.ranges}`);
  t.true(gpuEdgeShare(got.rand!.report) > 0.2, 'the GPU walked edges');
  t.is(got.rand2!.report.partition!.seed, 2);
  t.notDeepEqual(got.rand2!.report.partition!.gpus, rand.gpus, 'seed 2 picks other pages');
  // The model at the same alpha and seed: its GPU element holds exactly the run's vertices and edges.
  for (const [seed, rep] of [
    ['1', rand],
    ['2', got.rand2!.report.partition!],
  ] as const) {
    const m = await tessera(['model', '--algo', 'pr', ...graph, '--topology', topo, '--partition', 'rand', '--alpha', '0.5', '--seed', seed, '--json']);
    t.is(m.code, 0, m.stderr);
    const chosen = (JSON.parse(m.stdout) as { chosen: { strategy: string; parts: Array<{ name: string; edges: number; vertices: number }> } }).chosen;
    t.is(chosen.strategy, 'rand');
    const gpu = chosen.parts.find((p) => p.name === 'gpu0')!;
    t.deepEqual({ vertices: rep.gpus[0]!.vertices, edges: rep.gpus[0]!.edges }, { vertices: gpu.vertices, edges: gpu.edges }, `seed ${seed}`);
  }
});

gpuTest('--partition rand --alpha auto runs the pages of the model\'s chosen RAND point', async (t) => {
  const dir = await tempDir();
  process.env.TESSERA_CACHE_DIR = dir;
  const topo = await emulatedTopology(dir, 'model:\n  rCpu: 20000000\n  rGpu: 400000000\n  c: 1000000000\n');
  const report = path.join(dir, 'r.json');
  const r = await tessera(['run', '--algo', 'sssp', '--source', '1', '--graph', 'rmat:11', '--page-edges', '512', '--topology', topo, '--partition', 'rand', '--alpha', 'auto', '--report', report, '-q']);
  t.is(r.code, 0, r.stderr);
  const rep = JSON.parse(await readFile(report, 'utf8')) as RunReport;
  t.is(rep.model!.strategy, 'rand');
  // sssp is push: the model (and so the run) shuffles out-pages.
  t.like(rep.partition!, { strategy: 'rand', explicit: false, pages: 'out' });
  const predicted = rep.model!.actors.find((a) => a.actor === 'gpu0')!.edges;
  t.true(predicted > 0, 'the model gave the GPU edges');
  t.is(rep.partition!.gpus[0]!.edges, predicted, 'the GPU owns the out-edges the model predicted for it');
});
