/**
 * What a built-in program's GPU module (`gpu` in its definition: src/programs/<name>/gpu.ts)
 * exports: one GpuHandler per kernel that has a precompiled native implementation, named as the
 * kernel's CPU export. The GPU actor imports the module by URL (as workers import CPU kernels),
 * so it names no program; a handler drives the native controller through the actor's methods.
 */
import type { FlagMerge, Mode, StateMerge, StateSync, SuperstepFrame, Task } from '../../src/wire/frames.js';
import { STATE_CTORS, type StateArray } from '../../src/engine/kernel.js';
import type { GpuActor } from './gpu-actor.js';
import type { Graph } from '../../src/graph/types.js';
import { loadExports, type ExportTable } from '../../src/engine/kernel-modules.js';

/** Page set ids registered with the controller. */
export const SET_OUT = 1;
export const SET_IN = 2;
/** In+out neighbour lists of the owned ranges (directed graphs; GpuActor.ensureInOut). */
export const SET_INOUT = 3;
export const SET_UNION = 5;
/** Every in-page (registered on the first steal: stolen vertices lie outside the owned range). */
export const SET_ALLIN = 6;
/** Every out-page, for stolen push tasks (registered on the first). */
export const SET_STOLEN_OUT = 7;

/** Native scratch state of the actor (names no program uses). */
export const FR = '@frontier';
export const NX = '@next';
export const OUTDEG = '@outDegree';
/** Owned byte map (1 = owned), on the device only when the actor owns several ranges. */
export const OWNED = '@owned';

/** Remote updates activate their targets. */
export const ACTIVATE = true;

export interface StepOut {
  edges: number;
  sum: number;
  /** Vertices the actor activated itself (pull kernels that sync their next flags in place). */
  active: number;
  merges: StateMerge[];
  outbox: StateMerge | undefined;
  sync: StateSync[];
  flagged: FlagMerge[];
  /** Vertices to activate besides the folds' (a GPU operator's push). */
  activate?: Uint32Array;
}

/** One superstep as a handler sees it. */
export interface GpuStep {
  f: SuperstepFrame;
  state: Record<string, StateArray>;
  frontier: Uint8Array | undefined;
  list: Uint32Array | undefined;
  /** The coordinator's next-frontier flags (one byte per vertex). */
  next: Uint8Array;
  /** Set by clearNext when the device frontier already holds this superstep's frontier (frontier.ts). */
  frontierOnDevice?: boolean;
  /** What the handler left on the device, not copied back (held.ts; the vote's held). */
  held?: { state: string[]; next: boolean };
  /** Where the fold of the previous edge step wrote each array, by name (SuperstepFrame.changed). */
  changed: Map<string, { ids: Uint32Array | undefined; spans: Array<{ actor: string; begin: number; end: number }> }> | undefined;
}

/** The host views a superstep frame names, over the buffers sent with it (n vertices). */
export function stepOf(f: SuperstepFrame, shared: SharedArrayBuffer[], n: number): GpuStep {
  const state: Record<string, StateArray> = {};
  for (const s of f.state) {
    const a = new STATE_CTORS[s.kind](shared[s.buffer]!);
    state[s.name] = s.length !== undefined && s.length < a.length ? (a.subarray(0, s.length) as StateArray) : a;
  }
  return {
    f,
    state,
    frontier: f.frontierBitmap === undefined ? undefined : new Uint8Array(shared[f.frontierBitmap]!, 0, n),
    list: f.frontierList === undefined ? undefined : new Uint32Array(shared[f.frontierList]!),
    next: new Uint8Array(shared[f.nextBitmap]!, 0, n),
    changed: f.changed === undefined ? undefined : new Map(f.changed.states.map((c) => [c.name, { ids: c.ids === undefined ? undefined : new Uint32Array(shared[c.ids]!, 0, c.count), spans: c.spans }])),
  };
}

export interface GpuHandler {
  modes: Mode[];
  /** Runs vertex maps too (SuperstepFrame.vertexOp: a GPU operator's `vertex` mode). */
  vertex?: true;
  run(a: GpuActor, s: GpuStep): Promise<StepOut>;
  /**
   * Pull kernels whose vertices are written by whoever computes them can take work stolen from a
   * CPU actor's queue: compute vertices [lo, hi) (outside the owned range) after run() and return
   * their values as sync (Garaph's page stealing, GPU as thief).
   */
  steal?(a: GpuActor, s: GpuStep, lo: number, hi: number): Promise<{ sum: number; sync: StateSync[] }>;
  /**
   * Push kernels can take a CPU actor's push tasks (slices of the frontier list): push from those
   * vertices over their out-pages after run(), remote claims going out by outbox; `owned` then
   * reads the owned vertices' changes again (stolen pushes change them too).
   */
  stealPush?: {
    run(a: GpuActor, s: GpuStep, tasks: Task[]): Promise<StateMerge | undefined>;
    owned(a: GpuActor, s: GpuStep): Promise<Pick<StepOut, 'merges' | 'flagged'>>;
  };
  /**
   * Called once when the engine preloads the program (EngineOptions.preload), after every GPU
   * actor has its pages: makes what the program's first run would otherwise make on the device
   * (its device arrays, graph constants such as the original ids), so a session's first run
   * does not pay it. `graph` is the engine's whole graph (ids included).
   */
  prepare?(a: GpuActor, graph: Graph): Promise<void>;
  /**
   * The handler uses no device array of its own and writes no state (the engine's warm-up,
   * engine/warm-up.ts): its step leaves the last program's device arrays and pinned host arrays
   * where they are, and TESSERA_FAULT's GPU faults do not fire in it.
   */
  transient?: true;
}

export type GpuHandlers = ExportTable<GpuHandler>;

function isHandler(x: unknown): x is GpuHandler {
  const h = x as Partial<GpuHandler> | null;
  return h !== null && typeof h === 'object' && typeof h.run === 'function' && Array.isArray(h.modes);
}

/** The handlers of the GPU module at `url`, imported once. */
export function loadGpuHandlers(url: string): Promise<GpuHandlers> {
  return loadExports('gpu', url, isHandler, (e) => e);
}
