/**
 * CPU socket actor: one per socket of the topology, a piscina pool with one thread per core.
 * It receives frames from the coordinator, puts each superstep's tasks in a shared queue its
 * threads take from (a thief may take its tail: release()), asks for more when the queue empties,
 * and answers with one vote per superstep.
 */
import { WorkRequests } from '../work-requests.js';
import { Piscina } from 'piscina';
import type { Channel } from '../../src/wire/channel.js';
import type { ActorFrame, CoordinatorFrame, DiskStats, LoadFrame, ReleaseFrame, SuperstepFrame, Task } from '../../src/wire/frames.js';
import { releaseFromTail } from '../../src/engine/steal.js';
import { faultAt } from '../../src/engine/faults.js';
import { actorErrorMessage } from '../../src/errors.js';
import { GraphMailbox } from './mailbox.js';
import { loadStoreFor, materializeGraph, type GraphShare } from './share.js';
import { batches, PageArena, taskKeys, type Batch } from './arena.js';
import type { KernelGraph } from '../../src/engine/kernel.js';
import type { TaskMessage, TaskResult, WorkerData } from './worker.js';
import { TaskQueue } from './task-queue.js';
import { Gang } from './gang.js';
import { abortTeam } from '../../src/engine/team.js';

// A CommonJS entry that imports worker.js (see worker-entry.cts for why).
const WORKER = new URL('./worker-entry.cjs', import.meta.url);

export class CpuSocketActor {
  private pool: Piscina | undefined;
  private gang: Gang | undefined;
  /** A graph read from disk (store.ts): its pages' metadata and this actor's arena. */
  private graph: KernelGraph | undefined;
  private arena: PageArena | undefined;
  private passes = 0;
  private closed = false;

  constructor(
    readonly name: string,
    readonly threads: number,
    private readonly link: Channel<ActorFrame, CoordinatorFrame>,
  ) {
    link.on((frame, shared) => {
      this.onFrame(frame, shared).catch((e: unknown) => {
        const { message, input } = actorErrorMessage(e);
        link.send({ type: 'error', actor: this.name, message, ...(input ? { code: 'TS_INPUT' } : {}) });
      });
    });
  }

  /** Superstep frames seen; makes the worker's view-cache key unique across runs. */
  private frames = 0;
  /** The superstep in progress: its queue (tasks not started) and what is done, for stealing. */
  private cur: { step: number; kernel: string; queue: TaskQueue; t0: number; edgesDone: number } | undefined;
  /** Last superstep rate per kernel, edges/s (a victim's estimate before its first task ends). */
  private readonly lastRate = new Map<string, number>();
  /** The outstanding idle request (stealing), answered by a 'more' frame. */
  private readonly requests = new WorkRequests();

  private async onFrame(frame: CoordinatorFrame, shared: SharedArrayBuffer[]): Promise<void> {
    switch (frame.type) {
      case 'load':
        await this.load(frame, shared);
        return;
      case 'superstep':
        await this.superstep(frame, shared);
        return;
      case 'release':
        this.release(frame);
        return;
      case 'more':
        this.requests.answer(frame.tasks);
        return;
      case 'stop':
        this.closed = true;
        this.requests.answer([]);
        this.gang?.close();
        await this.pool?.destroy();
        this.pool = undefined;
        this.mailbox?.close();
        await this.arena?.close();
        return;
    }
  }

  /** Task lists the coordinator named (SuperstepFrame.taskSet), kept from the frame that carried them. */
  private readonly taskSets = new Map<string, Task[]>();

  private withTasks(f: SuperstepFrame): SuperstepFrame {
    if (f.taskSet === undefined) return f;
    if (f.tasks.length > 0) {
      this.taskSets.set(f.taskSet, f.tasks);
      return f;
    }
    const tasks = this.taskSets.get(f.taskSet);
    if (tasks === undefined) throw new Error(`superstep ${f.step} names task set '${f.taskSet}', which this actor was never sent: a bug`);
    return { ...f, tasks };
  }

  /**
   * Starts the threads before the graph is loaded (Engine.prestart): they import the worker's and
   * `modules`' code while the caller reads the graph, and get the graph from a mailbox at load.
   */
  prestart(modules: string[]): void {
    this.mailbox = new GraphMailbox();
    this.startPool({ mailbox: this.mailbox.name });
    this.prestarted = this.gang!.warm(modules, true);
  }

