/**
 * GPU operators of programs defined outside the package (test/fixtures/operators: CPU kernels,
 * CUDA source, definitions), run by the generic GPU actor on emulated GPUs, which compile the
 * operator source with the host C++ compiler: push and pull, claim and min reduces, one GPU
 * beside a socket, several ranges (RAND), two GPUs, pages split under hubs; the generated unit
 * compiles as CUDA too (nvcc, when present); and mistakes in a definition or a source are one
 * clear error naming the file.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineProgram, generate, run, TesseraError, type Graph, type Topology } from '../src/index.js';
import { nativeAvailable, nvrtcStatus } from '../actors/gpu/native.js';
import { operatorUnit } from '../actors/gpu/operators.js';
import { FAR, hops, hopsPull, hopsUnkept, lowLabel, relaxSwap } from './fixtures/operators/programs.js';
import { hopsRoundsBroken, hopsRoundsDriver, hopsRoundsMapped } from './fixtures/operators/rounds.js';
import { mixHeld, mixRounds } from './fixtures/operators/mix.js';
import type { RunReport } from '../src/engine/report.js';
import { outCsr, referenceBfs } from './helpers/references.js';

const avail = nativeAvailable();
// As gpu-actor.test.ts: only a machine without a toolchain for the native controller may skip.
const gpuTest = avail.ok || !avail.toolchainMissing ? test : test.skip;

const socket = (threads: number): Topology['sockets'] => [{ id: 0, threads }];
const emu = (device: number) => ({ device, emulated: true, streams: 2 });
const ONE_GPU: Topology = { name: '1S1G-emulated', source: 'test', sockets: socket(2), gpus: [emu(0)], interconnect: {}, model: {} };
const TWO_GPUS: Topology = { name: '1S2G-emulated', source: 'test', sockets: socket(1), gpus: [emu(0), emu(1)], interconnect: {}, model: {} };

/** The smallest id reaching each vertex (itself included), by relaxing every edge to a fixed point. */
function referenceLow(g: Graph): Int32Array {
  const { n, offsets, nbrs } = outCsr(g);
  const label = Int32Array.from({ length: n }, (_, v) => v);
  for (let changed = true; changed; ) {
    changed = false;
    for (let u = 0; u < n; u++)
      for (let e = offsets[u]!; e < offsets[u + 1]!; e++)
        if (label[u]! < label[nbrs[e]!]!) (label[nbrs[e]!] = label[u]!), (changed = true);
  }
  return label;
}

const GRAPHS: Array<[string, Graph]> = [
  ['rmat:10:ef=8', generate('rmat:10:ef=8')],
  ['rmat:10:ef=8, 64-edge pages', generate('rmat:10:ef=8', { pageEdges: 64 })],
  ['rmat:10 undirected, 64-edge pages', generate('rmat:10', { undirected: true, pageEdges: 64 })],
];

for (const [label, g] of GRAPHS) {
  gpuTest(`hops and low-label on ${label}: push, pull and Ligra's switch on emulated GPUs equal the references`, async (t) => {
    const source = g.ids.toOriginal[0]!;
    const depth = referenceBfs(g, 0);
    const low = referenceLow(g);
    for (const topology of [ONE_GPU, TWO_GPUS])
      for (const forceMode of ['push', 'pull', undefined] as const) {
        const what = `${topology.name} ${forceMode ?? 'switch'}`;
        const h = await run(g, hops, { topology, source, ...(forceMode ? { forceMode } : {}) });
        t.deepEqual([...h.values], [...depth], `hops ${what}`);
        const l = await run(g, lowLabel, { topology, ...(forceMode ? { forceMode } : {}) });
        t.deepEqual([...l.values], [...low], `low-label ${what}`);
        // Every GPU ran its operator (the forced mode) on some superstep.
        for (const r of [h, l])
          for (const gpu of topology.gpus)
            t.true(r.report.steps.some((s) => s.actors.some((a) => a.actor === `gpu${gpu.device}` && (a.gpu?.calls ?? 0) > 0 && (forceMode === undefined || s.mode === forceMode))), `${what}: gpu${gpu.device} ran`);
      }
    if (g.out.pages.length < 8) return; // RAND needs pages to deal
    const rand = await run(g, lowLabel, { topology: ONE_GPU, partition: 'rand' });
    t.true((rand.report.partition?.gpus[0]?.ranges ?? 0) > 1, 'several ranges');
    t.deepEqual([...rand.values], [...low], 'low-label, RAND');
    const randHops = await run(g, hops, { topology: ONE_GPU, partition: 'rand', source });
    t.deepEqual([...randHops.values], [...depth], 'hops, RAND');
  });
}

