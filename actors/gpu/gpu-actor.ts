/**
 * GPU actor: the same frames as a CPU socket actor (load, superstep -> vote), over the native
 * controller (native.ts). Hybrid BSP as in TOTEM: the actor owns a set of internal vertex ids for
 * the whole run, as sorted disjoint ranges (one with HIGH/LOW, its pages' ranges with RAND), and
 * with it the pages overlapping them in both orientations; CPU socket actors share the rest.
 *
 * Each superstep runs the kernel's GPU side, which names no program here: a program's GPU
 * operator (operators.ts: compiled at run time, uploads and folds follow its declared state) or a
 * built-in's precompiled handler (handler.ts, imported by the URL the frame names). Either
 *   1. brings the device replica of the state the kernel reads up to date from the coordinator's copy,
 *   2. runs on its pages: pull walks the pages of its ranges; push only the out-pages holding its
 *      frontier vertices (Graphie: pages resident in the device page cache are reused, others
 *      streamed in, LRU),
 *   3. answers with a vote that carries what changed:
 *      - `outbox`: updates to vertices it does not own, aggregated on the device (one entry per
 *        destination, min or sum) before anything is copied back (TOTEM); with several ranges the
 *        kernels tell owned from remote by a device byte map (`@owned`), with one by compares,
 *      - `merges`: vertices it changed that others may have changed too, folded with the reduce,
 *      - `sync`: dense values of its ranges when it was their only writer (pull kernels), copied
 *        from the device straight into the coordinator's shared array (page-locked); the vote
 *        names the ranges only (`written`), as a socket actor's workers write theirs in place.
 * The coordinator applies all of it after every vote is in (BSP communication phase) and
 * activates the vertices whose value changed. The copies between device and host arrays are
 * state-sync.ts' (GpuStateSync, which this class extends).
 */
import { WorkRequests } from '../work-requests.js';
import type { Channel } from '../../src/wire/channel.js';
import type { ActorFrame, CoordinatorFrame, LoadFrame, StateMerge, SuperstepFrame, Task } from '../../src/wire/frames.js';
import type { KernelGraph } from '../../src/engine/kernel.js';
import type { Graph, Page } from '../../src/graph/types.js';
import { loadStoreFor, materializeGraph } from '../cpu/share.js';
import { complementRanges, overlapsRanges } from '../../src/engine/partition.js';
import { faultAt, injectGpuFault } from '../../src/engine/faults.js';
import { GpuController, nativeAvailable, pageBufferBytes, type KernelName, type RunOptions, type RunStats } from './native.js';
import { csrPages, inOutPages, listPages, unionPages, vertexRuns } from './pages.js';
import { joinMerges } from './outbox.js';
import { addRunStats, zeroStats } from './stats.js';
import { operatorHandler } from './operators.js';
import { settle } from './held.js';
import { GpuStateSync } from './state-sync.js';
import type { GpuGroup } from './group.js';
import { FR, loadGpuHandlers, NX, OWNED, SET_ALLIN, SET_IN, SET_INOUT, SET_OUT, SET_STOLEN_OUT, SET_UNION, stepOf, type GpuStep as Step, type StepOut } from './handler.js';

/** An Error carrying the native controller's code (TS_OOM, TS_BAD_DEVICE, ...). */
const codeOf = (e: unknown): string | undefined => (typeof (e as { code?: unknown })?.code === 'string' ? (e as { code: string }).code : undefined);