  private mailbox: GraphMailbox | undefined;
  private prestarted: Promise<void> | undefined;
  /**
   * Resolves once the threads prestart began have started, or failed to: a pool destroyed while
   * a thread was still starting (a run refused at once, the process exiting) aborted the process
   * now and then ("terminate called after throwing an instance of 'Napi::Error'").
   */
  async started(): Promise<void> {
    await this.prestarted?.catch(() => undefined);
  }
  /** A thread's failure before the load frame (no coordinator listens yet): reported at load. */
  private startError: string | undefined;

  private startPool(workerData: WorkerData): void {
    const pool = new Piscina({
      filename: WORKER.href,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      workerData,
    });
    this.pool = pool;
    // A thread that dies outside a task (its task already settled, or the pool being destroyed
    // after another actor's failure) is an 'error' event: unhandled, it would end the process
    // with a stack trace instead of the run's one line.
    pool.on('error', (e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      if (this.prestarted !== undefined) this.startError ??= message;
      else if (!this.closed) this.link.send({ type: 'error', actor: this.name, message });
    });
    this.gang = process.env.TESSERA_GANG === '0' ? undefined : new Gang(pool, this.threads);
  }

  private async load(frame: LoadFrame, shared: SharedArrayBuffer[]): Promise<void> {
    const workerData: GraphShare = { load: frame, shared };
    const st = frame.store;
    const early = this.prestarted;
    if (early === undefined) {
      this.gang?.close();
      await this.pool?.destroy();
      await this.arena?.close();
    }
    if (st?.where !== undefined) {
      await loadStoreFor(workerData);
      this.graph = materializeGraph(workerData);
      this.arena = new PageArena(this.graph.out.stored!.store, shared[st.where]!, st.chunks!.map((i) => shared[i]!), this.graph);
    } else this.graph = this.arena = undefined;
    if (early !== undefined) {
      await early;
      this.prestarted = undefined;
      if (this.startError !== undefined) throw new Error(this.startError);
      // The threads ask for the graph in the warm-up below (mailbox.ts).
      this.mailbox!.deliver(workerData);
    } else this.startPool(workerData);
    // The threads load their modules now, not in the first superstep (a fresh engine's first run
    // took 3-5x the warm time), the programs' kernels named in the frame too; Engine.create sends
    // no superstep before this ready.
    if (this.gang !== undefined) await this.gang.warm(frame.modules ?? []);
    else {
      // No gang (TESSERA_GANG=0): one for the imports alone, whose threads must not hold the pool's.
      const once = new Gang(this.pool!, this.threads);
      await once.warm(frame.modules ?? []);
      once.close();
    }
    this.link.send({ type: 'ready', actor: this.name, device: 'cpu', emulated: false, memoryLimit: 0 });
  }

