/**
 * A preloaded program's device side is made while the engine starts (GpuHandler.prepare): a
 * session's first run of it allocates no device array and uploads no graph constant, and its
 * results are the CPU's; another program run after it frees those arrays and makes its own.
 */
import test from 'ava';
import { GpuController, nativeAvailable } from '../actors/gpu/native.js';
import { Engine } from '../src/engine/coordinator.js';
import { GPU_WARM_ROUNDS } from '../src/engine/warm-up.js';
import { withOwnership } from '../src/api.js';
import type { Graph } from '../src/graph/types.js';
import type { Topology } from '../src/topology/schema.js';
import { algorithm } from './helpers/programs.js';
import { cpuResults, emulatedGpus, firstMismatch, paramsFor, rmat } from './helpers/gpu-compare.js';

const avail = nativeAvailable();
const gpuTest = !avail.ok && avail.toolchainMissing ? test.skip : test.serial;

const topo = emulatedGpus;

/** Counts the controller calls that allocate device arrays or copy host arrays up while `f` runs. */
async function counting<T>(f: () => Promise<T>): Promise<{ result: T; allocs: number; writes: number }> {
  const proto = GpuController.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const saved = { allocState: proto.allocState!, writeState: proto.writeState! };
  const n = { allocs: 0, writes: 0 };
  proto.allocState = function (this: unknown, ...a: unknown[]) {
    n.allocs++;
    return saved.allocState.apply(this, a);
  };
  proto.writeState = function (this: unknown, ...a: unknown[]) {
    n.writes++;
    return saved.writeState.apply(this, a);
  };
  try {
    return { result: await f(), ...n };
  } finally {
    Object.assign(proto, saved);
  }
}

async function engine(g: Graph, t: Topology, preload: string[]): Promise<Engine> {
  return Engine.create(g, t, await withOwnership(g, t, { gpuShare: 1, preload: preload.map((p) => algorithm(p).program) }));
}

gpuTest('a preloaded program allocates and uploads nothing in its first run on GPUs owning every vertex (wcc on one GPU, bfs and pr on one and two); without preload it does', async (t) => {
  const g = rmat(true);
  const want = await cpuResults(g);
  for (const [name, gpus] of [['wcc', 1], ['bfs', 1], ['pr', 1], ['bfs', 2], ['pr', 2]] as const) {
    const p = algorithm(name).program;
    for (const preload of [[name], []]) {
      const e = await engine(g, topo(gpus), preload);
      try {
        const { result, allocs, writes } = await counting(() => e.run(p, paramsFor(g, name) as never));
        t.is(firstMismatch(result.values, want.get(name)!, p.output === 'float'), -1, `${name} ${gpus} GPU(s) preload ${preload.length}`);
        if (preload.length > 0) t.deepEqual([allocs, writes], [0, 0], `${name} on ${gpus} GPU(s), preloaded: device arrays made in the run`);
        else t.true(allocs > 0, `${name} on ${gpus} GPU(s) without preload: the run allocates (the test can fail)`);
      } finally {
        await e.close();
      }
    }
  }
});

gpuTest("another program after the preloaded one frees its arrays and makes its own; the preloaded one's later runs are right", async (t) => {
  const g = rmat(false);
  const want = await cpuResults(g);
  const e = await engine(g, topo(1), ['wcc']);
  try {
    for (const name of ['bfs', 'wcc', 'pr', 'wcc'] as const) {
      const p = algorithm(name).program;
      const r = await e.run(p, paramsFor(g, name) as never);
      t.is(firstMismatch(r.values, want.get(name)!, p.output === 'float'), -1, name);
    }
  } finally {
    await e.close();
  }
});