export class GpuActor extends GpuStateSync {
  private family = '';
  /** Pages of each registered set that overlap the owned ranges. */
  private readonly range = new Map<number, number[]>();
  private readonly sets = new Map<number, Page[]>();
  /** Sets whose pages the actor's start put on the device whole (preload): a pass over them copies nothing. */
  readonly preloaded = new Set<number>();
  /** Pages registered with the controller, by set (each set's in order of registration). */
  private readonly registered = new Map<number, Page[]>();
  /** Whether the registered pages carry their weights (GpuLoad.weights; false until a run reads them). */
  private weights = true;
  private readonly pageEdges = new WeakMap<Page[], Map<number, number>>();
  /** The superstep whose kernels last marked the device's next flags (frontier.ts clearNext); -1: none this run. */
  nextStep = -1;
  /** Edges walked this superstep; pushEdges: those of the last pushPages list (frontier.ts pushPagesOf sets both). */
  private edges = 0;
  pushEdges = 0;
  pushList: number[] | undefined;
  /** Outbox messages the device put this superstep, before its aggregation. */
  private outboxSent = 0;
  /**
   * holdNext's sum of the out-degrees of the next flags it left on the device (one GPU owning every
   * vertex), by superstep: the next push's frontier is those flags (clearNext), with those edges.
   */
  heldDegrees: { step: number; sum: number } | undefined;
  /**
   * A program's GPU module's own facts for the run in progress (e.g. which host buffer a device
   * array mirrors), by key; cleared when a run starts.
   */
  readonly scratch = new Map<string, unknown>();
  /** The outstanding idle request (stealing), answered by a 'more' frame. */
  private readonly requests = new WorkRequests();
  /** Whether every out-page is registered under SET_STOLEN_OUT (the first stolen push task). */
  private allOut = false;
  /** In-pages registered under SET_ALLIN so far (on demand, by stolen ranges). */
  private allIn = new Set<number>();
  /** Settles once the controller is closed after a stop frame. */
  readonly stopped: Promise<void>;
  private resolveStopped!: () => void;

  constructor(
    readonly name: string,
    private readonly link: Channel<ActorFrame, CoordinatorFrame>,
    /** The engine's other GPU actors, when it has several (state copied device to device). */
    readonly group?: GpuGroup,
  ) {
    super();
    this.stopped = new Promise((r) => (this.resolveStopped = r));
    group?.join(this);
    link.on((frame, shared) => {
      this.onFrame(frame, shared).catch((e: unknown) => {
        if (frame.type === 'superstep') group?.abortExchanges(); // peers may wait for its post (group.ts exchangeFor)
        link.send({ type: 'error', actor: this.name, message: e instanceof Error ? e.message : String(e), code: codeOf(e) });
      });
    });
  }

  /** A controller opened early (prestart.ts); undefined where that failed (load opens one and says why). */
  private early: Promise<GpuController | undefined> | undefined;

  /** Takes a controller opened while the graph was loading (Engine.prestart). */
  adopt(ctl: Promise<GpuController | undefined>): void {
    this.early = ctl;
  }

  get graph(): KernelGraph {
    return this.g!;
  }
  /** Whether it owns every vertex (no other actor computes any). */
  get ownsAll(): boolean {
    return this.othersRanges.length === 0;
  }
  /**
   * Whether GPU actors own every vertex (this one alone, or its group, whose members copy their
   * ranges to each other before each superstep): then no host copy of a device array another GPU
   * reads is needed between supersteps.
   */
  get gpusOwnAll(): boolean {
    return this.ownsAll || this.group?.ownsAll === true;
  }
  /** Whether its device is open. */
  get loaded(): boolean {
    return this.ctl !== undefined && this.cfg !== undefined;
  }
  get directed(): boolean { return this.g!.in !== this.g!.out; }
  get emulated(): boolean { return this.cfg!.emulated; }
  get controller(): GpuController { return this.ctl!; }

  private async onFrame(frame: CoordinatorFrame, shared: SharedArrayBuffer[]): Promise<void> {
    switch (frame.type) {
      case 'load':
        await this.load(frame, shared);
        return;
      case 'superstep':
        if (frame.settle !== undefined) this.link.send(await settle(this, frame, stepOf(frame, shared, this.g!.numVertices)));
        else await this.superstep(frame, shared);
        return;
      case 'more':
        this.requests.answer(frame.tasks);
        return;
      case 'release':
        // Never a victim (the coordinator asks CPU actors only): nothing queued to give.
        this.link.send({ type: 'released', actor: this.name, step: frame.step, tasks: [], left: 0 });
        return;
      case 'stop':
        this.requests.answer([]);
        this.group?.cancel(new Error('the engine stopped'));
        try {
          this.pins.clear(); // close unlocks them all
          await this.ctl?.close();
          await (await this.early)?.close();
        } finally {
          this.ctl = undefined;
          this.resolveStopped();
        }
        return;
    }
  }

