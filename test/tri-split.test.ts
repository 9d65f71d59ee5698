/**
 * tc and lcc with the emulated GPU owning part of the vertices: the GPU enumerates the triangles
 * whose top vertex (highest internal id) it owns with the native lcc_tri kernel, the sockets the
 * others, and every corner's count, on either side, is summed. A triangle counted by both sides,
 * or by neither, changes the per-vertex counts; hubs lie on the CPU's side (HIGH), the GPU's
 * (LOW) or both (RAND), and with two GPUs the counts of three actors add up.
 */
import test from 'ava';
import { Engine, type EngineOptions } from '../src/engine/coordinator.js';
import { withOwnership } from '../src/api.js';
import { lcc, tc } from '../src/programs/index.js';
import { referenceTriangles } from '../src/programs/tc/reference.js';
import { referenceLcc } from '../src/programs/lcc/reference.js';
import { nativeAvailable } from '../actors/gpu/native.js';
import type { Graph } from '../src/graph/types.js';
import type { Topology } from '../src/topology/schema.js';
import type { RunReport } from '../src/engine/report.js';
import { makeGraph, rmat } from './helpers/gpu-compare.js';

const avail = nativeAvailable();
const gpuTest = !avail.ok && avail.toolchainMissing ? test.skip : test.serial;

const gpu = (device: number) => ({ device, emulated: true, streams: 2 });
const oneGpu: Topology = { name: '1S1G', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [gpu(0)], interconnect: {}, model: {} };
const twoGpus: Topology = { ...oneGpu, name: '1S2G', gpus: [gpu(0), gpu(1)] };

/** The lccTri superstep's searches (GPU rows) and merge steps (socket rows). */
function triWork(r: RunReport): { gpu: number; cpu: number } {
  const s = r.steps.find((x) => x.kernel === 'lccTri')!;
  const sum = (kind: 'gpu' | 'cpu'): number => s.actors.filter((a) => a.kind === kind).reduce((a, x) => a + x.edges, 0);
  return { gpu: sum('gpu'), cpu: sum('cpu') };
}

async function check(t: import('ava').ExecutionContext, g: Graph, topo: Topology, opts: EngineOptions, label: string): Promise<void> {
  const tri = referenceTriangles(g);
  const want = referenceLcc(g);
  const e = await Engine.create(g, topo, await withOwnership(g, topo, opts));
  try {
    const a = await e.run(tc, {});
    const bad = a.values.findIndex((x, v) => x !== tri[v]);
    t.is(bad, -1, `tc ${label}: vertex ${bad} got ${a.values[bad]} want ${tri[bad]}`);
    t.is(a.report.notes.triangles, tri.reduce((x, y) => x + y, 0) / 3, `tc ${label}: the total`);
    // The count and the fill ran on the sockets alone; the triangles on every actor.
    for (const s of a.report.steps) t.is(s.actors.some((x) => x.kind === 'gpu'), s.kernel === 'lccTri', `tc ${label}: ${s.kernel}'s actors`);
    const w = triWork(a.report);
    const share = opts.gpuShare ?? 0.5;
    if (share > 0) t.true(w.gpu > 0, `tc ${label}: the GPU searched`);
    if (share < 1) t.true(w.cpu > 0, `tc ${label}: the sockets merged`);
    const b = await e.run(lcc, {});
    const off = b.values.findIndex((x, v) => Math.abs(x - want[v]!) > 1e-12 * Math.max(1, want[v]!));
    t.is(off, -1, `lcc ${label}: vertex ${off} got ${b.values[off]} want ${want[off]}`);
  } finally {
    await e.close();
  }
}

const GRAPHS: Array<[string, () => Graph]> = [
  ['skewed directed', () => makeGraph('skewed', true)],
  ['skewed undirected', () => makeGraph('skewed', false)],
  ['rmat:10 directed', () => rmat(true)],
];

for (const [label, make] of GRAPHS) {
  gpuTest(`tc and lcc split between sockets and emulated GPUs count every triangle once: ${label}`, async (t) => {
    const g = make();
    for (const partition of ['high', 'low', 'rand'] as const) {
      await check(t, g, oneGpu, { gpuShare: 0.5, partition }, `1S1G ${partition} 0.5`);
      await check(t, g, twoGpus, { gpuShare: 0.6, partition }, `1S2G ${partition} 0.6`);
    }
    await check(t, g, oneGpu, { gpuShare: 1 }, '1S1G, the GPU owns every vertex');
    await check(t, g, oneGpu, { gpuShare: 0.2, partition: 'low', steal: 'always' }, '1S1G LOW 0.2 steal always');
  });
}
