/**
 * Reference triangle counts (serial, for tests): networkx `triangles` of the undirected view
 * (index.ts). Each triangle v < u < w is found once from its smallest vertex and counted at its
 * three corners. Output per INTERNAL id. Cost Σ_v Σ_{u ∈ N(v), u > v} |N(u)|: for small graphs.
 */
import type { Graph } from '../../graph/types.js';
import { undirectedCsr } from '../adjacency.js';

export function referenceTriangles(g: Graph): Float64Array {
  const n = g.numVertices;
  const { offsets, nbrs } = undirectedCsr(g);
  const tri = new Float64Array(n);
  const mark = new Int32Array(n).fill(-1);
  for (let v = 0; v < n; v++) {
    for (let e = offsets[v]!; e < offsets[v + 1]!; e++) mark[nbrs[e]!] = v;
    for (let e = offsets[v]!; e < offsets[v + 1]!; e++) {
      const u = nbrs[e]!;
      if (u <= v) continue;
      for (let f = offsets[u]!; f < offsets[u + 1]!; f++) {
        const w = nbrs[f]!;
        if (w > u && mark[w] === v) (tri[v]!++, tri[u]!++, tri[w]!++);
      }
    }
  }
  return tri;
}