/** State bytes each superstep uploaded to the GPU actor gpu0. */
const bytesIn = (r: RunReport): number[] => r.steps.map((s) => s.actors.find((a) => a.actor === 'gpu0')!.gpu!.stateBytesIn);
/** What a superstep's frontier costs a GPU owning all `owned` vertices: a push's short list as ids (5 bytes each), a pull's every vertex nothing (set on the device), else a byte a vertex. */
const frontierBytes = (s: RunReport['steps'][number], owned: number): number => (s.mode === 'push' && s.frontier * 16 < owned ? 5 * s.frontier : s.mode === 'pull' && s.frontier === owned ? 0 : owned);
/** ...after the first superstep of a driver passing each step's next frontier on, on a GPU owning every vertex: none (its next flags are on the device). */
const chainedBytes = (s: RunReport['steps'][number], i: number, n: number): number => (i === 0 ? frontierBytes(s, n) : 0);
/** The GPU owns every vertex: no other actor writes the state during a superstep. */
const GPU_ONLY = { topology: ONE_GPU, gpuShare: 1, steal: 'off' } as const;

gpuTest('a GPU owning every vertex uploads resident state once per run, undeclared state every superstep', async (t) => {
  const g = generate('rmat:12:ef=8');
  const n = g.numVertices;
  const source = g.ids.toOriginal[0]!;
  const depth = referenceBfs(g, 0);
  const low = referenceLow(g);
  for (const forceMode of ['push', 'pull', undefined] as const) {
    const how = forceMode ?? 'switch';
    const mode = forceMode !== undefined ? { forceMode } : {};
    // Each superstep uploads the frontier (a byte a vertex); the first, depth or label too (4 bytes).
    for (let again = 0; again < 2; again++) {
      const h = await run(g, hops, { ...GPU_ONLY, ...mode, source });
      t.deepEqual([...h.values], [...depth], `hops ${how}`);
      t.true(h.report.steps.length > 2, `${h.report.steps.length} supersteps`);
      t.deepEqual(bytesIn(h.report), h.report.steps.map((st, i) => (i === 0 ? 4 * n : 0) + chainedBytes(st, i, n)), `hops ${how} run ${again}: depth once, the frontier once`);
    }
    const l = await run(g, lowLabel, { ...GPU_ONLY, ...mode });
    t.deepEqual([...l.values], [...low], `low-label ${how}`);
    t.deepEqual(bytesIn(l.report), l.report.steps.map((st, i) => (i === 0 ? 4 * n : 0) + chainedBytes(st, i, n)), `low-label ${how}: label once, the frontier once`);
    const u = await run(g, hopsUnkept, { ...GPU_ONLY, ...mode, source });
    t.deepEqual([...u.values], [...depth], `hops-unkept ${how}`);
    t.deepEqual(bytesIn(u.report), u.report.steps.map((st, i) => 4 * n + chainedBytes(st, i, n)), `hops-unkept ${how}: depth every superstep, once (its before copy is made on the device)`);
  }
});

gpuTest('arrays a driver swaps keep their device copies: alone a GPU uploads them once a run; beside a socket, less than whole', async (t) => {
  const g = generate('rmat:12:ef=8', { pageEdges: 512 });
  const n = g.numVertices;
  const source = g.ids.toOriginal[0]!;
  const rounds = 5;
  const want = Array.from(referenceBfs(g, 0), (d) => (d >= 0 && d <= rounds ? d : FAR));
  const cpu = await run(g, relaxSwap, { topology: { ...ONE_GPU, gpus: [] }, source, rounds });
  t.deepEqual([...cpu.values], want, 'CPU sockets');
  for (let again = 0; again < 2; again++) {
    const alone = await run(g, relaxSwap, { ...GPU_ONLY, source, rounds });
    t.deepEqual([...alone.values], want, `GPU alone, run ${again}`);
    // The frontier every superstep (a byte a vertex); both arrays (4 bytes each) at the first only.
    t.deepEqual(bytesIn(alone.report), alone.report.steps.map((st, i) => (i === 0 ? 8 * n : 0) + frontierBytes(st, n)), `run ${again}: a and b once`);
  }
  const split = await run(g, relaxSwap, { topology: ONE_GPU, gpuShare: 0.6, steal: 'off', source, rounds });
  t.deepEqual([...split.values], want, 'GPU beside a socket');
  const up = bytesIn(split.report);
  t.true(up.slice(1).every((b) => b < up[0]!), `the array read goes up over the socket's range only after the first: ${up.join(',')}`);
});

