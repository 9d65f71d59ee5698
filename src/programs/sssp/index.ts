/**
 * SSSP — Graphalytics semantics: the length (sum of float64 edge weights, all >= 0, zero allowed)
 * of the shortest path from the source along out-edges (both directions on undirected graphs);
 * the source has distance 0, unreachable vertices Infinity (written `infinity`). An unweighted
 * graph is treated as having weight 1 on every edge (distances are then hop counts). Negative or
 * NaN weights are an input error, checked when the program starts (one pass over the weights).
 *
 * Delta-stepping with GraphScope GPU's update window w: vertices whose distance improved wait in
 * buckets floor(dist / w); a superstep relaxes the out-edges of the current bucket's vertices
 * (those with dist < bound = (k+1) w), the rest are deferred; when the bucket empties the bound
 * advances to the next non-empty bucket. w = Infinity is frontier Bellman-Ford; the default is
 * the mean edge weight (recorded in the run report as note `window`).
 *
 * Push: relax out-edges of the frontier list with a min-reduce. JS Atomics has no float64 min,
 * so a candidate that beats the plain read takes a striped Int32 spin-lock (lock = v & mask),
 * re-checks and writes under it: no lost update. The lock also serialises activation of v.
 * (The unlocked read is only a filter; V8 does aligned 8-byte loads and stores on x64 and arm64,
 * so it does not tear in practice, and the decision is re-made under the lock.)
 * Pull: each vertex takes the min over its frontier in-neighbours (one writer per vertex).
 * Chaotic relaxation inside a superstep is fine: any vertex whose distance drops is activated
 * and relaxed again, and weights >= 0 keep every improvement in the current bucket or later.
 * CPU kernel: kernels.ts. Serial reference: reference.ts.
 */
import { defineProgram } from '../../engine/define.js';
import { peers } from './peers.js';
import { forEachFlag, IdList } from '../../engine/ids.js';
import { TesseraError } from '../../errors.js';
import type { Graph } from '../../graph/types.js';
import { allocStripedLocks } from '../locks.js';
import { referenceSssp } from './reference.js';

export const sssp = defineProgram({
  name: 'sssp',
  summary: 'shortest-path length (sum of weights) from a source; unreachable infinity',
  graphalytics: 'sssp',
  params: {
    source: { type: 'vertex', required: true, property: 'source-vertex', description: 'source vertex' },
    // No default: the driver takes the mean edge weight (checkWeights).
    window: { type: 'number', above: 0, max: Infinity, description: 'delta-stepping update window (> 0, Infinity = Bellman-Ford); default: the mean edge weight' },
  },
  state: {
    dist: { type: 'f64', init: Infinity, reduce: 'min', resident: true },
  },
  output: 'distance',
  kernels: new URL('./kernels.js', import.meta.url),
  gpu: new URL('./gpu.js', import.meta.url),
  peers,
  // dist f64 + frontier u8 + next u8; delta-stepping is push-heavy.
  profile: { mode: 'push', stateBytesPerVertex: 10, passes: 1, unit: 'run', vertexTerm: false, weighted: true },
  reference: (g, { source }) => referenceSssp(g, source),
  demoParams: (g) => ({ source: g.ids.toOriginal[0]! }),
  resumable: true,
  async run(ctx, { source, window }) {
    const n = ctx.graph.numVertices;
    const mean = checkWeights(ctx.graph);
    const w = window ?? mean;
    if (!(w > 0)) throw new TesseraError(`SSSP window ${w} is not positive`, { key: '--window', fix: 'use a window > 0, e.g. the mean edge weight, or Infinity' });
    ctx.note('window', w);
    const { dist } = ctx.state;
    const lock = allocStripedLocks(ctx, n);
    // Buckets of pending vertices in typed arrays; stale entries are skipped by the pending flag
    // alone. An entry of bucket k is stale when its vertex moved to a lower bucket since (distances
    // only fall), and lower buckets are all processed, which clears the flag, before k: while k is
    // processed no distance falls below k w. So no distance is read to compact a bucket (a random
    // read per entry). A superstep's improvements mostly land in a few buckets: the last one used
    // is kept at hand (lastKey = NaN when the map changes under it). A checkpoint carries the
    // pending flags and each bucket's entries.
    type Carry = { steps: number; pending: Uint8Array; keys: number[]; lists: Uint32Array[] };
    const c = ctx.resume<Carry>();
    const pending = c?.pending ?? new Uint8Array(n);
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
    if (c === undefined) {
      dist[source] = 0;
      enqueue(source);
    }
    let steps = c?.steps ?? 0;
    while (keys.size > 0) {
      if (ctx.checkpointing) await ctx.checkpoint({ steps, pending, keys: [...buckets.keys()], lists: [...buckets.values()].map((l) => l.view()) });
      const k = keys.min();
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
      const bucket = ctx.frontierOf(entries.subarray(0, m));
      // A push's improvements take a striped lock (kernels.ts); a pull reads every in-edge of every
      // vertex (no early exit): at ~3x a pull's cost per edge a push wins below |E| / 3 out-edges
      // (RMAT 22, 16 threads: alpha 20 576 ms, 3 481 ms, 1 553 ms).
      const { next } = await ctx.edgeMap('sssp', bucket, { dist, lock }, {}, { readsFrontier: true, direction: { alpha: 3 } });
      steps++;
      if (next.list !== undefined) for (let i = 0; i < next.list.length; i++) enqueue(next.list[i]!);
      else forEachFlag(next.bitmap, enqueue, next.size);
      // Both byte maps are spent: reused next superstep (not 2 fresh ones of n bytes each).
      ctx.release(bucket);
      ctx.release(next);
    }
    ctx.note('windowSteps', steps);
    return dist;
  },
});

/** checkWeights' answer per graph: a loaded graph's weights never change (RMAT 24: 263 M weights a run). */
const checkedWeights = new WeakMap<Graph, number>();

/**
 * Checks that every weight is >= 0 and not NaN (TesseraError naming the first bad edge), and
 * returns the mean of the finite weights (1 when unweighted or none is finite and positive).
 * Once per graph; a graph that fails is checked (and fails) again.
 */
export function checkWeights(g: Graph): number {
  let mean = checkedWeights.get(g);
  if (mean === undefined) checkedWeights.set(g, (mean = weightMean(g)));
  return mean;
}

function weightMean(g: Graph): number {
  let sum = 0;
  let count = 0;
  for (const p of g.out.pages) {
    const w = p.weights;
    if (w === undefined) return 1;
    for (let e = 0; e < p.edges; e++) {
      const x = w[e]!;
      if (x >= 0) {
        if (x !== Infinity) (sum += x), count++;
        continue;
      }
      let i = 0;
      while (p.offsets[i + 1]! <= e) i++;
      const from = g.ids.toOriginal[p.vBegin + i]!;
      const to = g.ids.toOriginal[p.nbrs[e]!]!;
      throw new TesseraError(`SSSP needs non-negative edge weights, but edge ${from} -> ${to} weighs ${x}`, {
        file: g.source,
        fix: 'correct or remove the edges with negative or NaN weights (shortest paths are undefined with them), or run bfs for hop counts',
      });
    }
  }
  return count > 0 && sum > 0 ? sum / count : 1;
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
