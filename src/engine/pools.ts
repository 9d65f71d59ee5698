/**
 * The engine's pools of state arrays and frontier byte maps (Run.alloc and Run.bitmap take from
 * them; a finished run gives back all but its result), filled ahead for the programs an engine is
 * told it will run (EngineOptions.preload): their first run then takes faulted-in memory as later
 * runs do. Fresh memory costs its page faults at the first touch: a GPU-only BFS of RMAT 24 spent
 * ~8 ms allocating in a session's first run against ~3 in later ones.
 */
import type { Graph } from '../graph/types.js';
import type { AnyProgram, ScratchSpec, StateSpecs } from './define.js';
import { fillArray, populate, prefault } from './fill.js';
import { kindOf } from './fold.js';
import { sharedArray, type StateArray } from './kernel.js';
import type { StateKind } from '../wire/frames.js';
import { mayHoldResult, type PinnedOutputs } from './pinned-outputs.js';

/** Byte maps a superstep holds at once: its frontier and its next. */
const BITMAPS = 2;

/** A pool's key: arrays of one kind and length serve each other. */
export function poolKey(kind: StateKind, length: number): string {
  return `${kind}:${length}`;
}

/** A fresh frontier byte map of n entries, faulted in: zero, or every byte `fill`. */
export function newBitmap(n: number, fill = 0): Uint8Array {
  const b = new Uint8Array(new SharedArrayBuffer(Math.max(8, n)));
  if (fill === 0) prefault(b);
  else fillArray(b, fill);
  return b;
}

/** Pooled arrays no run has written yet (zero throughout): a run that wants zeros takes them as they are. */
const pristine = new WeakSet<ArrayBufferLike>();
/** Marks `a` (fresh, so zero) as pristine until taken. */
export function markPristine(a: StateArray): void {
  pristine.add(a.buffer);
}
/**
 * An array of `list` (its last, the one pooled last, by default): for a run that wants zeros a
 * pristine one where there is one, for any other a written one where there is one, so that the
 * zeros are not spent on an array filled anyway (bc's unset dist, sigma and delta took the fresh
 * replacement of its output, whose next run zeroed a written one: 134 MB at RMAT 24).
 */
export function takePooled(list: StateArray[] | undefined, zeros: boolean): StateArray | undefined {
  if (list === undefined || list.length === 0) return undefined;
  for (let i = list.length - 1; i >= 0; i--) if (pristine.has(list[i]!.buffer) === zeros) return list.splice(i, 1)[0];
  return list.pop();
}

/** Whether `a` was pristine; it is not once taken. */
export function takePristine(a: StateArray): boolean {
  return pristine.delete(a.buffer);
}

const onesMaps = new WeakMap<Pools, Uint8Array>();
/**
 * The engine's all-ones byte map, the bitmap of every Run.all() frontier: filled once per engine
 * (a fresh map filled with ones and cleared again each run cost two passes over n bytes), read by
 * supersteps and programs, written by neither (frontiers are read-only, program.ts).
 */
export function allOnes(e: Pools): Uint8Array {
  let b = onesMaps.get(e);
  if (b === undefined) {
    b = newBitmap(e.graph.numVertices, 1);
    onesMaps.set(e, b);
  }
  return b;
}

export interface Pools {
  readonly graph: Graph;
  readonly arrayPool: Map<string, StateArray[]>;
  readonly bitmapPool: Uint8Array[];
  /** With GPU actors: the pooled arrays locked at create for their read-backs (pinned-outputs.ts). */
  readonly pinned?: PinnedOutputs;
  /** Whether GPU actors own every vertex (no CPU socket's state to exchange). */
  readonly gpusOwnAll?: boolean;
  /** Whether the engine is closing (nothing more to pool). */
  readonly closed?: boolean;
}

/**
 * Per kind and length, as many arrays as the most any one of `programs` declares (state, and the
 * scratch its driver takes; team scratch only where `teams`: the engine may run teams), less those
 * pooled already (runs are sequential: one program's arrays serve the next); and the byte maps.
 */
