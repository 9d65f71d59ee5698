/**
 * Frames exchanged between the coordinator and actors (DESIGN.md "Execution"). Every frame is
 * encoded with msgpackr (typed arrays travel inside frames as msgpack extensions), so an actor
 * could live in another process. In-process actors additionally receive SharedArrayBuffers by
 * reference through the channel's side table (see channel.ts): an optimisation, not a protocol
 * assumption.
 */
// The subpath: msgpackr's main entry also loads its stream classes and looks for its optional native
// string extractor, ~30 ms of every thread's start (the main one and each socket worker's).
import { Packr } from 'msgpackr/pack';
import type { ProgramOperators } from '../engine/operators.js';

export type Mode = 'push' | 'pull';

/** A unit of work: a vertex range of one page, a run of split pages of one vertex, or a frontier slice. */
export interface Task {
  /** First page index (pull tasks) — in-pages for pull. */
  page: number;
  /** Number of consecutive pages (> 1: split pages of one vertex). */
  count: number;
  /** Local vertex range within the page (pull) or frontier slice [lo, hi) (push). */
  lo: number;
  hi: number;
  /** Edges this task covers (for balancing and reports). */
  edges: number;
  /**
   * A push task of one vertex (hi = lo + 1) whose kernel allows it (CpuKernel.splitPush): only
   * its out-edges [edgeLo, edgeHi), counted from its first. A hub's edges are cut across tasks so
   * that no thread walks them alone (RMAT 24's top-down BFS from its hub: 239 k edges on one
   * thread took 47 ms of a 430 ms CPU-only run on the H100 host).
   */
  edgeLo?: number;
  edgeHi?: number;
}

export interface LoadFrame {
  type: 'load';
  graphId: number;
  numVertices: number;
  numEdges: number;
  directed: boolean;
  /** Index into the side table of SharedArrayBuffers, per page and per orientation. */
  outPages: PageRef[];
  inPages: PageRef[] | 'same';
  firstPageOut: number;
  firstPageIn: number;
  outDegree: number;
  inDegree: number;
  weightType?: 'float32' | 'float64';
  pageEdges: number;
  /** GPU actors only: the device to open and the vertex ranges the actor owns for the whole run. */
  gpu?: GpuLoad;
  /** Pages read from a .tsr on demand (src/graph/store.ts); their PageRefs name no buffer (-1). */
  store?: StoreLoad;
  /** Socket actors: kernel modules (URLs) their threads import before ready (EngineOptions.preload). */
  modules?: string[];
}

/** A socket actor's page reads in a superstep (graph/store.ts). */
export interface DiskStats {
  /** Batches the tasks ran in, pages read into its arena, and their bytes. */
  batches: number;
  pages: number;
  bytes: number;
  /** Time the threads waited for reads (the first batch's, and any read outlasting a batch). */
  waitMs: number;
}

/** Where a page store's pages lie, and a socket actor's arena of its cache (actors/cpu/arena.ts). */
export interface StoreLoad {
  file: string;
  source: string;
  cacheBytes: number;
  maxBlob: number;
  /** Page blobs by key: out-pages, then (directed graphs) in-pages. */
  entries: Array<{ index: number; vBegin: number; vEnd: number; split: boolean; edges: number; offset: number; length: number; checksum: number }>;
  /** Side-table indices of each orientation's resident offsets, and where each page's start. */
  offsetsOut: number;
  offsetsAtOut: Uint32Array;
  offsetsIn: number;
  offsetsAtIn: Uint32Array;
  /** Socket actors: the page table (two Int32 per key, ArenaTable) and the arena's chunks. */
  where?: number;
  chunks?: number[];
}

/** What a GPU actor needs besides the graph (TOTEM: a GPU owns a partition for the whole run). */
export interface GpuLoad {
  device: number;
  emulated: boolean;
  memoryLimit?: number;
  streams: number;
  /** Host bytes for pages read from disk (its share of hostMemoryLimit; graph/store.ts storeArenas). */
  hostBuffer?: number;
  /**
   * Internal ids whose state the actor's device replica owns: sorted, disjoint [begin, end)
   * ranges (one for HIGH/LOW, the merged ranges of its pages for RAND; none: it owns nothing).
   */
  owned: Array<[number, number]>;
  /** false: register the pages without their weights (every program the engine preloads reads none: ProgramSpec.readsWeights). */
  weights?: false;
}

export interface PageRef {
  buffer: number;
  /** Where the page starts in that buffer (bytes; absent: 0). */
  base?: number;
  vBegin: number;
  vEnd: number;
  edges: number;
  split: boolean;
}

export interface StateRef {
  name: string;
  kind: StateKind;
  buffer: number;
  /** Entries in use (the buffer may be longer); absent in frames from older senders. */
  length?: number;
}
export type StateKind = 'f64' | 'f32' | 'i32' | 'u32' | 'u8';

