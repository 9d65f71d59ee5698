/**
 * Engine.create's set-up: the GPUs' ownership decided, one actor started per socket and GPU over
 * the shared graph, their ready frames awaited, the preloaded program's device side prepared and
 * the engine warmed up (warm-up.ts).
 */
import { TesseraError } from '../errors.js';
import type { Graph } from '../graph/types.js';
import type { Topology } from '../topology/schema.js';
import { Channel } from '../wire/channel.js';
import type { ActorFrame, CoordinatorFrame, ErrorFrame, ReadyFrame } from '../wire/frames.js';
import { CpuSocketActor } from '../../actors/cpu/socket-actor.js';
import { shareGraph, withArena } from '../../actors/cpu/share.js';
import { storeArenas } from '../graph/store.js';
import type { GpuActor } from '../../actors/gpu/gpu-actor.js';
import { checkMultiGpu, checkOwnership, complementRanges, DEFAULT_PARTITION_SEED, gpuOwnership, gpuShareFor, type VertexRanges } from './partition.js';
import type { AnyProgram } from './define.js';
import { loadKernels } from './kernel-modules.js';
import { noTeamwork } from './team-step.js';
import type * as taskPlan from './tasks.js';
import { kernelModules } from './prestart.js';
import { PinnedOutputs } from './pinned-outputs.js';
import { warmStart } from './warm-up.js';
import { warmPools } from './pools.js';
import { gpuOpenError } from './actor-errors.js';
import type { EngineOptions } from './engine-options.js';
import { checkEngineOptions } from './engine-option-checks.js';
import type { ActorLink, Engine } from './coordinator.js';

let nextGraphId = 1;

/** The engine's private parts that set-up fills in (Engine.create hands them over). */
export interface EngineSetup {
  engine: Engine;
  actors: ActorLink[];
  readyWait: Map<string, { resolve: (f: ReadyFrame) => void; reject: (e: ErrorFrame) => void }>;
  onActorFrame: (f: ActorFrame, shared: SharedArrayBuffer[]) => void;
  setLayout: (layout: taskPlan.TaskLayout) => void;
}

