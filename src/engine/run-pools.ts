/**
 * A run's buffers over the engine's pools (pools.ts): the state arrays, byte maps and list
 * buffers it takes, its frontiers' bitmaps recycled as they are consumed or released, and all of
 * it given back when the run ends. Run (run.ts) extends it with the RunContext a driver sees.
 */
import type { Graph } from '../graph/types.js';
import type { StateKind } from '../wire/frames.js';
import { sharedArray, type StateArray } from './kernel.js';
import { fillArray, populate, prefault } from './fill.js';
import { allOnes, giveBack, markHanded, newBitmap, owedTaken, poolKey, replenish, takePooled, takePristine } from './pools.js';
import type { Frontier } from './program.js';
import type { Engine } from './coordinator.js';
import { notVertex } from './call-checks.js';

/** Lists from this many entries take their buffers from the run's and engine's spares (Run.listArray). */
const LIST_POOL_MIN = 1 << 16;

/** A next frontier a GPU kept on its device: its host bitmap (clean until settled), and who made it. */
interface HeldNext {
  frontier: Frontier;
  bitmap: Uint8Array;
  step: number;
  kernel: string;
}

/** What a run takes from the engine's pools and gives back (Run's buffers and frontier bookkeeping). */
export abstract class RunPools {
  protected spare: Uint8Array[] = [];
  /** Frontiers edgeMap returned: consumed (their bitmap reused) when given back to edgeMap. */
  protected readonly produced = new WeakSet<Frontier>();
  /**
   * Next frontiers whose host bitmap nobody wrote: nothing activated and no CPU actor ran a task
   * (GPUs write host flags only through counted folds). Recycled without clearing: PageRank's
   * 33.5 MB map at RMAT 25 took ~0.5 ms of every iteration on the H200 host.
   */
  protected readonly untouched = new WeakSet<Frontier>();
  /** Frontiers frontierOf made: their bitmap is reused only when the driver releases them. */
  private readonly made = new WeakSet<Frontier>();
  /** Frontiers made or produced whose bitmap is not recycled yet: finish clears them as release would. */
  protected readonly live = new Set<Frontier>();
  /** Every array and bitmap this run took, for the engine's pools when it ends. */
  private readonly taken: StateArray[] = [];
  /** Those of `taken` that came from the engine's pools. */
  private readonly fromPool = new WeakSet<StateArray>();
  private readonly bitmaps: Uint8Array[] = [];
  /** The next frontier a GPU holds (Run.hold): its host bitmap is spared as it is, never read. */
  protected heldNext: HeldNext | undefined;
  /** Spare buffers of long lists: those of frontiers consumed in this run. */
  private listSpare: SharedArrayBuffer[] = [];
  /** The list buffers this run handed out from the pools or allocated (returned when consumed). */
  private readonly pooledLists = new WeakSet<ArrayBufferLike>();

  constructor(protected readonly engine: Engine) {}

  abstract get graph(): Graph;
  /** GPU actors of the topology (RunContext.gpuActors): with them, fresh arrays are faulted in on other threads. */
  abstract get gpuActors(): number;

  alloc(kind: StateKind, fill: number | 'unset' = 0, length = this.graph.numVertices): StateArray {
    const pooled = takePooled(this.engine.arrayPool.get(poolKey(kind, length)), fill === 0);
    const a = pooled ?? sharedArray(kind, length);
    if (pooled !== undefined) this.fromPool.add(a);
    else owedTaken(this.engine, kind, length);
    // A pooled array no run wrote yet (filled ahead for a preloaded program) is zero already.
    const zero = pooled === undefined || takePristine(pooled);
    // Fresh memory is faulted in before the run writes it: with GPUs on other threads while the run
    // goes on (a GPU's result is written when its read-back ends the run); on CPU sockets alone here
    // and now, as the program's first pass over it starts at once and raced the background faulting
    // (RMAT 22, 16 threads: bfs's fill of its fresh depth array 2-3.3 ms a run against 0.6 after a
    // prefault of 1.5; bench/results/h100-2026-11-27-cpu-dispatch).
    const fault = this.gpuActors === 0 ? prefault : populate;
    if (fill === 'unset') {
      // TESSERA_POISON_UNSET (tests): garbage, so a program that reads an entry before writing it shows.
      if (process.env.TESSERA_POISON_UNSET === '1') fillArray(a, a instanceof Float64Array || a instanceof Float32Array ? NaN : 0x5a5a5a5a);
      else if (pooled === undefined) fault(a);
    } else if (fill !== 0 || !zero) fillArray(a, fill);
    else if (pooled === undefined) fault(a);
    this.taken.push(a);
    return a.length === length ? a : (a.subarray(0, length) as StateArray);
  }

