/**
 * The coordinator: runs BSP supersteps over the actors of a topology (TOTEM's compute /
 * communicate / synchronise). Each superstep it picks the mode from the active-edge fraction
 * (Ligra's |F| + out-edges(F) > |E|/20 switch, Garaph's f rule), cuts the work into tasks (page
 * vertex ranges with about equal edges, Garaph's CPU-side edge-balanced split), hands each actor
 * a contiguous share in proportion to its threads, and waits for every actor's vote.
 */
import { EventEmitter } from 'eventemitter3';
import { TesseraError } from '../errors.js';
import type { Graph } from '../graph/types.js';
import { lowerBound } from '../graph/pages.js';
import type { Topology } from '../topology/schema.js';
import { Channel } from '../wire/channel.js';
import type { ActorFrame, CoordinatorFrame, ErrorFrame, IdleFrame, Mode, ReadyFrame, ReleasedFrame, StateKind, StateMerge, StateRef, Task, VoteFrame } from '../wire/frames.js';
import { CpuSocketActor } from '../../actors/cpu/socket-actor.js';
import { shareGraph } from '../../actors/cpu/share.js';
import { GpuActor } from '../../actors/gpu/gpu-actor.js';
import { nativeFoldFlags, nativeListFlags } from '../../actors/gpu/native.js';
import { checkOwnership, complementRanges, DEFAULT_PARTITION_SEED, gpuOwnership, gpuShareFor, overlapsRanges, rangeEdges, rangeVertices, type RunnableStrategy, type VertexRanges } from './partition.js';
import { STATE_CTORS, sharedArray, type StateArray } from './kernel.js';
import { fillArray, prefault } from './fill.js';
import { forEachFlag, IdList } from './ids.js';
import type { EdgeMapOptions, Frontier, RunContext, StepResult } from './program.js';
import { allocState, type AnyProgram } from './define.js';
import { loadKernels, type KernelTable } from './kernel-modules.js';
import type { ActorStepReport, RunReport, StealEvent, StepReport } from './report.js';

/** Progress events of an Engine (eventemitter3); the CLI turns them into a progress line. */
export interface EngineEvents {
  /** A program starts. */
  'run-start': [info: { program: string; vertices: number; edges: number }];
  /** A superstep finished (the same record the report keeps). */
  superstep: [step: StepReport, program: string];
  'run-end': [report: RunReport];
}

export interface EngineOptions {
  /** Where progress events go (default: a fresh emitter, `engine.events`). */
  events?: EventEmitter<EngineEvents>;
  /** Dense (pull) when |F| + out-edges(F) > |E| / pullDivisor (Ligra uses 20). */
  pullDivisor?: number;
  /** Force a mode for every superstep whose kernel supports it (testing, benchmarks). */
  forceMode?: Mode;
  /**
   * Fraction of the edges the topology's GPUs own (0..1; default: the topology's model.gpuShare,
   * else 1 on real GPUs and 0.5 on emulated ones). See partition.ts.
   */
  gpuShare?: number;
  /**
   * Page stealing between actors (Garaph): 'auto' (default) — an actor whose queue empties takes
   * tasks from the tail of the busiest queue when planSteal (src/engine/steal.ts) says the move
   * pays, with rates measured in the superstep itself; 'off'; 'always' — half the victim's queue
   * whenever asked (tests). Results do not depend on it.
   */
  steal?: 'auto' | 'off' | 'always';
  /**
   * Which vertices the GPUs own: 'high' (default: the low-degree tail; hubs stay on the CPU),
   * 'low' (the hubs) or 'rand' (the model's RAND choice of pages for the share; partition.ts).
   */
  partition?: RunnableStrategy;
  /** RAND: the shuffle's seed (default 1, the model's). */
  partitionSeed?: number;
  /** RAND: the page set shuffled, as the model's for the program ('in' for pull programs, default; 'out' for push). */
  partitionPages?: 'in' | 'out';
  /**
   * Explicit owned ranges per GPU actor (e.g. the model's chosen partition), instead of deriving
   * them from partition and gpuShare: sorted, disjoint [begin, end) lists of internal ids.
   */
  ownership?: ReadonlyArray<ReadonlyArray<readonly [number, number]>>;
}

/** Link assumed between a GPU and host memory when the topology gives no interconnect bandwidth. */
const DEFAULT_LINK_BYTES_PER_SEC = 12e9;
/** Fixed cost of one steal: frames both ways, plus one native call and its readback on a GPU. */
const STEAL_OVERHEAD_S = { cpu: 1e-4, gpu: 1e-3 };

/** Book-keeping of the superstep in flight, for stealing. */
interface LiveStep {
  step: number;
  /** Edges sent to each actor and not reported done (queued or running). */
  remaining: Map<string, number>;
  voted: Set<string>;
  /** Release requests awaiting each victim's answer, in the order sent. */
  asks: Map<string, Array<{ idle: IdleFrame; tried: Set<string> }>>;
  t0: number;
  /** Every answered ask, moved work or not (the report's timeline of stealing). */
  steals: StealEvent[];
}

interface ActorLink {
  name: string;
  kind: 'cpu' | 'gpu';
  threads: number;
  link: Channel<CoordinatorFrame, ActorFrame>;
  actor: CpuSocketActor | GpuActor;
  bytesAtStepStart: number;
  /** GPU actors: the vertex ranges they own and what their ready frame said. */
  owned?: VertexRanges;
  ready?: ReadyFrame;
}

let nextGraphId = 1;

export class Engine {
  private readonly actors: ActorLink[] = [];
  private readonly threads: number;
  private pending = new Map<string, { resolve: (v: Vote) => void; reject: (e: Error) => void }>();
  private failure: Error | undefined;
  private readonly denseTasks = new Map<'in' | 'out', Task[][]>();
  /** Actors [0, cpuCount) are the CPU sockets (in socket order), the rest GPUs. */
  cpuCount = 0;
  /** The vertices the CPU actors share: the complement of the GPUs' ranges (HIGH: the head, LOW: the tail). */
  private cpuRanges: VertexRanges = [];
  /**
   * Owner of each vertex (0: the CPU actors, i + 1: GPU actor i), built only when some owner has
   * several ranges (RAND): push frontier lists are bucketed through it. One range each: compares.
   */
  private ownerMap: Uint8Array | undefined;
  private readyWait = new Map<string, { resolve: (f: ReadyFrame) => void; reject: (e: ErrorFrame) => void }>();
  /** Progress events: run-start, superstep, run-end. */
  readonly events: EventEmitter<EngineEvents>;
  private live: LiveStep | undefined;
  /**
   * State arrays and bitmaps of finished runs (all but the results they returned), by kind and
   * length, for the next run: a fresh SharedArrayBuffer is zero pages to fault in and, for a GPU
   * actor, host memory to page-lock again (PageRank on RMAT 24: 134 MB per f64 array).
   */
  readonly arrayPool = new Map<string, StateArray[]>();
  readonly bitmapPool: Uint8Array[] = [];
  /** Buffers of long frontier lists (LIST_POOL_MIN entries and up) that finished runs gave back. */
  readonly listPool: SharedArrayBuffer[] = [];