gpuTest('beside a socket a GPU uploads a resident owner array of the socket range only; claim and min arrays whole', async (t) => {
  const g = generate('rmat:12:ef=8');
  const n = g.numVertices;
  const source = g.ids.toOriginal[0]!;
  const depth = referenceBfs(g, 0);
  const split = { topology: ONE_GPU, gpuShare: 0.5, steal: 'off' } as const;
  const p = await run(g, hopsPull, { ...split, source });
  t.deepEqual([...p.values], [...depth], 'hops-pull beside a socket');
  const owned = p.report.partition!.gpus[0]!.vertices;
  t.true(owned > 0 && owned < n, `the GPU owns ${owned} of ${n}`);
  t.deepEqual(bytesIn(p.report), p.report.steps.map((_, i) => (i === 0 ? 5 * n : 4 * (n - owned) + n)), 'then the socket range of depth and the frontier');
  const alone = await run(g, hopsPull, { ...GPU_ONLY, source });
  t.deepEqual([...alone.values], [...depth], 'hops-pull alone');
  t.deepEqual(bytesIn(alone.report), alone.report.steps.map((st, i) => (i === 0 ? 4 * n : 0) + chainedBytes(st, i, n)), 'alone: depth once, the frontier once');
  // A CPU push may write any vertex of a claim array: the GPU uploads it whole every superstep.
  const h = await run(g, hops, { ...split, forceMode: 'push', source });
  t.deepEqual([...h.values], [...depth], 'hops push beside a socket');
  const ownedH = h.report.partition!.gpus[0]!.vertices;
  // The owned frontier: the owned byte map, or a short list as ids (5 bytes each).
  for (const [i, b] of bytesIn(h.report).entries()) {
    const f = b - 4 * n;
    t.true(f === ownedH || (f % 5 === 0 && (f / 5) * 16 < ownedH), `superstep ${i}: depth whole and the owned frontier (${f} bytes of it)`);
  }
});

gpuTest('host writes between supersteps: a vertexMap invalidates the device copy, a driver write of undeclared state is uploaded; a broken promise shows', async (t) => {
  const g = generate('rmat:12:ef=8');
  // Three rounds from hubs: each round's BFS reaches most vertices, so a stale copy shows.
  const internal = [0, 1, 2];
  const sources = internal.map((v) => g.ids.toOriginal[v]!);
  const want = [...referenceBfs(g, internal[2]!)];
  t.notDeepEqual(want, [...referenceBfs(g, internal[1]!)], 'the rounds differ');
  for (const topology of [ONE_GPU, TWO_GPUS])
    for (const forceMode of ['push', 'pull', undefined] as const)
      for (const gpuShare of topology === ONE_GPU ? [1, undefined] : [undefined]) {
        const what = `${topology.name} ${forceMode ?? 'switch'} gpuShare ${gpuShare ?? 'default'}`;
        const opts = { topology, ...(forceMode ? { forceMode } : {}), ...(gpuShare !== undefined ? { gpuShare, steal: 'off' as const } : {}), sources };
        t.deepEqual([...(await run(g, hopsRoundsMapped, opts)).values], want, `reset by vertexMap, resident: ${what}`);
        t.deepEqual([...(await run(g, hopsRoundsDriver, opts)).values], want, `reset by the driver, not resident: ${what}`);
      }
  // The driver resets a resident array itself: a GPU owning every vertex keeps the previous
  // round's depths (its first superstep of a round claims nothing), as the promise says it may.
  const broken = await run(g, hopsRoundsBroken, { ...GPU_ONLY, forceMode: 'push', sources });
  t.notDeepEqual([...broken.values], want, 'a resident array written by the driver between supersteps is not seen');
});

