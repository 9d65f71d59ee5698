/**
 * Piscina worker of a CPU socket actor: holds the graph's pages (shared memory, given once in
 * workerData) and, per call, takes tasks from the superstep's shared queue (task-queue.ts) until
 * none is left, running each with the kernel named in the message header.
 */
import { workerData } from 'node:worker_threads';
import { loadKernels, loadedKernels } from '../../src/engine/kernel-modules.js';
import { IdList, STATE_CTORS, type KernelCtx, type KernelGraph, type StateArray, type TaskOut } from '../../src/engine/kernel.js';
import { loadStoreFor, materializeGraph, type GraphShare } from './share.js';
import { fetchGraph } from './mailbox.js';
import type { Mode, StateKind } from '../../src/wire/frames.js';
import { TaskTaker } from './task-queue.js';
import { activatedEdges, discoveredEdges, kernelThrew, runOne } from '../../src/engine/run-tasks.js';
import { gangLoop, type GangStart } from './gang.js';
import { nativeCpuKernels } from '../gpu/native-host.js';
import { markInputError } from '../../src/errors.js';
import { TeamAborted, TeamView } from '../../src/engine/team.js';

/**
 * What the actor gives a thread: the graph's share, or (a pool started before the graph was
 * loaded, Engine.prestart) the name of the mailbox the graph comes from (mailbox.ts).
 */
export type WorkerData = GraphShare | { mailbox: string };

const given = workerData as WorkerData;
if (!('mailbox' in given)) await loadStoreFor(given);
let graph: KernelGraph = 'mailbox' in given ? (undefined as unknown as KernelGraph) : materializeGraph(given);
let fetching: Promise<void> | undefined;

/** The graph from the mailbox, once per thread; every task of a prestarted pool waits for it. */
function graphReady(): Promise<void> | undefined {
  if (graph !== undefined) return undefined;
  return (fetching ??= fetchGraph((given as { mailbox: string }).mailbox).then(async (share) => {
    await loadStoreFor(share);
    graph = materializeGraph(share);
  }));
}
// The addon's CPU kernels load while the engine starts, not in a program's first superstep.
nativeCpuKernels();

export interface TaskMessage {
  /** Identifies the superstep: workers rebuild their context only when it changes. */
  key: string;
  /** An export of the module at `module` (the program's kernels, imported once per worker). */
  kernel: string;
  module: string;
  mode: Mode;
  args: Record<string, number>;
  state: Array<{ name: string; kind: StateKind; buffer: SharedArrayBuffer }>;
  frontier: SharedArrayBuffer | undefined;
  frontierList: SharedArrayBuffer | undefined;
  next: SharedArrayBuffer;
  wantList: boolean;
  /** The most vertices a task's result lists (beyond it: none, see SuperstepFrame.listCap). */
  listCap: number;
  pullPages: 'in' | 'out';
  /** A vertex map: each task is a range of vertex ids for the kernel's `vertex`. */
  vertex: boolean;
  /** Sum the out-degrees of the vertices the tasks activated (SuperstepFrame.countNext); a push's from its kernel's list (NaN: it listed not all). */
  countNext: boolean;
  /** The superstep's TaskQueue: this thread takes tasks from it until it is empty. */
  queue: SharedArrayBuffer;
  /** A team's control block (SuperstepFrame.team): the kernel's `team` runs instead of the tasks. */
  team?: SharedArrayBuffer;
  /** The team's threads (the socket's). */
  teamSize?: number;
  /** Fault injection (TESSERA_FAULT): the thread exits, or dies of an uncaught exception, in this task. */
  fault?: 'exit' | 'throw';
}

export interface TaskResult {
  active: number;
  /** Tasks run. */
  tasks: number;
  /** Each task's sum, in the batch's order (the coordinator adds them in an order of its own). */
  sums: number[];
  edges: number;
  /** With countNext: out-degrees of the vertices the tasks activated, summed. */
  nextEdges: number;
  ms: number;
  discovered: Uint32Array | undefined;
}

/** This thread's list of the vertices its push tasks activate, reused from superstep to superstep. */
const found = new IdList();

let cachedKey = '';
let cachedCtx: KernelCtx | undefined;

function contextFor(m: TaskMessage): KernelCtx {
  if (m.key === cachedKey && cachedCtx !== undefined) return cachedCtx;
  const state: Record<string, StateArray> = {};
  for (const s of m.state) state[s.name] = new STATE_CTORS[s.kind](s.buffer);
  cachedCtx = {
    graph,
    state,
    args: m.args,
    frontier: m.frontier ? new Uint8Array(m.frontier) : undefined,
    frontierList: m.frontierList ? new Uint32Array(m.frontierList) : undefined,
    next: new Uint8Array(m.next),
    edgeLo: undefined,
    edgeHi: undefined,
  };
  cachedKey = m.key;
  return cachedCtx;
}

