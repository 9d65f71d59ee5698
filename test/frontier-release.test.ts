/**
 * Every built-in gives its frontiers' byte maps back to the run before it ends (ctx.release, or
 * edgeMap consuming those it made): a map still held when the run ends is cleared whole by
 * Run.finish, on the caller's time (bench/results/h200-2026-11-28-run-end), and the run's pool
 * needs one map more for each held.
 */
import test from 'ava';
import { Run } from '../src/engine/run.js';
import { generate, run } from '../src/api.js';
import { PROGRAMS } from '../src/programs/index.js';
import type { Topology } from '../src/topology/schema.js';
import { emulatedGpus } from './helpers/gpu-compare.js';
import { nativeAvailable } from '../actors/gpu/native.js';

/** Maps each finished run still held (its own values aside), by program. */
const held = new Map<string, number>();
let current = '';
const finish = Run.prototype.finish;
Run.prototype.finish = function (this: Run, values: { buffer: ArrayBufferLike }) {
  const r = this as unknown as { bitmaps: Uint8Array[]; spare: Uint8Array[] };
  const spare = new Set(r.spare);
  const left = r.bitmaps.filter((b) => b.buffer !== values.buffer && !spare.has(b)).length;
  held.set(current, (held.get(current) ?? 0) + left);
  return finish.call(this, values);
};

const TWO: Topology = { name: 'two', source: 'test', sockets: [{ id: 0, threads: 1 }, { id: 1, threads: 1 }], gpus: [], interconnect: {}, model: {} };
const avail = nativeAvailable();
const topologies: Array<[string, Topology, Record<string, unknown>]> = [['two sockets', TWO, {}], ...(avail.ok || !avail.toolchainMissing ? [['one emulated GPU owning every vertex', emulatedGpus(1), { gpuShare: 1 }] as [string, Topology, Record<string, unknown>]] : [])];

for (const [where, topology, extra] of topologies) {
  test.serial(`every built-in gives its frontier maps back before the run ends: ${where}`, async (t) => {
    const g = generate('rmat:12:weighted');
    const u = generate('rmat:11', { undirected: true });
    for (const p of PROGRAMS) {
      const graph = p.name === 'kcore' ? u : g;
      current = p.name;
      held.set(current, 0);
      await run(graph as never, p, { ...(p.demoParams?.(graph as never) ?? {}), topology, ...extra } as never);
    }
    t.deepEqual(Object.fromEntries([...held].filter(([, n]) => n > 0)), {});
  });
}
