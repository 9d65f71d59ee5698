/**
 * The performance model's calibration and its use: the calibration cache (keys, topology
 * overrides, refresh, engine stamps, graph size), the host-device and peer links, the fits of
 * pass time and cost per vertex, splitting a measured run into setup, start and supersteps, the
 * model parameters from calibrated rates (modelParamsFor, modelSummary beside a real run), and the
 * alpha sweep from the library (modelSweep) and the CLI (`tessera model`) on emulated topologies.
 * The formulas are in model-formulas.test.ts; partitions and their choice in model.test.ts.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { parseTopology } from '../src/topology/parse.js';
import type { Topology } from '../src/topology/schema.js';
import { isTesseraError } from '../src/errors.js';
import { nativeAvailable, pageBufferBytes, pageBytesWithoutWeights } from '../actors/gpu/native.js';
import {
  cacheKey,
  cpuCacheKey,
  calibratedTooSmall,
  ENGINE_COSTS,
  measureLink,
  calibrate,
  measureCpuOn,
  fitPassTime,
  fitVertexTerm,
  tooCloseToFit,
  modelSummary,
  measuredBeta,
  modelParamsFor,
  modelSweep,
  partitionGraph,
  type Partition,
  programProfile,
  readCache,
  splitRunTime,
  type MeasureFn,
} from '../src/model/index.js';
import { REPO_ROOT } from './helpers/paths.js';
import { close } from './helpers/tolerance.js';
import { run as runAlgo } from '../src/api.js';

// ------------------------------------------------------------------------------------------------
// Calibration

const topoYaml = (extra: string): string => `name: emu\nsockets:\n  - threads: 2\ngpus:\n  - device: 0\n    emulated: true\n    memoryLimit: 64MiB\n${extra}`;

test('calibration: a topology with two GPUs caches the peer link rate the GPU measurement gives; the model uses it', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  let gpuCalls = 0;
  const measure: MeasureFn = async (el) => (el.kind === 'cpu' ? { rate: 5e6, on: 'fake' } : (gpuCalls++, { rate: 4e8, c: 2e9, linkBytesPerSec: 2.4e10, peerBytesPerSec: 3e11, on: 'fake-gpu' }));
  const topo = parseTopology(topoYaml('  - device: 1\n    emulated: true\n    memoryLimit: 64MiB\n'), 'emu2.yaml');
  const r1 = await calibrate(topo, 'pr', 'pull', { cacheFile, measure });
  t.is(r1.peerBytesPerSec!.value, 3e11);
  t.is(r1.peerBytesPerSec!.source, 'measured');
  const r2 = await calibrate(topo, 'pr', 'pull', { cacheFile, measure });
  t.is(gpuCalls, 1);
  t.is(r2.peerBytesPerSec!.source, 'cache');
  t.is(r2.peerBytesPerSec!.value, 3e11);
  t.is(modelParamsFor(topo, r2, buildGraph(generateEdges('rmat:8'))).peerBytesPerSec, 3e11);
  const one = parseTopology(topoYaml(''), 'emu.yaml');
  t.is(modelParamsFor(one, r2, buildGraph(generateEdges('rmat:8'))).peerBytesPerSec, undefined, 'one GPU: no peer link');
});

test("the model's GPU holds a weighted graph's pages without weights for a program that reads none (bfs), with them for one that does (sssp): more pages fit a capped GPU", async (t) => {
  const measure: MeasureFn = async (el) => (el.kind === 'cpu' ? { rate: 5e6, on: 'fake' } : { rate: 4e8, c: 2e9, linkBytesPerSec: 2.4e10, on: 'fake-gpu' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const g = buildGraph(generateEdges('rmat:10:ef=16:weighted'), { pageEdges: 256 });
  const unweighted = buildGraph(generateEdges('rmat:10:ef=16'), { pageEdges: 256 });
  const topo = parseTopology(topoYaml(''), 'emu.yaml');
  const parts = new Map<string, Partition>();
  for (const algo of ['bfs', 'sssp'] as const) {
    const rates = await calibrate(topo, algo, 'push', { cacheFile: path.join(dir, 'calibration.json'), measure });
    const params = modelParamsFor(topo, rates, g);
    t.is(params.pageWeights, algo === 'bfs' ? false : undefined, algo);
    t.is(modelParamsFor(topo, rates, unweighted).pageWeights, undefined, `${algo}: an unweighted graph's pages are whole`);
    // A GPU with room for about half of the weighted pages.
    const bytes = g.in.pages.reduce((a, p) => a + pageBufferBytes(p), 0);
    const elements = params.elements.map((e) => (e.kind === 'gpu' ? { ...e, memoryBytes: (params.gpuStateBytes ?? 0) + bytes / 2 } : e));
    parts.set(algo, partitionGraph(g, { ...params, elements }, { strategy: 'high', alpha: 0 }));
  }
  const gpuOf = (p: Partition) => p.elements.find((e) => e.kind === 'gpu')!;
  t.is(gpuOf(parts.get('bfs')!).bytes, g.in.pages.reduce((a, p) => a + pageBytesWithoutWeights(p), 0));
  t.is(gpuOf(parts.get('sssp')!).bytes, g.in.pages.reduce((a, p) => a + pageBufferBytes(p), 0));
  t.true(gpuOf(parts.get('bfs')!).residentPages > gpuOf(parts.get('sssp')!).residentPages, `${gpuOf(parts.get('bfs')!).residentPages} against ${gpuOf(parts.get('sssp')!).residentPages} resident pages`);
});

test('calibration cache: measures once, then reads the cache; topology values override; refresh re-measures', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'sub', 'calibration.json');
  const calls: string[] = [];
  const measure: MeasureFn = async (el, program, mode) => {
    calls.push(`${el.kind}:${program}:${mode}`);
    return el.kind === 'cpu' ? { rate: 5e6, on: 'fake' } : { rate: 4e8, c: 2e9, linkBytesPerSec: 2.4e10, on: 'fake-gpu' };
  };
  const topo = parseTopology(topoYaml(''), 'emu.yaml');
  const r1 = await calibrate(topo, 'pagerank', 'pull', { cacheFile, measure });
  t.deepEqual(calls, ['gpu:pr:pull', 'cpu:pr:pull']);
  t.is(r1.rCpu.value, 5e6);
  t.is(r1.rCpu.source, 'measured');
  t.is(r1.rGpu!.value, 4e8);
  t.is(r1.c!.value, 2e9);
  t.is(r1.linkBytesPerSec!.value, 2.4e10);
  const onDisk = await readCache(cacheFile);
  t.is(onDisk.entries[cpuCacheKey(topo, 'pr', 'pull')]!.rCpu, 5e6);
  t.is(onDisk.entries[cacheKey(topo, 'pr', 'pull')]!.rCpu, undefined, 'CPU values under the sockets key');
  // Another topology with the same sockets (here: a GPU memory limit) shares the CPU values.
  const capped = parseTopology(topoYaml('').replace('memoryLimit: 64MiB', 'memoryLimit: 32MiB'), 'emu.yaml');
  t.not(cacheKey(capped, 'pr', 'pull'), cacheKey(topo, 'pr', 'pull'));
  t.is(cpuCacheKey(capped, 'pr', 'pull'), cpuCacheKey(topo, 'pr', 'pull'));
  const shared = await calibrate(capped, 'pr', 'pull', { cacheFile, measure });
  t.deepEqual(calls, ['gpu:pr:pull', 'cpu:pr:pull', 'gpu:pr:pull'], 'only its GPU measured');
  t.is(shared.rCpu.source, 'cache');
  calls.length = 2;

  const r2 = await calibrate(topo, 'pr', 'pull', { cacheFile, measure });
  t.is(calls.length, 2, 'no new measurement');
  t.is(r2.rCpu.source, 'cache');
  t.is(r2.rGpu!.source, 'cache');
  t.is(r2.rGpu!.value, 4e8);
  // Another mode is another key.
  await calibrate(topo, 'pr', 'push', { cacheFile, measure });
  t.is(calls.length, 4);
  // Topology values win over the cache.
  const over = parseTopology(topoYaml('model:\n  rCpu: 7\n  rGpu: 9\n  c: 11\n'), 'emu.yaml');
  t.is(cacheKey(over, 'pr', 'pull'), cacheKey(topo, 'pr', 'pull'), 'same elements, same key');
  const r3 = await calibrate(over, 'pr', 'pull', { cacheFile, measure });
  t.deepEqual([r3.rCpu.value, r3.rGpu!.value, r3.c!.value], [7, 9, 11]);
  t.deepEqual([r3.rCpu.source, r3.rGpu!.source, r3.c!.source], ['topology', 'topology', 'topology']);
  t.is(calls.length, 4);
  // refresh ignores the cache.
  await calibrate(topo, 'pr', 'pull', { cacheFile, measure, refresh: true });
  t.is(calls.length, 6);
  // Another topology shape is another key.
  t.not(cacheKey(parseTopology(topoYaml('').replace('threads: 2', 'threads: 1'), 'emu.yaml'), 'pr', 'pull'), cacheKey(topo, 'pr', 'pull'));
});

test('calibration cache: entries another build measured (another ENGINE_COSTS stamp, or none) are measured again and replaced', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  const topo = parseTopology(topoYaml(''), 'emu.yaml');
  const old = { rCpu: 1, rGpu: 2, c: 3, gpuPageBytesPerSec: 4, measuredAt: '2026-01-01T00:00:00.000Z' };
  writeFileSync(cacheFile, JSON.stringify({ version: 3, entries: { [cacheKey(topo, 'pr', 'pull')]: { ...old, engine: 'an older build' }, [cpuCacheKey(topo, 'pr', 'pull')]: old } }));
  const calls: string[] = [];
  const measure: MeasureFn = async (el) => (calls.push(el.kind), el.kind === 'cpu' ? { rate: 5e6, on: 'fake' } : { rate: 4e8, c: 2e9, on: 'fake-gpu' });
  const r = await calibrate(topo, 'pr', 'pull', { cacheFile, measure });
  t.deepEqual(calls, ['gpu', 'cpu']);
  t.deepEqual([r.rCpu.value, r.rGpu!.value, r.c!.value], [5e6, 4e8, 2e9]);
  const entries = (await readCache(cacheFile)).entries;
  t.is(entries[cacheKey(topo, 'pr', 'pull')]!.engine, ENGINE_COSTS);
  t.is(entries[cacheKey(topo, 'pr', 'pull')]!.gpuPageBytesPerSec, undefined, "nothing of the other build's entry is kept");
  // This build's entries are read back.
  t.is((await calibrate(topo, 'pr', 'pull', { cacheFile, measure })).rGpu!.source, 'cache');
  t.is(calls.length, 2);
});

test('calibration follows the graph size: a rate measured on a graph over 4x smaller is measured again near the graph size', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  const asked: Array<[string, number | undefined]> = [];
  const measure: MeasureFn = async (el, _program, _mode, need) => {
    asked.push([el.kind, need?.minVertices]);
    // The fake calibration graph is 2^17 vertices unless a larger one is asked for.
    const vertices = Math.max(2 ** 17, need?.minVertices ?? 0);
    return el.kind === 'cpu' ? { rate: vertices === 2 ** 17 ? 5e6 : 3e6, on: 'fake', vertices } : { rate: 4e8, on: 'fake-gpu', vertices };
  };
  const topo = parseTopology(topoYaml('interconnect:\n  bandwidth: 12GB/s\n'), 'emu.yaml');
  const small = await calibrate(topo, 'bfs', 'push', { cacheFile, measure, graphVertices: 1e5 });
  t.deepEqual(asked, [['gpu', 1e5], ['cpu', 1e5]]);
  t.is(small.rCpu.value, 5e6);
  // Up to 4x the calibration graph the cached rates hold.
  await calibrate(topo, 'bfs', 'push', { cacheFile, measure, graphVertices: 2 ** 19 });
  t.is(asked.length, 2);
  // A graph 8x larger: both measured again at its size; the cache records the new size.
  const big = await calibrate(topo, 'bfs', 'push', { cacheFile, measure, graphVertices: 2 ** 20 });
  t.deepEqual(asked.slice(2), [['gpu', 2 ** 20], ['cpu', 2 ** 20]]);
  t.is(big.rCpu.value, 3e6);
  t.is(big.rCpu.source, 'measured');
  const entries = (await readCache(cacheFile)).entries;
  t.deepEqual([entries[cpuCacheKey(topo, 'bfs', 'push')]!.rCpuVertices, entries[cacheKey(topo, 'bfs', 'push')]!.gpuVertices], [2 ** 20, 2 ** 20]);
  // Now smaller graphs read the cache again.
  t.is((await calibrate(topo, 'bfs', 'push', { cacheFile, measure, graphVertices: 1000 })).rCpu.source, 'cache');
  t.is(asked.length, 4);
  // Entries written before the size was recorded: the size comes from their "rmat:14 + rmat:21" note.
  t.false(calibratedTooSmall(2 ** 21, 2 ** 23));
  t.true(calibratedTooSmall(2 ** 21, 2 ** 24));
  t.false(calibratedTooSmall(2 ** 24, 2 ** 30), 'no calibration graph above 2^24 vertices: the largest is kept');
});

test('the link: measured on a real GPU (interconnect.bandwidth is the fallback), declared for an emulated one; measureLink copies both ways', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  let link: { c: number; linkBytesPerSec: number } | undefined = { c: 4e9, linkBytesPerSec: 4.8e10 };
  const asked: string[] = [];
  const measure: MeasureFn = async (el) => (asked.push(el.kind), el.kind === 'cpu' ? { rate: 1e6 } : { rate: 1e9, ...link });
  const real = parseTopology('name: real\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\ninterconnect:\n  bandwidth: 55GB/s\n', 'real.yaml');
  const r = await calibrate(real, 'pr', 'pull', { cacheFile, measure });
  t.deepEqual([r.c!.source, r.c!.value, r.linkBytesPerSec!.source, r.linkBytesPerSec!.value], ['measured', 4e9, 'measured', 4.8e10]);
  // A failed link measurement falls back to the declared bandwidth.
  link = undefined;
  const r2 = await calibrate(real, 'bfs', 'pull', { cacheFile, measure });
  t.deepEqual([r2.c!.source, r2.linkBytesPerSec!.source, r2.linkBytesPerSec!.value], ['interconnect', 'topology', 55e9]);
  // model.c overrides, and then the GPU rate alone is measured only when missing.
  const given = parseTopology('name: real\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\nmodel:\n  rGpu: 1e9\n  c: 7e8\n', 'real.yaml');
  asked.length = 0;
  const r3 = await calibrate(given, 'wcc', 'pull', { cacheFile, measure });
  t.deepEqual(asked, ['cpu']);
  t.is(r3.c!.source, 'topology');
  // An emulated GPU with a declared bandwidth is not measured for its link.
  asked.length = 0;
  const emu = parseTopology(topoYaml('model:\n  rGpu: 1e9\ninterconnect:\n  bandwidth: 12GB/s\n'), 'emu.yaml');
  t.is((await calibrate(emu, 'wcc', 'pull', { cacheFile, measure })).c!.source, 'interconnect');
  t.deepEqual(asked, ['cpu']);
  if (nativeAvailable().ok) {
    const l = await measureLink({ device: 0, emulated: true, streams: 1, memoryLimit: 64 * 2 ** 20 });
    t.true(l.toDevice > 0 && l.toHost > 0, JSON.stringify(l));
  }
});

test('calibration never invents a GPU rate: clear error without one; c from interconnect.bandwidth is labelled', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  const cpuOnly: MeasureFn = async (el) => (el.kind === 'cpu' ? { rate: 1e6 } : undefined);
  const err = await t.throwsAsync(calibrate(parseTopology(topoYaml(''), 'emu.yaml'), 'bfs', 'pull', { cacheFile, measure: cpuOnly }));
  t.true(isTesseraError(err));
  t.regex(err!.message, /^emu\.yaml: topology 'emu' has 1 GPU\(s\) but no GPU rate is known for bfs \(pull\).*Fix: add model: \{ rGpu/);
  const noLink = await t.throwsAsync(calibrate(parseTopology(topoYaml('model:\n  rGpu: 1e9\n'), 'emu.yaml'), 'bfs', 'pull', { cacheFile, measure: cpuOnly }));
  t.regex(noLink!.message, /no host-device link rate.*interconnect/);
  const r = await calibrate(parseTopology(topoYaml('model:\n  rGpu: 1e9\ninterconnect:\n  bandwidth: 12GB/s\n'), 'emu.yaml'), 'bfs', 'pull', { cacheFile, measure: cpuOnly });
  t.is(r.c!.value, 12e9 / 12);
  t.is(r.c!.source, 'interconnect');
  t.regex(r.c!.note, /given, not measured/);
  t.is(r.linkBytesPerSec!.value, 12e9);
});

test('CPU calibration runs the engine and gives a positive per-thread rate', async (t) => {
  const g = buildGraph(generateEdges('rmat:9:ef=8:seed=2'));
  const topo: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 1 }], gpus: [], interconnect: {}, model: {} };
  const rate = await measureCpuOn(g, topo, programProfile('pr'), 'pull', 1);
  t.true(rate > 1e3 && Number.isFinite(rate), `rate ${rate}`);
});

test('fitPassTime: rate from the slope, overhead from the intercept; a non-positive slope keeps the large graph rate', (t) => {
  // 1e6 edges in 12 ms and 1e7 in 30 ms: slope 9e6 edges / 18 ms = 5e8 edges/s, intercept 12 - 2 = 10 ms.
  const f = fitPassTime({ edges: 1e6, seconds: 0.012 }, { edges: 1e7, seconds: 0.03 });
  t.true(close(f.rate, 5e8) && close(f.overheadS, 0.01));
  t.deepEqual(fitPassTime({ edges: 1e6, seconds: 0.05 }, { edges: 1e7, seconds: 0.04 }), { rate: 1e7 / 0.04, overheadS: 0 });
  // A negative intercept (superlinear small graph) is no overhead either.
  t.deepEqual(fitPassTime({ edges: 1e6, seconds: 0.001 }, { edges: 2e6, seconds: 0.01 }), { rate: 2e6 / 0.01, overheadS: 0 });
});

test('fitVertexTerm: per-edge time from the two graphs of equal vertices, then the per-vertex time and the intercept; negative terms give undefined', (t) => {
  // t = 10 ms + |E| x 1 ns + |V| x 4 ns.
  const at = (edges: number, vertices: number) => ({ edges, vertices, seconds: 0.01 + edges * 1e-9 + vertices * 4e-9 });
  const f = fitVertexTerm(at(1e6, 1.6e4), at(6.4e7, 4e6), at(1.6e7, 4e6))!;
  t.true(close(f.rate, 1e9, 1e-6) && close(f.vertexS, 4e-9, 1e-6) && close(f.overheadS, 0.01, 1e-6), JSON.stringify(f));
  // The sparse graph slower than the dense one (noise over the edge term): no fit.
  t.is(fitVertexTerm(at(1e6, 1.6e4), at(6.4e7, 4e6), { edges: 1.6e7, vertices: 4e6, seconds: 0.2 }), undefined);
  // Vertices that cost less than nothing: no fit.
  t.is(fitVertexTerm({ edges: 1e6, vertices: 1.6e4, seconds: 0.05 }, at(6.4e7, 4e6), at(1.6e7, 4e6)), undefined);
  // Graphs of different vertex counts cannot separate the terms.
  t.is(fitVertexTerm(at(1e6, 1.6e4), at(6.4e7, 4e6), at(1.6e7, 2e6)), undefined);
});

test('calibration keeps the cost per vertex: cached, read back, a socket charged it over its threads', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-calv-'));
  const cacheFile = path.join(dir, 'calibration.json');
  let calls = 0;
  const measure: MeasureFn = async (el) => (calls++, el.kind === 'cpu' ? { rate: 5e6, vertexS: 8e-9, on: 'fake' } : { rate: 4e8, vertexS: 3e-9, c: 2e9, on: 'fake-gpu' });
  const topo = parseTopology(topoYaml(''), 'emu.yaml');
  const r1 = await calibrate(topo, 'cdlp', 'pull', { cacheFile, measure });
  const r2 = await calibrate(topo, 'cdlp', 'pull', { cacheFile, measure });
  t.is(calls, 2, 'the second call reads the cache');
  for (const r of [r1, r2]) t.deepEqual([r.cpuVertexS, r.gpuVertexS], [8e-9, 3e-9]);
  const g = buildGraph(generateEdges('rmat:8'));
  const p = modelParamsFor(topo, r2, g);
  const threads = topo.sockets[0]!.threads;
  t.true(close(p.elements[0]!.vertexS!, 8e-9 / threads));
  t.is(p.elements[1]!.vertexS, 3e-9);
});

test('splitRunTime: the first superstep beyond the median of its kind is the start; time outside supersteps the setup', (t) => {
  const step = (kernel: string, ms: number) => ({ step: 0, kernel, mode: 'pull' as const, frontier: 0, active: 0, edges: 0, ms, planMs: 0, foldMs: 0, listMs: 0, actors: [] });
  const report = { steps: [step('pr', 60), step('pr', 6), step('pr', 7), step('pr', 5)], totalMs: 100 } as unknown as Parameters<typeof splitRunTime>[0];
  const r = splitRunTime(report);
  // median of 5, 6, 7 = 6: start 54 ms; steps 78 ms - 54; outside 100 - 78.
  t.true(close(r.startS, 0.054) && close(r.stepsS, 0.024) && close(r.setupS, 0.022));
  // A traversal's mixed supersteps: no start split off.
  const bfs = splitRunTime({ steps: [step('bfs', 10), step('bfs-pull', 30)], totalMs: 50 } as unknown as Parameters<typeof splitRunTime>[0]);
  t.true(close(bfs.startS, 0) && close(bfs.stepsS, 0.04) && close(bfs.setupS, 0.01));
});

test('modelParamsFor: sockets by threads x rate, GPU memory and state', (t) => {
  const g = buildGraph(generateEdges('rmat:8'));
  const topo = parseTopology('sockets: [{ threads: 3 }, { threads: 1 }]\ngpus: [{ device: 2, memoryLimit: 1GiB }]\n', 'x.yaml');
  const p = modelParamsFor(topo, { program: 'sssp', mode: 'push', rCpu: { value: 10, source: 'topology', note: '' }, rGpu: { value: 100, source: 'topology', note: '' }, c: { value: 5, source: 'topology', note: '' }, linkBytesPerSec: { value: 60, source: 'derived', note: '' }, cacheFile: '', cacheKey: '' }, g);
  t.deepEqual(p.elements.map((e) => [e.name, e.rate, e.memoryBytes]), [['socket0', 30, undefined], ['socket1', 10, undefined], ['gpu2', 100, 1024 ** 3]]);
  t.is(p.gpuStateBytes, g.numVertices * 10);
  t.is(p.passes, 1);
  t.is(p.c, 5);
  // A calibration that measured what the GPU held per vertex: that, not the profile's figure.
  const q = modelParamsFor(topo, { program: 'sssp', mode: 'push', rCpu: { value: 10, source: 'topology', note: '' }, rGpu: { value: 100, source: 'topology', note: '' }, c: { value: 5, source: 'topology', note: '' }, linkBytesPerSec: { value: 60, source: 'derived', note: '' }, gpuStateBytesPerVertex: 37.5, cacheFile: '', cacheKey: '' }, g);
  t.is(q.gpuStateBytes, g.numVertices * 37.5);
});

test('modelSummary puts the prediction beside a real CPU run (1S)', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const g = buildGraph(generateEdges('rmat:9:ef=8:seed=4'));
  const topo = parseTopology('name: one\nsockets: [{ threads: 1 }]\nmodel:\n  rCpu: 1e7\n', 'one.yaml');
  const sw = await modelSweep(g, topo, 'pr', { passes: 3, calibrate: { cacheFile: path.join(dir, 'c.json') } });
  const r = await runAlgo(g, 'pr', { topology: topo, iterations: 3 });
  const s = modelSummary(sw.chosen!, sw.rates, r.report);
  t.true(close(s.predictedMs, (3 * g.numEdges) / 1e7 * 1000));
  t.is(s.alpha, 1);
  t.is(s.rates.sources, 'rCpu topology');
  t.is(s.measuredMs, r.report.totalMs);
  t.is(s.actors[0]!.actor, 'socket0');
  t.is(s.actors[0]!.measuredEdges, r.report.edgesProcessed);
  t.is(s.measuredBeta, 0, 'one socket: nothing crosses memories');
  t.is(measuredBeta(r.report), 0);
  t.true(Number.isFinite(s.error!));
});

test('tooCloseToFit: a calibration graph whose pass costs less than twice the small one is grown', (t) => {
  // 16 threads: rmat:14 in 9 ms a pass, rmat:17 in 11 ms (fixed costs) -> too close; rmat:21 in 40 ms -> fits.
  t.true(tooCloseToFit({ seconds: 0.009 }, { seconds: 0.011 }));
  t.false(tooCloseToFit({ seconds: 0.009 }, { seconds: 0.04 }));
  t.false(tooCloseToFit({ seconds: 0.01 }, { seconds: 0.02 }));
});

test('calibration units: programs that walk every edge per iteration are timed per pass, traversals per run', (t) => {
  t.is(programProfile('pr').unit, 'pass');
  t.is(programProfile('cdlp').unit, 'pass');
  t.is(programProfile('bfs').unit, 'run');
  t.is(programProfile('sssp').unit, 'run');
  t.is(programProfile('wcc').unit, 'run');
});

// ------------------------------------------------------------------------------------------------
// The sweep from the library and the CLI, on emulated topologies (1S, 1S1G, 2S2G: one code path)

test('modelSweep: 1S, 1S1G and 2S2G emulated topologies', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  const g = buildGraph(generateEdges('rmat:10:ef=16:seed=5'), { pageEdges: 512 });
  const rates = 'model:\n  rCpu: 1e7\n  rGpu: 1e8\n  c: 1e8\n';
  const one = parseTopology(`sockets: [{ threads: 2 }]\nmodel:\n  rCpu: 1e7\n`, '1S.yaml');
  const s1 = await modelSweep(g, one, 'pr', { steps: 10, calibrate: { cacheFile } });
  t.is(s1.points.length, 1);
  t.is(s1.chosen!.prediction.speedup, 1);
  t.true(close(s1.chosen!.prediction.makespanS, (10 * g.numEdges) / 2e7));
  const oneOne = parseTopology(`sockets: [{ threads: 2 }]\ngpus: [{ device: 0, emulated: true }]\n${rates}`, '1S1G.yaml');
  const s2 = await modelSweep(g, oneOne, 'pr', { steps: 10, calibrate: { cacheFile } });
  t.is(s2.points.length, 33);
  t.true(s2.chosen!.prediction.speedup > 1);
  t.is(s2.params.elements[1]!.memoryBytes, 2 * 1024 ** 3, 'an emulated GPU has the controller default memory');
  const twoTwo = parseTopology(`sockets: [{ threads: 1 }, { threads: 1 }]\ngpus: [{ device: 0, emulated: true }, { device: 1, emulated: true }]\n${rates}`, '2S2G.yaml');
  const s3 = await modelSweep(g, twoTwo, 'bfs', { steps: 10, partition: 'low', calibrate: { cacheFile } });
  t.is(s3.mode, 'pull');
  t.is(s3.points.length, 11);
  t.true(s3.points.every((p) => p.strategy === 'low' && p.parts.length === 4));
  t.is(s3.chosen!.strategy, 'low');
  // Both GPUs get work at alpha 0.5, and each link carries messages.
  const half = s3.points.find((p) => p.alphaRequested === 0.5)!;
  t.true(half.parts[2]!.edges > 0 && half.parts[3]!.edges > 0);
  t.true(half.prediction.elements[2]!.linkMessages > 0 && half.prediction.elements[3]!.linkMessages > 0);
  // A fixed alpha is honoured.
  const fixed = await modelSweep(g, oneOne, 'pr', { steps: 4, partition: 'high', alpha: 0.3, calibrate: { cacheFile } });
  t.is(fixed.chosen!.alphaRequested, 0.3);
});

test('tessera model runs an alpha sweep on an emulated topology (CLI, JSON and table)', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-model-'));
  const topoFile = path.join(dir, '1S1G-emulated.yaml');
  writeFileSync(topoFile, 'name: 1S1G-emulated\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\n    memoryLimit: 1MiB\nmodel:\n  rGpu: 2e8\n  c: 1e9\n');
  const run = promisify(execFile);
  const env = { ...process.env, TESSERA_CACHE_DIR: dir };
  const main = path.join(REPO_ROOT, 'dist/src/cli/main.js');
  const args = ['model', '--graph', 'rmat:12', '--algo', 'pr', '--topology', topoFile, '--alpha-steps', '4', '--page-edges', '4096'];
  const { stdout } = await run(process.execPath, [main, ...args, '--json'], { env });
  const j = JSON.parse(stdout) as { points: unknown[]; chosen: { strategy: string } | null; rates: { rCpu: { source: string }; rGpu: { source: string } } };
  t.is(j.points.length, 15);
  t.not(j.chosen, null);
  t.is(j.rates.rCpu.source, 'measured');
  t.is(j.rates.rGpu.source, 'topology');
  // The CPU rate went to the cache; the table marks the GPU numbers as assumptions.
  t.true(Object.keys(JSON.parse(readFileSync(path.join(dir, 'calibration.json'), 'utf8')).entries).length === 1);
  const table = (await run(process.execPath, [main, ...args], { env })).stdout;
  t.regex(table, /rCpu .* cached/);
  t.regex(table, /rGpu .* ASSUMED: topology .* model\.rGpu/);
  // The rates given, nothing measured the GPU's state: the program's declared figure, said so.
  t.regex(table, /GPU state 16\.0 B a vertex \(ASSUMED: pr's profile\.stateBytesPerVertex/);
  t.regex(table, /^0\.500 \|/m);
  t.regex(table, /chosen: (HIGH|LOW|RAND), alpha/);
  // A top-down BFS from a source is predicted level by level (rates given: nothing measured).
  writeFileSync(topoFile, 'name: 1S1G-emulated\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\nmodel:\n  rGpu: 2e8\n  rCpu: 1e7\n  c: 1e9\n');
  const bfsArgs = ['model', '--graph', 'rmat:12', '--algo', 'bfs', '--mode', 'push', '--topology', topoFile, '--alpha-steps', '4', '--page-edges', '4096'];
  const levelled = JSON.parse((await run(process.execPath, [main, ...bfsArgs, '--source', '1', '--json'], { env })).stdout) as { levels: number | null; points: Array<{ prediction: { makespanS: number } }> };
  const flat = JSON.parse((await run(process.execPath, [main, ...bfsArgs, '--json'], { env })).stdout) as typeof levelled;
  t.true(levelled.levels !== null && levelled.levels >= 3, `levels ${levelled.levels}`);
  t.is(flat.levels, null);
  t.true(levelled.points.some((p, i) => p.prediction.makespanS !== flat.points[i]!.prediction.makespanS), 'the levels change the prediction');
  t.regex((await run(process.execPath, [main, ...bfsArgs, '--source', '1'], { env })).stdout, /top-down BFS from the source: \d+ levels/);
  // No link rate anywhere (the GPU rate is calibrated through the GPU actor, the link rate is
  // not): one line, exit 1.
  writeFileSync(topoFile, 'sockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\n');
  const e = await t.throwsAsync(run(process.execPath, [main, ...args], { env }));
  const err = e as unknown as { code: number; stderr: string };
  t.is(err.code, 1);
  t.regex(err.stderr, /^tessera: .*no host-device link rate is known.*model\.c/);
  t.is(err.stderr.trim().split('\n').length, 1);
});