  private constructor(
    readonly graph: Graph,
    readonly topology: Topology,
    private readonly opts: EngineOptions,
  ) {
    this.threads = topology.sockets.reduce((a, s) => a + s.threads, 0);
    this.events = opts.events ?? new EventEmitter<EngineEvents>();
  }

  static async create(graph: Graph, topology: Topology, opts: EngineOptions = {}): Promise<Engine> {
    const n = graph.numVertices;
    const owned =
      opts.ownership !== undefined
        ? checkOwnership(opts.ownership, topology.gpus.length, n)
        : gpuOwnership(graph, topology, gpuShareFor(graph, topology, opts.gpuShare), {
            strategy: opts.partition ?? 'high',
            orientation: opts.partitionPages ?? 'in',
            seed: opts.partitionSeed ?? DEFAULT_PARTITION_SEED,
          });
    const e = new Engine(graph, topology, opts);
    e.cpuRanges = complementRanges(owned, n);
    if (e.cpuRanges.length > 1 || owned.some((r) => r.length > 1)) {
      if (owned.length > 254) throw new TesseraError(`${owned.length} GPU actors: at most 254`, { file: topology.source, key: 'gpus', fix: 'list fewer GPUs' });
      e.ownerMap = new Uint8Array(n);
      owned.forEach((list, i) => {
        for (const [b, en] of list) e.ownerMap!.fill(i + 1, b, en);
      });
    }
    const share = shareGraph(graph, nextGraphId++);
    for (const s of topology.sockets) {
      const [coord, actorEnd] = Channel.pair<CoordinatorFrame, ActorFrame>();
      const name = `socket${s.id}`;
      const actor = new CpuSocketActor(name, s.threads, actorEnd);
      coord.on((f, shared) => e.onActorFrame(f, shared));
      coord.send(share.load, share.shared);
      e.actors.push({ name, kind: 'cpu', threads: s.threads, link: coord, actor, bytesAtStepStart: 0 });
    }
    e.cpuCount = e.actors.length;
    const ready: Array<Promise<ReadyFrame>> = [];
    topology.gpus.forEach((gpu, i) => {
      const [coord, actorEnd] = Channel.pair<CoordinatorFrame, ActorFrame>();
      const name = `gpu${gpu.device}`;
      const actor = new GpuActor(name, actorEnd);
      const mine = owned[i]!;
      coord.on((f, shared) => e.onActorFrame(f, shared));
      ready.push(
        new Promise<ReadyFrame>((resolve, reject) => e.readyWait.set(name, { resolve, reject })).catch((f: ErrorFrame) => {
          throw gpuOpenError(topology, i, f);
        }),
      );
      coord.send({ ...share.load, gpu: { device: gpu.device, emulated: gpu.emulated, memoryLimit: gpu.memoryLimit, streams: gpu.streams, owned: mine } }, share.shared);
      e.actors.push({ name, kind: 'gpu', threads: 0, link: coord, actor, bytesAtStepStart: 0, owned: mine });
    });
    const results = await Promise.allSettled(ready);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed !== undefined) {
      await e.close();
      throw (failed as PromiseRejectedResult).reason;
    }
    results.forEach((r, i) => (e.actors[e.cpuCount + i]!.ready = (r as PromiseFulfilledResult<ReadyFrame>).value));
    return e;
  }

  /** Threads of all CPU socket actors. */
  get cpuThreads(): number {
    return this.threads;
  }

  /** The vertex ranges each GPU actor owns (topology order). */
  get gpuOwned(): VertexRanges[] {
    return this.actors.slice(this.cpuCount).map((a) => a.owned!.map(([b, e]): [number, number] => [b, e]));
  }

  /** The vertex ranges the CPU actors share (the complement of the GPUs'). */
  get cpuOwned(): VertexRanges {
    return this.cpuRanges.map(([b, e]): [number, number] => [b, e]);
  }

  /** Whether the topology has GPU actors. */
  get hasGpus(): boolean {
    return this.actors.length > this.cpuCount;
  }

  /**
   * A push superstep's actors list the vertices they activate up to this many; a longer next
   * frontier is read off its bitmap (a scan of n bytes costs about what sorting n / 256 ids does).
   */
  get listCap(): number {
    return this.graph.numVertices >> 8;
  }

  /**
   * The modes a kernel may run in on this topology: all on CPU-only topologies; with GPUs, those
   * every GPU actor runs natively. A kernel no GPU maps is refused with a clear error (never run
   * silently on CPU threads instead).
   */
  modesFor(native: string | undefined, kernel: string, program: string, wanted: ReadonlyArray<Mode>): ReadonlyArray<Mode> {
    if (!this.hasGpus) return wanted;
    let modes = wanted;
    for (const a of this.actors.slice(this.cpuCount)) {
      const m = native === undefined ? undefined : a.ready!.kernels[native];
      if (m === undefined)
        throw new TesseraError(`program '${program}' cannot run on topology '${this.topology.name}' yet: its kernel '${kernel}' has no GPU implementation`, {
          file: this.topology.source,
          key: 'gpus',
          fix: 'run it on a CPU-only topology such as configs/1S.yaml',
        });
      modes = modes.filter((x) => m.includes(x));
    }
    if (modes.length === 0)
      throw new TesseraError(`kernel '${kernel}' of program '${program}' runs ${wanted.join('/')} on CPUs but the GPU actor only supports other modes`, {
        file: this.topology.source,
        key: 'gpus',
        fix: 'run it on a CPU-only topology such as configs/1S.yaml',
      });
    return modes;
  }

  private onActorFrame(f: ActorFrame, shared: SharedArrayBuffer[]): void {
    if (f.type === 'ready') {
      this.readyWait.get(f.actor)?.resolve(f);
      this.readyWait.delete(f.actor);
      return;
    }
    if (f.type === 'error' && this.readyWait.has(f.actor)) {
      this.readyWait.get(f.actor)!.reject(f);
      this.readyWait.delete(f.actor);
      return;
    }
    if (f.type === 'page-done') {
      const r = this.live?.remaining;
      if (r !== undefined) r.set(f.actor, (r.get(f.actor) ?? 0) - f.task.edges);
      return;
    }
    if (f.type === 'idle') return this.onIdle(f);
    if (f.type === 'released') return this.onReleased(f);
    if (f.type === 'vote') {
      this.live?.voted.add(f.actor);
      const p = this.pending.get(f.actor);
      this.pending.delete(f.actor);
      p?.resolve(shared.length > 0 ? { ...f, shared } : f);
    } else if (f.type === 'error') {
      const gpu = this.actors.findIndex((a) => a.name === f.actor) - this.cpuCount;
      const err =
        f.code === 'TS_OOM' && gpu >= 0
          ? new TesseraError(`GPU actor ${f.actor}: ${splitFix(f.message).problem}`, {
              file: this.topology.source,
              key: `gpus.${gpu}.memoryLimit`,
              fix: 'raise memoryLimit, lower pageEdges (smaller pages stream through a smaller cache) or lower gpuShare',
            })
          : new TesseraError(`actor ${f.actor} failed: ${f.message}`, { fix: 'this is a bug or an out-of-memory condition; rerun with fewer threads or a smaller graph and report it' });
      this.failure = err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    }
  }

  get stealPolicy(): 'auto' | 'off' | 'always' {
    return this.actors.length < 2 ? 'off' : (this.opts.steal ?? 'auto');
  }

  /**
   * An actor ran out of work: ask the CPU actor with the most edges left (per thread) to give up
   * the tail of its queue. GPU actors are never victims: their share is one native call over their
   * own pages, with nothing queued to take.
   */
  private onIdle(f: IdleFrame, tried = new Set<string>([f.actor])): void {
    const live = this.live;
    const thief = this.actors.find((a) => a.name === f.actor);
    if (live === undefined || live.step !== f.step || thief === undefined || this.stealPolicy === 'off') {
      thief?.link.send({ type: 'more', step: f.step, from: '', tasks: [] });
      return;
    }
    let victim: ActorLink | undefined;
    let most = 0;
    for (const a of this.actors.slice(0, this.cpuCount)) {
      if (tried.has(a.name) || live.voted.has(a.name)) continue;
      const left = (live.remaining.get(a.name) ?? 0) / a.threads;
      if (left > most) ((most = left), (victim = a));
    }
    if (victim === undefined) {
      thief.link.send({ type: 'more', step: f.step, from: '', tasks: [] });
      return;
    }
    const gpu = thief.kind === 'gpu';
    const asks = live.asks.get(victim.name) ?? [];
    asks.push({ idle: f, tried });
    live.asks.set(victim.name, asks);
    victim.link.send({
      type: 'release',
      step: f.step,
      thief: f.actor,
      thiefRate: f.busyMs > 0 && f.edges > 0 ? f.edges / (f.busyMs / 1000) : 0,
      bytesPerEdge: f.bytesPerEdge,
      bytesPerVertex: f.bytesPerVertex,
      linkBytesPerSec: gpu ? (this.topology.interconnect.bandwidth ?? DEFAULT_LINK_BYTES_PER_SEC) : Infinity,
      overheadS: STEAL_OVERHEAD_S[thief.kind],
      policy: this.stealPolicy === 'always' ? 'always' : 'auto',
    });
  }

  /** A victim answered: forward its tasks to the thief, or try the next victim. */
  private onReleased(r: ReleasedFrame): void {
    const live = this.live;
    const ask = live?.asks.get(r.actor)?.shift();
    if (live === undefined || ask === undefined) return;
    const { idle, tried } = ask;
    const edges = r.tasks.reduce((a, t) => a + t.edges, 0);
    live.steals.push({ atMs: performance.now() - live.t0, thief: idle.actor, victim: r.actor, tasks: r.tasks.length, edges, victimLeft: live.remaining.get(r.actor) ?? 0 });
    if (r.tasks.length === 0) {
      tried.add(r.actor);
      this.onIdle(idle, tried);
      return;
    }
    live.remaining.set(r.actor, (live.remaining.get(r.actor) ?? 0) - edges);
    live.remaining.set(idle.actor, (live.remaining.get(idle.actor) ?? 0) + edges);
    this.actors.find((a) => a.name === idle.actor)!.link.send({ type: 'more', step: r.step, from: r.actor, tasks: r.tasks });
  }

  async close(): Promise<void> {
    for (const a of this.actors) a.link.send({ type: 'stop' });
    // Let the stop frames be handled (pools destroyed, devices closed) before returning.
    await new Promise((r) => setTimeout(r, 0));
    await Promise.all(this.actors.map((a) => (a.actor instanceof GpuActor ? a.actor.stopped : undefined)));
  }

  /** Runs a program to completion and returns its values (internal ids) and the run report. */
  async run(program: AnyProgram, params: unknown): Promise<{ values: Float64Array | Int32Array | Uint32Array; report: RunReport }> {
    const steps: StepReport[] = [];
    const notes: Record<string, string | number | boolean> = {};
    if (program?.defined !== true) throw new TesseraError('Engine.run takes a program from defineProgram', { fix: 'wrap the definition in defineProgram({ ... })' });
    if (this.hasGpus && Object.keys(program.native ?? {}).length === 0) {
      // Refused before any work: none of its kernels has a GPU implementation.
      throw new TesseraError(`program '${program.name}' cannot run on topology '${this.topology.name}' yet: its kernels have no GPU implementation`, {
        file: this.topology.source,
        key: 'gpus',
        fix: 'run it on a CPU-only topology such as configs/1S.yaml',
      });
    }
    const kernels = await loadKernels(program.kernels, program.name);
    const t0 = performance.now();
    const ctx = new Run(this, steps, notes, program, kernels);
    this.events.emit('run-start', { program: program.name, vertices: this.graph.numVertices, edges: this.graph.numEdges });
    ctx.state = allocState(program.state, ctx);
    const values = await program.run(ctx, params);
    const totalMs = performance.now() - t0;
    ctx.release(values);
    const edges = steps.reduce((a, s) => a + s.edges, 0);
    const report: RunReport = {
      program: program.name,
      graph: { source: this.graph.source, vertices: this.graph.numVertices, edges: this.graph.numEdges, directed: this.graph.directed },
      topology: { name: this.topology.name, source: this.topology.source, sockets: this.topology.sockets, gpus: this.topology.gpus },
      supersteps: steps.length,
      steps,
      totalMs,
      edgesProcessed: edges,
      teps: totalMs > 0 ? edges / (totalMs / 1000) : 0,
      notes,
      ...(this.hasGpus ? { partition: this.partitionReport() } : {}),
      steal: {
        policy: this.stealPolicy,
        tasks: steps.reduce((a, s) => a + s.actors.reduce((b, x) => b + x.stolen, 0), 0),
        edges: steps.reduce((a, s) => a + s.actors.reduce((b, x) => b + x.stolenEdges, 0), 0),
      },
    };
    this.events.emit('run-end', report);
    return { values, report };
  }

  private partitionSummary: RunReport['partition'];

  /** Who owns what, for the report: edges of the page set the split was cut by (counted once per engine). */
  private partitionReport(): NonNullable<RunReport['partition']> {
    const p = this.partitionSummary;
    if (p !== undefined) return { ...p, gpus: p.gpus.map((g) => ({ ...g })) };
    const o = this.opts;
    const strategy = o.partition ?? 'high';
    const rand = strategy === 'rand';
    const pages = rand ? (o.partitionPages ?? 'in') : 'in';
    const deg = pages === 'in' ? this.graph.inDegree : this.graph.outDegree;
    return (this.partitionSummary = {
      strategy,
      ...(rand ? { seed: o.partitionSeed ?? DEFAULT_PARTITION_SEED } : {}),
      // RAND's ranges come as ownership too (run() computes them from the model): not explicit.
      explicit: o.ownership !== undefined && strategy !== 'rand',
      pages,
      gpus: this.actors.slice(this.cpuCount).map((a) => ({ actor: a.name, ranges: a.owned!.length, vertices: rangeVertices(a.owned!), edges: rangeEdges(a.owned!, deg) })),
    });
  }

  /** Dense tasks: every page cut into vertex ranges of about `target` edges (cached). */
  denseShares(orientation: 'in' | 'out'): Task[][] {
    const cached = this.denseTasks.get(orientation);
    if (cached) return cached;
    const g = this.graph;
    // About 8 tasks per CPU thread of the CPU actors' own edges (not the graph's): with a small CPU
    // share (alpha 0.1 of RMAT 24 is ~26 page-sized tasks for 16 threads) every task starts at
    // once and an idle GPU finds nothing queued to steal (Garaph needs a queue to take from).
    const cpuEdges = rangeEdges(this.cpuRanges, orientation === 'in' ? g.inDegree : g.outDegree);
    const target = Math.max(1024, Math.min(g.pageEdges, Math.ceil(cpuEdges / (this.threads * 8))));
    const tasks: Task[] = [];
    const pages = g[orientation].pages;
    // CPU actors cover cpuRanges (ascending); GPU actors own the rest (their tasks: their pages, below).
    let i = 0;
    for (const [begin, end] of this.cpuRanges) {
      // The first page holding `begin` (pages are in id order; split pages of one vertex share it).
      let a = i;
      let b = pages.length;
      while (a < b) {
        const m = (a + b) >>> 1;
        if (pages[m]!.vEnd <= begin) a = m + 1;
        else b = m;
      }
      i = a;
      while (i < pages.length && pages[i]!.vBegin < end) {
        const p = pages[i]!;
        if (p.split) {
          let j = i;
          let edges = 0;
          while (j < pages.length && pages[j]!.split && pages[j]!.vBegin === p.vBegin) edges += pages[j++]!.edges;
          tasks.push({ page: i, count: j - i, lo: 0, hi: 1, edges });
          i = j;
          continue;
        }
        const nv = Math.min(p.vEnd, end) - p.vBegin;
        const off = p.offsets;
        for (let lo = Math.max(begin, p.vBegin) - p.vBegin; lo < nv; ) {
          // A task ends at the first vertex where it reaches `target` edges, `target` vertices or
          // the range's end: a binary search over the offsets (a scan over every vertex took ~140 ms
          // of RMAT 24's first pull superstep on the coordinator's thread).
          const want = off[lo]! + target;
          let x = lo + 1;
          let y = Math.min(nv, lo + target);
          while (x < y) {
            const m = (x + y) >>> 1;
            if (off[m]! >= want) y = m;
            else x = m + 1;
          }
          tasks.push({ page: i, count: 1, lo, hi: x, edges: off[x]! - off[lo]! });
          lo = x;
        }
        // A page running past the range's end is taken up again by the next range.
        if (p.vEnd > end) break;
        i++;
      }
    }
    const shares = this.share(tasks);
    for (const a of this.actors.slice(this.cpuCount)) {
      const owned = a.owned!;
      shares.push(pages.filter((p) => overlapsRanges(owned, p.vBegin, p.vEnd)).map((p) => ({ page: p.index, count: 1, lo: 0, hi: p.vEnd - p.vBegin, edges: p.edges })));
    }
    this.denseTasks.set(orientation, shares);
    return shares;
  }

  /** Contiguous shares of the task list over the CPU actors, edges in proportion to their threads. */
  share(tasks: Task[]): Task[][] {
    const total = tasks.reduce((a, t) => a + t.edges, 0) || 1;
    const shares: Task[][] = this.actors.slice(0, this.cpuCount).map(() => []);
    let a = 0;
    let acc = 0;
    let bound = (this.actors[0]!.threads / this.threads) * total;
    for (const t of tasks) {
      while (a < this.cpuCount - 1 && acc >= bound) {
        a++;
        bound += (this.actors[a]!.threads / this.threads) * total;
      }
      shares[a]!.push(t);
      acc += t.edges;
    }
    return shares;
  }

  /**
   * Push tasks: slices of the frontier list (in vertex order, see Frontier.list) of about equal
   * out-edges. With GPUs each owner's vertices are one slice of the list (one range per owner:
   * found by binary search; several (RAND): the list is sorted by owner first) and each GPU gets
   * its slice as one task; returns the list the tasks index. `outEdges`, the list's out-edges when
   * known, saves a pass over it (the last GPU's slice is the rest). With `splitHubs` (the kernel's
   * splitPush) a CPU vertex with over twice a task's edges is cut into tasks of its edges.
   */
  pushTaskShares(list: Uint32Array, outEdges?: number, splitHubs = false): { shares: Task[][]; list: Uint32Array } {
    const deg = this.graph.outDegree;
    let cpuLo = 0;
    let cpuHi = list.length;
    const gpuSlices: Task[] = [];
    const edgesOf = (lo: number, hi: number): number => {
      let edges = 0;
      for (let i = lo; i < hi; i++) edges += deg[list[i]!]!;
      return edges;
    };
    if (this.hasGpus) {
      const map = this.ownerMap;
      if (map === undefined) {
        // One range per owner (HIGH, LOW): the list is in vertex order, so each owner's part is
        // the slice between two binary searches; nothing is copied.
        const [begin, end] = this.cpuRanges[0] ?? [0, 0];
        cpuLo = lowerBound(list, begin);
        cpuHi = Math.max(cpuLo, lowerBound(list, end));
        const cpuEdges = edgesOf(cpuLo, cpuHi);
        let rest = outEdges === undefined ? undefined : outEdges - cpuEdges;
        const gpus = this.actors.slice(this.cpuCount);
        gpus.forEach((a, i) => {
          const [b, e] = a.owned![0] ?? [0, 0];
          const lo = lowerBound(list, b);
          const hi = Math.max(lo, lowerBound(list, e));
          const edges = rest !== undefined && i === gpus.length - 1 ? rest : edgesOf(lo, hi);
          if (rest !== undefined) rest -= edges;
          gpuSlices.push({ page: 0, count: 0, lo, hi, edges });
        });
        outEdges = cpuEdges;
      } else {
        const out = new Uint32Array(new SharedArrayBuffer(Math.max(4, 4 * list.length)), 0, list.length);
        // Several ranges (RAND): a counting sort of the list by owner through the owner map.
        const owners = this.actors.length - this.cpuCount + 1;
        const at = new Float64Array(owners + 1);
        const edges = new Float64Array(owners);
        for (let i = 0; i < list.length; i++) {
          const v = list[i]!;
          const o = map[v]!;
          at[o + 1]!++;
          edges[o]! += deg[v]!;
        }
        for (let o = 1; o <= owners; o++) at[o]! += at[o - 1]!;
        const start = at.slice();
        for (let i = 0; i < list.length; i++) {
          const v = list[i]!;
          out[at[map[v]!]!++] = v;
        }
        cpuHi = start[1]!;
        outEdges = edges[0]!;
        for (let o = 1; o < owners; o++) gpuSlices.push({ page: 0, count: 0, lo: start[o]!, hi: start[o + 1]!, edges: edges[o]! });
        list = out;
      }
    }
    outEdges ??= edgesOf(cpuLo, cpuHi);
    const target = Math.max(256, Math.ceil(outEdges / (this.threads * 8)));
    const tasks: Task[] = [];
    let lo = cpuLo;
    let edges = 0;
    for (let i = cpuLo; i < cpuHi; i++) {
      const d = deg[list[i]!]!;
      if (splitHubs && d > 2 * target) {
        // A hub: the slice before it, then its edges in tasks of about `target`.
        if (i > lo) tasks.push({ page: 0, count: 0, lo, hi: i, edges });
        const parts = Math.ceil(d / target);
        for (let k = 0; k < parts; k++) {
          const a = Math.floor((d * k) / parts);
          const b = Math.floor((d * (k + 1)) / parts);
          tasks.push({ page: 0, count: 0, lo: i, hi: i + 1, edges: b - a, edgeLo: a, edgeHi: b });
        }
        lo = i + 1;
        edges = 0;
        continue;
      }
      edges += d;
      if (edges >= target) {
        tasks.push({ page: 0, count: 0, lo, hi: i + 1, edges });
        lo = i + 1;
        edges = 0;
      }
    }
    if (lo < cpuHi) tasks.push({ page: 0, count: 0, lo, hi: cpuHi, edges });
    const shares = this.share(tasks);
    for (const t of gpuSlices) shares.push(t.hi > t.lo ? [t] : []);
    return { shares, list };
  }

  /**
   * Sends one superstep to every actor and collects the votes; a vertex map goes to the CPU
   * socket actors only (`shares` then has one entry per socket actor).
   */
  async superstep(
    step: number,
    kernel: KernelRef,
    mode: Mode,
    shares: Task[][],
    args: Record<string, number>,
    state: Record<string, StateArray>,
    frontier: Frontier,
    frontierList: Uint32Array | undefined,
    next: Uint8Array,
    wantList: boolean,
    pullPages: 'in' | 'out',
    vertexMap = false,
  ): Promise<{ votes: VoteFrame[]; voteMs: number[]; steals: StealEvent[] }> {
    if (this.failure) throw this.failure;
    const actors = vertexMap ? this.actors.slice(0, this.cpuCount) : this.actors;
    const shared: SharedArrayBuffer[] = [];
    const add = (b: ArrayBufferLike): number => shared.push(b as SharedArrayBuffer) - 1;
    const stateRefs: StateRef[] = Object.entries(state).map(([name, arr]) => ({ name, kind: kindOf(arr), buffer: add(arr.buffer), length: arr.length }));
    const frontierBitmap = add(frontier.bitmap.buffer);
    const listRef = frontierList ? add(frontierList.buffer) : undefined;
    const nextBitmap = add(next.buffer);
    const sentAt = performance.now();
    const voteMs = actors.map(() => 0);
    const votes = actors.map(
      (a, i) =>
        new Promise<VoteFrame>((resolve, reject) => {
          this.pending.set(a.name, { resolve, reject });
        }).then((v) => ((voteMs[i] = performance.now() - sentAt), v)),
    );
    const policy = this.stealPolicy;
    const steal = policy === 'off' || vertexMap ? undefined : policy;
    this.live = { step, remaining: new Map(actors.map((a, i) => [a.name, shares[i]!.reduce((x, t) => x + t.edges, 0)])), voted: new Set(), asks: new Map(), t0: performance.now(), steals: [] };
    const steals = this.live.steals;
    actors.forEach((a, i) => {
      a.bytesAtStepStart = a.link.bytesSent;
      a.link.send(
        {
          type: 'superstep', step, kernel: kernel.name, module: kernel.module, ...(kernel.native !== undefined ? { native: kernel.native } : {}), mode, args, state: stateRefs, frontierBitmap, frontierList: listRef, nextBitmap, wantList, pullPages, tasks: shares[i]!, steal,
          ...(wantList ? { listCap: this.listCap } : {}),
          ...(vertexMap ? { vertexMap } : {}),
        },
        shared,
      );
    });
    try {
      return { votes: await Promise.all(votes), voteMs, steals };
    } finally {
      this.live = undefined;
    }
  }

  actorReports(votes: VoteFrame[], voteMs: number[], shares: Task[][]): ActorStepReport[] {
    return votes.map((v, i) => ({
      actor: v.actor,
      kind: this.actors[i]!.kind,
      tasks: v.tasks,
      pages: v.gpu !== undefined ? v.gpu.pages : new Set(shares[i]!.map((t) => t.page)).size,
      edges: v.edges,
      computeMs: v.computeMs,
      voteMs: voteMs[i]!,
      bytesSent: this.actors[i]!.link.bytesSent - this.actors[i]!.bytesAtStepStart,
      messages: v.outbox?.before ?? 0,
      messagesAggregated: v.outbox?.ids.length ?? 0,
      stolen: v.stolen,
      stolenEdges: v.stolenEdges ?? 0,
      ...(v.gpu !== undefined ? { gpu: v.gpu } : {}),
    }));
  }

  /**
   * The communication phase for actors in other memories: dense owned ranges are copied in, then
   * merges and outboxes are folded into the state with their reduce; a vertex whose value the
   * fold changed joins the next frontier (and the list, when one is built). Returns the vertices
   * so activated.
   */
  applyRemote(votes: Vote[], state: Record<string, StateArray>, next: Uint8Array, found: IdList | undefined): number {
    let active = 0;
    for (const v of votes) {
      for (const s of v.sync ?? []) if (s.written === undefined) stateNamed(state, s.state, v.actor).set(s.values!, s.begin);
      for (const f of v.flagged ?? []) {
        const arr = stateNamed(state, f.state, v.actor);
        const flags = f.flags ?? new Uint8Array(v.shared![f.flagsBuffer!]!, f.begin, f.end - f.begin);
        const values = f.op === 'claim' ? undefined : (f.values ?? (new STATE_CTORS[kindOf(arr)](v.shared![f.valuesBuffer!]!) as StateArray).subarray(f.begin, f.end));
        const native = flags.length >= NATIVE_FOLD_MIN && !(arr instanceof Uint8Array) ? nativeFoldFlags() : undefined;
        if (native !== undefined) {
          type Wide = Exclude<StateArray, Uint8Array>;
          const r = native(f.op, arr as Wide, next, flags, f.begin, (values as Wide | undefined) ?? f.value!, found !== undefined);
          active += r.active;
          if (r.found !== undefined) found!.pushAll(r.found);
        } else if (f.op === 'claim') active += foldClaimFlags(arr, f.value!, f.begin, flags, next, found);
        else active += foldMinFlags(arr, values as StateArray, f.begin, flags, next, found);
      }
      for (const m of v.merges ?? []) active += fold(stateNamed(state, m.state, v.actor), m, next, found);
      if (v.outbox !== undefined) active += fold(stateNamed(state, v.outbox.state, v.actor), v.outbox, next, found);
    }
    return active;
  }

  get pullDivisor(): number {
    return this.opts.pullDivisor ?? 20;
  }
  get forceMode(): Mode | undefined {
    return this.opts.forceMode;
  }
}

