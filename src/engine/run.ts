/**
 * One program run: the RunContext a program's driver sees (state, frontiers, vertexMap, edgeMap).
 * Its buffers over the engine's pools are run-pools.ts'.
 */
import { TesseraError } from '../errors.js';
import type { Graph } from '../graph/types.js';
import type { Mode, Task } from '../wire/frames.js';
import type { GpuHandlers } from '../../actors/gpu/handler.js';
import type { CpuKernel, KernelCtx, StateArray } from './kernel.js';
import { fillArray } from './fill.js';
import { IdList } from './ids.js';
import type { Carry, EdgeMapOptions, Frontier, RunContext, StepResult, TeamOptions } from './program.js';
import { decodeCarry, type CheckpointWriter, type LoadedCheckpoint } from './checkpoint.js';
import { faultAt, reachedStep } from './faults.js';
import { runShareInline } from './run-tasks.js';
import { activeShares } from './tasks.js';
import type { AnyProgram, StateSpec } from './define.js';
import type { ProgramOperators } from './operators.js';
import type { KernelTable } from './kernel-modules.js';
import type { StepReport } from './report.js';
import type { Engine } from './coordinator.js';
import { listEdges, listOf, listsNatively, outEdgesOf, toShared } from './frontier-lists.js';
import { inlineTeam, noTeamwork, runTeamInline } from './team-step.js';
import { teamBuffer } from './team.js';
import { RunPools } from './run-pools.js';
import { checkFrontier, checkState } from './call-checks.js';

/** Vertex maps over at most this many vertices run on the coordinator's thread (Run.vertexStep). */
const INLINE_VERTEX_MAP = 1 << 16;
/** Edge supersteps of at most this cost (edges, plus the vertices of a pull or the frontier of a push) run on the coordinator's thread. */
const INLINE_STEP = 1 << 16;

/** A kernel as a superstep names it: its module's export, and the program's GPU module (built-ins). */
export interface KernelRef {
  name: string;
  module: string;
  gpu: string | undefined;
  ops?: ProgramOperators;
  /** SuperstepFrame.pageWeights. */
  pageWeights?: false;
  /** GPU actors may keep these arrays of the call on the device (SuperstepFrame.resident). */
  resident?: string[];
  /** A pull's EdgeMapOptions.pullIf, for GPU actors (SuperstepFrame.pullIf). */
  pullIf?: { state: string; value: number };
  /** The frontier is the previous edge step's next frontier (SuperstepFrame.frontierIsNext). */
  frontierIsNext?: boolean;
  /** A GPU owning every vertex may keep these arrays and the next flags on its device (SuperstepFrame.held). */
  held?: string[];
  holdNext?: boolean;
  /** The frontier is next flags a GPU held (SuperstepFrame.frontierHeld). */
  frontierHeld?: boolean;
  /** A team's control block (SuperstepFrame.team). */
  team?: SharedArrayBuffer;
  /** A vertex map on the GPU actors (SuperstepFrame.vertexOp). */
  vertexOp?: true;
  /** SuperstepFrame.frontierFull. */
  frontierFull?: true;
  /** SuperstepFrame.touched. */
  touched?: Record<string, number>;
}

/** Edges of every task of the shares (outside edgeMap, whose loops V8 left unoptimised). */
function sharesEdges(shares: Task[][]): number {
  let e = 0;
  for (const s of shares) for (const t of s) e += t.edges;
  return e;
}

/**
 * The step's sum, independent of which thread or actor ran which task: the tasks' sums (a GPU
 * actor's one) added in ascending order. Tasks are cut the same way on every run, so a run and
 * its resumed twin add the same numbers in the same order.
 */
export function stepSum(votes: ReadonlyArray<{ sum: number; sums?: Float64Array }>): number {
  const parts: number[] = [];
  for (const v of votes) {
    if (v.sums !== undefined) for (const x of v.sums) parts.push(x);
    else if (v.sum !== 0) parts.push(v.sum);
  }
  parts.sort((a, b) => a - b);
  let sum = 0;
  for (const x of parts) sum += x;
  return sum;
}