  private async load(frame: LoadFrame, shared: SharedArrayBuffer[]): Promise<void> {
    const cfg = frame.gpu;
    if (cfg === undefined) throw new Error('GPU actor loaded without a device');
    const avail = nativeAvailable();
    if (!avail.ok) throw Object.assign(new Error(avail.reason), { code: 'TS_NO_NATIVE' });
    if (faultAt('gpu-gone')) throw Object.assign(new Error(`no CUDA device ${cfg.device} (TESSERA_FAULT gpu-gone)`), { code: 'TS_NO_DEVICE' });
    this.cfg = cfg;
    this.weights = cfg.weights !== false || frame.weightType === undefined;
    await loadStoreFor({ load: frame, shared });
    this.g = materializeGraph({ load: frame, shared });
    this.othersRanges = complementRanges([cfg.owned], this.g.numVertices);
    this.stats = zeroStats(cfg.emulated);
    // A controller opened before the graph was loaded (Engine.prestart) serves where it has no host
    // buffer to keep; else (none opened, or a host buffer wanted) one opens here.
    const early = await this.early;
    this.early = undefined;
    if (early !== undefined && cfg.hostBuffer === undefined) this.ctl = early;
    else {
      await early?.close();
      this.ctl = await GpuController.create({ device: cfg.device, emulated: cfg.emulated, memoryLimit: cfg.memoryLimit, streams: cfg.streams, hostBuffer: cfg.hostBuffer });
    }
    const g = this.g;
    const overlap = (pages: Page[]): Page[] => pages.filter((p) => overlapsRanges(cfg.owned, p.vBegin, p.vEnd));
    if (!this.single) {
      // Several ranges: the kernels' owned test is this byte map (kept across programs).
      const map = new Uint8Array(g.numVertices);
      for (const [b, e] of cfg.owned) map.fill(1, b, e);
      await this.ensure(OWNED, 'u8');
      await this.ctl.writeState(OWNED, map);
    }
    // Registration keeps a reference to the host page bytes only; nothing is copied yet.
    await this.register(SET_OUT, overlap(g.out.pages));
    if (g.in !== g.out) await this.register(SET_IN, overlap(g.in.pages));
    else {
      this.range.set(SET_IN, this.range.get(SET_OUT)!);
      this.sets.set(SET_IN, this.sets.get(SET_OUT)!);
    }
    // A graph constant (PageRank's apply, pulls' countNext): up once, with the pages' registration.
    await this.ensureOutDegree();
    // The pages up now where the cache holds them all beside room for the runs' state (64 B a
    // vertex and 256 MiB): a session's first run then copies none (RMAT 24: ~4 GB over the link).
    const reserve = 64 * g.numVertices + 2 ** 28;
    for (const set of g.in !== g.out ? [SET_OUT, SET_IN] : [SET_OUT]) {
      const pages = this.rangePages(set);
      if (pages.length > 0 && (await this.ctl.preload(set, Uint32Array.from(pages), reserve)) === pages.length) this.preloaded.add(set);
    }
    const info = await this.ctl.info();
    this.link.send({
      type: 'ready',
      actor: this.name,
      device: info.name,
      emulated: info.emulated,
      memoryLimit: info.memoryLimit,
    });
  }

  /**
   * A preloaded program's device arrays and graph constants before its first run (its handlers'
   * GpuHandler.prepare, gpu module `url`); they are that program's: another program frees them.
   */
  async prepare(url: string, graph: Graph): Promise<void> {
    const { table } = await loadGpuHandlers(url);
    if (url !== this.family) await this.freeProgramArrays();
    this.family = url;
    for (const h of new Set(Object.values(table))) if (h.prepare !== undefined) await h.prepare(this, graph);
  }

  async register(setId: number, pages: Page[]): Promise<void> {
    await this.registerWith(setId, pages);
    this.range.set(setId, pages.map((p) => p.index));
    this.sets.set(setId, pages);
  }

  /** Registers pages with the controller, with their weights or without as the actor's pages are. */
  private async registerWith(setId: number, pages: readonly Page[]): Promise<void> {
    await this.ctl!.registerPageSet(setId, pages, this.weights);
    const had = this.registered.get(setId);
    if (had === undefined) this.registered.set(setId, [...pages]);
    else had.push(...pages);
  }

  /**
   * A run of a program that reads weights on an actor whose pages were registered without them
   * (GpuLoad.weights): every registered page again with them (the controller drops the device
   * copies of the ones it replaces; they load again when used).
   */
  private async addWeights(): Promise<void> {
    this.weights = true;
    for (const [setId, pages] of this.registered) await this.ctl!.registerPageSet(setId, pages, true);
    this.preloaded.clear();
  }

