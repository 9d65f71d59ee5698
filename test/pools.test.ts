/**
 * The engine's pools across runs (engine/pools.ts, Run.alloc / Run.finish): a run's result leaves
 * with the caller; an array filled ahead for a preloaded program serves an `init: 0` declaration
 * as it is, one a run wrote is zeroed again; every `all()` frontier shares one all-ones byte map.
 */
import test from 'ava';
import { Engine } from '../src/engine/coordinator.js';
import { defineProgram } from '../src/engine/define.js';
import type { Topology } from '../src/topology/schema.js';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { algorithm } from './helpers/programs.js';
import { paramsFor } from './helpers/gpu-compare.js';
import { markPristine, replacementsMade, takePooled } from '../src/engine/pools.js';
import type { GpuController } from '../actors/gpu/native.js';

// 2^16 vertices: a u32 per vertex is the addon's fill threshold (256 KiB), from which results are replaced.
const big = () => buildGraph({ ...generateEdges('rmat:16:ef=4'), directed: true });
const oneSocket: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };

test("a run's result is its own: the next run's result is another buffer and leaves the first as it was", async (t) => {
  const g = big();
  const bfs = algorithm('bfs').program;
  const e = await Engine.create(g, oneSocket, {});
  try {
    const r1 = await e.run(bfs, paramsFor(g, 'bfs') as never);
    const kept = Array.from(r1.values);
    const r2 = await e.run(bfs, { ...(paramsFor(g, 'bfs') as object), source: g.ids.toOriginal[1]! } as never);
    t.not(r2.values.buffer, r1.values.buffer);
    t.deepEqual(Array.from(r1.values), kept);
  } finally {
    await e.close();
  }
});

test('recycle: a result handed back is the next run\'s array, whichever program takes it, and the results stay right; only once, only its own', async (t) => {
  const g = big();
  const bfs = algorithm('bfs').program, wcc = algorithm('wcc').program;
  const e = await Engine.create(g, oneSocket, { preload: [bfs, wcc] });
  try {
    let last: { buffer: ArrayBufferLike } | undefined, prev = '';
    // bfs's depth and wcc's forest are both i32 per vertex: a recycled depth serves wcc and back.
    for (const [name, program] of [['bfs', bfs], ['wcc', wcc], ['bfs', bfs], ['bfs', bfs], ['wcc', wcc]] as const) {
      const params = paramsFor(g, name) as never;
      const r = await e.run(program as never, params);
      t.deepEqual(Array.from(r.values), Array.from(program.reference!(g, params)), `${name} after a recycled result`);
      // A bfs after a bfs: its depth is the array the last one handed back (pooled last, taken first).
      if (prev === 'bfs' && name === 'bfs') t.is(r.values.buffer, last!.buffer);
      t.true(e.recycle(r.values));
      last = r.values;
      prev = name;
      t.false(e.recycle(r.values), 'twice');
    }
    const r = await e.run(bfs, paramsFor(g, 'bfs') as never);
    t.true([...e.arrayPool.values()].flat().every((a) => a.buffer !== r.values.buffer), 'the result is not left in a pool');
    t.false(e.recycle(new Int32Array(new SharedArrayBuffer(4 * g.numVertices))), 'an array of its own');
  } finally {
    await e.close();
  }
});

// x (the output) and y, both u32 zeros: x[1] = 5; y must read zero before the run writes it.
const zeros = defineProgram({
  name: 'zeros',
  summary: 'checks init 0 across runs',
  params: {},
  state: { x: { type: 'u32', init: 0, reduce: 'owner' }, y: { type: 'u32', init: 0, reduce: 'owner' } },
  output: 'int',
  kernels: `data:text/javascript,${encodeURIComponent('export const none = {};')}`,
  profile: { mode: 'pull', stateBytesPerVertex: 8, passes: 1, unit: 'pass', vertexTerm: false },
  async run(ctx: { state: { x: Uint32Array; y: Uint32Array }; note(k: string, v: number): void }) {
    const { x, y } = ctx.state;
    let dirty = 0;
    for (let v = 0; v < x.length; v++) dirty += (x[v] !== 0 ? 1 : 0) + (y[v] !== 0 ? 1 : 0);
    ctx.note('dirty', dirty);
    y.fill(9);
    x[1] = 5;
    return x;
  },
} as never);

