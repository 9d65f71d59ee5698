/**
 * Reference SSSP (serial, for tests). Graphalytics semantics: the length (sum of float64 edge
 * weights, all >= 0) of the shortest path from `source` along out-edges (both ways on undirected
 * graphs). The source has distance 0; unreachable vertices get Infinity. Dijkstra with a binary
 * heap (lazy deletion). An unweighted graph is treated as having weight 1 on every edge.
 *
 * Input and output use INTERNAL ids; Float64Array of length n.
 */
import type { Graph } from '../../graph/types.js';
import { outCsr } from '../adjacency.js';

export function referenceSssp(g: Graph, source: number): Float64Array {
  const n = g.numVertices;
  if (!(Number.isInteger(source) && source >= 0 && source < n)) throw new RangeError(`SSSP source ${source} is not an internal id in [0, ${n})`);
  const { offsets, nbrs, weights } = outCsr(g);
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  const heap = new MinHeap();
  dist[source] = 0;
  heap.push(0, source);
  while (heap.size > 0) {
    const [dv, v] = heap.pop();
    if (done[v] === 1 || dv > dist[v]!) continue;
    done[v] = 1;
    for (let e = offsets[v]!; e < offsets[v + 1]!; e++) {
      const u = nbrs[e]!;
      const w = weights === undefined ? 1 : weights[e]!;
      if (w < 0 || Number.isNaN(w)) throw new RangeError(`SSSP needs non-negative weights, found ${w} on an edge of vertex ${v}`);
      const nd = dv + w;
      if (nd < dist[u]!) {
        dist[u] = nd;
        heap.push(nd, u);
      }
    }
  }
  return dist;
}

/** Binary min-heap of (key, vertex) pairs. */
class MinHeap {
  private keys: number[] = [];
  private vals: number[] = [];
  get size(): number {
    return this.keys.length;
  }
  push(k: number, v: number): void {
    const { keys, vals } = this;
    let i = keys.length;
    keys.push(k);
    vals.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p]! <= k) break;
      keys[i] = keys[p]!;
      vals[i] = vals[p]!;
      i = p;
    }
    keys[i] = k;
    vals[i] = v;
  }
  pop(): [number, number] {
    const { keys, vals } = this;
    const topK = keys[0]!;
    const topV = vals[0]!;
    const k = keys.pop()!;
    const v = vals.pop()!;
    const size = keys.length;
    if (size > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const c = l + 1 < size && keys[l + 1]! < keys[l]! ? l + 1 : l;
        if (keys[c]! >= k) break;
        keys[i] = keys[c]!;
        vals[i] = vals[c]!;
        i = c;
      }
      keys[i] = k;
      vals[i] = v;
    }
    return [topK, topV];
  }
}