function stateNamed(state: Record<string, StateArray>, name: string, actor: string): StateArray {
  const a = state[name];
  if (a === undefined) throw new Error(`actor ${actor} sent values for state '${name}', which this superstep does not have`);
  return a;
}

/**
 * Flags from which a fold runs on the addon's threads (foldFlags) rather than in TypeScript: below
 * it the call and its threads cost more than the loop.
 */
const NATIVE_FOLD_MIN = 1 << 16;

/** Lists from this many entries take their buffers from the run's and engine's spares (Run.listArray). */
const LIST_POOL_MIN = 1 << 16;

/** A vote as the coordinator keeps it: with the shared buffers that came beside it (FlagMerge buffers). */
type Vote = VoteFrame & { shared?: SharedArrayBuffer[] };

/**
 * Folds flag claims into `arr` (entries still -1 take `value`; the vertex joins the next frontier
 * unless it already has). Returns the vertices it activated.
 */
export function foldClaimFlags(arr: StateArray, value: number, begin: number, flags: Uint8Array, next: Uint8Array, found: IdList | undefined): number {
  let active = 0;
  forEachFlag(flags, (i) => {
    const v = begin + i;
    if (arr[v] !== -1) return;
    arr[v] = value;
    active += activate(v, next, found);
  });
  return active;
}

