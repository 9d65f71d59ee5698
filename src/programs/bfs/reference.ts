/**
 * Reference BFS (serial, for tests). Graphalytics semantics: the depth, in hops, of the shortest
 * path from `source` to every vertex, following out-edges only (on undirected graphs every edge,
 * both ways). The source has depth 0.
 *
 * Input and output use INTERNAL ids. Returns an Int32Array of length n where unreachable vertices
 * hold -1 (Graphalytics writes them as 9223372036854775807; see validate.ts BFS_UNREACHABLE).
 */
import type { Graph } from '../../graph/types.js';
import { outCsr } from '../adjacency.js';

export function referenceBfs(g: Graph, source: number): Int32Array {
  const n = g.numVertices;
  if (!(Number.isInteger(source) && source >= 0 && source < n)) throw new RangeError(`BFS source ${source} is not an internal id in [0, ${n})`);
  const { offsets, nbrs } = outCsr(g);
  const depth = new Int32Array(n).fill(-1);
  const queue = new Uint32Array(n);
  let head = 0;
  let tail = 0;
  depth[source] = 0;
  queue[tail++] = source;
  while (head < tail) {
    const v = queue[head++]!;
    const d = depth[v]! + 1;
    for (let e = offsets[v]!; e < offsets[v + 1]!; e++) {
      const u = nbrs[e]!;
      if (depth[u] === -1) {
        depth[u] = d;
        queue[tail++] = u;
      }
    }
  }
  return depth;
}
