/**
 * Brandes' CPU kernels (the definition and its semantics: index.ts). bcFwd: one BFS level that
 * also counts shortest paths σ (push: CAS on dist, σ added under a striped spin-lock; pull: one
 * writer per vertex). bcBack: the dependencies δ of one level, every write to the vertex itself
 * (args.byDist: the level's vertices are those at depth args.level, over every vertex's frontier).
 * bcReset, bcHalf: vertex maps between sources and at the end.
 */
import type { CpuKernel } from '../../engine/kernel.js';
import { nativeCpuKernels, nativePageSet } from '../../../actors/gpu/native-host.js';
import { idsDegreeSum } from '../../engine/run-tasks.js';

// The steps in C++ (native/src/addon_bc.cpp) where the addon loads: the same values, without their
// JIT warm-up on every thread in a session's first run. The TypeScript stays for builds without
// the addon, split vertices (pulls) and pages read from disk (pushes).
const native = nativeCpuKernels();
const st = new Float64Array(2);

export interface BcFwdState {
  /** Depth from the source, -1 unreached. */
  dist: Int32Array;
  /** Shortest paths from the source. */
  sigma: Float64Array;
  /** Striped spin-locks (power-of-two length, mask = length - 1). */
  lock: Int32Array;
}

export interface BcBackState {
  dist: Int32Array;
  sigma: Float64Array;
  /** Dependency of the source on each vertex. */
  delta: Float64Array;
  /** Betweenness accumulated over the sources. */
  bc: Float64Array;
}