export function warmPools(e: Pools, programs: readonly AnyProgram[], teams = false): void {
  const want = new Map<string, { kind: StateKind; length: number; count: number }>();
  for (const p of programs) {
    const mine = new Map<string, number>();
    const specs: ScratchSpec[] = [...Object.values(p.state as StateSpecs), ...Object.values(p.scratch ?? {}).filter((s) => teams || s.team !== true)];
    for (const s of specs) {
      const length = s.length?.(e.graph) ?? e.graph.numVertices;
      const key = poolKey(s.type, length);
      const count = (mine.get(key) ?? 0) + 1;
      mine.set(key, count);
      const w = want.get(key);
      if (w === undefined) want.set(key, { kind: s.type, length, count });
      else w.count = Math.max(w.count, count);
    }
  }
  for (const [key, w] of want) {
    const list = e.arrayPool.get(key) ?? [];
    while (list.length < w.count) {
      const a = sharedArray(w.kind, w.length);
      prefault(a);
      markPristine(a);
      list.push(a);
    }
    e.arrayPool.set(key, list);
  }
  if (programs.length === 0) return;
  // Where CPU sockets own vertices too, every superstep copies state and byte maps both ways: all
  // are locked (CPU + GPU at share 0.6, RMAT 24: PageRank 234.67-241.58 ms against 254.95-260.97
  // with the results alone; bfs, wcc unchanged; bench/results/h200-2026-11-29-pinned-outputs).
  const all = e.pinned !== undefined && e.gpusOwnAll === false;
  if (e.pinned !== undefined) {
    for (const [key, w] of want) if (all || mayHoldResult(programs, w.kind, w.length, e.graph.numVertices)) for (const a of e.arrayPool.get(key)!) e.pinned.ahead(a);
  }
  while (e.bitmapPool.length < BITMAPS) e.bitmapPool.push(newBitmap(e.graph.numVertices));
  const ones = allOnes(e);
  if (all) for (const b of [...e.bitmapPool, ones]) e.pinned!.ahead(b);
}

/** Per engine, the outputs its runs handed to their callers, by buffer: the whole array (Engine.recycle). */
const handed = new WeakMap<Pools, WeakMap<ArrayBufferLike, StateArray>>();

/** A run's output `a` (the whole pooled array) went to the caller. */
export function markHanded(e: Pools, a: StateArray): void {
  let m = handed.get(e);
  if (m === undefined) handed.set(e, (m = new WeakMap()));
  m.set(a.buffer, a);
}

/** Puts `a` in the engine's pool of its kind and length, for a later run's alloc. */
export function giveBack(e: Pools, a: StateArray): void {
  const key = poolKey(kindOf(a), a.length);
  const list = e.arrayPool.get(key) ?? [];
  list.push(a);
  e.arrayPool.set(key, list);
}

/**
 * Takes back an output this engine handed out (its values, or a view of them) into its pools,
 * once, so that a later run writes into it instead of faulting in fresh memory; false for any
 * other array (a driver's own result array, one handed back already).
 */
export function recycleOutput(e: Pools, values: { buffer: ArrayBufferLike }): boolean {
  const m = handed.get(e);
  const a = m?.get(values.buffer);
  if (a === undefined) return false;
  m!.delete(values.buffer);
  // It takes the place of its replacement where no run took that yet: the pool keeps its size.
  const fresh = replacements.get(a.buffer);
  const list = e.arrayPool.get(poolKey(kindOf(a), a.length));
  const i = fresh === undefined || list === undefined ? -1 : list.indexOf(fresh);
  if (i >= 0) list!.splice(i, 1);
  giveBack(e, a);
  return true;
}

/** A handed output's replacement in the pool (replenish), by the output's buffer. */
const replacements = new WeakMap<ArrayBufferLike, StateArray>();

/** Per engine and pool key, replacements promised (replenish) and not made yet. */
const owed = new WeakMap<Pools, Map<string, number>>();
/** Per engine, the replacements made so far. */
const made = new WeakMap<Pools, number>();

/** How many replacement arrays the engine's pools made (replenish). */
export function replacementsMade(e: Pools): number {
  return made.get(e) ?? 0;
}

/**
 * A pooled array `a` went to the caller as a run's output: a fresh one of its kind and length takes
 * its place in the pool, faulted in on the addon's threads while the caller goes on, so that the
 * next run writes faulted-in memory as the first did (a GPU-only run writing its result into fresh
 * memory paid the page faults in its read-back). Made a turn of the event loop later, and not at
 * all where the caller handed the result back by then (Engine.recycle straight after the run, as
 * the bench harness does) or a run took a fresh array in its place meanwhile (owedTaken): a
 * caller that hands every result back would have a fresh array (134 MB for bfs at RMAT 25)
 * allocated, faulted in on the addon's threads and dropped again after every run.
 */
export function replenish(e: Pools, a: StateArray): void {
  const key = poolKey(kindOf(a), a.length);
  let m = owed.get(e);
  if (m === undefined) owed.set(e, (m = new Map()));
  m.set(key, (m.get(key) ?? 0) + 1);
  const buf = a.buffer;
  setImmediate(() => {
    const n = m.get(key) ?? 0;
    if (n === 0) return;
    m.set(key, n - 1);
    if (handed.get(e)?.has(buf) !== true || e.closed) return;
    const b = sharedArray(kindOf(a), a.length);
    populate(b);
    markPristine(b);
    made.set(e, (made.get(e) ?? 0) + 1);
    replacements.set(buf, b);
    giveBack(e, b);
  });
}

/** A run found no pooled array of `kind` and `length` and made its own: it stands for one replacement owed. */
export function owedTaken(e: Pools, kind: StateKind, length: number): void {
  const m = owed.get(e);
  const key = poolKey(kind, length);
  const n = m?.get(key) ?? 0;
  if (n > 0) m!.set(key, n - 1);
}