/** Engine.create: `make` builds the engine once the CPU actors' ranges are known. */
export async function createEngine(graph: Graph, topology: Topology, opts: EngineOptions, make: (cpuRanges: VertexRanges) => EngineSetup): Promise<Engine> {
  const n = graph.numVertices;
  checkEngineOptions(opts);
  checkMultiGpu(opts.multiGpu, topology);
  const owned =
    opts.ownership !== undefined
      ? checkOwnership(opts.ownership, topology.gpus.length, n)
      : gpuOwnership(graph, topology, gpuShareFor(graph, topology, opts.gpuShare), {
          strategy: opts.partition ?? 'high',
          multiGpu: opts.multiGpu,
          orientation: opts.partitionPages ?? 'in',
          seed: opts.partitionSeed ?? DEFAULT_PARTITION_SEED,
        });
  const cpuRanges = complementRanges(owned, n);
  const parts = make(cpuRanges);
  const e = parts.engine;
  // Several ranges per owner (the model's RAND or dealt pages, or the caller's): as many GPUs as
  // the model's partitions name in their byte per vertex.
  if ((cpuRanges.length > 1 || owned.some((r) => r.length > 1)) && owned.length > 254)
    throw new TesseraError(`${owned.length} GPU actors: at most 254`, { file: topology.source, key: 'gpus', fix: 'list fewer GPUs' });
  const slots = storeArenas(graph, topology, opts.steal, owned);
  const share = shareGraph(graph, nextGraphId++);
  // Socket actors say ready once their threads have loaded their modules (socket-actor.ts).
  const modules = kernelModules(opts.preload ?? []);
  const cpuReady: Array<Promise<unknown>> = [];
  const early = opts.prestart?.take(topology);
  for (const [k, s] of topology.sockets.entries()) {
    const started = early?.sockets[k];
    const [coord, actorEnd] = started !== undefined ? [started.coord, undefined] : Channel.pair<CoordinatorFrame, ActorFrame>();
    const name = `socket${s.id}`;
    const actor = started?.actor ?? new CpuSocketActor(name, s.threads, actorEnd!);
    coord.on((f, shared) => parts.onActorFrame(f, shared));
    const mine = slots === undefined ? share : withArena(share, slots.sockets[k]!);
    cpuReady.push(new Promise<ReadyFrame>((resolve, reject) => parts.readyWait.set(name, { resolve, reject })).catch((f: ErrorFrame) => Promise.reject(f.code === 'TS_INPUT' ? new TesseraError(f.message) : new TesseraError(`actor ${name} failed to start: ${f.message.replace(/\.$/, '')}`, { fix: 'check that the package is installed whole (npm ci), or rerun with fewer threads' }))));
    coord.send({ ...mine.load, ...(modules.length > 0 ? { modules } : {}) }, mine.shared);
    parts.actors.push({ name, kind: 'cpu', threads: s.threads, link: coord, actor, bytesAtStepStart: 0 });
  }
  e.cpuCount = parts.actors.length;
  // Without GPUs, the preloaded programs' pools are filled while the sockets' threads start (~0.1 s
  // of their modules, this thread idle meanwhile); warmStart's warmPools then finds them full.
  if (topology.gpus.length === 0) warmPools(e, opts.preload ?? [], noTeamwork(e, false, e.forceMode !== undefined) === undefined);
  const ready: Array<Promise<ReadyFrame>> = [];
  // The GPU actors' modules load only for a topology with GPUs (a CPU run's start spares them).
  // A weighted graph's pages go to the GPUs without their weights where every preloaded program
  // reads none (a run of one that does registers them again with them: gpu-actor.ts addWeights).
  const preload = opts.preload ?? [];
  const weightless = graph.weightType !== undefined && preload.length > 0 && preload.every((p) => p.readsWeights === false);
  const gpuMods = topology.gpus.length > 0 ? await Promise.all([import('../../actors/gpu/gpu-actor.js'), import('../../actors/gpu/group.js')]) : undefined;
  const group = topology.gpus.length > 1 ? new gpuMods![1].GpuGroup() : undefined;
  topology.gpus.forEach((gpu, i) => {
    const [coord, actorEnd] = Channel.pair<CoordinatorFrame, ActorFrame>();
    const name = `gpu${gpu.device}`;
    const actor = new gpuMods![0].GpuActor(name, actorEnd, group);
    if (early !== undefined) actor.adopt(early.gpus[i]!);
    const mine = owned[i]!;
    coord.on((f, shared) => parts.onActorFrame(f, shared));
    ready.push(
      new Promise<ReadyFrame>((resolve, reject) => parts.readyWait.set(name, { resolve, reject })).catch((f: ErrorFrame) => {
        throw gpuOpenError(topology, i, f);
      }),
    );
    coord.send({ ...share.load, gpu: { device: gpu.device, emulated: gpu.emulated, memoryLimit: gpu.memoryLimit, streams: gpu.streams, owned: mine, ...(slots?.gpus[i] ? { hostBuffer: slots.gpus[i] } : {}), ...(weightless ? { weights: false as const } : {}) } }, share.shared);
    parts.actors.push({ name, kind: 'gpu', threads: 0, link: coord, actor, bytesAtStepStart: 0, owned: mine });
  });
  if (topology.gpus.length > 0) e.pinned = new PinnedOutputs(() => (parts.actors.find((a) => a.kind === 'gpu')?.actor as GpuActor | undefined)?.controller);
  parts.setLayout({ graph, threads: e.cpuThreads, cpuThreads: parts.actors.slice(0, e.cpuCount).map((a) => a.threads), cpuRanges, gpuOwned: parts.actors.slice(e.cpuCount).map((a) => a.owned!) });
  // The preloaded programs' kernels on this thread too (run() imports them before its clock starts).
  const imports = Promise.all((opts.preload ?? []).map((p) => loadKernels(p.kernels, p.name).catch(() => undefined)));
  const results = await Promise.allSettled(ready);
  // The preloaded program's device side (GpuHandler.prepare) while the sockets may still start.
  // Settled as soon as it starts: a GPU out of memory while preparing, rejected while the sockets
  // were still starting, was an unhandled rejection that ended the process before the caller's catch.
  const prepared = Promise.allSettled(results.every((r) => r.status === 'fulfilled') ? [prepareGpus(e, parts.actors, opts.preload ?? [])] : []);
  const failed = [...results, ...(await Promise.allSettled(cpuReady)), ...(await prepared)].find((r) => r.status === 'rejected');
  if (failed !== undefined) {
    await e.close();
    throw (failed as PromiseRejectedResult).reason;
  }
  results.forEach((r, i) => (parts.actors[e.cpuCount + i]!.ready = (r as PromiseFulfilledResult<ReadyFrame>).value));
  await imports;
  await warmStart(e, opts.preload ?? [], noTeamwork(e, false, e.forceMode !== undefined) === undefined, opts.runs ?? 'many');
  return e;
}

/**
 * Every GPU actor makes the device side of the last preloaded program with GPU handlers (run()
 * names its own program last; a device holds one program's arrays at a time): after all of them
 * have their pages, so a group knows who owns what.
 */
async function prepareGpus(e: Engine, actors: ActorLink[], preload: ReadonlyArray<AnyProgram>): Promise<void> {
  const p = [...preload].reverse().find((q) => q.gpu !== undefined);
  if (p === undefined) return;
  await Promise.all(
    actors.slice(e.cpuCount).map((a, i) =>
      (a.actor as GpuActor).prepare(p.gpu!, e.graph).catch((err: Error & { code?: string }) => {
        throw gpuOpenError(e.topology, i, { type: 'error', actor: a.name, message: `preparing program '${p.name}': ${err.message}`, ...(err.code !== undefined ? { code: err.code } : {}) });
      }),
    ),
  );
}
