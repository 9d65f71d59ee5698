/**
 * Reference personalized / weighted PageRank (serial, for tests), networkx `pagerank` (3.x)
 * exactly: x_0 = 1/n; x' = d (x A + s p) + (1 - d) p, with A[u][v] = w(u, v) / W(u) (W: u's
 * out-weight; weights 1 when unweighted), s the rank of the vertices with W = 0, p uniform over the
 * sources (1/n each without sources); stop after the first iteration whose sum of |x' - x| is
 * below n * tolerance, or after `iterations`. Output per INTERNAL id.
 */
import type { Graph } from '../../graph/types.js';
import { outCsr } from '../adjacency.js';

export interface ReferencePprParams {
  sources: ArrayLike<number>;
  damping: number;
  iterations: number;
  tolerance: number;
  weighted: number;
}

export function referencePpr(g: Graph, { sources, damping: d, iterations, tolerance, weighted }: ReferencePprParams): { values: Float64Array; iterations: number; converged: boolean } {
  const n = g.numVertices;
  const { offsets, nbrs, weights } = outCsr(g);
  const w = (e: number): number => (weighted && weights !== undefined ? weights[e]! : 1);
  const p = personalization(n, sources);
  const out = new Float64Array(n);
  for (let u = 0; u < n; u++) for (let e = offsets[u]!; e < offsets[u + 1]!; e++) out[u]! += w(e);
  let x = new Float64Array(n).fill(1 / n);
  for (let it = 1; it <= iterations; it++) {
    let s = 0;
    for (let u = 0; u < n; u++) if (out[u] === 0) s += x[u]!;
    const acc = new Float64Array(n);
    for (let u = 0; u < n; u++) if (out[u]! > 0) for (let e = offsets[u]!; e < offsets[u + 1]!; e++) acc[nbrs[e]!]! += (x[u]! / out[u]!) * w(e);
    const next = new Float64Array(n);
    let err = 0;
    for (let v = 0; v < n; v++) {
      next[v] = d * (acc[v]! + s * p[v]!) + (1 - d) * p[v]!;
      err += Math.abs(next[v]! - x[v]!);
    }
    x = next;
    if (err < n * tolerance) return { values: x, iterations: it, converged: true };
  }
  return { values: x, iterations, converged: false };
}

/** Uniform over the distinct sources, or 1/n everywhere without sources. */
export function personalization(n: number, sources: ArrayLike<number>): Float64Array {
  const p = new Float64Array(n);
  const distinct = new Set(Array.from(sources));
  if (distinct.size === 0) return p.fill(1 / n);
  for (const s of distinct) p[s] = 1 / distinct.size;
  return p;
}
