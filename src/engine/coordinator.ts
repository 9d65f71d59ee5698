/**
 * The coordinator: runs BSP supersteps over the actors of a topology (TOTEM's compute /
 * communicate / synchronise). Each superstep it picks the mode from the active-edge fraction
 * (Ligra's |F| + out-edges(F) > |E|/20 switch, Garaph's f rule), cuts the work into tasks (page
 * vertex ranges with about equal edges, Garaph's CPU-side edge-balanced split), hands each actor
 * a contiguous share in proportion to its threads, and waits for every actor's vote. Its set-up
 * is engine-create.ts', a program's run engine-run.ts'.
 */
import { EventEmitter } from 'eventemitter3';
import { TesseraError } from '../errors.js';
import type { Graph } from '../graph/types.js';
import type { Topology } from '../topology/schema.js';
import type { Channel } from '../wire/channel.js';
import type { ActorFrame, CoordinatorFrame, ErrorFrame, IdleFrame, Mode, ReadyFrame, ReleasedFrame, StateRef, Task, VoteFrame } from '../wire/frames.js';
import type { CpuSocketActor } from '../../actors/cpu/socket-actor.js';
import type { GpuActor } from '../../actors/gpu/gpu-actor.js';
import type { GpuController } from '../../actors/gpu/native.js';
import { DEFAULT_PARTITION_SEED, rangeEdges, rangeVertices, type VertexRanges } from './partition.js';
import type { StateArray } from './kernel.js';
import type { IdList } from './ids.js';
import type { Frontier } from './program.js';
import type { AnyProgram } from './define.js';
import type { OperatorMode } from './operators.js';
import type { ActorStepReport, RunReport, StealEvent } from './report.js';
import { applyVotes, kindOf, type ChangedState, type Vote } from './fold.js';
import * as taskPlan from './tasks.js';
import type { KernelRef } from './run.js';
import { recycleOutput } from './pools.js';
import type { PinnedOutputs } from './pinned-outputs.js';
import { stepError } from './actor-errors.js';
import { createEngine } from './engine-create.js';
import { runProgram } from './engine-run.js';
import type { EngineEvents, EngineOptions, ProgressEmitter, RunCheckpointing } from './engine-options.js';

export type { EngineEvents, EngineOptions, ProgressEmitter, RunCheckpointing } from './engine-options.js';
export { notResumable } from './engine-run.js';

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

export interface ActorLink {
  name: string;
  kind: 'cpu' | 'gpu';
  threads: number;
  link: Channel<CoordinatorFrame, ActorFrame>;
  actor: CpuSocketActor | GpuActor;
  bytesAtStepStart: number;
  /** Socket actors: the cached task lists it was sent (SuperstepFrame.taskSet). */
  taskSets?: Set<string>;
  /** GPU actors: the vertex ranges they own and what their ready frame said. */
  owned?: VertexRanges;
  ready?: ReadyFrame;
}

export class Engine {
  private readonly actors: ActorLink[] = [];
  private readonly threads: number;
  private pending = new Map<string, { resolve: (v: Vote) => void; reject: (e: Error) => void }>();
  private failure: Error | undefined;
  private readonly denseTasks = new Map<string, Task[][]>();
  /** The name each cached dense share goes by on the wire (SuperstepFrame.taskSet). */
  private readonly taskSetNames = new WeakMap<Task[], string>();
  /** Actors [0, cpuCount) are the CPU sockets (in socket order), the rest GPUs. */
  cpuCount = 0;
  /** Whether the socket actors run supersteps as gangs (TESSERA_GANG when they started): a team needs one. */
  readonly ganged = process.env.TESSERA_GANG !== '0';
  /** EngineOptions.teams, else TESSERA_TEAM when the engine was made. */
  readonly teams: boolean;
  /** The vertices the CPU actors share: the complement of the GPUs' ranges (HIGH: the head, LOW: the tail). */
  private cpuRanges: VertexRanges = [];
  /** Where the last edge step's fold wrote, for the GPU actors' next frame. */
  private changes: { step: number; states: ChangedState[] } | undefined;
  /** What task planning (tasks.ts) reads of the actors: set by create once they are up. */
  private layout!: taskPlan.TaskLayout;
  private readyWait = new Map<string, { resolve: (f: ReadyFrame) => void; reject: (e: ErrorFrame) => void }>();
  /** Progress events: run-start, superstep, run-end. */
  readonly events: ProgressEmitter;
  /** Where runs send them: nowhere during create's warm-up run (warm-up.ts). */
  progress: ProgressEmitter;
  private live: LiveStep | undefined;
  /** The last edgeMap superstep sent (error messages name where a run failed). */
  private lastStep = -1;
  /**
   * State arrays and bitmaps of finished runs (all but the results they returned), by kind and
   * length, for the next run: a fresh SharedArrayBuffer is zero pages to fault in and, for a GPU
   * actor, host memory to page-lock again (PageRank on RMAT 24: 134 MB per f64 array).
   */
  readonly arrayPool = new Map<string, StateArray[]>();
  readonly bitmapPool: Uint8Array[] = [];
  /** Buffers of long frontier lists (LIST_POOL_MIN entries and up) that finished runs gave back. */
  readonly listPool: SharedArrayBuffer[] = [];
  /** With GPU actors: pooled result arrays locked at create for their read-backs (pinned-outputs.ts). */
  pinned?: PinnedOutputs;