export interface SuperstepFrame {
  type: 'superstep';
  step: number;
  /** The run's first superstep (a resumed run's first has a step number > 0): device copies of an earlier run are stale. */
  first?: boolean;
  /** The kernel: an export of the program's kernels module. */
  kernel: string;
  /** URL of the program's kernels module (CPU workers import it). */
  module: string;
  /** URL of the program's GPU module (built-ins: handlers of precompiled native kernels; GPU actors import it). */
  gpu?: string;
  /** The program's GPU operators (GPU actors only; src/engine/operators.ts). */
  ops?: ProgramOperators;
  /** GPU actors only: false where the program reads no edge weights (ProgramSpec.readsWeights): pages registered without them serve. */
  pageWeights?: false;
  /**
   * GPU actors only: the state names (as this call passes them) whose host arrays nothing but the
   * folds of the run's supersteps changed since the previous one (declared `resident`, no
   * vertexMap since): a device copy equal to the host's after that superstep may be kept.
   */
  resident?: string[];
  /**
   * GPU actors only, for each `resident` name: the last superstep before this one that passed its
   * host array, or after which a vertex map or CPU-only superstep wrote it (the next superstep's
   * number). A GPU owning every vertex keeps a device copy equal to the host's after superstep j
   * while j is at least that (an array the supersteps between did not pass: ppr's outW between
   * its applies); absent, only the previous superstep's copy is kept.
   */
  touched?: Record<string, number>;
  /**
   * GPU actors, a pull: only vertices whose state `state` equals `value` change (EdgeMapOptions.
   * pullIf); a page without one need not be walked (GpuActor.pullPages).
   */
  pullIf?: { state: string; value: number };
  /**
   * GPU actors: the frontier is the next frontier of the previous edge step, as that step's votes
   * and folds left it (a GPU owning every vertex holds it in its next flags already).
   */
  frontierIsNext?: boolean;
  mode: Mode;
  args: Record<string, number>;
  state: StateRef[];
  /** Frontier as a bitmap (pull) and/or a vertex list (push): side-table indices. */
  frontierBitmap?: number;
  frontierList?: number;
  /** Bitmap the kernels mark newly active vertices in (side-table index). */
  nextBitmap: number;
  /** Pages pull tasks index: in-pages (default) or out-pages. */
  pullPages: 'in' | 'out';
  /** Whether push kernels should list the vertices they activate. */
  wantList: boolean;
  /**
   * With wantList: the most vertices an actor lists; one that activated more sends no list (the
   * coordinator then reads the next frontier off its bitmap, in vertex order, instead).
   */
  listCap?: number;
  tasks: Task[];
  /**
   * A socket actor's cached task list (an engine's dense tasks, the same every dense superstep):
   * sent with its tasks the first time, with `tasks` empty after; the actor keeps it by this name.
   * Encoding RMAT 22's ~300 dense tasks was ~0.3 ms of the coordinator's thread a superstep.
   */
  taskSet?: string;
  /**
   * Page stealing this superstep (Garaph): 'auto' — an actor whose queue empties sends `idle`,
   * and a victim gives up the tail of its queue when planSteal says it pays; 'always' — a victim
   * gives up half its queue whenever asked (tests); absent — no stealing.
   */
  steal?: 'auto' | 'always';
  /**
   * A vertex map (Ligra's vertexMap), not an edge step: each task is a range [lo, hi) of vertex
   * ids run with the kernel's `vertex`; sent to CPU socket actors only (it writes host state).
   */
  vertexMap?: boolean;
  /**
   * A vertex map on the GPU actors (GPUs owning every vertex, the kernel's GPU operator has a
   * `vertex` mode): each runs the operator's `vertex` over its owned vertices, no pages read; the
   * state and next flags go back as a pull's (each vertex written by its owner).
   */
  vertexOp?: true;
  /** GPU actors: the frontier is every vertex (all ones): a pull sets its device frontier there instead of copying the bitmap. */
  frontierFull?: true;
  /**
   * A team (RunContext.team, socket actors only): every thread runs the kernel's `team` once,
   * meeting the others at barriers in this control block (side-table index; engine/team.ts). The
   * tasks are the pull tasks the kernel may walk; no stealing.
   */
  team?: number;
  /**
   * Supersteps of a kernel that may switch mode: each pull task sums the out-degrees of the
   * vertices of its range it activated (vote.nextEdges), so Ligra's switch before the next
   * superstep needs no pass over the byte map; socket actors' pushes sum those of the vertices
   * their kernel listed (NaN when it did not list every activation).
   */
  countNext?: boolean;
  /**
   * GPU actors of an engine whose GPUs own every vertex: where the coordinator's fold of superstep
   * `step` (the previous edge step) wrote each state array (residency.ts 'patch' mirrors).
   */
  changed?: FoldChanges;
  /**
   * GPU actors owning every vertex (held.ts): the call's arrays (declared resident 'device') whose
   * device copy need not be copied back after this superstep, and (`holdNext`) whether its next
   * flags may stay on the device (the vote then carries their count and out-edges only).
   * `frontierHeld`: this superstep's frontier is such flags, held by the previous superstep.
   */
  held?: string[];
  holdNext?: boolean;
  frontierHeld?: boolean;
  /**
   * Not a superstep (GPU actors only): copy the device's values of the frame's state arrays (those
   * the actor held) into the host arrays, and with `next` its next flags into the next bitmap.
   */
  settle?: { next: boolean };
}