/** One program run: the RunContext programs see. */
export class Run extends RunPools implements RunContext {
  private step = 0;
  /** Time in vertexMap/vertexFilter passes (not supersteps), for the report's phases. */
  vertexMapMs = 0;
  /** Whether an edgeMap superstep was sent (the first one tells GPU actors to drop earlier runs' copies). */
  private started = false;
  /** Frontiers a pull superstep produced, with the size of the frontier it consumed (EdgeMapOptions.direction.beta). */
  private readonly pulled = new WeakMap<Frontier, number>();
  /** Buffers passed to vertexMap / vertexFilter since the last edgeMap: host writes no GPU saw. */
  private readonly hostWritten = new Set<ArrayBufferLike>();
  /** Each buffer's last superstep, or the next one's number after a host pass wrote it (SuperstepFrame.touched). */
  private readonly touched = new Map<ArrayBufferLike, number>();
  /** Arrays (the views the supersteps passed) whose GPU copy is newer than the host's (held.ts), by buffer. */
  private readonly held = new Map<ArrayBufferLike, StateArray>();
  /** Time spent bringing held copies back (settle). */
  settleMs = 0;

  constructor(
    engine: Engine,
    private readonly steps: StepReport[],
    private readonly notes: Record<string, string | number | boolean>,
    private readonly def: AnyProgram,
    private readonly kernels: KernelTable,
    /** The program's GPU handlers, on topologies with GPUs. */
    private readonly gpu: GpuHandlers | undefined,
  ) {
    super(engine);
  }

  /** The program's declared state, allocated when the run starts (define.ts StateSpecs). */
  state: Record<string, StateArray> = {};

  /** Where due checkpoints go (engine.run's `checkpoint`). */
  writer: CheckpointWriter | undefined;
  private resumed: Carry | undefined;

  /** The superstep the next edgeMap runs (a resumed run continues the numbering). */
  get nextStep(): number {
    return this.step;
  }

  /**
   * Starts this run from a checkpoint: the declared state (already allocated) is overwritten with
   * the saved arrays, the carry decoded (its arrays in shared memory, frontiers rebuilt), and the
   * superstep numbering continues from the checkpoint's.
   */
  async restore(from: LoadedCheckpoint): Promise<void> {
    for (const [name, a] of Object.entries(this.state)) await from.restoreState(name, a);
    const blobs = await from.loadBlobs((kind, length) => this.alloc(kind, 0, length));
    this.resumed = decodeCarry(from.manifest.carry, this.state, blobs, this) as Carry;
    this.step = from.manifest.step;
    Object.assign(this.notes, from.manifest.notes);
  }

  get checkpointing(): boolean {
    return this.writer !== undefined;
  }

  resume<C extends Carry>(): C | undefined {
    return this.resumed as C | undefined;
  }

  async checkpoint(carry: Carry): Promise<void> {
    const w = this.writer;
    if (w === undefined || !w.due(this.step)) return;
    await this.settle(undefined, true);
    await w.write(this.step, this.state, carry, this.notes);
  }

  private get program(): string {
    return this.def.name;
  }

  /** The kernel `name` of the program's module, or a clear error. */
  private kernel(name: string): CpuKernel {
    const k = this.kernels.table[name];
    if (k === undefined) {
      throw new TesseraError(`program '${this.program}' names kernel '${name}', which its kernels module does not export`, {
        file: this.kernels.url,
        fix: `export it from that module (it exports ${Object.keys(this.kernels.table).join(', ') || 'no kernels'})`,
      });
    }
    return k;
  }

  note(key: string, value: string | number | boolean): void {
    this.notes[key] = value;
  }

  override get graph(): Graph {
    return this.engine.graph;
  }

  override get gpuActors(): number {
    return this.engine.topology.gpus.length;
  }

  get soleGpu(): boolean {
    return this.engine.topology.gpus.length === 1 && this.engine.gpusOwnAll;
  }

  get gpusOwnAll(): boolean {
    // Several GPUs exchange device to device: all real or all emulated (group.ts active).
    const gpus = this.engine.topology.gpus;
    return gpus.length > 0 && this.engine.gpusOwnAll && gpus.every((x) => x.emulated === gpus[0]!.emulated);
  }

  get forcedMode(): 'push' | 'pull' | undefined {
    return this.engine.forceMode;
  }