  private constructor(
    readonly graph: Graph,
    readonly topology: Topology,
    private readonly opts: EngineOptions,
  ) {
    this.threads = topology.sockets.reduce((a, s) => a + s.threads, 0);
    this.events = this.progress = opts.events ?? new EventEmitter<EngineEvents>();
    this.teams = opts.teams ?? process.env.TESSERA_TEAM !== '0';
  }

  /** Starts the topology's actors over the graph (engine-create.ts). */
  static create(graph: Graph, topology: Topology, opts: EngineOptions = {}): Promise<Engine> {
    return createEngine(graph, topology, opts, (cpuRanges) => {
      const e = new Engine(graph, topology, opts);
      e.cpuRanges = cpuRanges;
      return { engine: e, actors: e.actors, readyWait: e.readyWait, onActorFrame: (f, shared) => e.onActorFrame(f, shared), setLayout: (layout) => (e.layout = layout) };
    });
  }

  /** Threads of all CPU socket actors. */
  get cpuThreads(): number {
    return this.threads;
  }

  /** The vertex ranges each GPU actor owns (topology order). */
  get gpuOwned(): VertexRanges[] {
    return this.actors.slice(this.cpuCount).map((a) => a.owned!.map(([b, e]): [number, number] => [b, e]));
  }

  /**
   * Each GPU actor's device bytes beside its page cache (vertex state and scratch, topology
   * order): what the model's calibration measures a program to hold per vertex (run-timing.ts).
   */
  async gpuStateBytes(): Promise<number[]> {
    const out: number[] = [];
    for (const a of this.actors.slice(this.cpuCount)) {
      // A GPU actor whose device never opened has nothing to count.
      const info = await ((a.actor as GpuActor).controller as GpuController | undefined)?.info();
      if (info !== undefined) out.push(info.stateBytes + info.scratchBytes);
    }
    return out;
  }

  /** The vertex ranges the CPU actors share (the complement of the GPUs'). */
  get cpuOwned(): VertexRanges {
    return this.cpuRanges.map(([b, e]): [number, number] => [b, e]);
  }

  /**
   * Whether the GPU actors own every vertex: they may keep state and frontiers on their devices
   * between supersteps (actors/gpu/held.ts), nothing else computing there.
   */
  get gpusOwnAll(): boolean {
    return this.hasGpus && rangeVertices(this.cpuRanges) === 0;
  }

  /**
   * Brings host arrays up to date from the GPU actors' devices (held.ts settle): `state` (by name,
   * as the GPU knows them by their buffers), and with `next` the next flags superstep `step` left
   * there into the bitmap `next`.
   */
  async settle(step: number, state: Record<string, StateArray>, next: Uint8Array | undefined): Promise<void> {
    if (this.failure) throw this.failure;
    const gpus = this.actors.slice(this.cpuCount);
    const { shared, add, stateRefs } = frameState(state);
    // Without next flags to bring back the frame's bitmap is not read: any buffer of n bytes, as a
    // held array is (per vertex, define.ts), serves.
    const bitmap = add((next ?? Object.values(state)[0]!).buffer);
    const votes = gpus.map((a) => new Promise<VoteFrame>((resolve, reject) => this.pending.set(a.name, { resolve, reject })));
    for (const a of gpus)
      a.link.send({ type: 'superstep', step, kernel: '', module: '', mode: 'pull', args: {}, state: stateRefs, nextBitmap: bitmap, pullPages: 'in', wantList: false, tasks: [], settle: { next: next !== undefined } }, shared);
    await Promise.all(votes);
  }