/** A piscina task: one superstep message, or (gang.ts) a gang thread's loop over many. */
export default function task(m: TaskMessage | { gang: GangStart }): TaskResult | Promise<TaskResult | void> {
  // A prestarted pool's first gang imports its modules before the graph is there (graphless).
  if ('gang' in m) return Promise.all(m.gang.modules.map((u) => loadKernels(u))).then(() => (m.gang.graphless ? undefined : graphReady())).then(() => gangLoop(m.gang, runNow));
  const wait = graphReady();
  return wait === undefined ? runTask(m) : wait.then(() => runTask(m));
}

/** runTask in a gang: its modules are imported already, so it returns at once. */
function runNow(m: TaskMessage): TaskResult {
  const r = runTask(m);
  if (r instanceof Promise) throw new Error(`kernel module ${m.module} was not imported by the gang`);
  return r;
}

function runTask(m: TaskMessage): TaskResult | Promise<TaskResult> {
  try {
    return runTaskIn(m);
  } catch (e) {
    throw markInputError(e);
  }
}

function runTaskIn(m: TaskMessage): TaskResult | Promise<TaskResult> {
  if (m.team !== undefined) return teamTask(m);
  if (m.fault === 'exit') process.exit(1);
  if (m.fault === 'throw') {
    // Uncaught, outside the task: the thread dies with its task pending (not a rejected task).
    setImmediate(() => {
      throw new Error('injected fault (TESSERA_FAULT worker-throw)');
    });
    return new Promise<TaskResult>(() => undefined);
  }
  const table = loadedKernels(m.module);
  // A module's first task in this worker waits for its import; every later one runs synchronously.
  if (table === undefined) return loadKernels(m.module).then(() => runTask(m));
  const t0 = performance.now();
  const kernel = table.table[m.kernel];
  if (kernel === undefined) throw new Error(`kernel '${m.kernel}' is not exported by ${m.module}`);
  const ctx = contextFor(m);
  found.clear();
  const out: TaskOut = { active: 0, sum: 0, edges: 0, discovered: m.wantList ? found : undefined };
  let nextEdges = 0;
  const sums: number[] = [];
  const taker = new TaskTaker(m.queue);
  let tasks = 0;
  while (taker.take()) {
    out.sum = 0;
    const before = out.edges;
    runOne(kernel, ctx, m, taker.task, out);
    sums.push(out.sum);
    taker.done(out.edges - before, taker.task.edges);
    if (m.countNext && m.mode === 'pull') nextEdges += activatedEdges(graph, ctx.next, m.pullPages, taker.task);
    tasks++;
  }
  if (m.countNext && m.mode === 'push') nextEdges = discoveredEdges(graph, out);
  return {
    active: out.active,
    tasks,
    sums,
    edges: out.edges,
    nextEdges,
    ms: performance.now() - t0,
    discovered: out.discovered !== undefined && out.discovered.length <= m.listCap ? out.discovered.copy() : undefined,
  };
}

/** This thread's part of a team (RunContext.team); a gang runs it on every thread at once. */
function teamTask(m: TaskMessage): TaskResult {
  const t0 = performance.now();
  const table = loadedKernels(m.module);
  if (table === undefined) throw new Error(`kernel module ${m.module} was not imported by the gang`);
  const kernel = table.table[m.kernel];
  if (kernel?.team === undefined) throw new Error(`kernel '${m.kernel}' of ${m.module} has no team function`);
  const taker = new TaskTaker(m.queue);
  const team = new TeamView(m.team!, m.teamSize!, taker.count, (i) => taker.read(i));
  const out: TaskOut = { active: 0, sum: 0, edges: 0, discovered: undefined };
  try {
    kernel.team(contextFor(m), team, out);
  } catch (e) {
    team.abort();
    // Another thread's failure: its own reply carries the error.
    if (e instanceof TeamAborted) return { active: 0, tasks: 0, sums: [], edges: 0, nextEdges: 0, ms: 0, discovered: undefined };
    throw kernelThrew(m.kernel, 'team', e);
  }
  return { active: out.active, tasks: 1, sums: [out.sum], edges: out.edges, nextEdges: 0, ms: performance.now() - t0, discovered: undefined };
}