  get pullDivisor(): number {
    return this.engine.pullDivisor;
  }

  fill(array: StateArray, value: number): void {
    fillArray(array, value);
  }

  /** The next frontier the last edge step returned (GPU actors may hold its flags already). */
  private lastNext: Frontier | undefined;

  private ref(kernel: string): KernelRef {
    return { name: kernel, module: this.kernels.url, gpu: this.def.gpu, ...(this.def.operators !== undefined ? { ops: this.def.operators } : {}), ...(this.def.readsWeights === false ? { pageWeights: false as const } : {}) };
  }

  /**
   * What every GPU vote says it held (they hold alike: the same frame, handler and ownership), or
   * undefined. A GPU owning no vertex (pages dealt to fewer GPUs than the topology has) holds
   * nothing and keeps nothing, while one owning every vertex beside it holds as if alone: its vote
   * does not count.
   */
  private heldBy(gpuVotes: ReadonlyArray<{ held?: { state: string[]; next: boolean } }>): { state: string[]; next: boolean } | undefined {
    const votes = gpuVotes.filter((_, i) => this.engine.gpuOwned[i]?.length !== 0);
    const h = votes[0]?.held;
    const same = votes.every((v) => v.held?.next === h?.next && (v.held?.state ?? []).join() === (h?.state ?? []).join());
    if (!same) throw new Error(`the GPU actors held different state (${votes.map((v) => JSON.stringify(v.held ?? {})).join(' / ')}): a bug`);
    return h;
  }

  /** The declaration of the state array `a` is (the same view), if it is one. */
  private declared(a: StateArray): StateSpec | undefined {
    for (const [k, s] of Object.entries(this.state)) if (s.buffer === a.buffer && s.byteOffset === a.byteOffset && s.length === a.length) return this.def.state[k];
    return undefined;
  }

  /** Marks `f` as next flags the GPU keeps (held.ts): its bitmap is not the host's to read until settled. */
  private hold(f: Frontier, bitmap: Uint8Array, step: number, kernel: string): void {
    const program = this.program;
    Object.defineProperty(f, 'bitmap', {
      enumerable: true,
      configurable: true,
      get(): Uint8Array {
        throw new TesseraError(`program '${program}' reads the bitmap of a frontier that edgeMap returned with deviceNext: it stays in GPU memory`, { fix: 'leave deviceNext out of that edgeMap call, so that the frontier comes back to the host' });
      },
    });
    this.heldNext = { frontier: f, bitmap, step, kernel };
  }

  /**
   * Brings back from the GPU the held arrays (all, or those among `only`) and with `next` the held
   * next frontier: before host code reads them (vertex maps, CPU-only supersteps, checkpoints, the
   * run's end).
   */
  private async settle(only: Iterable<StateArray> | undefined, next: boolean): Promise<void> {
    const want = only === undefined ? undefined : new Set([...only].map((a) => a.buffer));
    const arrays: Record<string, StateArray> = {};
    let i = 0;
    for (const [b, a] of this.held)
      if (want === undefined || want.has(b)) {
        arrays[`held${i++}`] = a;
        this.held.delete(b);
      }
    const h = next ? this.heldNext : undefined;
    if (i === 0 && h === undefined) return;
    const t0 = performance.now();
    await this.engine.settle(h?.step ?? this.step - 1, arrays, h?.bitmap);
    if (h !== undefined) {
      this.heldNext = undefined;
      Object.defineProperty(h.frontier, 'bitmap', { value: h.bitmap, writable: true, enumerable: true, configurable: true });
    }
    this.settleMs += performance.now() - t0;
  }

  /** The run's held arrays back on the host (its end). */
  settleAll(): Promise<void> {
    return this.settle(undefined, false);
  }

  /**
   * The names of the call's arrays whose device copies GPU operators may keep from the previous
   * superstep: declared `resident`, passed as declared (the same view, under one name) and not
   * passed to a vertexMap / vertexFilter since the previous edgeMap.
   */
  private residentNames(state: Record<string, StateArray>): string[] | undefined {
    if ((this.def.operators === undefined && this.def.gpu === undefined) || !this.engine.hasGpus) return undefined;
    const names = new Map<ArrayBufferLike, number>();
    for (const a of Object.values(state)) names.set(a.buffer, (names.get(a.buffer) ?? 0) + 1);
    const out: string[] = [];
    for (const [name, a] of Object.entries(state)) {
      if (names.get(a.buffer) !== 1 || this.hostWritten.has(a.buffer)) continue;
      if ((this.declared(a)?.resident ?? false) !== false) out.push(name);
    }
    return out.length > 0 ? out : undefined;
  }