  /** The first actor failure, after which this engine runs nothing more (its actors' state is unknown). */
  get failed(): Error | undefined {
    return this.failure;
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
  modesFor(gpu: { readonly modes: ReadonlyArray<OperatorMode> } | undefined, kernel: string, program: string, wanted: ReadonlyArray<Mode>): ReadonlyArray<Mode> {
    if (!this.hasGpus) return wanted;
    if (gpu === undefined)
      throw new TesseraError(`program '${program}' cannot run on topology '${this.topology.name}' yet: its kernel '${kernel}' has no GPU implementation`, {
        file: this.topology.source,
        key: 'gpus',
        fix: 'run it on a CPU-only topology such as configs/1S.yaml',
      });
    const modes = wanted.filter((x) => gpu.modes.includes(x));
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
    if (f.type === 'idle') return this.onIdle(f);
    if (f.type === 'released') return this.onReleased(f);
    if (f.type === 'vote') {
      this.live?.voted.add(f.actor);
      const p = this.pending.get(f.actor);
      this.pending.delete(f.actor);
      p?.resolve(shared.length > 0 ? { ...f, shared } : f);
    } else if (f.type === 'error') {
      const gpu = this.actors.findIndex((a) => a.name === f.actor) - this.cpuCount;
      // Where the run was: the superstep in flight, or the vertex map after the last one.
      const live = this.live;
      const at = live === undefined ? `after superstep ${this.lastStep}` : live.step >= 0 ? `in superstep ${live.step}` : `in a vertex map after superstep ${this.lastStep}`;
      const err = stepError(f, gpu, at, this.topology);
      // The first failure is the cause: actors stopped after it report their cancelled tasks too.
      this.failure ??= err;
      for (const p of this.pending.values()) p.reject(this.failure);
      this.pending.clear();
    }
  }

  get stealPolicy(): 'auto' | 'off' | 'always' {
    return this.actors.length < 2 || this.graph.out.stored !== undefined ? 'off' : (this.opts.steal ?? 'auto');
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
    // Its own queue is empty (victims report theirs when they answer a release).
    live.remaining.set(f.actor, 0);
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
    live.remaining.set(r.actor, r.left);
    if (r.tasks.length === 0) {
      tried.add(r.actor);
      this.onIdle(idle, tried);
      return;
    }
    live.remaining.set(idle.actor, (live.remaining.get(idle.actor) ?? 0) + edges);
    this.actors.find((a) => a.name === idle.actor)!.link.send({ type: 'more', step: r.step, from: r.actor, tasks: r.tasks });
  }

  /**
   * Hands a run's result back (its `values`): the next run that needs an array of its kind and
   * length writes into it instead of fresh memory. The caller must not read it afterwards. False
   * (nothing taken) for an array the engine did not allocate as a result, or one handed back already.
   */
  recycle(values: { buffer: ArrayBufferLike }): boolean {
    return recycleOutput(this, values);
  }

  /** Whether close was called (pools.ts: no replacement arrays made after it). */
  closed = false;

  async close(): Promise<void> {
    this.closed = true;
    for (const a of this.actors) a.link.send({ type: 'stop' });
    // Let the stop frames be handled (pools destroyed, devices closed) before returning.
    await new Promise((r) => setTimeout(r, 0));
    await Promise.all(this.actors.map((a) => (a.kind === 'gpu' ? (a.actor as GpuActor).stopped : undefined)));
  }

  /** Runs a program to completion and returns its values (internal ids) and the run report (engine-run.ts). */
  run(program: AnyProgram, params: unknown, ckpt: RunCheckpointing = {}): Promise<{ values: Float64Array | Int32Array | Uint32Array; report: RunReport }> {
    return runProgram(this, program, params, ckpt, () => this.partitionReport());
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
      ...(this.topology.gpus.length > 1 ? { multiGpu: o.multiGpu ?? 'p' } : {}),
      ...(rand ? { seed: o.partitionSeed ?? DEFAULT_PARTITION_SEED } : {}),
      // RAND's and dealt pages' ranges come as ownership too (run() computes them from the model): not explicit.
      explicit: o.ownership !== undefined && strategy !== 'rand' && o.multiGpu !== 's',
      pages,
      gpus: this.actors.slice(this.cpuCount).map((a) => ({ actor: a.name, ranges: a.owned!.length, vertices: rangeVertices(a.owned!), edges: rangeEdges(a.owned!, deg, this.graph[pages].pages) })),
    });
  }

  /**
   * Dense tasks: every page cut into vertex ranges of about `target` edges (cached; tasks.ts); with
   * `cpuOnly`, every vertex's for the CPU actors alone (EdgeMapOptions.cpuOnly); with `skipEmpty`,
   * the CPU actors' tasks without edges left out (EdgeMapOptions.skipEmpty).
   */
  denseShares(orientation: 'in' | 'out', cpuOnly = false, skipEmpty = false): Task[][] {
    const key = `${orientation}${cpuOnly ? ':cpu' : ''}${skipEmpty ? ':edges' : ''}`;
    const cached = this.denseTasks.get(key);
    if (cached) return cached;
    const shares = skipEmpty
      ? this.denseShares(orientation, cpuOnly).map((s, i) => (i < this.cpuCount ? s.filter((t) => t.edges > 0) : s))
      : taskPlan.denseShares(this.layoutFor(cpuOnly), orientation);
    // Socket actors keep their shares by these names (the GPU actors' are never named).
    shares.forEach((s, i) => i < this.cpuCount && this.taskSetNames.set(s, `${key}#${i}`));
    this.denseTasks.set(key, shares);
    return shares;
  }

  /**
   * A vertex map's id ranges over the socket actors (tasks.ts), cached and named like the dense
   * shares, so a socket actor is sent them once (128 ranges a frame made msgpack a third of the
   * coordinator's thread on 16 threads).
   */
  vertexShares(): Task[][] {
    const cached = this.denseTasks.get('vertex');
    if (cached) return cached;
    const shares = taskPlan.vertexShares(this.layout);
    shares.forEach((s, i) => this.taskSetNames.set(s, `vertex#${i}`));
    this.denseTasks.set('vertex', shares);
    return shares;
  }

  /** The task layout, or with `cpuOnly` one where the CPU actors own every vertex. */
  private layoutFor(cpuOnly: boolean): taskPlan.TaskLayout {
    return cpuOnly && this.hasGpus ? { ...this.layout, cpuRanges: [[0, this.graph.numVertices]], gpuOwned: [] } : this.layout;
  }

  /** Contiguous shares of the task list over the CPU actors, edges in proportion to their threads (tasks.ts). */
  share(tasks: Task[]): Task[][] {
    return taskPlan.share(this.layout, tasks);
  }

  /** Push tasks over a frontier list, one slice per GPU owner (tasks.ts pushTaskShares). */
  pushTaskShares(list: Uint32Array, outEdges?: number, splitHubs = false, cpuOnly = false): { shares: Task[][]; list: Uint32Array } {
    return taskPlan.pushTaskShares(this.layoutFor(cpuOnly), list, outEdges, splitHubs);
  }

  /**
   * Sends one superstep to every actor and collects the votes; a vertex map, and a superstep
   * with `cpuOnly`, go to the CPU socket actors only (`shares` then has one entry per socket actor).
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
    first = false,
    countNext = false,
    cpuOnly = false,
  ): Promise<{ votes: VoteFrame[]; voteMs: number[]; steals: StealEvent[] }> {
    if (this.failure) throw this.failure;
    if (step >= 0) this.lastStep = step;
    const actors = vertexMap || cpuOnly ? this.actors.slice(0, this.cpuCount) : this.actors;
    const { shared, add, stateRefs } = frameState(state);
    const frontierBitmap = add(frontier.bitmap.buffer);
    const listRef = frontierList ? add(frontierList.buffer) : undefined;
    const nextBitmap = add(next.buffer);
    const team = kernel.team === undefined ? undefined : add(kernel.team);
    // The previous edge step's fold, for GPU actors patching their copies (residency.ts).
    const c = this.changes;
    this.changes = undefined;
    // Named as this call names the arrays (a driver may pass an array under another name).
    const changed =
      c === undefined || vertexMap || cpuOnly
        ? undefined
        : {
            step: c.step,
            states: Object.entries(state).flatMap(([name, arr]) => {
              const x = c.states.find((y) => y.array.buffer === arr.buffer && y.array.byteOffset === arr.byteOffset && y.array.length === arr.length);
              return x === undefined ? [] : [{ name, count: x.ids?.length ?? 0, spans: x.spans, ...(x.ids !== undefined ? { ids: add(x.ids.buffer) } : {}) }];
            }),
          };
    const sentAt = performance.now();
    const voteMs = actors.map(() => 0);
    const votes = actors.map(
      (a, i) =>
        new Promise<VoteFrame>((resolve, reject) => {
          this.pending.set(a.name, { resolve, reject });
        }).then((v) => ((voteMs[i] = performance.now() - sentAt), v)),
    );
    const policy = this.stealPolicy;
    const steal = policy === 'off' || vertexMap || kernel.vertexOp === true || team !== undefined ? undefined : policy;
    this.live = { step, remaining: new Map(actors.map((a, i) => [a.name, shares[i]!.reduce((x, t) => x + t.edges, 0)])), voted: new Set(), asks: new Map(), t0: performance.now(), steals: [] };
    const steals = this.live.steals;
    // GPU actors first: each starts its device work before the socket actors' frames are handled
    // on this thread. A socket actor with no tasks and none to steal is not sent the frame: its
    // vote (nothing done) is known, and handling the frame cost the GPUs' start ~0.4 ms a superstep.
    const order = actors.map((_, i) => i).sort((x, y) => Number(x < this.cpuCount) - Number(y < this.cpuCount));
    for (const i of order) {
      const a = actors[i]!;
      a.bytesAtStepStart = a.link.bytesSent;
      if (i < this.cpuCount && shares[i]!.length === 0 && steal === undefined && !vertexMap) {
        const p = this.pending.get(a.name)!;
        this.pending.delete(a.name);
        p.resolve({ type: 'vote', actor: a.name, step, active: 0, sum: 0, edges: 0, tasks: 0, stolen: 0, stolenEdges: 0, computeMs: 0, busyMs: 0, ...(wantList ? { discovered: new Uint32Array(0) } : {}), ...(countNext ? { nextEdges: 0 } : {}) });
        continue;
      }
      // A socket actor keeps a dense share it was sent once: later frames name it.
      const taskSet = i < this.cpuCount && shares[i]!.length > 0 ? this.taskSetNames.get(shares[i]!) : undefined;
      const known = taskSet !== undefined && a.taskSets?.has(taskSet) === true;
      if (taskSet !== undefined) (a.taskSets ??= new Set()).add(taskSet);
      a.link.send(
        {
          type: 'superstep', step, kernel: kernel.name, module: kernel.module, ...(kernel.gpu !== undefined ? { gpu: kernel.gpu } : {}), ...(kernel.ops !== undefined && i >= this.cpuCount ? { ops: kernel.ops } : {}), ...(kernel.pageWeights === false && i >= this.cpuCount ? { pageWeights: false as const } : {}), mode, args, state: stateRefs, frontierBitmap, frontierList: listRef, nextBitmap, wantList, pullPages, tasks: known ? [] : shares[i]!, steal,
          ...(taskSet !== undefined ? { taskSet } : {}),
          ...(wantList ? { listCap: this.listCap } : {}),
          ...(vertexMap ? { vertexMap } : {}),
          ...(team !== undefined ? { team } : {}),
          ...(first ? { first } : {}),
          ...(countNext ? { countNext } : {}),
          ...(kernel.resident !== undefined && i >= this.cpuCount ? { resident: kernel.resident } : {}),
          ...(kernel.touched !== undefined && i >= this.cpuCount ? { touched: kernel.touched } : {}),
          ...(kernel.pullIf !== undefined && i >= this.cpuCount ? { pullIf: kernel.pullIf } : {}),
          ...(kernel.frontierIsNext === true && i >= this.cpuCount ? { frontierIsNext: true } : {}),
          ...(kernel.held !== undefined && i >= this.cpuCount ? { held: kernel.held } : {}),
          ...(kernel.holdNext === true && i >= this.cpuCount ? { holdNext: true } : {}),
          ...(kernel.frontierHeld === true && i >= this.cpuCount ? { frontierHeld: true } : {}),
          ...(kernel.vertexOp === true && i >= this.cpuCount ? { vertexOp: true as const } : {}),
          ...(kernel.frontierFull === true && i >= this.cpuCount ? { frontierFull: true as const } : {}),
          ...(changed !== undefined && i >= this.cpuCount ? { changed } : {}),
        },
        shared,
      );
    }
    try {
      return { votes: await Promise.all(votes), voteMs, steals };
    } finally {
      this.live = undefined;
    }
  }

  /**
   * A superstep too small for a round trip to the workers, run on this thread: `vote` runs CPU
   * actor i's share and votes for it (the same tasks and per-task sums as its threads).
   */
  inlineSuperstep(step: number, vote: (actor: string, i: number) => VoteFrame): { votes: VoteFrame[]; voteMs: number[]; steals: StealEvent[] } {
    if (this.failure) throw this.failure;
    this.lastStep = step;
    const t0 = performance.now();
    const votes = this.actors.slice(0, this.cpuCount).map((a, i) => ((a.bytesAtStepStart = a.link.bytesSent), vote(a.name, i)));
    const ms = performance.now() - t0;
    return { votes, voteMs: votes.map(() => ms), steals: [] };
  }

  actorReports(votes: VoteFrame[], voteMs: number[], shares: Task[][]): ActorStepReport[] {
    return votes.map((v, i) => ({
      actor: v.actor,
      kind: this.actors[i]!.kind,
      tasks: v.tasks,
      pages: v.gpu !== undefined ? v.gpu.pages : new Set(shares[i]!.map((t) => t.page)).size,
      edges: v.edges,
      computeMs: v.computeMs,
      ...(v.busyMs !== undefined ? { busyMs: v.busyMs } : {}),
      voteMs: voteMs[i]!,
      bytesSent: this.actors[i]!.link.bytesSent - this.actors[i]!.bytesAtStepStart,
      messages: v.outbox?.before ?? 0,
      messagesAggregated: v.outbox?.ids.length ?? 0,
      stolen: v.stolen,
      stolenEdges: v.stolenEdges ?? 0,
      ...(v.nextEdges !== undefined ? { nextEdges: v.nextEdges } : {}),
      ...(v.disk !== undefined ? { disk: v.disk } : {}),
      ...(v.gpu !== undefined ? { gpu: v.gpu } : {}),
    }));
  }

  /**
   * The communication phase for actors in other memories (fold.ts applyVotes). Returns the
   * vertices the fold activated. With GPUs owning every vertex, where it wrote goes to the GPU
   * actors with the next superstep (FoldChanges): they patch their copies instead of uploading them.
   */
  applyRemote(votes: Vote[], state: Record<string, StateArray>, next: Uint8Array, found: IdList | undefined): number {
    const ownedOf = (actor: string): VertexRanges => this.actors.find((a) => a.name === actor)?.owned ?? [[0, this.graph.numVertices]];
    // Several GPU actors owning every vertex: the fold records where it wrote.
    const patching = this.gpusOwnAll && this.topology.gpus.length > 1;
    const { active, changes } = applyVotes(votes, state, next, found, patching ? ownedOf : undefined);
    this.changes = changes === undefined ? undefined : { step: votes[0]?.step ?? -1, states: changes };
    return active;
  }

  get pullDivisor(): number {
    return this.opts.pullDivisor ?? 20;
  }
  get forceMode(): Mode | undefined {
    return this.opts.forceMode;
  }
}

/** A frame's side table of shared buffers (`add` appends one, returning its index) and its state references. */
function frameState(state: Record<string, StateArray>): { shared: SharedArrayBuffer[]; add: (b: ArrayBufferLike) => number; stateRefs: StateRef[] } {
  const shared: SharedArrayBuffer[] = [];
  const add = (b: ArrayBufferLike): number => shared.push(b as SharedArrayBuffer) - 1;
  return { shared, add, stateRefs: Object.entries(state).map(([name, arr]) => ({ name, kind: kindOf(arr), buffer: add(arr.buffer), length: arr.length })) };
}