  /** In+out lists of the owned ranges (set SET_INOUT; directed graphs), built on first use. */
  async ensureInOut(): Promise<void> {
    if (this.range.has(SET_INOUT)) return;
    const g = this.g!;
    await this.register(SET_INOUT, inOutPages(g.in, g.out, g.inDegree, g.outDegree, this.owned, g.pageEdges));
  }

  /** N(v) = N_in(v) ∪ N_out(v) of the owned ranges (set SET_UNION), built on first use: cut from `csr` (the undirected view's, undirected-csr.ts) where given, else merged. */
  async ensureUnion(csr?: { off: Float64Array; adj: Uint32Array }): Promise<number> {
    const g = this.g!;
    if (!this.range.has(SET_UNION)) await this.register(SET_UNION, csr !== undefined ? csrPages(csr.off, csr.adj, this.owned, g.pageEdges) : unionPages(g.in, g.out, g.inDegree, g.outDegree, this.owned, g.pageEdges));
    return SET_UNION;
  }

  private async superstep(f: SuperstepFrame, shared: SharedArrayBuffer[]): Promise<void> {
    const t0 = performance.now();
    // A run's first superstep: what the device holds belongs to an earlier run, even where the
    // host arrays are the same buffers (the engine reuses a finished run's arrays).
    if (f.step === 0 || f.first === true) (this.scratch.clear(), (this.nextStep = -1), (this.heldDegrees = undefined));
    if (f.pageWeights !== false && !this.weights) await this.addWeights();
    const step = stepOf(f, shared, this.g!.numVertices);
    // Before anything that can fail: the other GPU actors wait for this one (group.ts).
    const tMeet = performance.now();
    const peerBytes = this.group === undefined ? 0 : await this.group.meet(this, step);
    const peerMs = performance.now() - tMeet;
    const h = f.ops !== undefined ? operatorHandler(f.ops, f.kernel) : f.gpu === undefined ? undefined : (await loadGpuHandlers(f.gpu)).table[f.kernel];
    if (h?.transient !== true) injectGpuFault(f.step, this.cfg!.device); // engine/faults.ts: TESSERA_FAULT's gpu-fail / gpu-oom at this superstep
    if (h === undefined) throw new Error(`kernel '${f.kernel}' has no GPU mapping`);
    if (f.vertexOp === true ? h.vertex !== true : !h.modes.includes(f.mode)) throw new Error(`kernel '${f.kernel}' runs ${h.modes.join('/') || 'vertex maps'} on the GPU, not ${f.vertexOp === true ? 'a vertex map' : f.mode}`);
    const family = f.gpu ?? `ops:${f.ops!.program}`;
    if (family !== this.family && h.transient !== true) {
      await this.freeProgramArrays();
      // ...and unlock the host arrays of the previous run (the coordinator has dropped them).
      await this.unpinAll();
      this.family = family;
    }
    this.stats = zeroStats(this.cfg!.emulated);
    const spent = { ...this.ctl!.spent };
    this.voteShared = [];
    this.edges = this.outboxSent = 0;
    this.nextEdges = undefined;
    const out = await h.run(this, step);
    let stolen = 0;
    let stolenEdges = 0;
    const push = f.mode === 'push' ? h.stealPush : undefined;
    const pull = f.mode === 'pull' ? h.steal : undefined;
    if (f.steal !== undefined && (push !== undefined || pull !== undefined)) {
      // Own ranges done: offer to take the tail of a CPU queue (the coordinator and the victim
      // decide whether it pays). Pull: each answer is run as contiguous vertex ranges; push: as
      // frontier slices, remote claims by outbox, and the owned changes are read again at the end
      // (they include what the stolen pushes claimed here).
      const pages = f.mode === 'push' ? 'out' : f.pullPages;
      const boxes: StateMerge[] = out.outbox !== undefined ? [out.outbox] : [];
      for (;;) {
        // Its rate so far counts the stolen edges it has run too (the time does).
        const tasks = await this.askForWork(f.step, out.edges + stolenEdges, performance.now() - t0, pages);
        if (tasks.length === 0) break;
        if (pull !== undefined)
          for (const [lo, hi] of vertexRuns(tasks, this.g![pages].pages)) {
            const more = await pull.call(h, this, step, lo, hi);
            out.sum += more.sum;
            out.sync.push(...more.sync);
          }
        else {
          const box = await push!.run(this, step, tasks);
          if (box !== undefined) boxes.push(box);
        }
        stolen += tasks.length;
        for (const t of tasks) stolenEdges += t.edges;
      }
      if (push !== undefined && stolen > 0) {
        Object.assign(out, await push.owned(this, step));
        out.outbox = joinMerges(boxes);
      }
      out.edges += stolenEdges;
    }
    this.link.send({
      type: 'vote',
      actor: this.name,
      step: f.step,
      active: out.active, // besides these, activations come from folding merges/outbox on the coordinator
      sum: out.sum,
      edges: out.edges,
      tasks: f.tasks.length + stolen,
      stolen,
      stolenEdges,
      computeMs: performance.now() - t0,
      merges: out.merges.filter((m) => m.ids.length > 0),
      outbox: out.outbox === undefined ? undefined : { ...out.outbox, before: this.outboxSent },
      sync: out.sync,
      ...(out.flagged.length > 0 ? { flagged: out.flagged } : {}),
      ...(out.activate !== undefined ? { activate: out.activate } : {}),
      ...(this.nextEdges !== undefined && stolen === 0 ? { nextEdges: this.nextEdges } : {}),
      gpu: { ...this.stats, ...this.ctl!.spentSince(spent), ...(this.group === undefined ? {} : { peerBytes, peerMs: peerMs + (this.stats.peerMs ?? 0) }) },
      ...(step.held !== undefined ? { held: step.held } : {}),
    }, this.voteShared);
  }

