/**
 * Reference LCC (serial, for tests). Graphalytics semantics:
 *   N(v) = N_in(v) ∪ N_out(v) (distinct neighbours, direction ignored), d = |N(v)|
 *   LCC(v) = 0 if d <= 1, else t / (d (d-1)) with t = Σ_{u ∈ N(v)} |N(v) ∩ N_out(u)|,
 * i.e. the number of ORDERED pairs (u, w) of v's neighbours with an edge u→w, direction
 * respected (undirected graphs: each neighbour-neighbour edge counts twice, giving the usual
 * 2·triangles/(d(d-1)); directed: a reciprocal pair counts twice). Weights are ignored.
 *
 * Output per INTERNAL id, Float64Array. Cost Σ_v Σ_{u∈N(v)} |N_out(u)|: for small graphs.
 */
import type { Graph } from '../../graph/types.js';
import { outCsr, undirectedCsr } from '../adjacency.js';

export function referenceLcc(g: Graph): Float64Array {
  const n = g.numVertices;
  const und = undirectedCsr(g);
  const out = outCsr(g);
  const lcc = new Float64Array(n);
  const mark = new Int32Array(n).fill(-1);
  for (let v = 0; v < n; v++) {
    const lo = und.offsets[v]!;
    const hi = und.offsets[v + 1]!;
    let d = 0;
    for (let e = lo; e < hi; e++) {
      const u = und.nbrs[e]!;
      if (u === v) continue; // a self-loop is not a neighbour
      mark[u] = v;
      d++;
    }
    if (d <= 1) continue;
    let t = 0;
    for (let e = lo; e < hi; e++) {
      const u = und.nbrs[e]!;
      if (u === v) continue;
      for (let f = out.offsets[u]!; f < out.offsets[u + 1]!; f++) {
        const w = out.nbrs[f]!;
        if (w !== u && mark[w] === v) t++;
      }
    }
    lcc[v] = t / (d * (d - 1));
  }
  return lcc;
}
