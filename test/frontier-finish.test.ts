/**
 * A frontier a program still holds when its run ends is cleared by Run.finish as release would
 * clear it: by its list where that is short, not whole (a user program that forgets release pays
 * a few writes, not a clear of a byte map per vertex), and every map the engine's pool gets back
 * is zero.
 */
import test from 'ava';
import { Engine } from '../src/engine/coordinator.js';
import { defineProgram } from '../src/engine/define.js';
import type { Topology } from '../src/topology/schema.js';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { FILL_NATIVE_MIN } from '../src/engine/fill.js';
import { addonModule } from '../actors/gpu/native.js';
import { Run } from '../src/engine/run.js';

const oneSocket: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };
const kernels = `data:text/javascript,${encodeURIComponent('export const sevens = { vertex(ctx, lo, hi, out) { for (let v = lo; v < hi; v++) if (v % 7 === 0) { ctx.next[v] = 1; out.active++; } } };')}`;

interface Ctx {
  state: { x: Uint32Array };
  frontierOf(ids: ArrayLike<number>): { bitmap: Uint8Array };
  vertexFilter(kernel: string, state: object): Promise<{ bitmap: Uint8Array; size: number }>;
  release(f: unknown): void;
}

/** Leaves three frontiers held: two short ones with lists (frontierOf) and a vertex filter's (no list). */
const forgetful = defineProgram({
  name: 'forgetful',
  summary: 'keeps its frontiers',
  params: {},
  state: { x: { type: 'u32', init: 0, reduce: 'owner' } },
  output: 'int',
  kernels,
  profile: { mode: 'pull', stateBytesPerVertex: 4, passes: 1, unit: 'pass', vertexTerm: false },
  async run(ctx: Ctx) {
    ctx.frontierOf([1, 2, 3]);
    ctx.frontierOf([10, 20, 30, 40]);
    const f = await ctx.vertexFilter('sevens', {});
    ctx.state.x[0] = f.size;
    return ctx.state.x;
  },
} as never);

test('a frontier still held at the end of its run is cleared by its list, not whole; every map back in the pool is zero', async (t) => {
  const addon = addonModule() as { fillArray?: (a: Uint8Array, v: number) => void } | undefined;
  if (addon?.fillArray === undefined) return t.pass('no addon: every clear is TypedArray.fill, nothing to count');
  // 2^18 vertices: a byte map per vertex is the addon's fill threshold, so every whole clear goes through it.
  const g = buildGraph({ ...generateEdges('rmat:18:ef=1'), directed: true });
  t.true(g.numVertices >= FILL_NATIVE_MIN);
  const e = await Engine.create(g, oneSocket, {});
  // Maps cleared whole while the run finishes (not the pool's fresh maps faulted in during it).
  const fill = addon.fillArray, finish = Run.prototype.finish;
  let whole = 0, finishing = false;
  addon.fillArray = (a, v) => {
    if (finishing && a instanceof Uint8Array && a.length === g.numVertices) whole++;
    fill(a, v);
  };
  Run.prototype.finish = function (this: Run, values: { buffer: ArrayBufferLike }) {
    finishing = true;
    try {
      return finish.call(this, values);
    } finally {
      finishing = false;
    }
  };
  try {
    for (let run = 0; run < 3; run++) {
      whole = 0;
      const r = await e.run(forgetful as never, {} as never);
      t.is(r.values[0], Math.ceil(g.numVertices / 7), `run ${run}: the filter's frontier`);
      // The vertex filter's frontier has no list: one clear, whole; the two short ones none.
      t.is(whole, 1, `run ${run}: maps cleared whole`);
      t.true(e.bitmapPool.every((b) => b.every((x) => x === 0)), `run ${run}: the pool's maps are zero`);
    }
  } finally {
    addon.fillArray = fill;
    Run.prototype.finish = finish;
    await e.close();
  }
});
