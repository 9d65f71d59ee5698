/**
 * SSSP's driver: delta-stepping buckets (index.ts), kept two ways.
 *
 * Sparse: buckets of vertex ids in typed arrays on the coordinator, as long as supersteps
 * activate few vertices (a road network's thousands of small buckets). Stale entries are skipped
 * by the pending flag alone: an entry of bucket k is stale when its vertex moved to a lower
 * bucket since (distances only fall), and lower buckets are all processed, which clears the flag,
 * before k: while k is processed no distance falls below k w. So no distance is read to compact a
 * bucket. A superstep's improvements mostly land in a few buckets: the last one used is kept at
 * hand (lastKey = NaN when the map changes under it).
 *
 * Dense (CPU-only topologies): once a superstep activates n / 64 vertices or more, the buckets
 * are the `pending` flags alone, and after each superstep one parallel vertex filter
 * (kernels.ts ssspSelect) merges its activations into them and takes out the current bucket
 * (dist < (k + 1) w) as the next frontier, finding the smallest pending distance on the way
 * (the next bucket when this one is empty). Enqueueing each of a superstep's million
 * activations on the coordinator's thread took 206-244 ms of a 480-580 ms run on RMAT 22 with
 * 16 threads (bench/results/h100-2026-11-26-native-kernels). When supersteps activate few
 * vertices again, every pending vertex goes into the lists and the sparse way goes on.
 *
 * A checkpoint (before each superstep) carries the mode, k, the pending flags, the lists and
 * the frontier about to run.
 */
import { forEachFlag, IdList } from '../../engine/ids.js';
import type { Frontier, RunContext } from '../../engine/program.js';

type Carry = { steps: number; dense: boolean; k: number; chosen?: number; pending: Uint8Array; keys: number[]; lists: Uint32Array[]; f: Frontier };

/** Activations from which a superstep's are merged by a vertex filter (n / DENSE). */
const DENSE = 64;