/** Marks v active for the next superstep unless it already is; 1 when this call marked it. */
function activate(v: number, next: Uint8Array, found: IdList | undefined): number {
  if (next[v] !== 0) return 0;
  next[v] = 1;
  found?.push(v);
  return 1;
}

/** Folds flagged values (`values[i]` for vertex begin + i) into `arr` with min, activating what drops. */
export function foldMinFlags(arr: StateArray, values: StateArray, begin: number, flags: Uint8Array, next: Uint8Array, found: IdList | undefined): number {
  let active = 0;
  forEachFlag(flags, (i) => {
    const v = begin + i;
    const x = values[i]!;
    if (!(x < arr[v]!)) return;
    arr[v] = x;
    active += activate(v, next, found);
  });
  return active;
}

/** Folds (ids, values) into `arr` with the merge's reduce; returns the vertices it activated. */
function fold(arr: StateArray, m: StateMerge, next: Uint8Array, found: IdList | undefined): number {
  const { ids, values } = m;
  let active = 0;
  for (let i = 0; i < ids.length; i++) {
    const v = ids[i]!;
    const x = values[i]!;
    let changed = false;
    if (m.op === 'sum') arr[v]! += x;
    else if (m.op === 'min') {
      if (x < arr[v]!) (arr[v] = x), (changed = true);
    } else if (arr[v] === -1) (arr[v] = x), (changed = true);
    if (changed && m.activate) active += activate(v, next, found);
  }
  return active;
}