  get teamwork(): boolean {
    return this.whyNoTeam() === undefined;
  }

  private whyNoTeam(): string | undefined {
    return noTeamwork(this.engine, this.checkpointing, this.engine.forceMode !== undefined);
  }

  async team(kernel: string, state: Record<string, StateArray>, args: Record<string, number> = {}, opts: TeamOptions = {}): Promise<{ sum: number; active: number; edges: number }> {
    checkState(this.program, kernel, 'team', state);
    const why = this.whyNoTeam();
    if (why !== undefined) throw new TesseraError(`program '${this.program}' runs kernel '${kernel}' as a team, but ${why}`, { fix: 'check ctx.teamwork before calling ctx.team (and run the phase as supersteps otherwise)' });
    const k = this.kernel(kernel);
    if (k.team === undefined) throw new TesseraError(`program '${this.program}' runs kernel '${kernel}' as a team, which has no team function`, { file: this.kernels.url, fix: 'give that kernel team(ctx, t, out)' });
    const t0 = performance.now();
    const g = this.graph;
    const pullPages = opts.pullPages ?? 'in';
    const shares = this.engine.denseShares(pullPages, false, opts.skipEmpty === true);
    const step = this.step++;
    reachedStep(step);
    // The frame's frontier and next bitmaps: a team reads and writes neither (CpuKernel.team).
    const unused = this.bitmap();
    const size = inlineTeam(g) ? 1 : this.engine.topology.sockets[0]!.threads;
    try {
      const { votes, voteMs } =
        size === 1
          ? this.engine.inlineSuperstep(step, (actor) => runTeamInline(k, { graph: g, state, args, frontier: undefined, frontierList: undefined, next: unused, edgeLo: undefined, edgeHi: undefined }, shares[0]!, actor, step, kernel))
          : await this.engine.superstep(step, { ...this.ref(kernel), team: teamBuffer(size) }, 'pull', shares, args, state, { bitmap: unused, list: undefined, size: 0 }, undefined, unused, false, pullPages);
      const active = votes.reduce((a, v) => a + v.active, 0), edges = votes.reduce((a, v) => a + v.edges, 0), sum = stepSum(votes);
      const record: StepReport = { step, kernel, mode: 'pull', frontier: 0, active, edges, ms: performance.now() - t0, planMs: 0, foldMs: 0, listMs: 0, actors: this.engine.actorReports(votes, voteMs, shares), team: size };
      this.steps.push(record);
      this.engine.progress.emit('superstep', record, this.program);
      return { sum, active, edges };
    } finally {
      this.spare.push(unused);
    }
  }

  async vertexMap(kernel: string, state: Record<string, StateArray>, args: Record<string, number> = {}): Promise<{ sum: number }> {
    checkState(this.program, kernel, 'vertexMap', state);
    // The frame's frontier and next bitmaps: a vertex map's kernels read and write neither (kernel.ts).
    const unused = this.bitmap();
    try {
      const { sum, active } = await this.vertexStep(kernel, 'vertexMap', state, args, unused);
      if (active > 0) fillArray(unused, 0); // a kernel marked vertices: the spare must be clear
      return { sum };
    } finally {
      this.spare.push(unused);
    }
  }

  async vertexFilter(kernel: string, state: Record<string, StateArray>, args: Record<string, number> = {}): Promise<Frontier & { sum: number }> {
    checkState(this.program, kernel, 'vertexFilter', state);
    const next = this.bitmap();
    const { sum, active } = await this.vertexStep(kernel, 'vertexFilter', state, args, next);
    const frontier: Frontier = { bitmap: next, list: undefined, size: active };
    this.produced.add(frontier);
    this.live.add(frontier);
    return Object.assign(frontier, { sum });
  }