export const bcFwd: CpuKernel<BcFwdState> = {
  pull(ctx, pages, lo, hi, out) {
    const dist = ctx.state.dist;
    const sigma = ctx.state.sigma;
    const fr = ctx.frontier!;
    const next = ctx.next;
    const level = ctx.args.level! + 1;
    const split = pages.length > 1 || pages[0]!.split;
    if (native?.bcFwdPull !== undefined && !split) {
      const p = pages[0]!;
      st.fill(0);
      native.bcFwdPull(p.offsets, p.nbrs, p.vBegin, lo, hi, dist, sigma, fr, next, level, st);
      out.edges += st[0]!;
      out.active += st[1]!;
      return;
    }
    const v0 = pages[0]!.vBegin;
    let edges = 0;
    for (let i = lo; i < hi; i++) {
      const v = v0 + i;
      if (dist[v] !== -1) continue;
      let s = 0;
      if (split) {
        for (const p of pages) {
          const nbrs = p.nbrs;
          for (let e = 0; e < p.edges; e++) if (fr[nbrs[e]!] === 1) s += sigma[nbrs[e]!]!;
          edges += p.edges;
        }
      } else {
        const { offsets, nbrs } = pages[0]!;
        const end = offsets[i + 1]!;
        for (let e = offsets[i]!; e < end; e++) if (fr[nbrs[e]!] === 1) s += sigma[nbrs[e]!]!;
        edges += end - offsets[i]!;
      }
      if (s > 0) {
        dist[v] = level;
        sigma[v] = s;
        next[v] = 1;
        out.active++;
      }
    }
    out.edges += edges;
  },
  push(ctx, lo, hi, out) {
    const dist = ctx.state.dist;
    const sigma = ctx.state.sigma;
    const lock = ctx.state.lock;
    const mask = lock.length - 1;
    const list = ctx.frontierList!;
    const next = ctx.next;
    const found = out.discovered!;
    const level = ctx.args.level! + 1;
    const g = ctx.graph;
    if (native?.bcFwdPush !== undefined && g.out.stored === undefined) {
      // Every push task of a step takes this path or none: the TypeScript adds under the locks, this by compare-and-swap.
      st.fill(0);
      native.bcFwdPush(nativePageSet(native, g.out), list, lo, hi, dist, sigma, next, found.room(idsDegreeSum(g.outDegree, list.subarray(lo, hi), hi - lo)), level, st);
      found.added(st[1]!);
      out.edges += st[0]!;
      out.active += st[1]!;
      return;
    }
    const { pages, firstPageOf } = g.out;
    let edges = 0;
    for (let k = lo; k < hi; k++) {
      const u = list[k]!;
      const su = sigma[u]!;
      let pi = firstPageOf[u]!;
      let p = pages[pi]!;
      let a: number;
      let b: number;
      if (p.split) (a = 0), (b = p.edges);
      else (a = p.offsets[u - p.vBegin]!), (b = p.offsets[u - p.vBegin + 1]!);
      for (;;) {
        const nbrs = p.nbrs;
        edges += b - a;
        for (let e = a; e < b; e++) {
          const v = nbrs[e]!;
          let dv = dist[v]!;
          if (dv === -1) {
            dv = Atomics.compareExchange(dist, v, -1, level);
            if (dv === -1) {
              dv = level;
              next[v] = 1;
              found.push(v);
              out.active++;
            }
          }
          if (dv !== level) continue;
          const l = v & mask;
          while (Atomics.compareExchange(lock, l, 0, 1) !== 0);
          sigma[v]! += su;
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

export const bcBack: CpuKernel<BcBackState> = {
  /** Pull over OUT-pages: vertices of the frontier (level L) gather from level L+1. */
  pull(ctx, pages, lo, hi, out) {
    const dist = ctx.state.dist;
    const sigma = ctx.state.sigma;
    const delta = ctx.state.delta;
    const bc = ctx.state.bc;
    const fr = ctx.frontier!;
    const level = ctx.args.level!;
    const below = level + 1;
    const byDist = ctx.args.byDist === 1;
    const split = pages.length > 1 || pages[0]!.split;
    if (native?.bcBackPull !== undefined && !split) {
      const p = pages[0]!;
      st.fill(0);
      native.bcBackPull(p.offsets, p.nbrs, p.vBegin, lo, hi, dist, sigma, delta, bc, fr, level, byDist, st);
      out.edges += st[0]!;
      return;
    }
    const v0 = pages[0]!.vBegin;
    let edges = 0;
    for (let i = lo; i < hi; i++) {
      const v = v0 + i;
      if (byDist ? dist[v] !== level : fr[v] !== 1) continue;
      const sv = sigma[v]!;
      let dv = 0;
      if (split) {
        for (const p of pages) {
          const nbrs = p.nbrs;
          for (let e = 0; e < p.edges; e++) {
            const w = nbrs[e]!;
            if (dist[w] === below) dv += (sv / sigma[w]!) * (1 + delta[w]!);
          }
          edges += p.edges;
        }
      } else {
        const { offsets, nbrs } = pages[0]!;
        const end = offsets[i + 1]!;
        for (let e = offsets[i]!; e < end; e++) {
          const w = nbrs[e]!;
          if (dist[w] === below) dv += (sv / sigma[w]!) * (1 + delta[w]!);
        }
        edges += end - offsets[i]!;
      }
      delta[v] = dv;
      bc[v]! += dv;
    }
    out.edges += edges;
  },
  push(ctx, lo, hi, out) {
    const dist = ctx.state.dist;
    const sigma = ctx.state.sigma;
    const delta = ctx.state.delta;
    const bc = ctx.state.bc;
    const list = ctx.frontierList!;
    const level = ctx.args.level!;
    const below = level + 1;
    const byDist = ctx.args.byDist === 1;
    const g = ctx.graph;
    if (native?.bcBackPush !== undefined && g.out.stored === undefined) {
      st.fill(0);
      native.bcBackPush(nativePageSet(native, g.out), list, lo, hi, dist, sigma, delta, bc, level, byDist, st);
      out.edges += st[0]!;
      return;
    }
    const { pages, firstPageOf } = g.out;
    let edges = 0;
    for (let k = lo; k < hi; k++) {
      const v = list[k]!;
      if (byDist && dist[v] !== level) continue;
      const sv = sigma[v]!;
      let dv = 0;
      let pi = firstPageOf[v]!;
      let p = pages[pi]!;
      let a: number;
      let b: number;
      if (p.split) (a = 0), (b = p.edges);
      else (a = p.offsets[v - p.vBegin]!), (b = p.offsets[v - p.vBegin + 1]!);
      for (;;) {
        const nbrs = p.nbrs;
        edges += b - a;
        for (let e = a; e < b; e++) {
          const w = nbrs[e]!;
          if (dist[w] === below) dv += (sv / sigma[w]!) * (1 + delta[w]!);
        }
        if (!p.split) break;
        p = pages[++pi]!;
        if (p === undefined || !p.split || p.vBegin !== v) break;
        a = 0;
        b = p.edges;
      }
      delta[v] = dv;
      bc[v]! += dv;
    }
    out.edges += edges;
  },
};

/** Between sources: dist, sigma and delta back to their initial values wherever the source reached. */
export const bcReset: CpuKernel<Pick<BcBackState, 'dist' | 'sigma' | 'delta'>> = {
  vertex(ctx, lo, hi) {
    const { dist, sigma, delta } = ctx.state;
    for (let v = lo; v < hi; v++) if (dist[v] !== -1) (dist[v] = -1), (sigma[v] = 0), (delta[v] = 0);
  },
};

/** Undirected graphs: each unordered pair counted once (index.ts). */
export const bcHalf: CpuKernel<Pick<BcBackState, 'bc'>> = {
  vertex(ctx, lo, hi) {
    const bc = ctx.state.bc;
    for (let v = lo; v < hi; v++) bc[v]! /= 2;
  },
};
