/**
 * Reference k-core (serial, for tests): Batagelj-Zaversnik bucket peeling (O(V + E)) over the
 * undirected view (each vertex's out- and in-neighbours as one set), networkx
 * `core_number(G.to_undirected())`. Internal ids in and out.
 */
import type { Graph } from '../../graph/types.js';
import { undirectedCsr } from '../adjacency.js';

export function referenceKcore(g: Graph): Int32Array {
  const n = g.numVertices;
  const { offsets, nbrs } = undirectedCsr(g);
  const deg = new Int32Array(n);
  let maxDeg = 0;
  for (let v = 0; v < n; v++) maxDeg = Math.max(maxDeg, (deg[v] = offsets[v + 1]! - offsets[v]!));
  // Vertices sorted by degree (counting sort); bin[d] = where degree d starts; pos[v] = v's place.
  const bin = new Int32Array(maxDeg + 2);
  for (let v = 0; v < n; v++) bin[deg[v]! + 1]!++;
  for (let d = 1; d <= maxDeg + 1; d++) bin[d]! += bin[d - 1]!;
  const vert = new Int32Array(n);
  const pos = new Int32Array(n);
  const fill = bin.slice();
  for (let v = 0; v < n; v++) (pos[v] = fill[deg[v]!]!++), (vert[pos[v]!] = v);
  for (let i = 0; i < n; i++) {
    const v = vert[i]!;
    for (let e = offsets[v]!; e < offsets[v + 1]!; e++) {
      const u = nbrs[e]!;
      if (deg[u]! <= deg[v]!) continue;
      // Move u to the front of its bin, then shrink the bin: u's degree drops by one.
      const du = deg[u]!;
      const pu = pos[u]!;
      const pw = bin[du]!;
      const w = vert[pw]!;
      if (u !== w) (vert[pu] = w), (pos[w] = pu), (vert[pw] = u), (pos[u] = pw);
      bin[du]!++;
      deg[u] = du - 1;
    }
  }
  return deg;
}