  /** One pass of `kernel`'s vertex function over every id on the CPU sockets' threads, marking `next`. */
  private async vertexStep(kernel: string, op: string, state: Record<string, StateArray>, args: Record<string, number>, next: Uint8Array): Promise<{ sum: number; active: number }> {
    if (this.kernel(kernel).vertex === undefined) {
      throw new TesseraError(`program '${this.program}' runs ${op} with kernel '${kernel}', which has no vertex function`, { file: this.kernels.url, fix: 'give that kernel vertex(ctx, lo, hi, out)' });
    }
    if (this.vertexOnGpus(kernel)) {
      // GPUs owning every vertex run the kernel's GPU operator: the state stays where the edge
      // steps left it (a CPU pass would bring it back to the host and send it up again after).
      const r = await this.edgeStep(kernel, { bitmap: next, list: undefined, size: 0 }, state, args, {}, next);
      return { sum: r.sum, active: r.next.size };
    }
    await this.settle(Object.values(state), false);
    for (const a of Object.values(state)) this.hostWritten.add(a.buffer), this.touched.set(a.buffer, this.step);
    const t0 = performance.now();
    const shares = this.engine.vertexShares();
    if (this.graph.numVertices <= INLINE_VERTEX_MAP) {
      // A small map runs here, over the same ranges with the same per-range sums as the threads
      // would (bit-identical results): a round trip to the workers costs 2-4 ms, the map microseconds.
      const ctx: KernelCtx = { graph: this.graph, state, args, frontier: undefined, frontierList: undefined, next, edgeLo: undefined, edgeHi: undefined };
      const m = { kernel, mode: 'pull', pullPages: 'in', vertex: true, wantList: false, listCap: 0, countNext: false } as const;
      const vote = runShareInline(this.kernel(kernel), ctx, m, '', -1, shares.flat());
      this.vertexMapMs += performance.now() - t0;
      return { sum: stepSum([vote]), active: vote.active };
    }
    const none = { bitmap: next, list: undefined, size: 0 };
    const { votes } = await this.engine.superstep(-1, this.ref(kernel), 'pull', shares, args, state, none, undefined, next, false, 'in', true);
    this.vertexMapMs += performance.now() - t0;
    return { sum: stepSum(votes), active: votes.reduce((a, v) => a + v.active, 0) };
  }

  /** Whether vertex maps of `kernel` run on the GPUs: they own every vertex and its GPU operator has a `vertex` mode. */
  private vertexOnGpus(kernel: string): boolean {
    return this.gpusOwnAll && this.def.operators?.kernels[kernel]?.modes.includes('vertex') === true;
  }

  async edgeMap(kernel: string, frontier: Frontier, state: Record<string, StateArray>, args: Record<string, number> = {}, opts: EdgeMapOptions = {}): Promise<StepResult> {
    checkFrontier(this.program, kernel, frontier);
    checkState(this.program, kernel, 'edgeMap', state);
    return this.edgeStep(kernel, frontier, state, args, opts, undefined);
  }