/**
 * Where a fold wrote each state array (by the name the superstep passed it under): `ids` (a side-
 * table index of a u32 list, `count` entries) from merges and outboxes, and `spans`, the ranges
 * flagged or synced, by actor. Entries the fold left as they were may be named too.
 */
export interface FoldChanges {
  step: number;
  states: Array<{ name: string; ids?: number; count: number; spans: Array<{ actor: string; begin: number; end: number }> }>;
}

/** Actor -> coordinator: my queue is empty and I can take more work of this superstep. */
export interface IdleFrame {
  type: 'idle';
  actor: string;
  step: number;
  /** What it did so far this superstep: its rate estimate (edges / busyMs). */
  edges: number;
  busyMs: number;
  /** Bytes that cross its link per stolen edge / per stolen vertex (0 when it shares host memory). */
  bytesPerEdge: number;
  bytesPerVertex: number;
}

/** Coordinator -> victim: give up tasks from the tail of your queue for `thief`. */
export interface ReleaseFrame {
  type: 'release';
  step: number;
  thief: string;
  /** The thief's rate, edges/s (0: unknown). */
  thiefRate: number;
  bytesPerEdge: number;
  bytesPerVertex: number;
  /** Link bytes/s between the thief and host memory (Infinity: shared memory). */
  linkBytesPerSec: number;
  overheadS: number;
  policy: 'auto' | 'always';
}

/** Victim -> coordinator: the tasks it took off its queue (possibly none). */
export interface ReleasedFrame {
  type: 'released';
  actor: string;
  step: number;
  tasks: Task[];
  /** Edges still queued at the victim after this answer (steers the next choice of victim). */
  left: number;
}

/** Coordinator -> thief: stolen tasks to run in this superstep; none: stop asking. */
export interface MoreFrame {
  type: 'more';
  step: number;
  from: string;
  tasks: Task[];
}

export interface StopFrame {
  type: 'stop';
}

/** Actor -> coordinator: the actor's queue is empty; its totals for the superstep. */
export interface VoteFrame {
  type: 'vote';
  actor: string;
  step: number;
  /** Vertices this actor activated for the next superstep (0 = votes to halt). */
  active: number;
  /** Sum of the kernels' scalar outputs (e.g. dangling rank mass). */
  sum: number;
  /** The non-zero sums of each task (socket actors): the coordinator adds them in a fixed order (stepSum). */
  sums?: Float64Array;
  edges: number;
  tasks: number;
  /** Tasks this actor took from other actors' queues this superstep, and their edges. */
  stolen: number;
  stolenEdges?: number;
  computeMs: number;
  /** Socket actors: the time its threads spent in tasks, summed (threads x computeMs when none waited). */
  busyMs?: number;
  /** With countNext: the out-degrees of the vertices this actor activated, summed. */
  nextEdges?: number;
  /** Socket actors over a page store: what they read from disk into their arenas (DiskStats). */
  disk?: DiskStats;
  /** Newly active vertices discovered by push tasks, when the kernel lists them. */
  discovered?: Uint32Array;
  /**
   * Aggregated outgoing messages (remote-memory actors): destination ids and values, one per
   * destination, reduced into `state` on the coordinator with `op`; `before` counts the messages
   * before aggregation at the source when the actor can tell (else the entries).
   */
  outbox?: StateMerge & { before: number };
  /** Changes to vertices the actor owns, reduced into the coordinator's copy like the outbox. */
  merges?: StateMerge[];
  /** Vertices to activate besides those the folds activate (a GPU operator's push marked them). */
  activate?: Uint32Array;
  /** Dense values of the actor's owned range (it was the only writer there this superstep). */
  sync?: StateSync[];
  /** Changes to own vertices as flags over a range instead of (id, value) pairs. */
  flagged?: FlagMerge[];
  /** Device counters of a GPU actor for this superstep. */
  gpu?: GpuStepStats;
  /** What a GPU actor kept on its device and did not copy back (SuperstepFrame.held / holdNext). */
  held?: { state: string[]; next: boolean };
}

