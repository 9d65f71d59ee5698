/**
 * SSSP's CPU kernel (the definition and its semantics: index.ts). Pull: each vertex takes the min
 * over its frontier in-neighbours. Push: a candidate that beats the plain read takes the striped
 * spin-lock of its target, re-checks and writes under it.
 */
import type { CpuKernel } from '../../engine/kernel.js';
import { nativeCpuKernels, nativePageSet } from '../../../actors/gpu/native-host.js';
import { idsDegreeSum } from '../../engine/run-tasks.js';

// The loops in C++ (native/src/addon_sssp.cpp) where the addon loads: the same distances, without
// their JIT warm-up on every thread in a session's first run.
const native = nativeCpuKernels();
const st = new Float64Array(2);

export interface SsspState {
  /** Distance from the source, Infinity unreached. */
  dist: Float64Array;
  /** Striped spin-locks (power-of-two length, mask = length - 1). */
  lock: Int32Array;
}

export const sssp: CpuKernel<SsspState> = {
  pull(ctx, pages, lo, hi, out) {
    const dist = ctx.state.dist;
    const fr = ctx.frontier!;
    const next = ctx.next;
    let edges = 0;
    if (native?.ssspPull !== undefined && pages.length === 1 && !pages[0]!.split) {
      const p = pages[0]!;
      st.fill(0);
      native.ssspPull(p.offsets, p.nbrs, p.weights ?? null, p.vBegin, lo, hi, dist, fr, next, st);
      out.edges += st[0]!;
      out.active += st[1]!;
      return;
    }
    if (pages.length > 1 || pages[0]!.split) {
      const v = pages[0]!.vBegin;
      let best = dist[v]!;
      for (const p of pages) {
        const { nbrs, weights } = p;
        for (let e = 0; e < p.edges; e++) {
          const u = nbrs[e]!;
          if (fr[u] !== 1) continue;
          const c = dist[u]! + (weights === undefined ? 1 : weights[e]!);
          if (c < best) best = c;
        }
        edges += p.edges;
      }
      if (best < dist[v]!) {
        dist[v] = best;
        next[v] = 1;
        out.active++;
      }
    } else {
      const { offsets, nbrs, weights, vBegin } = pages[0]!;
      for (let i = lo; i < hi; i++) {
        const v = vBegin + i;
        const end = offsets[i + 1]!;
        let best = dist[v]!;
        for (let e = offsets[i]!; e < end; e++) {
          const u = nbrs[e]!;
          if (fr[u] !== 1) continue;
          const c = dist[u]! + (weights === undefined ? 1 : weights[e]!);
          if (c < best) best = c;
        }
        if (best < dist[v]!) {
          dist[v] = best;
          next[v] = 1;
          out.active++;
        }
      }
      edges += offsets[hi]! - offsets[lo]!;
    }
    out.edges += edges;
  },
  push(ctx, lo, hi, out) {
    const dist = ctx.state.dist;
    const lock = ctx.state.lock;
    const mask = lock.length - 1;
    const list = ctx.frontierList!;
    const next = ctx.next;
    const found = out.discovered!;
    const g = ctx.graph;
    if (native?.ssspPush !== undefined && g.out.stored === undefined) {
      st.fill(0);
      native.ssspPush(nativePageSet(native, g.out), list, lo, hi, dist, next, found.room(idsDegreeSum(g.outDegree, list.subarray(lo, hi), hi - lo)), st);
      found.added(st[1]!);
      out.edges += st[0]!;
      out.active += st[1]!;
      return;
    }
    const { pages, firstPageOf } = g.out;
    let edges = 0;
    for (let k = lo; k < hi; k++) {
      const u = list[k]!;
      const du = dist[u]!;
      let pi = firstPageOf[u]!;
      let p = pages[pi]!;
      let a: number;
      let b: number;
      if (p.split) (a = 0), (b = p.edges);
      else (a = p.offsets[u - p.vBegin]!), (b = p.offsets[u - p.vBegin + 1]!);
      for (;;) {
        const { nbrs, weights } = p;
        edges += b - a;
        for (let e = a; e < b; e++) {
          const v = nbrs[e]!;
          const c = du + (weights === undefined ? 1 : weights[e]!);
          if (!(c < dist[v]!)) continue;
          const l = v & mask;
          while (Atomics.compareExchange(lock, l, 0, 1) !== 0);
          if (c < dist[v]!) {
            dist[v] = c;
            if (next[v] === 0) {
              next[v] = 1;
              found.push(v);
              out.active++;
            }
          }
          Atomics.store(lock, l, 0);
        }
        if (!p.split) break;
        p = pages[++pi]!;
        if (p === undefined || !p.split || p.vBegin !== u) break;
        a = 0;
        b = p.edges;
      }
    }
    out.edges += edges;
  },
};

export interface SelectState {
  dist: Float64Array;
  /** 1: waiting in some bucket. */
  pending: Uint8Array;
  /** The last superstep's activations (args.merge 1), merged into pending first. */
  act: Uint8Array;
  /** One entry: the smallest distance left pending, lowered by compare-and-swap. */
  low: Float64Array;
}

// A double's bits, for the compare-and-swap on `low` (Atomics has no float64 operations).
const bits = new Float64Array(2);
const bitsI = new BigInt64Array(bits.buffer);

/** low[0] = min(low[0], m) across threads: a CAS on the double's 64 bits. */
function lowerTo(low: Float64Array, m: number): void {
  const cell = new BigInt64Array(low.buffer, low.byteOffset, 1);
  bits[1] = m;
  let cur = Atomics.load(cell, 0);
  for (;;) {
    bitsI[0] = cur;
    if (!(m < bits[0]!)) return;
    const seen = Atomics.compareExchange(cell, 0, cur, bitsI[1]!);
    if (seen === cur) return;
    cur = seen;
  }
}

/**
 * Vertex filter of delta.ts (dense buckets): each pending vertex with dist < args.bound leaves `pending` for the
 * returned frontier; the others' smallest distance goes into low[0]; out.sum counts them.
 */
export const ssspSelect: CpuKernel<SelectState> = {
  vertex(ctx, lo, hi, out) {
    const { dist, pending, act, low } = ctx.state;
    const bound = ctx.args.bound!;
    const merge = ctx.args.merge === 1;
    const next = ctx.next;
    if (native?.ssspSelect !== undefined) {
      st.fill(0);
      native.ssspSelect(dist, pending, merge ? act : null, next, lo, hi, bound, low, st);
      out.active += st[0]!;
      out.sum += st[1]!;
      return;
    }
    let m = Infinity;
    let taken = 0;
    let left = 0;
    for (let v = lo; v < hi; v++) {
      if (merge && act[v] !== 0) pending[v] = 1;
      if (pending[v] === 0) continue;
      const d = dist[v]!;
      if (d < bound) {
        next[v] = 1;
        pending[v] = 0;
        taken++;
      } else {
        left++;
        if (d < m) m = d;
      }
    }
    out.active += taken;
    out.sum += left;
    if (m < Infinity) lowerTo(low, m);
  },
};