  /**
   * edgeMap's superstep; with `vertexNext`, a vertex map on the GPU actors instead (vertexStep):
   * a GPU-only pull superstep of the operator's `vertex` over the owned vertices, marking that
   * bitmap, its result no frontier of the run's (the caller's bitmap).
   */
  private async edgeStep(
    kernel: string,
    frontier: Frontier,
    state: Record<string, StateArray>,
    args: Record<string, number>,
    opts: EdgeMapOptions,
    vertexNext: Uint8Array | undefined,
  ): Promise<StepResult> {
    const t0 = performance.now();
    const g = this.graph;
    const vertex = vertexNext !== undefined;
    // A GPU-only superstep: the GPUs own every vertex (no CPU side needed; the sockets get no tasks).
    if (opts.gpuOnly === true && !this.gpusOwnAll)
      throw new TesseraError(`program '${this.program}' runs kernel '${kernel}' with gpuOnly, which needs the GPUs to own every vertex`, { fix: 'check ctx.gpusOwnAll (or ctx.soleGpu) before passing gpuOnly' });
    const k = opts.gpuOnly === true || vertex ? {} : this.kernel(kernel);
    const wanted = opts.modes ?? (['push', 'pull'] as const).filter((m) => k[m] !== undefined || opts.gpuOnly === true);
    // A CPU-only superstep on a GPU topology: the sockets alone, over every vertex (no GPU side needed).
    const cpuOnly = opts.cpuOnly === true && this.engine.hasGpus;
    const modes = vertex ? (['pull'] as const) : cpuOnly ? wanted : this.engine.modesFor(this.def.operators?.kernels[kernel] ?? this.gpu?.table[kernel], kernel, this.program, wanted);
    // A frontier a GPU holds (held.ts) is taken over on the device by the kernel that made it; anything else reads it here first.
    const h = this.heldNext;
    const onDevice = h !== undefined && h.frontier === frontier && h.kernel === kernel && frontier === this.lastNext && !cpuOnly;
    if (h !== undefined && !onDevice) await this.settle([], true);
    let mode: Mode;
    let list = frontier.list;
    // A list this superstep made for a frontier that had none: its buffer is spare once the frontier is consumed.
    let made: Uint32Array | undefined;
    // The frontier's out-edges: summed only for Ligra's switch (a forced mode needs no sum here).
    let frontierEdges: number | undefined;
    const forced = this.engine.forceMode;
    // Sockets only: GPU pulls count their activations' out-edges on the device (Ligra's switch both ways).
    const beta = !this.engine.hasGpus || cpuOnly ? opts.direction?.beta : undefined;
    const pulledFrom = this.pulled.get(frontier);
    // Ligra's bound: pull when a frontier's vertices and out-edges exceed it.
    const pullAbove = g.numEdges / (opts.direction?.alpha ?? this.engine.pullDivisor);
    if (modes.length === 1) mode = modes[0]!;
    else if (forced !== undefined && modes.includes(forced)) mode = forced;
    else if (frontier.size === g.numVertices) mode = 'pull';
    // Beamer's hysteresis: bottom-up until the frontier is small and shrinking.
    else if (beta !== undefined && pulledFrom !== undefined) mode = frontier.size >= g.numVertices / beta || frontier.size > pulledFrom ? 'pull' : 'push';
    else {
      // Ligra's switch: the frontier's out-edges against |E| / divisor. A pull superstep's frontier
      // has no list: with the addon it is listed now with its out-edges on the addon's threads (a
      // push then has its list; RMAT 20's direction-optimising BFS planned 6-13 ms a step walking
      // the byte map in TypeScript), else they are summed from the byte map.
      if (frontier.edges !== undefined) frontierEdges = frontier.edges;
      else if (list !== undefined) frontierEdges = listEdges(list, g.outDegree);
      else if (listsNatively(frontier)) {
        const r = listOf(frontier, (k) => this.listArray(k), g.outDegree);
        list = made = r.list;
        frontierEdges = r.edges ?? outEdgesOf(frontier, g.outDegree);
      } else frontierEdges = outEdgesOf(frontier, g.outDegree);
      mode = frontier.size + frontierEdges > pullAbove ? 'pull' : 'push';
    }
    let shares: Task[][];
    const pullPages = opts.pullPages ?? 'in';
    if (vertex) shares = Array.from({ length: this.engine.cpuCount + this.engine.topology.gpus.length }, (_, i) => (i < this.engine.cpuCount ? [] : [{ page: 0, count: 0, lo: 0, hi: 0, edges: 0 }]));
    else if (mode === 'pull') {
      shares = this.engine.denseShares(pullPages, cpuOnly, opts.skipEmpty === true);
      const only = opts.pullIf;
      if (only !== undefined && g[pullPages].stored !== undefined) shares = activeShares(shares, this.engine.cpuCount, g[pullPages].pages, state[only.state]!, only.value);
    }
    else if (onDevice) {
      // The GPUs find their frontier's pages and edges on the device (held.ts); a task each.
      const gpus = this.engine.topology.gpus.length;
      const gpu: Task = { page: 0, count: 0, lo: 0, hi: 0, edges: Math.ceil((frontier.edges ?? 0) / gpus) };
      shares = Array.from({ length: this.engine.cpuCount + gpus }, (_, i) => (i < this.engine.cpuCount ? [] : [gpu]));
    } else {
      if (list === undefined) list = made = listOf(frontier, (k) => this.listArray(k)).list;
      if (!(list.buffer instanceof SharedArrayBuffer)) list = toShared(list);
      ({ shares, list } = this.engine.pushTaskShares(list, frontierEdges ?? frontier.edges, k.splitPush === true, cpuOnly));
    }
    const next = vertexNext ?? this.bitmap();
    // GPUs owning every vertex may keep 'device' arrays and (deviceNext) the next flags (held.ts).
    const holding = !cpuOnly && this.engine.gpusOwnAll;
    const holdNext = holding && opts.deviceNext === true;
    const wantList = mode === 'push' && !holdNext;
    const step = this.step++;
    reachedStep(step);
    const planMs = performance.now() - t0;
    // The first superstep the GPU actors see (a CPU-only one is not theirs).
    const first = !this.started && !cpuOnly;
    this.started ||= !cpuOnly;
    const socketsOnly = !this.engine.hasGpus || cpuOnly;
    // Actors sum the out-edges of what a pull activates when the next superstep may switch (sockets
    // always, GPU handlers that set next flags in place; else the switch lists the byte map).
    // A push on the sockets sums them from its kernels' lists: a next frontier too long to list
    // from the votes then gets its list only if the next superstep pushes (BFS's first level of
    // RMAT 22 listed 98 k vertices off a 4 M byte map, 2 ms, for a pull).
    const countNext = modes.length > 1 && forced === undefined && (mode === 'pull' ? beta === undefined : socketsOnly);
    const resident = cpuOnly ? undefined : this.residentNames(state);
    // Held arrays this superstep does not keep on the device come back first.
    const keeps = new Set(resident?.map((n) => state[n]!.buffer));
    // One GPU owning every vertex keeps the held arrays of an operator program that a superstep
    // does not pass (its slots are not reused meanwhile: residency.ts); any other comes back first.
    const passed = new Set(Object.values(state).map((a) => a.buffer));
    const keepUnpassed = !cpuOnly && this.soleGpu && this.def.operators !== undefined;
    const back = [...this.held].filter(([b]) => !keeps.has(b) && (!keepUnpassed || passed.has(b))).map(([, a]) => a);
    if (back.length > 0) await this.settle(back, false);
    const held = holding ? resident?.filter((n) => this.declared(state[n]!)?.resident === 'device') : undefined;
    // What a CPU-only superstep writes no GPU copy has seen (as a vertexMap's).
    if (cpuOnly) for (const a of Object.values(state)) this.hostWritten.add(a.buffer);
    else this.hostWritten.clear();
    const touched = resident?.filter((n) => this.touched.has(state[n]!.buffer)).map((n) => [n, this.touched.get(state[n]!.buffer)!] as const);
    for (const a of Object.values(state)) this.touched.set(a.buffer, step);
    // A superstep of up to ~64 k edges runs here (CPU-only topologies): a round trip to the
    // workers costs 0.3-4 ms, the kernel microseconds (PageRank on RMAT 10 is ten of them).
    // A push edge (a random read, often a compare-and-swap: ~50 ns in TypeScript) counts 8: RMAT
    // 20's first BFS level (40 k edges from the hub) took 3.3 ms here against 1.7 on two workers.
    const taskEdges = sharesEdges(shares);
    const cost = mode === 'pull' ? g.numVertices + taskEdges : (list?.length ?? frontier.size) + 8 * taskEdges;
    const inline = socketsOnly && cost <= INLINE_STEP && !faultAt('worker-exit', step) && !faultAt('worker-throw', step);
    const { votes, voteMs, steals } = inline
      ? this.engine.inlineSuperstep(step, (actor, i) => {
          const ctx: KernelCtx = { graph: g, state, args, frontier: frontier.bitmap, frontierList: mode === 'push' ? list : undefined, next, edgeLo: undefined, edgeHi: undefined };
          const m = { kernel, mode, pullPages, vertex: false, wantList, listCap: this.engine.listCap, countNext };
          return runShareInline(k, ctx, m, actor, step, shares[i]!);
        })
      : await this.engine.superstep(step, { ...this.ref(kernel), ...(resident !== undefined ? { resident } : {}), ...(mode === 'pull' && opts.pullIf !== undefined ? { pullIf: opts.pullIf } : {}), ...(frontier === this.lastNext && !cpuOnly ? { frontierIsNext: true } : {}), ...(held !== undefined && held.length > 0 ? { held } : {}), ...(holdNext ? { holdNext } : {}), ...(onDevice ? { frontierHeld: true } : {}), ...(vertex ? { vertexOp: true as const } : {}), ...(!vertex && this.isAll(frontier) ? { frontierFull: true as const } : {}), ...(touched !== undefined && touched.length > 0 ? { touched: Object.fromEntries(touched) } : {}) }, mode, shares, args, state, onDevice ? { bitmap: h.bitmap, list: undefined, size: frontier.size } : frontier, mode === 'push' ? list : undefined, next, wantList, pullPages, false, first, countNext, cpuOnly);
    let active = 0;
    let sum = 0;
    let edges = 0;
    for (const v of votes) {
      active += v.active;
      edges += v.edges;
    }
    sum = stepSum(votes);
    // What the GPUs kept on their devices (they own every vertex: their votes are the last), each the same.
    const heldNow = holding ? this.heldBy(votes.slice(this.engine.cpuCount)) : undefined;
    for (const n of heldNow?.state ?? []) this.held.set(state[n]!.buffer, state[n]!);
    // The next list: from the actors' lists when they are short (joined and sorted), else read
    // off the next bitmap in vertex order (a socket that activated more than listCap sends none; a
    // GPU's flagged merges activate many, and a GPU counting `active` set its flags in place).
    const cap = this.engine.listCap;
    const cpuCount = this.engine.cpuCount;
    const scan = wantList && (active > cap || votes.some((v, i) => (i < cpuCount ? v.discovered === undefined : v.active > 0) || (v.flagged?.length ?? 0) > 0));
    const remote = wantList && !scan && !socketsOnly ? new IdList() : undefined;
    const foldAt = performance.now();
    // Activations by the fold (GPU merges, outboxes) are in no actor's nextEdges.
    const folded = socketsOnly ? 0 : this.engine.applyRemote(votes, state, next, remote);
    if (heldNow?.next === true && folded > 0) throw new Error(`superstep ${step}: the fold activated vertices beside next flags the GPU held (a bug)`);
    active += folded;
    const foldMs = performance.now() - foldAt;
    const listAt = performance.now();
    let nextList: Uint32Array | undefined;
    let nextEdges: number | undefined = countNext && folded === 0 && votes.every((v) => v.nextEdges !== undefined) ? votes.reduce((a, v) => a + v.nextEdges!, 0) : undefined;
    if (heldNow?.next === true) nextEdges = votes.slice(this.engine.cpuCount).reduce((x, v) => x + (v.nextEdges ?? NaN), 0);
    if (nextEdges !== undefined && !Number.isFinite(nextEdges)) nextEdges = undefined;
    const fromBitmap = wantList && (scan || active > cap);
    // Listed only if the next superstep may push (its switch lists it then, natively).
    const lazy = fromBitmap && socketsOnly && nextEdges !== undefined && nextEdges + active > pullAbove;
    if (fromBitmap && !lazy) ({ list: nextList, edges: nextEdges } = listOf({ bitmap: next, list: undefined, size: active }, (k) => this.listArray(k), g.outDegree));
    else if (wantList && !fromBitmap) {
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
      ...(vertex ? { vertexMap: true as const } : {}),
    };
    this.steps.push(record);
    this.engine.progress.emit('superstep', record, this.program);
    const nextFrontier: Frontier = { bitmap: next, list: nextList, size: active, ...(nextEdges !== undefined ? { edges: nextEdges } : {}) };
    if (vertex) {
      // The GPUs' next flags are the vertex map's now (not the last edge step's).
      this.lastNext = undefined;
      return { next: nextFrontier, sum, edges };
    }
    this.produced.add(nextFrontier);
    this.live.add(nextFrontier);
    if (active === 0 && votes.slice(0, cpuCount).every((v) => v.tasks === 0)) this.untouched.add(nextFrontier);
    if (heldNow?.next === true) this.hold(nextFrontier, next, step, kernel);
    this.lastNext = cpuOnly ? undefined : nextFrontier;
    if (mode === 'pull') this.pulled.set(nextFrontier, frontier.size);
    return { next: nextFrontier, sum, edges };
  }
}