/** Runs buckets until none is left; returns the supersteps run. */
export async function deltaSteps(ctx: RunContext, dist: Float64Array, lock: Int32Array, w: number, source: number): Promise<number> {
  const n = ctx.graph.numVertices;
  // GPU topologies stay sparse: a vertex filter writes host state the GPUs would upload whole.
  const denseOk = ctx.gpuActors === 0;
  const c = ctx.resume<Carry>();
  const pending = c?.pending ?? (ctx.alloc('u8', 0) as Uint8Array);
  // The smallest distance a selection left pending (ssspSelect lowers it).
  const low = ctx.alloc('f64', Infinity, 1) as Float64Array;
  const buckets = new Map<number, IdList>();
  const keys = new KeyHeap(); // indices of the non-empty buckets
  c?.keys.forEach((k, i) => {
    const l = new IdList();
    l.pushAll(c.lists[i]!);
    buckets.set(k, l);
    keys.push(k);
  });
  let lastKey = NaN;
  let last: IdList | undefined;
  const enqueue = (v: number): void => {
    pending[v] = 1;
    const k = Math.floor(dist[v]! / w);
    if (k !== lastKey) {
      last = buckets.get(k);
      if (last === undefined) {
        buckets.set(k, (last = new IdList()));
        keys.push(k);
      }
      lastKey = k;
    }
    last!.push(v);
  };
  let steps = c?.steps ?? 0;
  let dense = c?.dense ?? false;
  let k = c?.k ?? 0;
  // The lowest pending distance that chose k (dense): bucketEnd keeps the next selection above it.
  let chosen = c?.chosen ?? -Infinity;
  let f: Frontier | undefined = c?.f;
  // Dense: the last superstep's activations, merged by the next selection.
  let act: Frontier | undefined;
  if (c === undefined) {
    dist[source] = 0;
    enqueue(source);
  }
  for (;;) {
    if (f === undefined && dense) {
      low[0] = Infinity;
      const sel = await ctx.vertexFilter('ssspSelect', { dist, pending, act: act?.bitmap ?? pending, low }, { bound: bucketEnd(k, w, chosen), merge: act !== undefined ? 1 : 0 });
      if (act !== undefined) ctx.release(act);
      act = undefined;
      if (sel.size === 0) {
        ctx.release(sel);
        // Bucket k is done: the next is the lowest pending one (none: the run is over).
        if (!(low[0]! < Infinity)) break;
        k = Math.floor(low[0]! / w);
        chosen = low[0]!;
        continue;
      }
      f = sel;
    } else if (f === undefined) {
      if (keys.size === 0) break;
      k = keys.min();
      chosen = -Infinity;
      const entries = buckets.get(k)!.view();
      buckets.set(k, new IdList());
      lastKey = NaN;
      // This superstep's vertices, compacted in place: the bucket's array is no one else's now.
      let m = 0;
      for (let i = 0; i < entries.length; i++) {
        const v = entries[i]!;
        if (pending[v] === 1) {
          pending[v] = 0;
          entries[m++] = v;
        }
      }
      if (m === 0) {
        if (buckets.get(k)!.length === 0) (buckets.delete(k), keys.pop());
        continue;
      }
      f = ctx.frontierOf(entries.subarray(0, m));
    }
    if (ctx.checkpointing) await ctx.checkpoint({ steps, dense, k, chosen, pending, keys: [...buckets.keys()], lists: [...buckets.values()].map((l) => l.view()), f });
    // A push's improvements take a striped lock (kernels.ts); a pull reads every in-edge of every
    // vertex (no early exit): at ~3x a pull's cost per edge a push wins below |E| / 3 out-edges
    // (RMAT 22, 16 threads: alpha 20 576 ms, 3 481 ms, 1 553 ms).
    const { next } = await ctx.edgeMap('sssp', f, { dist, lock }, {}, { readsFrontier: true, direction: { alpha: 3 } });
    steps++;
    // The frontier's byte map is spent: reused next superstep (not a fresh one of n bytes).
    ctx.release(f);
    f = undefined;
    if (denseOk && next.size * DENSE >= n) {
      if (!dense) {
        // The lists' vertices are the pending flags already: the lists go.
        buckets.clear();
        while (keys.size > 0) keys.pop();
        lastKey = NaN;
        dense = true;
      }
      act = next;
      continue;
    }
    if (dense) {
      // Few activations: every pending vertex into the lists (bucket k's too), then sparse.
      dense = false;
      forEachFlag(pending, enqueue);
    }
    if (next.list !== undefined) for (let i = 0; i < next.list.length; i++) enqueue(next.list[i]!);
    else forEachFlag(next.bitmap, enqueue, next.size);
    ctx.release(next);
  }
  return steps;
}

/**
 * Bucket k's end, (k + 1) w; just above `chosen` (the pending distance that chose k) where w is
 * so small beside the distances that k + 1 and k give one end (a window of 1e-300 selected nothing,
 * found the same bucket and went round for ever).
 */
export function bucketEnd(k: number, w: number, chosen: number): number {
  const end = (k + 1) * w;
  if (end > chosen) return end;
  const x = new Float64Array([chosen]);
  const bits = new BigUint64Array(x.buffer);
  bits[0] = bits[0]! + 1n; // the next double up (chosen is finite and >= 0)
  return x[0]!;
}

/** Binary min-heap of bucket indices. */
class KeyHeap {
  private readonly a: number[] = [];
  get size(): number {
    return this.a.length;
  }
  min(): number {
    return this.a[0]!;
  }
  push(k: number): void {
    const a = this.a;
    let i = a.length;
    a.push(k);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p]! <= k) break;
      a[i] = a[p]!;
      i = p;
    }
    a[i] = k;
  }
  pop(): void {
    const a = this.a;
    const last = a.pop()!;
    if (a.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= a.length) break;
      const c = l + 1 < a.length && a[l + 1]! < a[l]! ? l + 1 : l;
      if (a[c]! >= last) break;
      a[i] = a[c]!;
      i = c;
    }
    a[i] = last;
  }
}
