/**
 * Reference PageRank (serial, for tests). Graphalytics semantics:
 *   PR_0(v) = 1/n
 *   PR_i(v) = (1-d)/n + d * Σ_{u ∈ N_in(v)} PR_{i-1}(u)/|N_out(u)| + (d/n) * Σ_{w: |N_out(w)|=0} PR_{i-1}(w)
 * for i = 1..iterations (fixed count, no convergence test), synchronous (iteration i reads only
 * iteration i-1). Dangling (out-degree 0) vertices send nothing along edges; their total rank is
 * spread evenly over all vertices, weighted by d, so ranks always sum to 1. Undirected graphs:
 * |N_out(u)| is u's degree. Weights are ignored. All arithmetic in float64.
 *
 * Output per INTERNAL id.
 */
import type { Graph } from '../../graph/types.js';
import { outCsr } from '../adjacency.js';

export interface ReferencePageRankParams {
  /** Number of iterations (Graphalytics pr.num-iterations). */
  iterations: number;
  /** Damping factor d (Graphalytics pr.damping-factor, usually 0.85). */
  damping: number;
}

export function referencePageRank(g: Graph, params: ReferencePageRankParams): Float64Array {
  const { iterations, damping: d } = params;
  const n = g.numVertices;
  const { offsets, nbrs } = outCsr(g);
  let rank = new Float64Array(n).fill(n === 0 ? 0 : 1 / n);
  let next = new Float64Array(n);
  for (let it = 0; it < iterations; it++) {
    let dangling = 0;
    for (let v = 0; v < n; v++) if (offsets[v + 1] === offsets[v]) dangling += rank[v]!;
    next.fill(0);
    // Push along out-edges: same sums as pulling over N_in.
    for (let u = 0; u < n; u++) {
      const lo = offsets[u]!;
      const hi = offsets[u + 1]!;
      if (hi === lo) continue;
      const share = rank[u]! / (hi - lo);
      for (let e = lo; e < hi; e++) next[nbrs[e]!]! += share;
    }
    const base = (1 - d) / n + (d / n) * dangling;
    for (let v = 0; v < n; v++) next[v] = base + d * next[v]!;
    [rank, next] = [next, rank];
  }
  return rank;
}
