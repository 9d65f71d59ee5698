/**
 * Every built-in gives its frontiers' byte maps back to the run before it ends (ctx.release, or
 * edgeMap consuming those it made): a map still held when the run ends is cleared by Run.finish,
 * on the caller's time (whole where it has no short list: bench/results/h200-2026-11-28-run-end),
 * and the run's pool needs one map more for each held.
 */
import test, { type ExecutionContext } from 'ava';
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
const gpuTest = !avail.ok && avail.toolchainMissing ? test.skip : test.serial;

/** Runs every built-in (demo parameters) on `topology` and expects none to hold a map at its end. */
async function noneHeld(t: ExecutionContext, topology: Topology, extra: Record<string, unknown>): Promise<void> {
  const g = generate('rmat:12:weighted');
  const u = generate('rmat:11', { undirected: true });
  held.clear();
  for (const p of PROGRAMS) {
    const graph = p.name === 'kcore' ? u : g;
    current = p.name;
    held.set(current, 0);
    await run(graph as never, p, { ...(p.demoParams?.(graph as never) ?? {}), topology, ...extra } as never);
  }
  t.deepEqual(Object.fromEntries([...held].filter(([, n]) => n > 0)), {});
}

test.serial('every built-in gives its frontier maps back before the run ends: two sockets', (t) => noneHeld(t, TWO, {}));
gpuTest('every built-in gives its frontier maps back before the run ends: one emulated GPU owning every vertex', (t) => noneHeld(t, emulatedGpus(1), { gpuShare: 1 }));
