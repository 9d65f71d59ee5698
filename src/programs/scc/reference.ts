/**
 * Reference SCC (serial, for tests): Tarjan's algorithm, iterative, over the stored out-edges
 * (internal ids). networkx `strongly_connected_components` semantics: u and v share a component
 * exactly when each reaches the other along directed edges; every vertex is in one (alone when
 * on no cycle); on an undirected graph the components are the connected ones. Label = the
 * smallest ORIGINAL id in the component.
 */
import type { Graph } from '../../graph/types.js';
import { outCsr } from '../adjacency.js';

export function referenceScc(g: Graph): Uint32Array {
  const n = g.numVertices;
  const { offsets, nbrs } = outCsr(g);
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const comp = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  let sp = 0;
  // The DFS path: vertex and the next edge to try.
  const pathV = new Int32Array(n);
  const pathE = new Float64Array(n);
  let next = 0;
  let comps = 0;
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1) continue;
    let depth = 0;
    pathV[0] = s;
    pathE[0] = offsets[s]!;
    index[s] = low[s] = next++;
    stack[sp++] = s;
    onStack[s] = 1;
    while (depth >= 0) {
      const v = pathV[depth]!;
      const e = pathE[depth]!;
      if (e < offsets[v + 1]!) {
        pathE[depth] = e + 1;
        const w = nbrs[e]!;
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          stack[sp++] = w;
          onStack[w] = 1;
          pathV[++depth] = w;
          pathE[depth] = offsets[w]!;
        } else if (onStack[w] === 1 && index[w]! < low[v]!) low[v] = index[w]!;
        continue;
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack[--sp]!;
          onStack[w] = 0;
          comp[w] = comps;
        } while (w !== v);
        comps++;
      }
      depth--;
      if (depth >= 0) {
        const u = pathV[depth]!;
        if (low[v]! < low[u]!) low[u] = low[v]!;
      }
    }
  }
  const ids = g.ids.toOriginal;
  const best = new Float64Array(comps).fill(Infinity);
  for (let v = 0; v < n; v++) if (ids[v]! < best[comp[v]!]!) best[comp[v]!] = ids[v]!;
  return Uint32Array.from(comp, (c) => best[c]!);
}
