/**
 * A weighted graph's pages go to the GPUs without their weights where every program the engine
 * preloads reads none (ProgramSpec.readsWeights false): every built-in that says so gives the CPU's
 * results from such pages on an emulated GPU, and a program that reads weights (sssp) run on the
 * same engine registers the pages again with them and gives the CPU's distances.
 */
import test from 'ava';
import { GpuController, nativeAvailable } from '../actors/gpu/native.js';
import { Engine } from '../src/engine/coordinator.js';
import { run, withOwnership } from '../src/api.js';
import type { AnyProgram } from '../src/engine/define.js';
import type { Graph } from '../src/graph/types.js';
import { PROGRAMS as BUILTINS } from '../src/programs/index.js';
import { hits } from '../examples/hits/index.js';
import { mis } from '../examples/mis/index.js';
import type { Topology } from '../src/topology/schema.js';
import { algorithm } from './helpers/programs.js';
import { emulatedGpus, firstMismatch, paramsFor, rmat } from './helpers/gpu-compare.js';

const avail = nativeAvailable();
const gpuTest = !avail.ok && avail.toolchainMissing ? test.skip : test.serial;

const cpu: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };

/** The `weights` argument of every registerPageSet call made while `f` runs. */
async function registrations<T>(f: () => Promise<T>): Promise<{ result: T; weights: boolean[]; ctl: GpuController | undefined }> {
  const proto = GpuController.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const saved = proto.registerPageSet!;
  const weights: boolean[] = [];
  let ctl: GpuController | undefined;
  proto.registerPageSet = function (this: GpuController, ...a: unknown[]) {
    weights.push(a[2] !== false);
    ctl = this;
    return saved.apply(this, a);
  };
  try {
    return { result: await f(), weights, ctl };
  } finally {
    proto.registerPageSet = saved;
  }
}

async function gpuEngine(g: Graph, preload: AnyProgram[]): Promise<Engine> {
  const t = emulatedGpus(1);
  return Engine.create(g, t, await withOwnership(g, t, { gpuShare: 1, preload }));
}

async function cpuValues(g: Graph, names: readonly string[]): Promise<Map<string, ArrayLike<number>>> {
  const e = await Engine.create(g, cpu);
  try {
    const out = new Map<string, ArrayLike<number>>();
    for (const name of names) out.set(name, (await e.run(programNamed(name), paramsFor(g, name) as never)).values);
    return out;
  } finally {
    await e.close();
  }
}

/** A built-in by name, or one of the examples. */
const programNamed = (name: string): AnyProgram => (name === 'hits' ? hits : name === 'mis' ? mis : algorithm(name).program) as AnyProgram;

const weightless = [...BUILTINS.filter((p) => p.readsWeights === false && (p.gpu !== undefined || p.operators !== undefined)), hits, mis] as AnyProgram[];

test('the built-ins that read no weights say so; those that read them (sssp, ppr) do not', (t) => {
  t.deepEqual(BUILTINS.filter((p) => p.readsWeights !== false).map((p) => p.name).sort(), ['ppr', 'sssp']);
});

gpuTest('every built-in (and example) that reads no weights gives the CPU results from weightless pages on a weighted graph (directed and not)', async (t) => {
  for (const directed of [true, false]) {
    const g = rmat(directed);
    t.truthy(g.weightType, 'the graph is weighted (the test can fail)');
    const want = await cpuValues(g, weightless.map((p) => p.name));
    for (const p of weightless) {
      const { result: e, weights } = await registrations(() => gpuEngine(g, [p as AnyProgram]));
      try {
        t.true(weights.length > 0 && weights.every((w) => !w), `${p.name}: its pages registered without weights`);
        const { result: r, weights: again } = await registrations(() => e.run(p as AnyProgram, paramsFor(g, p.name) as never));
        t.false(again.some((w) => w), `${p.name}: its run registers nothing with weights`);
        t.is(firstMismatch(r.values, want.get(p.name)!, p.output === 'float'), -1, `${p.name} directed ${directed}`);
      } finally {
        await e.close();
      }
    }
  }
});

gpuTest('a program that reads weights after a weightless preload registers the pages again with them: sssp gives the CPU distances, bfs after it its depths', async (t) => {
  const g = rmat(true);
  const want = await cpuValues(g, ['sssp', 'bfs']);
  const bfs = algorithm('bfs').program;
  const sssp = algorithm('sssp').program;
  const { result: e, ctl } = await registrations(() => gpuEngine(g, [bfs]));
  try {
    const before = (await ctl!.info()).slotBytes;
    const { result: r, weights } = await registrations(() => e.run(sssp, paramsFor(g, 'sssp') as never));
    t.true(weights.length > 0 && weights.every((w) => w), 'the registered sets again, with weights');
    t.is(firstMismatch(r.values, want.get('sssp')!, true), -1, 'sssp');
    const after = (await ctl!.info()).slotBytes;
    t.true(after > before, `a cache slot holds a page's weights now (${before} -> ${after} bytes)`);
    const b = await registrations(() => e.run(bfs, paramsFor(g, 'bfs') as never));
    t.deepEqual(b.weights, [], 'bfs after it keeps the weighted pages');
    t.is(firstMismatch(b.result.values, want.get('bfs')!, false), -1, 'bfs');
  } finally {
    await e.close();
  }
});

gpuTest('weightless pages on two GPUs and beside a socket (GPU share 0.5): bfs, pr and wcc as on the CPU, then sssp with the weights registered again', async (t) => {
  const g = rmat(true);
  const names = ['bfs', 'pr', 'wcc', 'sssp'];
  const want = await cpuValues(g, names);
  for (const [gpus, gpuShare] of [[2, 1], [1, 0.5]] as const) {
    const topo = emulatedGpus(gpus);
    for (const name of ['bfs', 'pr', 'wcc']) {
      const p = programNamed(name);
      const { result: e, weights } = await registrations(async () => Engine.create(g, topo, await withOwnership(g, topo, { gpuShare, preload: [p] })));
      try {
        t.true(weights.length > 0 && weights.every((w) => !w), `${name} on ${gpus} GPU(s) at share ${gpuShare}: weightless`);
        for (const run of [name, 'sssp']) {
          const q = programNamed(run);
          const r = await e.run(q, paramsFor(g, run) as never);
          t.is(firstMismatch(r.values, want.get(run)!, q.output === 'float'), -1, `${run} after preloading ${name}, ${gpus} GPU(s), share ${gpuShare}`);
        }
      } finally {
        await e.close();
      }
    }
  }
});

gpuTest("run() preloads the program a run hands over to: weighted PageRank (ppr) registers the pages with their weights once, and equals the CPU's", async (t) => {
  const g = rmat(true);
  const topology = emulatedGpus(1);
  const params = { iterations: 8, weighted: 1 };
  const { result: r, weights } = await registrations(() => run(g, 'pr', { ...params, topology, gpuShare: 1 }));
  t.true(weights.length > 0 && weights.every((w) => w), `registrations ${weights.join(', ')}`);
  const want = await run(g, 'pr', { ...params, topology: cpu });
  t.is(firstMismatch(r.values as ArrayLike<number>, want.values as ArrayLike<number>, true), -1);
});

gpuTest('an engine preloading a program that reads weights (or none) registers them with weights', async (t) => {
  const g = rmat(true);
  for (const preload of [[algorithm('bfs').program, algorithm('sssp').program], []]) {
    const { result: e, weights } = await registrations(() => gpuEngine(g, preload));
    await e.close();
    t.true(weights.length > 0 && weights.every((w) => w), `preload ${preload.map((p) => p.name).join(', ') || 'none'}`);
  }
});