test('init 0 holds on every run: pooled arrays a run wrote are zeroed again, those filled ahead (preload) taken as they are', async (t) => {
  const g = big();
  const e = await Engine.create(g, oneSocket, { preload: [zeros as never] });
  try {
    for (let run = 0; run < 4; run++) {
      const r = await e.run(zeros as never, {} as never);
      t.is(r.report.notes.dirty, 0, `run ${run}: x and y start as zeros`);
      t.is(r.values[1], 5);
      t.is(Array.from(r.values).filter((v) => v !== 0).length, 1);
    }
  } finally {
    await e.close();
  }
});

const seen: Uint8Array[] = [];
const allOf = defineProgram({
  name: 'all-of',
  summary: 'keeps its all() byte map',
  params: {},
  state: { x: { type: 'u32', init: 0, reduce: 'owner' } },
  output: 'int',
  kernels: `data:text/javascript,${encodeURIComponent('export const none = {};')}`,
  profile: { mode: 'pull', stateBytesPerVertex: 4, passes: 1, unit: 'pass', vertexTerm: false },
  async run(ctx: { state: { x: Uint32Array }; all(): { bitmap: Uint8Array; size: number } }) {
    const f = ctx.all();
    seen.push(f.bitmap);
    return ctx.state.x;
  },
} as never);

test('every all() frontier shares the engine\'s one all-ones byte map, unchanged by the runs between', async (t) => {
  const g = big();
  const e = await Engine.create(g, oneSocket, {});
  try {
    await e.run(allOf as never, {} as never);
    await e.run(algorithm('pr').program, paramsFor(g, 'pr') as never);
    await e.run(algorithm('wcc').program, {} as never);
    await e.run(allOf as never, {} as never);
  } finally {
    await e.close();
  }
  t.is(seen.length, 2);
  t.is(seen[0], seen[1]);
  t.true(seen[1]!.subarray(0, g.numVertices).every((b) => b === 1));
});

const withGpu: Topology = { ...oneSocket, name: '1S1G', gpus: [{ device: 0, streams: 2, emulated: true }] };
/** A turn of the event loop (pools.ts replenish makes a replacement then). */
const tick = () => new Promise((r) => setImmediate(r));
/** How many arrays the engine's pools hold, of every kind. */
const pooled = (e: Engine) => [...e.arrayPool.values()].reduce((n, l) => n + l.length, 0);

test("with GPU actors a handed output's place in the pool is taken by a fresh array (the pool keeps its size, recycled results or not); on CPU sockets alone the pool shrinks by it", async (t) => {
  const g = big();
  const bfs = algorithm('bfs').program;
  const params = paramsFor(g, 'bfs') as never;
  const want = Array.from(bfs.reference!(g, params));
  for (const [topo, replaced] of [[withGpu, true], [oneSocket, false]] as const) {
    const e = await Engine.create(g, topo, { preload: [bfs] });
    try {
      const before = pooled(e);
      const kept: ArrayBufferLike[] = [];
      for (let run = 0; run < 4; run++) {
        const r = await e.run(bfs, params);
        t.deepEqual(Array.from(r.values), want, `${topo.name} run ${run}`);
        t.false(kept.includes(r.values.buffer), 'not a result the caller holds');
        t.true([...e.arrayPool.values()].flat().every((a) => a.buffer !== r.values.buffer), 'the result is not left in a pool');
        // Runs 0 and 1 keep their results past a turn of the event loop (the replacement is made
        // then); run 2 hands its back at once (none is made); run 3 keeps it.
        if (run === 2) {
          const madeBefore = replacementsMade(e);
          t.true(e.recycle(r.values));
          t.is(pooled(e), before, `${topo.name} run ${run}: the pool's size after an immediate recycle`);
          await tick();
          t.is(pooled(e), before, `${topo.name} run ${run}: the pool's size a turn later`);
          t.is(replacementsMade(e), madeBefore, 'no replacement made for a result recycled at once');
          t.true([...e.arrayPool.values()].flat().some((a) => a.buffer === r.values.buffer), 'the result is pooled again');
          continue;
        }
        await tick();
        t.is(pooled(e), replaced ? before : before - 1, `${topo.name} run ${run}: the pool's size`);
        t.is(replacementsMade(e), replaced ? [1, 2, 2, 3][run] : 0, `${topo.name} run ${run}: replacements made`);
        // A result kept past the replacement comes back: it takes its replacement's place (on the CPU, the place it left).
        if (run === 1) {
          t.true(e.recycle(r.values));
          t.is(pooled(e), before, `${topo.name} run ${run}: the pool's size after a recycle`);
        } else kept.push(r.values.buffer);
      }
    } finally {
      await e.close();
    }
  }
});

