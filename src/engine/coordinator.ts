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
import type { Topology } from '../topology/schema.js';
import { Channel } from '../wire/channel.js';
import type { ActorFrame, CoordinatorFrame, Mode, StateKind, StateRef, Task, VoteFrame } from '../wire/frames.js';
import { CpuSocketActor } from '../../actors/cpu/socket-actor.js';
import { shareGraph } from '../../actors/cpu/share.js';
import { STATE_CTORS, type StateArray } from './kernel.js';
import type { EdgeMapOptions, Frontier, Program, RunContext, StepResult } from './program.js';
import type { ActorStepReport, RunReport, StepReport } from './report.js';

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
}

interface ActorLink {
  name: string;
  kind: 'cpu';
  threads: number;
  link: Channel<CoordinatorFrame, ActorFrame>;
  actor: CpuSocketActor;
  bytesAtStepStart: number;
}

let nextGraphId = 1;

export class Engine {
  private readonly actors: ActorLink[] = [];
  private readonly threads: number;
  private pending = new Map<string, { resolve: (v: VoteFrame) => void; reject: (e: Error) => void }>();
  private failure: Error | undefined;
  private readonly denseTasks = new Map<'in' | 'out', Task[][]>();
  /** Progress events: run-start, superstep, run-end. */
  readonly events: EventEmitter<EngineEvents>;

  private constructor(
    readonly graph: Graph,
    readonly topology: Topology,
    private readonly opts: EngineOptions,
  ) {
    this.threads = topology.sockets.reduce((a, s) => a + s.threads, 0);
    this.events = opts.events ?? new EventEmitter<EngineEvents>();
  }

  static async create(graph: Graph, topology: Topology, opts: EngineOptions = {}): Promise<Engine> {
    if (topology.gpus.length > 0) {
      throw new TesseraError(`topology '${topology.name}' lists ${topology.gpus.length} GPU(s), but this build has no GPU actor yet`, {
        file: topology.source,
        key: 'gpus',
        fix: 'use a CPU-only topology such as configs/1S.yaml (GPU actors arrive with the native controller)',
      });
    }
    const e = new Engine(graph, topology, opts);
    const share = shareGraph(graph, nextGraphId++);
    for (const s of topology.sockets) {
      const [coord, actorEnd] = Channel.pair<CoordinatorFrame, ActorFrame>();
      const name = `socket${s.id}`;
      const actor = new CpuSocketActor(name, s.threads, actorEnd);
      coord.on((f) => e.onActorFrame(f));
      coord.send(share.load, share.shared);
      e.actors.push({ name, kind: 'cpu', threads: s.threads, link: coord, actor, bytesAtStepStart: 0 });
    }
    return e;
  }

  private onActorFrame(f: ActorFrame): void {
    if (f.type === 'vote') {
      const p = this.pending.get(f.actor);
      this.pending.delete(f.actor);
      p?.resolve(f);
    } else if (f.type === 'error') {
      const err = new TesseraError(`actor ${f.actor} failed: ${f.message}`, { fix: 'this is a bug or an out-of-memory condition; rerun with fewer threads or a smaller graph and report it' });
      this.failure = err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    }
  }

  async close(): Promise<void> {
    for (const a of this.actors) a.link.send({ type: 'stop' });
    // Let the stop frames be handled (pools destroyed) before returning.
    await new Promise((r) => setTimeout(r, 0));
  }