  private async superstep(frame: SuperstepFrame, shared: SharedArrayBuffer[]): Promise<void> {
    const pool = this.pool;
    if (pool === undefined) throw new Error('superstep before load');
    const f = this.withTasks(frame);
    const t0 = performance.now();
    const base: Omit<TaskMessage, 'queue'> = {
      // A fresh key per superstep frame: the worker caches its typed-array views under it, and an
      // Engine runs many programs (step numbers restart at 0 for each).
      key: `${this.name}:${++this.frames}:${f.kernel}`,
      kernel: f.kernel,
      module: f.module,
      mode: f.mode,
      args: f.args,
      state: f.state.map((s) => ({ name: s.name, kind: s.kind, buffer: shared[s.buffer]! })),
      frontier: f.frontierBitmap === undefined ? undefined : shared[f.frontierBitmap],
      frontierList: f.frontierList === undefined ? undefined : shared[f.frontierList],
      next: shared[f.nextBitmap]!,
      wantList: f.wantList,
      listCap: f.listCap ?? Infinity,
      pullPages: f.pullPages,
      vertex: f.vertexMap === true,
      countNext: f.countNext === true,
      ...(f.team !== undefined ? { team: shared[f.team]!, teamSize: this.threads } : {}),
    };
    // One shared queue per batch of work: the frame's tasks, then each answer to an idle ask.
    let queue = new TaskQueue(f.tasks);
    const cur = { step: f.step, kernel: `${f.module}#${f.kernel}`, queue, t0, edgesDone: 0 };
    this.cur = cur;
    const totals = { active: 0, sum: 0, edges: 0, tasks: 0, computeMs: 0, stolen: 0, stolenEdges: 0, nextEdges: 0 };
    const found: Uint32Array[] = [];
    // Each task's sum: the coordinator adds them in an order independent of which thread or actor
    // ran which task (completion order made PageRank's dangling mass differ in its last bits from
    // run to run, and a resumed run must equal an uninterrupted one bit for bit).
    const sums: number[] = [];
    // False once a task activated more vertices than listCap: the vote then lists none.
    let listed = true;
    // Stealing: the first thread to find the queue empty asks the coordinator for more work (one
    // request at a time; the others wait for its answer); an empty answer ends the superstep here.
    // An actor reading pages from disk asks for none: they would come from disk twice.
    let exhausted = f.steal === undefined || this.arena !== undefined;
    let asking: Promise<void> | undefined;
    // Edges the kernels walked from earlier queues of this superstep (the thief's rate when it asks).
    let walked = 0;
    const more = (): Promise<void> =>
      (asking ??= this.askForWork(f.step, walked + queue.kernelEdges, performance.now() - t0).then((tasks) => {
        asking = undefined;
        if (tasks.length === 0) exhausted = true;
        else {
          walked += queue.kernelEdges;
          cur.edgesDone += queue.doneEdges;
          queue = cur.queue = new TaskQueue(tasks);
          totals.stolen += tasks.length;
          for (const x of tasks) totals.stolenEdges += x.edges;
        }
      }));
    // Fault injection (engine/faults.ts): the first message of the superstep kills its worker thread.
    let fault: TaskMessage['fault'] = f.step < 0 ? undefined : faultAt('worker-exit', f.step) ? 'exit' : faultAt('worker-throw', f.step) ? 'throw' : undefined;
    // A thread's message returns when the queue it took from is empty; it goes on with the queue of
    // work stolen meanwhile, or asks for some, until the coordinator has none.
    const runOne = async (): Promise<void> => {
      for (;;) {
        if (this.closed) return;
        const q = queue;
        if (q.queued === 0) {
          if (exhausted) return;
          await more();
          continue;
        }
        const msg: TaskMessage = { ...base, queue: q.buffer, ...(fault !== undefined ? { fault } : {}) };
        fault = undefined;
        add((await pool.run(msg)) as TaskResult);
      }
    };
    const add = (r: TaskResult): void => {
      totals.active += r.active;
      for (const x of r.sums) if (x !== 0) (sums.push(x), (totals.sum += x));
      totals.edges += r.edges;
      totals.nextEdges += r.nextEdges;
      totals.tasks += r.tasks;
      totals.computeMs += r.ms;
      if (r.discovered) found.push(r.discovered);
      else if (f.wantList && r.tasks > 0) listed = false;
    };
    // Without stealing or an injected fault the threads run as a gang (one ring, gang.ts); else one
    // pool.run per thread (a thread can then ask for stolen work, or die where a test says). An
    // engine that steals (several actors) never gangs: the gang's threads would hold the pool's
    // workers while pool.run waits for them.
    if (f.steal !== undefined) {
      this.gang?.close();
      this.gang = undefined;
    }
    const dispatch = async (): Promise<void> => {
      if (base.team !== undefined) return this.teamRun({ ...base, queue: queue.buffer }, add);
      if (fault === undefined && this.gang !== undefined) for (const r of await this.gang.run({ ...base, queue: queue.buffer })) add(r);
      else {
        this.gang?.close();
        await Promise.all(Array.from({ length: this.threads }, runOne));
      }
    };
    const arena = this.arena;
    let disk: DiskStats | undefined;
    if (arena === undefined || f.vertexMap === true || f.tasks.length === 0) {
      // No tasks and none to steal (GPUs own every vertex): the threads are not woken (a round of
      // the gang costs this thread ~1 ms a superstep, before the GPU actors' frames are handled).
      if (f.tasks.length > 0 || f.steal !== undefined) await dispatch();
    } else {
      // Pages from disk: batches whose pages fit half the arena, the next one's read meanwhile.
      const list = f.frontierList === undefined ? undefined : new Uint32Array(shared[f.frontierList]!);
      const how = { mode: f.mode, pullPages: f.pullPages, list };
      const plan: Batch[] = batches(f.tasks, arena.batchBytes, (t, into) => taskKeys(this.graph!, t, how, into), (k) => arena.pageBytes(k));
      // Forwards and backwards in turn: a superstep starts on the pages the last one ended with.
      if ((this.passes++ & 1) === 1) plan.reverse();
      const read0 = arena.bytesRead;
      const w0 = performance.now();
      const first = arena.stage(plan[0]!.keys, new Set());
      await arena.fill(first);
      arena.commit(first);
      disk = { batches: plan.length, pages: first.length, bytes: 0, waitMs: performance.now() - w0 };
      for (let b = 0; b < plan.length; b++) {
        if (b > 0) {
          cur.edgesDone += queue.doneEdges;
          queue = cur.queue = new TaskQueue(plan[b]!.tasks);
        } else if (plan.length > 1) queue = cur.queue = new TaskQueue(plan[0]!.tasks);
        const ahead = b + 1 < plan.length ? arena.stage(plan[b + 1]!.keys, new Set(plan[b]!.keys)) : [];
        let ran = 0;
        await Promise.all([dispatch().then(() => (ran = performance.now())), arena.fill(ahead)]);
        disk.waitMs += performance.now() - ran;
        disk.pages += ahead.length;
        arena.commit(ahead);
      }
      disk.bytes = arena.bytesRead - read0;
    }
    this.cur = undefined;
    const ms = performance.now() - t0;
    const done = cur.edgesDone + queue.doneEdges;
    if (done > 0 && ms > 0) this.lastRate.set(cur.kernel, done / (ms / 1000));
    let discovered: Uint32Array | undefined;
    const count = found.reduce((a, b) => a + b.length, 0);
    if (f.wantList && listed && count <= (f.listCap ?? Infinity)) {
      discovered = new Uint32Array(count);
      let at = 0;
      for (const d of found) {
        discovered.set(d, at);
        at += d.length;
      }
    }
    this.link.send({
      type: 'vote',
      actor: this.name,
      step: f.step,
      active: totals.active,
      sum: totals.sum,
      ...(sums.length > 0 ? { sums: Float64Array.from(sums) } : {}),
      edges: totals.edges,
      tasks: totals.tasks,
      stolen: totals.stolen,
      stolenEdges: totals.stolenEdges,
      computeMs: ms,
      busyMs: totals.computeMs,
      discovered,
      ...(f.countNext === true ? { nextEdges: totals.nextEdges } : {}),
      ...(disk !== undefined ? { disk } : {}),
    });
  }