test('takePooled: a run that wants zeros gets a pristine array where the pool has one, any other a written one; else the one pooled last', (t) => {
  const fresh = () => new Uint32Array(new SharedArrayBuffer(64));
  const [a, b, c] = [fresh(), fresh(), fresh()];
  markPristine(a);
  t.is(takePooled([a, b, c], true), a);
  t.is(takePooled([c, a, b], false), b);
  const list = [a, b];
  t.is(takePooled(list, false), b);
  t.is(takePooled(list, false), a, 'only a pristine one left');
  t.is(takePooled(list, true), undefined);
  t.is(takePooled([b, c], true), c, 'no pristine one: the one pooled last');
});

test('with GPU actors the pooled arrays a preloaded result may take are locked at create; a result handed to the caller stays locked and a recycled one serves the next run so; fresh replacements are not locked; none on CPU sockets alone', async (t) => {
  // 2^18 vertices: an i32 per vertex is 1 MiB, the least worth locking.
  const g = buildGraph({ ...generateEdges('rmat:18:ef=2'), directed: true });
  const bfs = algorithm('bfs').program;
  const params = paramsFor(g, 'bfs') as never;
  const want = Array.from(bfs.reference!(g, params));
  const cpu = await Engine.create(g, oneSocket, { preload: [bfs] });
  t.is(cpu.pinned, undefined);
  await cpu.close();
  const e = await Engine.create(g, withGpu, { preload: [bfs] });
  try {
    const pinned = e.pinned!;
    const ctl = (e as unknown as { actors: Array<{ kind: string; actor: { controller: GpuController } }> }).actors.find((a) => a.kind === 'gpu')!.actor.controller;
    const locked = async () => (await ctl.info()).pinnedAsideBytes;
    const depths = () => e.arrayPool.get(`i32:${g.numVertices}`)!;
    const atCreate = depths().slice();
    t.true(atCreate.length > 0 && atCreate.every((a) => pinned.has(a)), 'the pooled i32 arrays are locked by the time create returns');
    t.is(await locked(), 4 * g.numVertices * atCreate.length);
    t.false(e.arrayPool.get(`u8:${g.numVertices}`)?.some((a) => pinned.has(a)) ?? false, 'no array a bfs result cannot be');
    const r1 = await e.run(bfs, params);
    t.deepEqual(Array.from(r1.values), want);
    t.true(atCreate.some((a) => a.buffer === r1.values.buffer), 'the first result is one of them');
    t.true(pinned.has(r1.values), 'and stays locked with the caller');
    await tick();
    t.true(depths().some((a) => !pinned.has(a)), 'its replacement is not locked');
    t.true(e.recycle(r1.values));
    const r2 = await e.run(bfs, params);
    t.deepEqual(Array.from(r2.values), want);
    t.is(r2.values.buffer, r1.values.buffer, 'the recycled result, still locked, is the next result');
    t.is(await locked(), 4 * g.numVertices * atCreate.length, 'nothing locked since create');
  } finally {
    await e.close();
  }
});

test('where CPU sockets own vertices beside a GPU, every pooled array and byte map of 1 MiB and up is locked at create; where the GPU owns them all, only the arrays a result may take', async (t) => {
  // 2^20 vertices: a byte map is 1 MiB.
  const g = buildGraph({ ...generateEdges('rmat:20:ef=1'), directed: true });
  const bfs = algorithm('bfs').program;
  for (const [gpuShare, maps] of [[0.5, true], [1, false]] as const) {
    const e = await Engine.create(g, withGpu, { preload: [bfs], gpuShare });
    try {
      t.is(e.gpusOwnAll, !maps);
      t.true(e.bitmapPool.length > 0);
      t.is(e.bitmapPool.every((b) => e.pinned!.has(b)), maps, `share ${gpuShare}: the byte maps`);
      t.true(e.arrayPool.get(`i32:${g.numVertices}`)!.every((a) => e.pinned!.has(a)), `share ${gpuShare}: the depths`);
    } finally {
      await e.close();
    }
  }
});