let nvcc = true;
try {
  execFileSync('nvcc', ['--version'], { stdio: 'ignore' });
} catch {
  nvcc = false;
}
// Skipped (visibly) without a CUDA toolkit, unless TESSERA_REQUIRE_NATIVE=1 (CI has nvcc).
(nvcc || process.env.TESSERA_REQUIRE_NATIVE === '1' ? test : test.skip)('the generated unit of the fixtures compiles as CUDA (nvcc)', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-ops-'));
  const src = path.join(dir, 'unit.cu');
  for (const p of [hops, lowLabel, mixRounds]) {
    writeFileSync(src, operatorUnit(p.operators!));
    const cubin = path.join(dir, `${p.name}.cubin`);
    execFileSync('nvcc', ['-cubin', '-arch=sm_90', '-std=c++17', '-o', cubin, src], { stdio: 'pipe' });
    t.true(statSync(cubin).size > 0, p.name);
  }
});

const BAD_SOURCE = `struct hop {\n  static TS_OP bool push(const Env<hop>& e, u32, u32 v, double) { return e.nothere[v]; }\n};\n`;

gpuTest('an operator source that does not compile: one error naming the program and the source line', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-bad-op-'));
  const file = path.join(dir, 'bad.cu');
  writeFileSync(file, BAD_SOURCE);
  const bad = defineProgram({ ...hops, name: 'bad-hops', gpu: { source: new URL(`file://${file}`), kernels: { hop: { modes: ['push'], state: { depth: 'i32' }, args: { level: 'i32' } } } } });
  const g = GRAPHS[0]![1];
  const e = await t.throwsAsync(run(g, bad, { topology: ONE_GPU, source: g.ids.toOriginal[0]!, forceMode: 'push' }));
  t.regex(e!.message, /GPU operators of program 'bad-hops' do not compile/);
  t.regex(e!.message, /bad\.cu:2/);
  t.regex(e!.message, /nothere/);
});