/**
 * How values from another memory are folded into the coordinator's state: 'min' keeps the
 * smaller, 'claim' sets entries still at the unvisited sentinel -1 (BFS depth), 'sum' adds.
 * With `activate`, a vertex whose value the fold changed joins the next frontier.
 */
export type MergeOp = 'min' | 'max' | 'or' | 'claim' | 'sum';
export interface StateMerge {
  state: string;
  op: MergeOp;
  activate: boolean;
  ids: Uint32Array;
  values: Float64Array;
}

/**
 * Changes to an actor's own vertices as one flag byte per vertex of [begin, end) instead of a list
 * of (id, value) pairs to encode, decode and fold one random write at a time (a push level of
 * RMAT 24 claims ~10 M vertices): folded in vertex order like a merge with `op` that activates.
 * 'claim': every flagged vertex took `value` (BFS: level + 1); 'min': its value is in `values`.
 */
export interface FlagMerge {
  state: string;
  op: 'claim' | 'min';
  begin: number;
  end: number;
  value?: number;
  /** The flags and values inline (an actor in another process)... */
  flags?: Uint8Array;
  values?: Float64Array | Float32Array | Int32Array | Uint32Array;
  /** ...or (in-process) indices of shared buffers sent with the vote, holding them at [begin, end). */
  flagsBuffer?: number;
  valuesBuffer?: number;
}

export interface StateSync {
  state: string;
  begin: number;
  /** The values inline (an actor in another process)... */
  values?: Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array;
  /**
   * ...or (in-process) `written`: the actor's device-to-host copy already put this many values
   * into the coordinator's shared array from `begin` (a range no one else wrote this superstep).
   */
  written?: number;
}

export interface GpuStepStats {
  emulated: boolean;
  /** Native kernel calls and the distinct pages they named. */
  calls: number;
  pages: number;
  /** Page cache: hits (page resident, reused), misses (page sent), evictions (LRU). */
  hits: number;
  misses: number;
  evictions: number;
  /** Page bytes copied to the device, and vertex-state bytes moved each way. */
  pageBytes: number;
  stateBytesIn: number;
  stateBytesOut: number;
  /** Pages read from disk: bytes read from the file, and loads served by the host buffer instead. */
  fileBytes?: number;
  bufferHits?: number;
  kernelMs: number;
  copyMs: number;
  /** Wall ms of its native kernel calls (pages, launches and kernels, on the device's thread). */
  runMs?: number;
  /** Wall ms the actor awaited page-locks, state uploads and readbacks this superstep (GpuController.spent). */
  pinMs?: number;
  writeMs?: number;
  readMs?: number;
  /**
   * State bytes this device received from other GPUs device to device (GpuGroup) this superstep,
   * and the wall ms its actor waited at the group's barriers, copies included (the meeting before
   * the superstep; with held state also the swap of updates after its kernels: actors/gpu/held.ts).
   */
  peerBytes?: number;
  peerMs?: number;
  /**
   * State bytes an exchange moved between this device and the others outside the meetings:
   * copied into theirs after its kernels (pr: GpuGroup.exchangeFor), or their next flags copied
   * in at each level's end (bfs's levels: GpuGroup.loopExchange), or its owned contributions
   * copied out at each iteration's end (pr_iterations).
   */
  peerSent?: number;
  /** A traversal's levels run in one native call (kernel 'levels'): a letter a level, T push (top-down), B pull (bottom-up). */
  directions?: string;
  /**
   * Kernel 'levels': each level's wall ms on the device's thread as [pages to walk (activePages),
   * the kernel's call, the meeting with the peers, the next frontier's count and swap].
   */
  levelTimes?: number[][];
}

/** GPU actor -> coordinator after load: the device is open, and which kernels it maps. */
export interface ReadyFrame {
  type: 'ready';
  actor: string;
  device: string;
  emulated: boolean;
  memoryLimit: number;
}

/** Actor -> coordinator: the actor cannot go on (a worker crashed, a device failed). */
export interface ErrorFrame {
  type: 'error';
  actor: string;
  message: string;
  /** Machine-readable cause when known (native controller codes such as TS_OOM, TS_BAD_DEVICE). */
  code?: string;
}

export type CoordinatorFrame = LoadFrame | SuperstepFrame | StopFrame | ReleaseFrame | MoreFrame;
export type ActorFrame = VoteFrame | ErrorFrame | ReadyFrame | IdleFrame | ReleasedFrame;
export type Frame = CoordinatorFrame | ActorFrame;

const packr = new Packr({ moreTypes: true, useRecords: false });

export function encodeFrame(f: Frame): Uint8Array {
  return packr.pack(f);
}

export function decodeFrame<T extends Frame = Frame>(bytes: Uint8Array): T {
  return packr.unpack(bytes) as T;
}