function kindOf(a: StateArray): StateKind {
  if (a instanceof Float64Array) return 'f64';
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Uint32Array) return 'u32';
  return 'u8';
}


/** A kernel as a superstep names it: its module's export, and the native GPU handler of a built-in. */
interface KernelRef {
  name: string;
  module: string;
  native: string | undefined;
}

/** One program run: the RunContext programs see. */
class Run implements RunContext {
  private step = 0;
  private spare: Uint8Array[] = [];
  /** Frontiers edgeMap returned: consumed (their bitmap reused) when given back to edgeMap. */
  private readonly produced = new WeakSet<Frontier>();
  /** Every array and bitmap this run took, for the engine's pools when it ends. */
  private readonly taken: StateArray[] = [];
  private readonly bitmaps: Uint8Array[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly steps: StepReport[],
    private readonly notes: Record<string, string | number | boolean>,
    private readonly def: AnyProgram,
    private readonly kernels: KernelTable,
  ) {}

  /** The program's declared state, allocated when the run starts (define.ts StateSpecs). */
  state: Record<string, StateArray> = {};

  private get program(): string {
    return this.def.name;
  }

  /** The kernel `name` of the program's module, or a clear error. */
  private kernel(name: string): void {
    if (this.kernels.table[name] === undefined) {
      throw new TesseraError(`program '${this.program}' names kernel '${name}', which its kernels module does not export`, {
        file: this.kernels.url,
        fix: `export it from that module (it exports ${Object.keys(this.kernels.table).join(', ') || 'no kernels'})`,
      });
    }
  }

