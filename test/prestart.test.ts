/**
 * Actors started before the graph is loaded (src/engine/prestart.ts, actors/cpu/mailbox.ts): an
 * engine that takes them gives the results of one that starts its own, on sockets, on a graph read
 * from disk page by page and with an emulated GPU; threads that start after the graph was handed
 * over (a dead thread's replacement) still get it; a prestart for another topology, or one no
 * engine takes, is stopped (its threads once started); a GPU that cannot open early is refused
 * with the usual message.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Engine } from '../src/engine/coordinator.js';
import { Prestart } from '../src/engine/prestart.js';
import { GraphMailbox, fetchGraph } from '../actors/cpu/mailbox.js';
import { shareGraph } from '../actors/cpu/share.js';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { writeTsr } from '../src/graph/tsr.js';
import { loadGraph } from '../src/graph/load.js';
import { pageBytesOf } from '../src/graph/store.js';
import { readTsrHeader } from '../src/graph/tsr-read.js';
import { findProgram } from '../src/programs/index.js';
import { prepareRun, run } from '../src/api.js';
import type { Graph } from '../src/graph/types.js';
import { GPU, ONE, topo, TWO, withGpu } from './helpers/topologies.js';

const graph = buildGraph(generateEdges('rmat:12:ef=8:seed=5:weighted'), { pageEdges: 256 });
const dir = mkdtempSync(path.join(tmpdir(), 'tessera-prestart-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const same = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  if (a.length !== b.length) return 0;
  for (let v = 0; v < a.length; v++) if (!Object.is(a[v], b[v])) return v;
  return -1;
};

async function compare(t: import('ava').ExecutionContext, g: Graph, topology: typeof ONE, names: string[]): Promise<void> {
  for (const name of names) {
    const program = findProgram(name);
    const params = prepareRun(g, program, name === 'pr' ? { iterations: 5 } : program.params.source ? { source: g.ids.toOriginal[7] } : {}).params as Record<string, unknown>;
    const plain = await Engine.create(g, topology, { steal: 'off', preload: [program] });
    const want = await plain.run(program, params).finally(() => plain.close());
    const early = new Prestart(topology, [program]);
    const e = await Engine.create(g, topology, { steal: 'off', preload: [program], prestart: early });
    try {
      // The engine's socket actors are the prestarted ones, not new ones.
      const actors = (e as unknown as { actors: Array<{ actor: unknown }> }).actors;
      early.sockets.forEach((s, i) => t.is(actors[i]!.actor, s.actor, `${name} on ${topology.name}: socket ${i} is the prestarted actor`));
      for (let r = 0; r < 2; r++) {
        const got = await e.run(program, params);
        const bad = same(got.values, want.values);
        t.is(bad, -1, `${name} on ${topology.name}, run ${r}: vertex ${bad}`);
      }
    } finally {
      await e.close();
    }
    await early.close();
  }
}

test('an engine on prestarted sockets gives the results of one that starts its own', async (t) => {
  await compare(t, graph, ONE, ['bfs', 'pr', 'wcc', 'sssp']);
  await compare(t, graph, TWO, ['bfs', 'cdlp']);
});

test('prestarted sockets on a graph read from disk page by page (arenas) give the in-memory results', async (t) => {
  const file = path.join(dir, 'g.tsr');
  await writeTsr(graph, file);
  const { graph: stored } = await loadGraph(file, { hostMemoryLimit: Math.floor(pageBytesOf(await readTsrHeader(file)) / 4) });
  t.truthy(stored.out.stored);
  for (const topology of [ONE, TWO]) {
    const program = findProgram('pr');
    const params = prepareRun(graph, program, { iterations: 5 }).params;
    const plain = await Engine.create(graph, topology, { steal: 'off' });
    const want = await plain.run(program, params).finally(() => plain.close());
    const early = new Prestart(topology, [program]);
    const e = await Engine.create(stored, topology, { preload: [program], prestart: early });
    const got = await e.run(program, params).finally(() => e.close());
    t.is(same(got.values, want.values), -1, topology.name);
  }
});

test('an emulated GPU opened while the graph loads gives the same results', async (t) => {
  if (!withGpu) return t.pass('no native controller on this machine');
  const program = findProgram('bfs');
  const params = prepareRun(graph, program, { source: graph.ids.toOriginal[3] }).params as Record<string, unknown>;
  const plain = await Engine.create(graph, ONE);
  const want = await plain.run(program, params).finally(() => plain.close());
  // With its sockets, and the GPU alone (the CLI's: its sockets start at create).
  for (const sockets of [true, false]) {
    const early = new Prestart(GPU, [program], { sockets });
    t.is(early.sockets.length, sockets ? 1 : 0);
    t.truthy(await early.gpus[0], 'the controller opened early');
    const e = await Engine.create(graph, GPU, { preload: [program], prestart: early, gpuShare: 0.5 });
    const gpuActor = (e as unknown as { actors: Array<{ actor: { ctl?: unknown } }> }).actors[1]!.actor;
    t.is(gpuActor.ctl, await early.gpus[0], 'the GPU actor took the early controller');
    const got = await e.run(program, params).finally(() => e.close());
    t.is(same(got.values, want.values), -1);
    t.true(got.report.steps.some((s) => s.actors.some((a) => a.kind === 'gpu' && a.edges > 0)), 'the GPU computed');
  }
});

test('a GPU that cannot open early is refused with the message of one opened at create', async (t) => {
  if (!withGpu) return t.pass('no native controller on this machine');
  const bad = topo([1], [{ device: 99, emulated: true, streams: 2 }]);
  const early = new Prestart(bad);
  t.is(await early.gpus[0], undefined);
  const plain = await t.throwsAsync(Engine.create(graph, bad, { gpuShare: 0.5 }));
  const pre = await t.throwsAsync(Engine.create(graph, bad, { gpuShare: 0.5, prestart: early }));
  t.is(pre?.message, plain?.message);
});

test('a prestart no engine took has closed its GPUs when its close resolves (a refused run exits then)', async (t) => {
  if (!withGpu) return t.pass('no native controller on this machine');
  const { GpuController } = await import('../actors/gpu/native.js');
  const closeOf = GpuController.prototype.close;
  let closed = 0;
  GpuController.prototype.close = async function (this: Awaited<ReturnType<typeof GpuController.create>>) {
    await closeOf.call(this);
    closed++;
  };
  try {
    const early = new Prestart(GPU, [], { sockets: false });
    await early.close();
    t.is(closed, 1, 'the controller opened early is closed');
    t.true(early.taken);
  } finally {
    GpuController.prototype.close = closeOf;
  }
});

test('a prestart for another topology is stopped and the engine starts its own; one not taken closes', async (t) => {
  const program = findProgram('wcc');
  const early = new Prestart(TWO, [program]);
  const e = await Engine.create(graph, ONE, { prestart: early });
  const actors = (e as unknown as { actors: Array<{ actor: unknown }> }).actors;
  t.is(actors.length, 1);
  t.not(actors[0]!.actor, early.sockets[0]!.actor);
  const got = await e.run(program, {}).finally(() => e.close());
  const plain = await Engine.create(graph, ONE);
  const want = await plain.run(program, {}).finally(() => plain.close());
  t.is(same(got.values, want.values), -1);
  // The library's run() takes one as an option (a topology object: the same one).
  const lib = new Prestart(ONE, [program]);
  const viaRun = await run(graph, 'wcc', { topology: ONE, prestart: lib });
  t.true(lib.taken);
  t.deepEqual(viaRun.values, (await run(graph, 'wcc', { topology: ONE })).values);
  const unused = new Prestart(ONE, [program]);
  await unused.close();
  t.true(unused.taken);
});

test('the mailbox answers threads that ask before and after the graph is delivered', async (t) => {
  const box = new GraphMailbox();
  const share = shareGraph(graph, 1);
  // A thread of its own asks first (as a prestarted pool's do), this thread after delivery (a replacement's).
  const src = `const { workerData, parentPort } = require('node:worker_threads');
    const ch = new BroadcastChannel(workerData);
    ch.onmessage = (e) => { if (e.data.share) { parentPort.postMessage(e.data.share.shared.length); ch.close(); } };
    ch.postMessage({ need: true });`;
  const w = new Worker(src, { eval: true, workerData: box.name });
  const early = new Promise<number>((resolve) => w.once('message', resolve));
  await new Promise((r) => setTimeout(r, 50));
  box.deliver(share);
  t.is(await early, share.shared.length);
  const late = await fetchGraph(box.name);
  t.is(late.shared.length, share.shared.length);
  t.is(late.load.numVertices, graph.numVertices);
  box.close();
  await w.terminate();
});

test('closing a prestart no engine took lets its sockets\' threads start before it stops them', async (t) => {
  // A pool destroyed while its threads were still starting aborted the process now and then
  // (`tessera run` refusing a run at once on a small file: 2 of 80 runs under load).
  const early = new Prestart(TWO, []);
  const order: string[] = [];
  for (const s of early.sockets) {
    void s.actor.started().then(() => order.push('started'));
    const send = s.coord.send.bind(s.coord);
    s.coord.send = (f, ...rest) => (order.push(f.type), send(f, ...rest));
  }
  await early.close();
  t.deepEqual(order, ['started', 'started', 'stop', 'stop']);
});
