/**
 * BC — Brandes betweenness centrality on hop counts (unweighted shortest paths along out-edges,
 * both ways on undirected graphs; weights ignored), UNNORMALISED:
 *   BC(v) = Σ_{s ∈ S} Σ_{t ≠ s, t ≠ v, v ≠ s} σ_st(v) / σ_st
 * with S = every vertex (exact, the default), K vertices sampled deterministically by seed, or an
 * explicit list. Directed graphs: the sum above (ordered pairs). Undirected graphs: the sum
 * divided by 2, so each unordered pair counts once — networkx
 * betweenness_centrality(normalized=False) / graphology betweenness(normalized: false). A source
 * subset gets the same halving and no other rescaling (networkx's k-sampling would multiply by
 * n/k; this does not).
 *
 * TOTEM's BSP phases, per source:
 *   forward  ('bc-fwd', one superstep per BFS level L): level-synchronous BFS that also counts
 *            shortest paths σ. Push: a CAS on dist discovers level L+1; σ[v] += σ[u] is a float64
 *            add, so it is taken under a striped Int32 spin-lock (no lost update). Pull: each
 *            unvisited vertex sums σ over its in-neighbours in the frontier (one writer).
 *   backward ('bc-back', levels max-1 .. 1): δ[v] = Σ_{w ∈ N_out(v), dist[w] = L+1}
 *            σ[v]/σ[w] (1 + δ[w]); then BC[v] += δ[v]. Every write is to the vertex itself, so
 *            both modes are race-free: push walks the out-edges of the level's vertex list, pull
 *            walks the out-pages (edgeMap pullPages: 'out') for the vertices of the level.
 * Level lists are kept from the forward phase, and only reached vertices are reset between
 * sources, so a source costs O(reached vertices + their edges) plus the supersteps.
 * Serial reference: reference/betweenness.ts.
 */
import { allocStripedLocks } from './locks.js';
import type { CpuKernel } from '../engine/kernel.js';
import type { Program } from '../engine/program.js';
import type { Graph } from '../graph/types.js';
import { Xoshiro128 } from '../graph/generate/rng.js';

export interface BcParams {
  /** Source vertices (internal ids); undefined = every vertex (exact). */
  sources?: Uint32Array;
}


export const bcForwardKernel: CpuKernel = {
  pull(ctx, pages, lo, hi, out) {
    const dist = ctx.state.dist as Int32Array;
    const sigma = ctx.state.sigma as Float64Array;
    const fr = ctx.frontier!;
    const next = ctx.next;
    const level = ctx.args.level! + 1;
    const split = pages.length > 1 || pages[0]!.split;
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
    const dist = ctx.state.dist as Int32Array;
    const sigma = ctx.state.sigma as Float64Array;
    const lock = ctx.state.lock as Int32Array;
    const mask = lock.length - 1;
    const list = ctx.frontierList!;
    const next = ctx.next;
    const found = out.discovered!;
    const level = ctx.args.level! + 1;
    const { pages, firstPageOf } = ctx.graph.out;
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

export const bcBackwardKernel: CpuKernel = {
  /** Pull over OUT-pages: vertices of the frontier (level L) gather from level L+1. */
  pull(ctx, pages, lo, hi, out) {
    const dist = ctx.state.dist as Int32Array;
    const sigma = ctx.state.sigma as Float64Array;
    const delta = ctx.state.delta as Float64Array;
    const bc = ctx.state.bc as Float64Array;
    const fr = ctx.frontier!;
    const below = ctx.args.level! + 1;
    const split = pages.length > 1 || pages[0]!.split;
    const v0 = pages[0]!.vBegin;
    let edges = 0;
    for (let i = lo; i < hi; i++) {
      const v = v0 + i;
      if (fr[v] !== 1) continue;
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
    const dist = ctx.state.dist as Int32Array;
    const sigma = ctx.state.sigma as Float64Array;
    const delta = ctx.state.delta as Float64Array;
    const bc = ctx.state.bc as Float64Array;
    const list = ctx.frontierList!;
    const below = ctx.args.level! + 1;
    const { pages, firstPageOf } = ctx.graph.out;
    let edges = 0;
    for (let k = lo; k < hi; k++) {
      const v = list[k]!;
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

/**
 * K distinct source vertices drawn by seed (partial Fisher-Yates over the vertices in ascending
 * original id, xoshiro128**), returned as internal ids in ascending original id. The choice
 * depends only on (set of original ids, k, seed), not on renumbering or page size.
 */
export function sampleSources(g: Graph, k: number, seed: number): Uint32Array {
  const n = g.numVertices;
  const byOriginal = g.ids.byOriginal;
  if (k >= n) return Uint32Array.from(byOriginal);
  const rng = new Xoshiro128(seed, 0x6263); // stream 'bc'
  const swapped = new Map<number, number>();
  const picked = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    const j = i + rng.nextBelow(n - i);
    const at = swapped.get(j) ?? j;
    swapped.set(j, swapped.get(i) ?? i);
    picked[i] = at;
  }
  picked.sort();
  return Uint32Array.from(picked, (pos) => byOriginal[pos]!);
}

export const betweenness: Program<BcParams> = {
  name: 'bc',
  output: 'float',
  async run(ctx, { sources }) {
    const g = ctx.graph;
    const n = g.numVertices;
    const dist = ctx.alloc('i32', -1) as Int32Array;
    const sigma = ctx.alloc('f64', 0) as Float64Array;
    const delta = ctx.alloc('f64', 0) as Float64Array;
    const bc = ctx.alloc('f64', 0) as Float64Array;
    const lock = allocStripedLocks(ctx, n);
    const count = sources === undefined ? n : sources.length;
    ctx.note('sources', count);
    for (let si = 0; si < count; si++) {
      const s = sources === undefined ? si : sources[si]!;
      dist[s] = 0;
      sigma[s] = 1;
      // Forward: BFS levels with path counts; keep each level's vertex list.
      const levels: Uint32Array[] = [Uint32Array.of(s)];
      let frontier = ctx.frontierOf(levels[0]!);
      for (let level = 0; ; level++) {
        ({ next: frontier } = await ctx.edgeMap('bc-fwd', frontier, { dist, sigma, lock }, { level }, { readsFrontier: true }));
        if (frontier.size === 0) break;
        if (frontier.list !== undefined) levels.push(frontier.list.slice());
        else {
          const l = new Uint32Array(frontier.size);
          for (let v = 0, k = 0; k < l.length; v++) if (frontier.bitmap[v] === 1) l[k++] = v;
          levels.push(l);
        }
      }
      // Backward: dependencies from the deepest level up; the deepest level has δ = 0, and
      // level 0 is the source itself (no BC for it).
      for (let level = levels.length - 2; level >= 1; level--) {
        await ctx.edgeMap('bc-back', ctx.frontierOf(levels[level]!), { dist, sigma, delta, bc }, { level }, { pullPages: 'out', readsFrontier: true });
      }
      for (const l of levels) for (let k = 0; k < l.length; k++) {
        const v = l[k]!;
        dist[v] = -1;
        sigma[v] = 0;
        delta[v] = 0;
      }
    }
    if (g.in === g.out) for (let v = 0; v < n; v++) bc[v]! /= 2;
    return bc;
  },
};