  note(key: string, value: string | number | boolean): void {
    this.notes[key] = value;
  }

  get graph(): Graph {
    return this.engine.graph;
  }

  get gpuActors(): number {
    return this.engine.topology.gpus.length;
  }

  alloc(kind: StateKind, fill = 0, length = this.graph.numVertices): StateArray {
    const pooled = this.engine.arrayPool.get(`${kind}:${length}`)?.pop();
    const a = pooled ?? sharedArray(kind, length);
    if (fill !== 0 || pooled !== undefined) fillArray(a, fill);
    else prefault(a);
    this.taken.push(a);
    return a.length === length ? a : (a.subarray(0, length) as StateArray);
  }

  private bitmap(): Uint8Array {
    const spare = this.spare.pop();
    if (spare !== undefined) return spare;
    let b = this.engine.bitmapPool.pop();
    if (b === undefined) {
      b = new Uint8Array(new SharedArrayBuffer(Math.max(8, this.graph.numVertices)));
      prefault(b);
    }
    this.bitmaps.push(b);
    return b;
  }

  /** Spare buffers of long lists: those of frontiers consumed in this run. */
  private listSpare: SharedArrayBuffer[] = [];
  /** The list buffers this run handed out from the pools or allocated (returned when consumed). */
  private readonly pooledLists = new WeakSet<ArrayBufferLike>();

  /**
   * A Uint32Array of `size` entries over a shared buffer: for a long list one that a consumed
   * frontier's list used (a fresh 24 MB list buffer for RMAT 24's 6 M-vertex level cost its page
   * faults every level), else a new one of the next power of two, faulted in by prefault.
   */
  listArray(size: number): Uint32Array {
    if (size < LIST_POOL_MIN) return new Uint32Array(new SharedArrayBuffer(4 * Math.max(1, size)), 0, size);
    const fit = (pool: SharedArrayBuffer[]): SharedArrayBuffer | undefined => {
      const i = pool.findIndex((b) => b.byteLength >= 4 * size);
      return i < 0 ? undefined : pool.splice(i, 1)[0];
    };
    let buf = fit(this.listSpare) ?? fit(this.engine.listPool);
    if (buf === undefined) {
      buf = new SharedArrayBuffer(4 * Math.min(2 ** Math.ceil(Math.log2(size)), Math.max(size, this.graph.numVertices)));
      prefault(new Uint32Array(buf));
    }
    this.pooledLists.add(buf);
    return new Uint32Array(buf, 0, size);
  }

  /** The run is over: what it took goes back to the engine's pools, but for the arrays of `values`. */
  release(values: { buffer: ArrayBufferLike }): void {
    for (const a of this.taken) {
      if (a.buffer === values.buffer) continue;
      const key = `${kindOf(a)}:${a.length}`;
      const list = this.engine.arrayPool.get(key) ?? [];
      list.push(a);
      this.engine.arrayPool.set(key, list);
    }
    // Spare bitmaps were cleared when recycled; the others (frontiers still held) are cleared here.
    const clean = new Set(this.spare);
    for (const b of this.bitmaps) {
      if (b.buffer === values.buffer) continue;
      if (!clean.has(b)) fillArray(b, 0);
      this.engine.bitmapPool.push(b);
    }
    // Only consumed frontiers' lists: a frontier the program still holds keeps its list.
    for (const b of this.listSpare) if (b !== values.buffer) this.engine.listPool.push(b);
  }