  protected bitmap(): Uint8Array {
    const spare = this.spare.pop();
    if (spare !== undefined) return spare;
    const b = this.engine.bitmapPool.pop() ?? newBitmap(this.graph.numVertices);
    this.bitmaps.push(b);
    return b;
  }

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
  finish(values: { buffer: ArrayBufferLike }): void {
    for (const a of this.taken) {
      if (a.buffer !== values.buffer) giveBack(this.engine, a);
      else {
        markHanded(this.engine, a);
        // With GPUs the pool keeps its size: a fresh array for the next run, faulted in meanwhile
        // (pools.ts replenish). On CPU sockets alone the next run's threads would fault beside it:
        // its alloc faults a fresh array in first (RMAT 22 bfs back to back: 1.5 ms a run slower;
        // bench/results/h200-2026-11-28-spare-outputs).
        if (this.fromPool.has(a) && this.gpuActors > 0) replenish(this.engine, a);
      }
    }
    // Frontiers the program still holds, cleared as release clears them (by their list where short,
    // not at all where nothing wrote them); a GPU-held next frontier's bitmap is not to be read.
    for (const f of this.live) if (this.heldNext?.frontier === f || (f.bitmap.buffer !== values.buffer && f.list?.buffer !== values.buffer)) this.release(f);
    this.live.clear();
    // Spare bitmaps were cleared when recycled; the others are cleared here.
    const clean = new Set(this.spare);
    for (const b of this.bitmaps) {
      if (b.buffer === values.buffer) continue;
      if (!clean.has(b)) fillArray(b, 0);
      this.engine.bitmapPool.push(b);
    }
    // Recycled frontiers' pooled lists (every frontier's by now), but for the output's.
    for (const b of this.listSpare) if (b !== values.buffer) this.engine.listPool.push(b);
  }

  /** Returns a frontier's bitmap for reuse, cleared (and the list a superstep `made` for it). */
  release(f: Frontier): void {
    if (this.made.has(f)) (this.made.delete(f), this.produced.add(f));
    this.recycle(f);
  }

  protected recycle(f: Frontier, made?: Uint32Array): void {
    if (made !== undefined && this.pooledLists.has(made.buffer)) this.listSpare.push(made.buffer as SharedArrayBuffer);
    if (!this.produced.has(f)) return;
    this.produced.delete(f);
    this.live.delete(f);
    if (this.heldNext?.frontier === f) {
      // Nothing wrote its host bitmap: spare as it is.
      this.spare.push(this.heldNext.bitmap);
      this.heldNext = undefined;
      return;
    }
    if (this.untouched.has(f)) this.untouched.delete(f);
    else if (f.list !== undefined && f.list.length < f.bitmap.length / 64) for (const v of f.list) f.bitmap[v] = 0;
    else fillArray(f.bitmap, 0);
    this.spare.push(f.bitmap);
    if (f.list !== undefined && this.pooledLists.has(f.list.buffer)) this.listSpare.push(f.list.buffer as SharedArrayBuffer);
  }

  frontierOf(ids: ArrayLike<number>): Frontier {
    const n = this.graph.numVertices;
    if (ids === null || typeof ids !== 'object' || typeof ids.length !== 'number') throw notVertex(ids, -1, n);
    const bitmap = this.bitmap();
    // A long frontier gets no list here: edgeMap reads one off the byte map in order when a push
    // needs it (on the addon's threads), instead of a copy and a sort (SSSP's buckets of millions).
    if (ids.length >= Math.max(LIST_POOL_MIN, bitmap.length >> 8)) {
      let size = 0;
      for (let i = 0; i < ids.length; i++) {
        const v = ids[i]!;
        if (v >>> 0 !== v || v >= n) throw this.spared(bitmap, notVertex(v, i, n));
        size += 1 - bitmap[v]!;
        bitmap[v] = 1;
      }
      return this.madeHere({ bitmap, list: undefined, size });
    }
    const list = new Uint32Array(new SharedArrayBuffer(Math.max(4, 4 * ids.length)), 0, ids.length);
    let size = 0;
    for (let i = 0; i < ids.length; i++) {
      const v = ids[i]!;
      if (v >>> 0 !== v || v >= n) throw this.spared(bitmap, notVertex(v, i, n));
      if (bitmap[v] === 1) continue;
      bitmap[v] = 1;
      list[size++] = v;
    }
    return this.madeHere({ bitmap, list: list.subarray(0, size).sort(), size });
  }

  /** `err`, with `bitmap` (partly set by a refused frontierOf) cleared and spare again. */
  private spared(bitmap: Uint8Array, err: Error): Error {
    fillArray(bitmap, 0);
    this.spare.push(bitmap);
    return err;
  }

  private madeHere(f: Frontier): Frontier {
    this.made.add(f);
    this.live.add(f);
    return f;
  }

  /**
   * Whether `f` is an all() frontier (a GPU then sets its flags to ones instead of copying them):
   * by its bitmap, not its size, which counts a vertex that several actors claimed more than once.
   */
  protected isAll(f: Frontier): boolean {
    return f.size === this.graph.numVertices && Object.getOwnPropertyDescriptor(f, 'bitmap')?.value === allOnes(this.engine);
  }

  all(): Frontier {
    return { bitmap: allOnes(this.engine), list: undefined, size: this.graph.numVertices };
  }
}
