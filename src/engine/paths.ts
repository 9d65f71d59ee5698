/**
 * Paths from a run whose output is a depth (BFS-like) or a distance (SSSP-like): the tree of
 * parents is the first-found tree of a BFS from the source over the tight out-edges, u -> v with
 * depth[v] = depth[u] + 1, or dist[u] + w(u, v) = dist[v] in the kernels' own double arithmetic
 * (a vertex's final distance is that sum for its last relaxation, so the test is exact). Every
 * reachable vertex gets a parent on a shortest path, zero-weight cycles included; one O(V + E)
 * pass on the calling thread, on demand (RunResult.parent / pathTo, `tessera run --parents`).
 */
import type { Graph } from '../graph/types.js';
import { outSlices } from './kernel.js';
import type { OutputKind } from './program.js';

/** Whether a run's output has shortest-path parents. */
export const hasPaths = (kind: OutputKind): kind is 'depth' | 'distance' => kind === 'depth' || kind === 'distance';

/** parent[v]: an internal id (the source: itself), -1 when v is unreachable. */
export function parentsOf(g: Graph, values: ArrayLike<number>, kind: 'depth' | 'distance', source: number): Int32Array {
  const n = g.numVertices;
  const parent = new Int32Array(n).fill(-1);
  if (values[source] !== 0) return parent;
  parent[source] = source;
  const queue = new Uint32Array(n);
  let tail = 0;
  queue[tail++] = source;
  let u = 0;
  const depth = kind === 'depth';
  const scan = (p: Graph['out']['pages'][number], a: number, b: number): void => {
    const du = values[u]!;
    const w = p.weights;
    for (let e = a; e < b; e++) {
      const v = p.nbrs[e]!;
      if (parent[v] !== -1) continue;
      if (depth ? values[v] === du + 1 : du + (w === undefined ? 1 : w[e]!) === values[v]) {
        parent[v] = u;
        queue[tail++] = v;
      }
    }
  };
  for (let head = 0; head < tail; head++) {
    u = queue[head]!;
    outSlices(g, u, scan);
  }
  return parent;
}