  /** Runs a program to completion and returns its values (internal ids) and the run report. */
  async run<P>(program: Program<P>, params: P): Promise<{ values: Float64Array | Int32Array | Uint32Array; report: RunReport }> {
    const steps: StepReport[] = [];
    const notes: Record<string, string | number | boolean> = {};
    const t0 = performance.now();
    const ctx = new Run(this, steps, notes, program.name);
    this.events.emit('run-start', { program: program.name, vertices: this.graph.numVertices, edges: this.graph.numEdges });
    const values = await program.run(ctx, params);
    const totalMs = performance.now() - t0;
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
    };
    this.events.emit('run-end', report);
    return { values, report };
  }

  /** Dense tasks: every page cut into vertex ranges of about `target` edges (cached). */
  denseShares(orientation: 'in' | 'out'): Task[][] {
    const cached = this.denseTasks.get(orientation);
    if (cached) return cached;
    const g = this.graph;
    const target = Math.max(1024, Math.min(g.pageEdges, Math.ceil(g.numEdges / (this.threads * 8))));
    const tasks: Task[] = [];
    const pages = g[orientation].pages;
    for (let i = 0; i < pages.length; ) {
      const p = pages[i]!;
      if (p.split) {
        let j = i;
        let edges = 0;
        while (j < pages.length && pages[j]!.split && pages[j]!.vBegin === p.vBegin) edges += pages[j++]!.edges;
        tasks.push({ page: i, count: j - i, lo: 0, hi: 1, edges });
        i = j;
        continue;
      }
      const nv = p.vEnd - p.vBegin;
      let lo = 0;
      for (let k = 1; k <= nv; k++) {
        const edges = p.offsets[k]! - p.offsets[lo]!;
        if (edges >= target || k === nv || k - lo >= target) {
          tasks.push({ page: i, count: 1, lo, hi: k, edges });
          lo = k;
        }
      }
      i++;
    }
    const shares = this.share(tasks);
    this.denseTasks.set(orientation, shares);
    return shares;
  }

  /** Contiguous shares of the task list, edges in proportion to each actor's threads. */
  share(tasks: Task[]): Task[][] {
    const total = tasks.reduce((a, t) => a + t.edges, 0) || 1;
    const shares: Task[][] = this.actors.map(() => []);
    let a = 0;
    let acc = 0;
    let bound = (this.actors[0]!.threads / this.threads) * total;
    for (const t of tasks) {
      while (a < this.actors.length - 1 && acc >= bound) {
        a++;
        bound += (this.actors[a]!.threads / this.threads) * total;
      }
      shares[a]!.push(t);
      acc += t.edges;
    }
    return shares;
  }

  /** Push tasks: slices of the frontier list of about equal out-edges. */
  pushTaskShares(list: Uint32Array, outEdges: number): Task[][] {
    const deg = this.graph.outDegree;
    const target = Math.max(256, Math.ceil(outEdges / (this.threads * 8)));
    const tasks: Task[] = [];
    let lo = 0;
    let edges = 0;
    for (let i = 0; i < list.length; i++) {
      edges += deg[list[i]!]!;
      if (edges >= target || i === list.length - 1) {
        tasks.push({ page: 0, count: 0, lo, hi: i + 1, edges });
        lo = i + 1;
        edges = 0;
      }
    }
    return this.share(tasks);
  }

  /** Sends one superstep to every actor and collects the votes. */
  async superstep(
    step: number,
    kernel: string,
    mode: Mode,
    shares: Task[][],
    args: Record<string, number>,
    state: Record<string, StateArray>,
    frontier: Frontier,
    frontierList: Uint32Array | undefined,
    next: Uint8Array,
    wantList: boolean,
    pullPages: 'in' | 'out',
  ): Promise<VoteFrame[]> {
    if (this.failure) throw this.failure;
    const shared: SharedArrayBuffer[] = [];
    const add = (b: ArrayBufferLike): number => shared.push(b as SharedArrayBuffer) - 1;
    const stateRefs: StateRef[] = Object.entries(state).map(([name, arr]) => ({ name, kind: kindOf(arr), buffer: add(arr.buffer) }));
    const frontierBitmap = add(frontier.bitmap.buffer);
    const listRef = frontierList ? add(frontierList.buffer) : undefined;
    const nextBitmap = add(next.buffer);
    const votes = this.actors.map(
      (a) =>
        new Promise<VoteFrame>((resolve, reject) => {
          this.pending.set(a.name, { resolve, reject });
        }),
    );
    this.actors.forEach((a, i) => {
      a.bytesAtStepStart = a.link.bytesSent;
      a.link.send(
        { type: 'superstep', step, kernel, mode, args, state: stateRefs, frontierBitmap, frontierList: listRef, nextBitmap, wantList, pullPages, tasks: shares[i]! },
        shared,
      );
    });
    return Promise.all(votes);
  }

  actorReports(votes: VoteFrame[], shares: Task[][]): ActorStepReport[] {
    return votes.map((v, i) => ({
      actor: v.actor,
      kind: this.actors[i]!.kind,
      tasks: v.tasks,
      pages: new Set(shares[i]!.map((t) => t.page)).size,
      edges: v.edges,
      computeMs: v.computeMs,
      bytesSent: this.actors[i]!.link.bytesSent - this.actors[i]!.bytesAtStepStart,
      messages: v.outbox?.before ?? 0,
      messagesAggregated: v.outbox?.ids.length ?? 0,
    }));
  }

  get pullDivisor(): number {
    return this.opts.pullDivisor ?? 20;
  }
  get forceMode(): Mode | undefined {
    return this.opts.forceMode;
  }
}

function kindOf(a: StateArray): StateKind {
  if (a instanceof Float64Array) return 'f64';
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Uint32Array) return 'u32';
  return 'u8';
}

function sharedArray(kind: StateKind, length: number): StateArray {
  const bytes = { f64: 8, f32: 4, i32: 4, u32: 4, u8: 1 }[kind];
  return new STATE_CTORS[kind](new SharedArrayBuffer(Math.max(8, bytes * length)));
}

/** One program run: the RunContext programs see. */
class Run implements RunContext {
  private step = 0;
  private spare: Uint8Array[] = [];
  /** Frontiers edgeMap returned: consumed (their bitmap reused) when given back to edgeMap. */
  private readonly produced = new WeakSet<Frontier>();