  /** Returns a frontier's bitmap for reuse, cleared (and the list a superstep `made` for it). */
  private recycle(f: Frontier, made?: Uint32Array): void {
    if (made !== undefined && this.pooledLists.has(made.buffer)) this.listSpare.push(made.buffer as SharedArrayBuffer);
    if (!this.produced.has(f)) return;
    this.produced.delete(f);
    if (f.list !== undefined && f.list.length < f.bitmap.length / 64) for (const v of f.list) f.bitmap[v] = 0;
    else fillArray(f.bitmap, 0);
    this.spare.push(f.bitmap);
    if (f.list !== undefined && this.pooledLists.has(f.list.buffer)) this.listSpare.push(f.list.buffer as SharedArrayBuffer);
  }

  frontierOf(ids: ArrayLike<number>): Frontier {
    const bitmap = this.bitmap();
    // A long frontier gets no list here: edgeMap reads one off the byte map in order when a push
    // needs it (on the addon's threads), instead of a copy and a sort (SSSP's buckets of millions).
    if (ids.length >= Math.max(LIST_POOL_MIN, bitmap.length >> 8)) {
      let size = 0;
      for (let i = 0; i < ids.length; i++) {
        const v = ids[i]!;
        size += 1 - bitmap[v]!;
        bitmap[v] = 1;
      }
      return { bitmap, list: undefined, size };
    }
    const list = new Uint32Array(new SharedArrayBuffer(Math.max(4, 4 * ids.length)), 0, ids.length);
    let size = 0;
    for (let i = 0; i < ids.length; i++) {
      const v = ids[i]!;
      if (bitmap[v] === 1) continue;
      bitmap[v] = 1;
      list[size++] = v;
    }
    return { bitmap, list: list.subarray(0, size).sort(), size };
  }

  all(): Frontier {
    const bitmap = this.bitmap();
    fillArray(bitmap, 1);
    return { bitmap, list: undefined, size: this.graph.numVertices };
  }

  private ref(kernel: string): KernelRef {
    return { name: kernel, module: this.kernels.url, native: this.def.native?.[kernel] };
  }

  async vertexMap(kernel: string, state: Record<string, StateArray>, args: Record<string, number> = {}): Promise<{ sum: number }> {
    this.kernel(kernel);
    if (this.kernels.table[kernel]!.vertex === undefined) {
      throw new TesseraError(`program '${this.program}' runs vertexMap with kernel '${kernel}', which has no vertex function`, { file: this.kernels.url, fix: 'give that kernel vertex(ctx, lo, hi, out)' });
    }
    const n = this.graph.numVertices;
    // About 8 ranges per thread (uneven cores, page faults), at least 4096 ids each.
    const size = Math.max(4096, Math.ceil(n / (this.engine.cpuThreads * 8)));
    const tasks: Task[] = [];
    for (let lo = 0; lo < n; lo += size) tasks.push({ page: 0, count: 0, lo, hi: Math.min(n, lo + size), edges: Math.min(n, lo + size) - lo });
    const shares = this.engine.share(tasks);
    // The frame's frontier and next bitmaps: vertex kernels read and write neither (kernel.ts).
    const unused = this.bitmap();
    try {
      const { votes } = await this.engine.superstep(-1, this.ref(kernel), 'pull', shares, args, state, { bitmap: unused, list: undefined, size: 0 }, undefined, unused, false, 'in', true);
      return { sum: votes.reduce((a, v) => a + v.sum, 0) };
    } finally {
      this.spare.push(unused);
    }
  }

  async edgeMap(
    kernel: string,
    frontier: Frontier,
    state: Record<string, StateArray>,
    args: Record<string, number> = {},
    opts: EdgeMapOptions = {},
  ): Promise<StepResult> {
    const t0 = performance.now();
    const g = this.graph;
    this.kernel(kernel);
    const k = this.kernels.table[kernel]!;
    const wanted = opts.modes ?? (['push', 'pull'] as const).filter((m) => k[m] !== undefined);
    const modes = this.engine.modesFor(this.def.native?.[kernel], kernel, this.program, wanted);
    let mode: Mode;
    let list = frontier.list;
    // A list this superstep made for a frontier that had none: its buffer is spare once the frontier is consumed.
    let made: Uint32Array | undefined;
    // The frontier's out-edges: summed only for Ligra's switch (a forced mode needs no sum here).
    let frontierEdges: number | undefined;
    const forced = this.engine.forceMode;
    if (modes.length === 1) mode = modes[0]!;
    else if (forced !== undefined && modes.includes(forced)) mode = forced;
    else if (frontier.size === g.numVertices) mode = 'pull';
    else {
      // Ligra's switch: the frontier's out-edges against |E| / divisor. A pull superstep's frontier
      // has no list: with the addon it is listed now with its out-edges on the addon's threads (a
      // push then has its list; RMAT 20's direction-optimising BFS planned 6-13 ms a step walking
      // the byte map in TypeScript), else they are summed from the byte map.
      if (frontier.edges !== undefined) frontierEdges = frontier.edges;
      else if (list !== undefined) {
        frontierEdges = 0;
        for (let i = 0; i < list.length; i++) frontierEdges += g.outDegree[list[i]!]!;
      } else if (listsNatively(frontier)) {
        const r = listOf(frontier, (k) => this.listArray(k), g.outDegree);
        list = made = r.list;
        frontierEdges = r.edges ?? outEdgesOf(frontier, g.outDegree);
      } else frontierEdges = outEdgesOf(frontier, g.outDegree);
      mode = frontier.size + frontierEdges > g.numEdges / this.engine.pullDivisor ? 'pull' : 'push';
    }
    let shares: Task[][];
    const pullPages = opts.pullPages ?? 'in';
    if (mode === 'pull') shares = this.engine.denseShares(pullPages);
    else {
      if (list === undefined) list = made = listOf(frontier, (k) => this.listArray(k)).list;
      if (!(list.buffer instanceof SharedArrayBuffer)) list = toShared(list);
      ({ shares, list } = this.engine.pushTaskShares(list, frontierEdges ?? frontier.edges, k.splitPush === true));
    }
    const next = this.bitmap();
    const wantList = mode === 'push';
    const step = this.step++;
    const planMs = performance.now() - t0;
    const { votes, voteMs, steals } = await this.engine.superstep(step, this.ref(kernel), mode, shares, args, state, frontier, mode === 'push' ? list : undefined, next, wantList, pullPages);
    let active = 0;
    let sum = 0;
    let edges = 0;
    for (const v of votes) {
      active += v.active;
      sum += v.sum;
      edges += v.edges;
    }
    // The next list: from the actors' lists when they are short (joined and sorted), else read
    // off the next bitmap in vertex order (a socket that activated more than listCap sends none; a
    // GPU's flagged merges activate many).
    const cap = this.engine.listCap;
    const cpuCount = this.engine.cpuCount;
    const scan = wantList && (active > cap || votes.some((v, i) => (i < cpuCount && v.discovered === undefined) || (v.flagged?.length ?? 0) > 0));
    const remote = wantList && !scan && this.engine.hasGpus ? new IdList() : undefined;
    const foldAt = performance.now();
    if (this.engine.hasGpus) active += this.engine.applyRemote(votes, state, next, remote);
    const foldMs = performance.now() - foldAt;
    const listAt = performance.now();
    let nextList: Uint32Array | undefined;
    let nextEdges: number | undefined;
    if (wantList && (scan || active > cap)) ({ list: nextList, edges: nextEdges } = listOf({ bitmap: next, list: undefined, size: active }, (k) => this.listArray(k), g.outDegree));
    else if (wantList) {
      nextList = new Uint32Array(new SharedArrayBuffer(Math.max(4, 4 * active)), 0, active);
      let at = 0;
      for (const v of votes) {
        if (v.discovered) {
          nextList.set(v.discovered, at);
          at += v.discovered.length;
        }
      }
      if (remote !== undefined) nextList.set(remote.view(), at);
      nextList.sort();
    }
    const listMs = performance.now() - listAt;
    this.recycle(frontier, made);
    const ms = performance.now() - t0;
    const record: StepReport = {
      step,
      kernel,
      mode,
      frontier: frontier.size,
      active,
      edges,
      ms,
      planMs,
      foldMs,
      listMs,
      actors: this.engine.actorReports(votes, voteMs, shares),
      ...(steals.length > 0 ? { steals } : {}),
    };
    this.steps.push(record);
    this.engine.events.emit('superstep', record, this.program);
    const nextFrontier: Frontier = { bitmap: next, list: nextList, size: active, ...(nextEdges !== undefined ? { edges: nextEdges } : {}) };
    this.produced.add(nextFrontier);
    return { next: nextFrontier, sum, edges };
  }
}