  // ---- helpers the handlers use --------------------------------------------------------------

  /** Sends `idle` (with what crosses the link per stolen edge and vertex) and awaits the answer. */
  private askForWork(step: number, edges: number, busyMs: number, pages: 'in' | 'out'): Promise<Task[]> {
    const g = this.g!;
    let bytes = 0;
    for (const p of g[pages].pages) bytes += pageBufferBytes(p);
    return this.requests.ask(() =>
      this.link.send({
        type: 'idle',
        actor: this.name,
        step,
        edges,
        busyMs,
        bytesPerEdge: g.numEdges > 0 ? bytes / g.numEdges : 4,
        bytesPerVertex: 4 + 16, // its offsets in, two f64 results back
      }),
    );
  }

  /** Indices of the in-pages overlapping [lo, hi), registered under SET_ALLIN on first use. */
  async inPagesOver(lo: number, hi: number): Promise<number[]> {
    const g = this.g!;
    if (!this.sets.has(SET_ALLIN)) this.sets.set(SET_ALLIN, g.in.pages);
    const pages = g.in.pages.filter((p) => p.vEnd > lo && p.vBegin < hi);
    const fresh = pages.filter((p) => !this.allIn.has(p.index));
    await this.registerWith(SET_ALLIN, fresh);
    for (const p of fresh) this.allIn.add(p.index);
    return pages.map((p) => p.index);
  }

  /** Push kernels' owned vertices, one range: params ownedBegin/ownedEnd (with ownedState, below). */
  ownedParams(): Record<string, number> {
    return this.single ? { ownedBegin: this.begin, ownedEnd: this.end } : {};
  }

  /** ...several ranges: the device byte map as state role `owned`. */
  ownedState(): Record<string, string> {
    return this.single ? {} : { owned: OWNED };
  }

  /**
   * Pages of `setId` holding the owned frontier vertices (the frame's list slice, in vertex order:
   * pages.ts listPages): only these are sent. No per-vertex reads: a lookup per vertex, at random, took 80-145 ms of RMAT 24's
   * 6 M-vertex level on an H100 host, 20x the kernel; the edges are the tasks' (the coordinator
   * summed them).
   */
  pushPages(setId: number, s: Step, tasks: Task[] = s.f.tasks): number[] {
    const g = this.g!;
    // The tasks' edges are out-edges; in-pages (WCC on directed graphs) count their own.
    const { pages, edges } = listPages(setId === SET_IN ? g.in : g.out, s.list!, tasks, setId === SET_IN ? g.inDegree : undefined);
    this.pushEdges = edges;
    return (this.pushList = pages);
  }