  constructor(
    private readonly engine: Engine,
    private readonly steps: StepReport[],
    private readonly notes: Record<string, string | number | boolean>,
    private readonly program: string,
  ) {}

  note(key: string, value: string | number | boolean): void {
    this.notes[key] = value;
  }

  get graph(): Graph {
    return this.engine.graph;
  }

  alloc(kind: StateKind, fill = 0, length = this.graph.numVertices): StateArray {
    const a = sharedArray(kind, length);
    if (fill !== 0) a.fill(fill);
    return a.length === length ? a : (a.subarray(0, length) as StateArray);
  }

  private bitmap(): Uint8Array {
    return this.spare.pop() ?? new Uint8Array(new SharedArrayBuffer(Math.max(8, this.graph.numVertices)));
  }

  /** Returns a frontier's bitmap for reuse, cleared. */
  private recycle(f: Frontier): void {
    if (!this.produced.has(f)) return;
    this.produced.delete(f);
    if (f.list !== undefined && f.list.length < f.bitmap.length / 64) for (const v of f.list) f.bitmap[v] = 0;
    else f.bitmap.fill(0);
    this.spare.push(f.bitmap);
  }

  frontierOf(ids: ArrayLike<number>): Frontier {
    const bitmap = this.bitmap();
    const list = new Uint32Array(new SharedArrayBuffer(Math.max(4, 4 * ids.length)), 0, ids.length);
    let size = 0;
    for (let i = 0; i < ids.length; i++) {
      const v = ids[i]!;
      if (bitmap[v] === 1) continue;
      bitmap[v] = 1;
      list[size++] = v;
    }
    return { bitmap, list: list.subarray(0, size), size };
  }

  all(): Frontier {
    const bitmap = this.bitmap();
    bitmap.fill(1);
    return { bitmap, list: undefined, size: this.graph.numVertices };
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
    const modes = opts.modes ?? ['push', 'pull'];
    let mode: Mode;
    let list = frontier.list;
    let frontierEdges = 0;
    const forced = this.engine.forceMode;
    if (modes.length === 1) mode = modes[0]!;
    else if (forced !== undefined) mode = forced;
    else if (frontier.size === g.numVertices) mode = 'pull';
    else {
      if (list === undefined) list = listOf(frontier);
      for (let i = 0; i < list.length; i++) frontierEdges += g.outDegree[list[i]!]!;
      mode = frontier.size + frontierEdges > g.numEdges / this.engine.pullDivisor ? 'pull' : 'push';
    }
    let shares: Task[][];
    const pullPages = opts.pullPages ?? 'in';
    if (mode === 'pull') shares = this.engine.denseShares(pullPages);
    else {
      if (list === undefined) list = listOf(frontier);
      if (frontierEdges === 0) for (let i = 0; i < list.length; i++) frontierEdges += g.outDegree[list[i]!]!;
      if (!(list.buffer instanceof SharedArrayBuffer)) list = toShared(list);
      shares = this.engine.pushTaskShares(list, frontierEdges);
    }
    const next = this.bitmap();
    const wantList = mode === 'push';
    const step = this.step++;
    const votes = await this.engine.superstep(step, kernel, mode, shares, args, state, frontier, mode === 'push' ? list : undefined, next, wantList, pullPages);
    let active = 0;
    let sum = 0;
    let edges = 0;
    for (const v of votes) {
      active += v.active;
      sum += v.sum;
      edges += v.edges;
    }
    let nextList: Uint32Array | undefined;
    if (wantList) {
      nextList = new Uint32Array(new SharedArrayBuffer(Math.max(4, 4 * active)), 0, active);
      let at = 0;
      for (const v of votes) {
        if (v.discovered) {
          nextList.set(v.discovered, at);
          at += v.discovered.length;
        }
      }
    }
    this.recycle(frontier);
    const ms = performance.now() - t0;
    const record: StepReport = {
      step,
      kernel,
      mode,
      frontier: frontier.size,
      active,
      edges,
      ms,
      actors: this.engine.actorReports(votes, shares),
    };
    this.steps.push(record);
    this.engine.events.emit('superstep', record, this.program);
    const nextFrontier: Frontier = { bitmap: next, list: nextList, size: active };
    this.produced.add(nextFrontier);
    return { next: nextFrontier, sum, edges };
  }
}

function listOf(f: Frontier): Uint32Array {
  const out = new Uint32Array(new SharedArrayBuffer(Math.max(4, 4 * f.size)), 0, f.size);
  let k = 0;
  const b = f.bitmap;
  for (let v = 0; v < b.length && k < f.size; v++) if (b[v] === 1) out[k++] = v;
  return out;
}

function toShared(a: Uint32Array): Uint32Array {
  const s = new Uint32Array(new SharedArrayBuffer(Math.max(4, 4 * a.length)), 0, a.length);
  s.set(a);
  return s;
}