/** A GPU actor could not open its device: one clear line naming the topology file and key. */
/** A native message "problem. Fix: how" as its two parts. */
function splitFix(message: string): { problem: string; fix: string | undefined } {
  const at = message.indexOf(' Fix: ');
  return at < 0 ? { problem: message, fix: undefined } : { problem: message.slice(0, at), fix: message.slice(at + 6).replace(/\.$/, '') };
}

function gpuOpenError(t: Topology, i: number, f: ErrorFrame): TesseraError {
  const gpu = t.gpus[i]!;
  const file = t.source;
  const { problem, fix } = splitFix(f.message);
  switch (f.code) {
    case 'TS_NO_NATIVE':
      return new TesseraError(`topology '${t.name}' lists GPU device ${gpu.device}, but the native GPU controller is not available: ${problem}`, {
        file,
        key: `gpus.${i}`,
        fix: 'run `node scripts/build-native.mjs` (needs cmake and a C++ compiler), or use a CPU-only topology such as configs/1S.yaml',
      });
    case 'TS_OOM':
      return new TesseraError(`GPU device ${gpu.device}: ${problem}`, { file, key: `gpus.${i}.memoryLimit`, fix: 'raise memoryLimit or lower pageEdges' });
    case 'TS_BAD_DEVICE':
    case 'TS_NO_DEVICE':
    case 'TS_NO_CUDA':
    case 'TS_CUDA':
      return new TesseraError(`topology '${t.name}' names GPU device ${gpu.device}, which cannot be used here: ${problem.replace(/\.$/, '')}`, {
        file,
        key: `gpus.${i}.device`,
        fix: gpu.emulated
          ? 'emulated devices are numbered 0..15'
          : `${fix !== undefined ? `${fix}; or ` : ''}use a device index that \`nvidia-smi -L\` lists, or set \`emulated: true\` to run this GPU actor on the host (configs/1S1G-emulated.yaml)`,
      });
    default:
      return new TesseraError(`GPU device ${gpu.device} of topology '${t.name}' could not be opened: ${problem}`, {
        file,
        key: `gpus.${i}`,
        fix: 'check the device with `nvidia-smi`, or set `emulated: true` to run this GPU actor on the host',
      });
  }
}

/**
 * One pass over a frontier's bitmap: the sum of its vertices' out-degrees (with `outDegree`), and
 * its vertex ids written to `list` (with one). Skips eight clear flags at a time.
 */
/** Sum of the out-degrees of a frontier's vertices, from its bitmap. */
function outEdgesOf(f: Frontier, outDegree: Uint32Array): number {
  let edges = 0;
  forEachFlag(f.bitmap, (v) => (edges += outDegree[v]!), f.size);
  return edges;
}

/**
 * Whether listOf runs on the addon's threads: from 64 k flags in the byte map (both list ways read
 * all of it, however few are set: a 24 k-vertex frontier of RMAT 20 took the TypeScript scan 6 ms).
 */
function listsNatively(f: Frontier): boolean {
  return f.bitmap.length >= NATIVE_FOLD_MIN && nativeListFlags() !== undefined;
}

/**
 * The frontier's vertices in ascending order, from its bitmap, and with `degree` (where the
 * addon lists them on its threads: listsNatively) their out-edges too. Otherwise
 * forEachFlag's word skipping, the bytes of a set word written without branches (a call per
 * vertex, or a branch per byte, cost 2-4x on RMAT 24's 6 M-vertex level: a third of the flags are
 * set, so the branches mispredict).
 */
function listOf(f: Frontier, alloc: (size: number) => Uint32Array, degree?: Uint32Array): { list: Uint32Array; edges?: number } {
  const size = f.size;
  const flags = f.bitmap;
  const native = listsNatively(f) ? nativeListFlags() : undefined;
  if (native !== undefined) {
    const out = alloc(size);
    const r = native(flags, out, degree);
    return { list: r.count === size ? out : out.subarray(0, r.count), ...(degree !== undefined ? { edges: r.edges } : {}) };
  }
  // 8 spare entries: a word's last writes may land past the last vertex before k is checked.
  const out = alloc(size + 8);
  const n = flags.length;
  let k = 0;
  let i = 0;
  for (; i < n && (flags.byteOffset + i) % 8 !== 0; i++) if (flags[i] !== 0) out[k++] = i;
  const words = new Float64Array(flags.buffer, flags.byteOffset + i, (n - i) >> 3);
  for (let w = 0; w < words.length && k < size; w++) {
    if (words[w] === 0) continue;
    const j = i + (w << 3);
    // Unrolled: a loop over the 8 bytes ran 2.5x slower (62 vs 24 ms for 6 M of 16.8 M flags).
    out[k] = j;
    k += flags[j]!;
    out[k] = j + 1;
    k += flags[j + 1]!;
    out[k] = j + 2;
    k += flags[j + 2]!;
    out[k] = j + 3;
    k += flags[j + 3]!;
    out[k] = j + 4;
    k += flags[j + 4]!;
    out[k] = j + 5;
    k += flags[j + 5]!;
    out[k] = j + 6;
    k += flags[j + 6]!;
    out[k] = j + 7;
    k += flags[j + 7]!;
  }
  for (i += words.length << 3; i < n && k < size; i++) if (flags[i] !== 0) out[k++] = i;
  return { list: out.subarray(0, Math.min(k, size)) };
}

function toShared(a: Uint32Array): Uint32Array {
  const s = new Uint32Array(new SharedArrayBuffer(Math.max(4, 4 * a.length)), 0, a.length);
  s.set(a);
  return s;
}