  /**
   * Runs push `kernel` from stolen frontier slices (another actor's vertices): their frontier
   * flags on the device (the list is in vertex order, so a slice's id span holds exactly its
   * vertices; the flags of the actor's own frontier and of earlier stolen slices cleared first),
   * over every out-page (registered on first use).
   */
  async pushStolen(kernel: KernelName, s: Step, tasks: Task[], params: Record<string, number>, state: Record<string, string>): Promise<RunStats | undefined> {
    const g = this.g!;
    if (!this.allOut) {
      await this.registerWith(SET_STOLEN_OUT, g.out.pages);
      this.sets.set(SET_STOLEN_OUT, g.out.pages);
      this.allOut = true;
    }
    const list = s.list!;
    await this.ctl!.fillState(FR, 0);
    for (const t of tasks) {
      if (t.hi <= t.lo) continue;
      const lo = list[t.lo]!;
      const hi = list[t.hi - 1]! + 1;
      await this.ctl!.writeState(FR, s.frontier!.subarray(lo, hi), lo);
      this.stats.stateBytesIn += hi - lo;
    }
    return this.run(kernel, { setId: SET_STOLEN_OUT, pages: this.pushPages(SET_OUT, s, tasks), params: { ...params, ...this.ownedParams() }, state: { ...state, frontier: FR, next: NX, ...this.ownedState() } });
  }

  /** Every page of a set that overlaps the owned ranges. */
  rangePages(setId: number): number[] {
    return this.range.get(setId)!;
  }

  /** rangePages for a pull, less those without a vertex in the frame's pullIf state (i32 device array `name`; Graphie's active pages). */
  async pullPages(setId: number, s: Step, name = s.f.pullIf?.state): Promise<number[]> {
    const all = this.rangePages(setId), only = s.f.pullIf;
    if (only === undefined || name === undefined || this.device.get(name)?.kind !== 'i32') return all;
    return Array.from(await this.ctl!.activePages(setId === SET_IN && !this.directed ? SET_OUT : setId, Uint32Array.from(all), name, only.value));
  }

  /** Runs a native kernel (nothing when no page is named) and adds its counters to the step's. */
  async run(kernel: KernelName, opts: RunOptions): Promise<RunStats | undefined> {
    if (opts.pages.length === 0) return undefined;
    // Undirected graphs: one page set serves both orientations.
    if (opts.setId === SET_IN && !this.directed) opts = { ...opts, setId: SET_OUT };
    // A push over pushPages' list walks the frontier's edges only; anything else, its pages'.
    if (opts.pages === this.pushList) this.edges += this.pushEdges;
    else if (opts.setId !== SET_ALLIN) {
      // Edges by page index, once per page list (a fresh map a call: ~57 µs at 253 pages).
      const set = this.sets.get(opts.setId)!;
      let at = this.pageEdges.get(set);
      if (at === undefined) this.pageEdges.set(set, (at = new Map(set.map((p) => [p.index, p.edges]))));
      for (const pi of opts.pages) this.edges += at.get(pi) ?? 0;
    }
    return this.counted(await this.ctl!.run(kernel, opts));
  }

  /** Runs a kernel that loops in one call ('levels': a traversal's levels; 'pr_iterations'; 'sssp_steps') and adds its counters and the edges it read to the step's. */
  async runLoop(kernel: 'levels' | 'pr_iterations' | 'sssp_steps', opts: RunOptions): Promise<RunStats> {
    if (opts.setId === SET_IN && !this.directed) opts = { ...opts, setId: SET_OUT };
    const st = this.counted(await this.ctl!.run(kernel, opts));
    this.edges += st.edges ?? 0;
    return st;
  }

  /** Runs a native kernel that reads no pages (its input in state arrays: lcc_tri) and adds its counters to the step's. */
  async runPageless(kernel: KernelName, opts: Omit<RunOptions, 'setId' | 'pages'>): Promise<RunStats> {
    return this.counted(await this.ctl!.run(kernel, { ...opts, setId: 0, pages: [] }));
  }

  /** Adds a native call's counters to the superstep's. */
  private counted(st: RunStats): RunStats {
    addRunStats(this.stats, st);
    // Older addons do not count messages before aggregation: the entries are then the floor.
    if (st.outbox !== undefined) this.outboxSent += st.outbox.sent ?? st.outbox.ids.length;
    return st;
  }

  /** A handler's result, with the edges the step's kernels walked. */
  out(o: Partial<StepOut>): StepOut {
    return { edges: this.edges, sum: o.sum ?? 0, active: o.active ?? 0, merges: o.merges ?? [], outbox: o.outbox, sync: o.sync ?? [], flagged: o.flagged ?? [], ...(o.activate !== undefined ? { activate: o.activate } : {}) };
  }

}