  /**
   * A team (SuperstepFrame.team): the gang's threads all run the message together. A thread that
   * fails, or dies, leaves the others at a barrier: they are let go (they throw TeamAborted) before
   * the failure is reported.
   */
  private async teamRun(msg: TaskMessage, add: (r: TaskResult) => void): Promise<void> {
    if (this.gang === undefined) throw new Error('a team needs the socket threads as a gang (TESSERA_GANG=0 turns it off; RunContext.teamwork says so)');
    try {
      for (const r of await this.gang.run(msg)) add(r);
    } catch (e) {
      abortTeam(msg.team!);
      throw e;
    }
  }

  /** Sends `idle` and resolves with the tasks the coordinator found (none: nothing to steal). */
  private askForWork(step: number, edges: number, busyMs: number): Promise<Task[]> {
    // Threads of one socket share host memory with every other socket: nothing crosses a link.
    return this.requests.ask(() => this.link.send({ type: 'idle', actor: this.name, step, edges, busyMs, bytesPerEdge: 0, bytesPerVertex: 0 }));
  }

  /** A thief asks for work: give up tasks from the tail of the queue (those not started). */
  private release(f: ReleaseFrame): void {
    const cur = this.cur;
    let tasks: Task[] = [];
    if (cur !== undefined && cur.step === f.step) {
      const ms = performance.now() - cur.t0;
      const done = cur.edgesDone + cur.queue.doneEdges;
      // Rate so far this superstep; before any task ended, the last superstep's of this kernel.
      const rate = done > 0 && ms > 0 ? done / (ms / 1000) : (this.lastRate.get(cur.kernel) ?? 0);
      tasks = cur.queue.release((queued) => {
        // Tasks of part of a hub's edges stay (a GPU thief pushes whole frontier slices): only the
        // queue after the last of them is offered.
        let cut = queued.length;
        while (cut > 0 && queued[cut - 1]!.edgeHi === undefined) cut--;
        return releaseFromTail(queued.slice(cut), f, rate).length;
      });
    }
    this.link.send({ type: 'released', actor: this.name, step: f.step, tasks, left: cur?.queue.queuedEdges ?? 0 });
  }
}
