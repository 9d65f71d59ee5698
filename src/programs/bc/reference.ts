/**
 * Reference betweenness centrality (serial, for tests). Brandes' algorithm on hop counts
 * (unweighted shortest paths along out-edges), UNNORMALISED:
 *   BC(v) = Σ_{s ∈ S} Σ_{t ≠ s, t ≠ v, v ≠ s} σ_st(v) / σ_st
 * where S is every vertex (default) or the given list of INTERNAL source ids, σ_st the number of
 * shortest s→t paths and σ_st(v) those through v.
 *   - Directed graphs: exactly the sum above (ordered pairs).
 *   - Undirected graphs (g.in === g.out): the sum divided by 2, so that each unordered pair counts
 *     once over all sources: networkx betweenness_centrality(normalized=False) and graphology's
 *     betweenness(normalized: false). With a source subset the same halving is applied and no
 *     other rescaling (networkx's k-sampling multiplies by n/k; this does not).
 * Weights are ignored. Output per INTERNAL id, Float64Array.
 */
import type { Graph } from '../../graph/types.js';
import { outCsr } from '../adjacency.js';

export function referenceBetweenness(g: Graph, sources?: ArrayLike<number>): Float64Array {
  const n = g.numVertices;
  const { offsets, nbrs } = outCsr(g);
  const bc = new Float64Array(n);
  const sigma = new Float64Array(n);
  const dist = new Int32Array(n);
  const delta = new Float64Array(n);
  const order = new Uint32Array(n); // BFS order: also the stack S (read backwards)
  const runOne = (s: number): void => {
    sigma.fill(0);
    dist.fill(-1);
    delta.fill(0);
    sigma[s] = 1;
    dist[s] = 0;
    let head = 0;
    let tail = 0;
    order[tail++] = s;
    while (head < tail) {
      const v = order[head++]!;
      for (let e = offsets[v]!; e < offsets[v + 1]!; e++) {
        const w = nbrs[e]!;
        if (dist[w] === -1) {
          dist[w] = dist[v]! + 1;
          order[tail++] = w;
        }
        if (dist[w] === dist[v]! + 1) sigma[w]! += sigma[v]!;
      }
    }
    // Dependencies in reverse BFS order: predecessors of w are the v with an edge v→w one level up.
    for (let i = tail - 1; i >= 0; i--) {
      const v = order[i]!;
      for (let e = offsets[v]!; e < offsets[v + 1]!; e++) {
        const w = nbrs[e]!;
        if (dist[w] === dist[v]! + 1) delta[v]! += (sigma[v]! / sigma[w]!) * (1 + delta[w]!);
      }
      if (v !== s) bc[v]! += delta[v]!;
    }
  };
  if (sources === undefined) {
    for (let s = 0; s < n; s++) runOne(s);
  } else {
    for (let i = 0; i < sources.length; i++) {
      const s = sources[i]!;
      if (!(Number.isInteger(s) && s >= 0 && s < n)) throw new RangeError(`betweenness source ${s} is not an internal id in [0, ${n})`);
      runOne(s);
    }
  }
  if (g.in === g.out) for (let v = 0; v < n; v++) bc[v]! /= 2;
  return bc;
}