test('operator definitions are checked when the program is defined', (t) => {
  const base = { ...hops, name: 'checked' };
  const def = (kernels: object, source: URL | string = 'struct hop {};') => () => defineProgram({ ...base, gpu: { source, kernels } as never });
  t.throws(def({}), { instanceOf: TesseraError, message: /gpu names no kernel/ });
  t.throws(def({ 'hop-x': { modes: ['push'], state: {} } }), { message: /kernel 'hop-x' is not a C\+\+ identifier/ });
  t.throws(def({ hop: { modes: ['sideways'], state: {} } }), { message: /needs modes/ });
  t.throws(def({ hop: { modes: ['push'], state: { depth: 'i64' } } }), { message: /state 'depth' has type 'i64'/ });
  t.throws(def({ hop: { modes: ['push'], state: { other: 'i32' } } }), { message: /writes 'other', which is no state of the program, and declares no reduce/ });
  t.throws(def({ hop: { modes: ['push'], state: { depth: 'i32' }, reads: ['x'] } }), { message: /reads names 'x'/ });
  t.throws(def({ hop: { modes: ['pull'], state: { depth: 'i32' }, reads: ['depth'], fills: ['depth'] } }), { message: /fills names 'depth', which it does not write/ });
  t.throws(def({ hop: { modes: ['pull'], state: { depth: 'i32' }, fills: ['depth'] } }), { message: /fills 'depth', whose reduce is 'claim'.*Fix: fill only arrays each vertex's owner writes/s });
  t.throws(def({ hop: { modes: ['push', 'pull'], state: { depth: 'i32' }, reduce: { depth: 'owner' }, fills: ['depth'] } }), { message: /fills arrays and pushes/ });
  t.throws(def({ hop: { modes: ['pull'], state: { depth: 'i32' }, viewCsr: { off: 'off', adj: 'adj' } } }), { message: /gives viewCsr with view 'graph'/ });
  t.throws(def({ hop: { modes: ['pull'], state: { depth: 'i32' }, view: 'undirected', viewCsr: { off: 'depth', adj: 'adj' } } }), { message: /viewCsr names 'depth', which is in its state/ });
  t.throws(def({ hop: { modes: ['pull'], state: { depth: 'i32' }, view: 'undirected', viewCsr: { off: 'off' } } }), { message: /viewCsr names 'undefined'/ });
  t.throws(def({ hop: { modes: ['push'], state: { depth: 'i32' } } }, new URL('file:///nonexistent/gpu.cu')), { message: /source \/nonexistent\/gpu\.cu cannot be read \(ENOENT\)/ });
  const state = (resident: unknown) => ({ depth: { type: 'i32', init: -1, reduce: 'claim', resident } }) as never;
  t.throws(() => defineProgram({ ...base, state: state('yes') }), { instanceOf: TesseraError, message: /program 'checked': state 'depth' has resident 'yes'.*Fix: give resident: true, resident: 'device' or leave it out/s });
  t.throws(() => defineProgram({ ...base, state: { depth: { type: 'i32', init: -1, reduce: 'claim', resident: 'device', length: (g: { numVertices: number }) => g.numVertices + 1 } } } as never), { instanceOf: TesseraError, message: /state 'depth' is resident: 'device' and has its own length.*Fix: give 'device' to arrays of one entry per vertex only/s });
  const noGpu = { ...base, state: state(true), operators: undefined, gpu: undefined };
  t.throws(() => defineProgram(noGpu), { message: /state 'depth' is resident, but the program has no GPU side to keep it.*Fix: remove resident from state 'depth'/s });
  const ok = defineProgram({ ...base, gpu: { source: 'struct hop {};', kernels: { hop: { modes: ['push'], state: { depth: 'i32' }, args: { level: 'i32' } } } } });
  t.deepEqual(ok.operators!.kernels.hop!.writes, [['depth', 'claim']], "the program state's reduce by default");
});

gpuTest('a call whose arrays do not match the declared types is refused', async (t) => {
  const wrong = defineProgram({ ...hops, name: 'wrong-type', gpu: { source: new URL('./fixtures/operators/hops.cu', import.meta.url), kernels: { hop: { modes: ['push', 'pull'], state: { depth: 'u32' }, args: { level: 'i32' } } } } });
  const g = GRAPHS[0]![1];
  await t.throwsAsync(run(g, wrong, { topology: ONE_GPU, source: g.ids.toOriginal[0]! }), { message: /this call passes 'depth' as i32, its GPU operator declares u32/ });
});

(nvrtcStatus().ok ? test.skip : test)('without NVRTC a program with GPU operators runs on the CPU sockets of a real-GPU topology, and says why', async (t) => {
  const REAL: Topology = { name: '1S1G', source: 'test', sockets: socket(2), gpus: [{ device: 0, emulated: false, streams: 2 }], interconnect: {}, model: {} };
  const g = GRAPHS[0]![1];
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    const r = await run(g, lowLabel, { topology: REAL });
    t.deepEqual([...r.values], [...referenceLow(g)]);
    t.is(r.report.topology.gpus.length, 0, 'run on the sockets only');
  } finally {
    process.off('warning', onWarning);
  }
  t.true(warnings.some((m) => /program 'low-label' runs on the CPU sockets only: its GPU operators need NVRTC/.test(m)), warnings.join('\n'));
});

for (const [label, g] of GRAPHS) {
  gpuTest(`vertex operators on ${label}: vertex maps and a filter run on GPUs owning every vertex (one, two) and equal the CPU's, host writes between them seen`, async (t) => {
    const cpu = await run(g, mixRounds, { topology: { ...ONE_GPU, gpus: [] } });
    for (const [topology, gpuShare] of [[ONE_GPU, 1], [TWO_GPUS, 1], [ONE_GPU, 0.5]] as const) {
      const what = `${topology.name} share ${gpuShare}`;
      const r = await run(g, mixRounds, { topology, gpuShare });
      t.deepEqual([...r.values], [...cpu.values], what);
      t.is(r.report.notes.total, cpu.report.notes.total, `${what}: mix's sums`);
      t.is(r.report.notes.odd, cpu.report.notes.odd, `${what}: the filter's size`);
      // xInit twice, five mixes and the filter on the GPUs; beside a socket every vertex map is the CPU's.
      const onGpus = r.report.steps.filter((s) => s.vertexMap === true);
      t.is(onGpus.length, gpuShare === 1 ? 8 : 0, what);
      t.true(onGpus.every((s) => s.actors.every((a) => a.kind === 'gpu' || a.tasks === 0)), what);
    }
    // x and y held on the devices ('device'): one GPU keeps them while a CPU vertex map passes w
    // alone between supersteps; several GPUs (and a GPU beside a socket) bring them back first.
    const held = await run(g, mixHeld, { topology: { ...ONE_GPU, gpus: [] } });
    for (const [topology, gpuShare] of [[ONE_GPU, 1], [TWO_GPUS, 1], [ONE_GPU, 0.5]] as const) {
      const r = await run(g, mixHeld, { topology, gpuShare });
      t.deepEqual([...r.values], [...held.values], `mix-held ${topology.name} share ${gpuShare}`);
      t.is(r.report.notes.total, held.report.notes.total);
      t.is(r.report.notes.z, held.report.notes.z);
    }
  });
}