gpuTest('an engine with GPU actors runs its warm-up at create: rounds of two supersteps through each GPU actor, no progress event, the preloaded arrays kept; results equal the CPU', async (t) => {
  const { GpuActor } = await import('../actors/gpu/gpu-actor.js');
  const { EventEmitter } = await import('eventemitter3');
  const g = rmat(true);
  const want = await cpuResults(g);
  const proto = GpuActor.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const saved = proto.superstep!;
  let steps = 0;
  proto.superstep = function (this: unknown, ...a: unknown[]) {
    steps++;
    return saved.apply(this, a);
  };
  try {
    // GPUs owning every vertex (gpuOnly steps), and one GPU beside the socket (share 0.5).
    for (const [gpus, gpuShare] of [[1, 1], [2, 1], [1, 0.5]] as const) {
      const events = new EventEmitter();
      const heard: string[] = [];
      for (const k of ['run-start', 'superstep', 'run-end']) events.on(k, () => heard.push(k));
      steps = 0;
      const topology = topo(gpus);
      const p = algorithm('bfs').program;
      const e = await Engine.create(g, topology, await withOwnership(g, topology, { gpuShare, events, preload: [p] }));
      try {
        t.is(steps, 2 * gpus * GPU_WARM_ROUNDS, `${gpus} GPU(s) share ${gpuShare}: the warm-up's two supersteps a round on each`);
        t.deepEqual(heard, [], 'no progress event from the warm-up');
        const { result, allocs } = await counting(() => e.run(p, paramsFor(g, 'bfs') as never));
        t.is(firstMismatch(result.values, want.get('bfs')!, false), -1);
        if (gpuShare === 1) t.is(allocs, 0, 'the preloaded device arrays outlived the warm-up');
      } finally {
        await e.close();
      }
    }
    // An engine for one run (run(), the CLI's run): one round.
    steps = 0;
    const one = await Engine.create(g, topo(1), await withOwnership(g, topo(1), { gpuShare: 1, preload: [algorithm('bfs').program], runs: 'one' }));
    await one.close();
    t.is(steps, 2, "runs 'one': the warm-up's two supersteps once");
    // Without preload: no warm-up.
    steps = 0;
    const e = await Engine.create(g, topo(1), await withOwnership(g, topo(1), { gpuShare: 1 }));
    await e.close();
    t.is(steps, 0);
  } finally {
    proto.superstep = saved;
  }
});

gpuTest("the warm-up reads each GPU's preloaded pages on the device in its last round, one page a set in the rounds before (kernel 'touch': the out- and in-pages of its owned ranges); where they were not all preloaded (a memoryLimit below the graph), none: no streaming pass at create", async (t) => {
  const g = rmat(true);
  const want = await cpuResults(g);
  const proto = GpuController.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const saved = proto.run!;
  const touched: Array<{ setId: number; pages: number[] }> = [];
  proto.run = function (this: unknown, ...a: unknown[]) {
    const [kernel, opts] = a as [string, { setId: number; pages: ArrayLike<number> }];
    if (kernel === 'touch') touched.push({ setId: opts.setId, pages: Array.from(opts.pages) });
    return saved.apply(this, a);
  };
  const p = algorithm('bfs').program;
  try {
    for (const [gpus, memoryLimit] of [[1, undefined], [2, undefined], [1, 2 ** 27]] as const) {
      touched.length = 0;
      const topology = topo(gpus);
      if (memoryLimit !== undefined) for (const gpu of topology.gpus) gpu.memoryLimit = memoryLimit;
      const e = await Engine.create(g, topology, await withOwnership(g, topology, { gpuShare: 1, preload: [p] }));
      try {
        if (memoryLimit !== undefined) t.deepEqual(touched, [], 'pages left to stream: no pass over them at create');
        else {
          // Each GPU the pages overlapping its ranges (a page across a boundary: both); together every page of both sets.
          const last = touched.slice(-2 * gpus);
          const sorted = (s: number) => [...new Set(last.filter((x) => x.setId === s).flatMap((x) => x.pages))].sort((a, b) => a - b);
          t.is(touched.length, 2 * gpus * GPU_WARM_ROUNDS, `${gpus} GPU(s): one call a set a GPU a round`);
          t.true(touched.slice(0, -2 * gpus).every((x) => x.pages.length === 1), 'the rounds before the last: one page a call');
          t.deepEqual(sorted(1), g.out.pages.map((_, i) => i), `${gpus} GPU(s): out-pages`);
          t.deepEqual(sorted(2), g.in.pages.map((_, i) => i), `${gpus} GPU(s): in-pages`);
        }
        const r = await e.run(p, paramsFor(g, 'bfs') as never);
        t.is(firstMismatch(r.values, want.get('bfs')!, false), -1);
      } finally {
        await e.close();
      }
    }
  } finally {
    proto.run = saved;
  }
});
