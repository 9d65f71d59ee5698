/**
 * Reference Louvain (serial, for tests). `referenceLouvain` is the program's algorithm (index.ts)
 * in plain loops, so its labels equal the engine's on any topology: level 0's synchronous
 * sub-rounds with neighbouring communities summed in a scatter array (the kernels use a hash
 * table), then the serial coarse levels. `sequentialLouvain` is the classic sequential Louvain
 * (Blondel et al. 2008) from level 0: the modularity the tests hold the program to.
 * Output per INTERNAL id: the smallest original id in the vertex's community.
 */
import type { Graph } from '../../graph/types.js';
import { classOf } from './kernels.js';
import { aggregate, applyMoves, CLASSES, MAX_SWEEPS, TOL, measured, relabel, serialLevels, smallestOriginal, sweepQ, undirectedView, type SweepState, type WCsr } from './serial.js';

/** Level 0 of index.ts: synchronous sub-rounds until Q gains < TOL; returns the best partition. */
function levelZero(g: WCsr, resolution: number, m2: number): { comm: Uint32Array; sweeps: number } {
  const n = g.n;
  const comm = new Uint32Array(n).map((_, i) => i);
  const tot = g.k.slice();
  const size = new Uint32Array(n).fill(1);
  const best = new Uint32Array(n);
  const next = new Uint32Array(n);
  const kin = new Float64Array(n);
  const acc = new Float64Array(n);
  const seen = new Uint8Array(n);
  const touched = new Uint32Array(n);
  const act = new Uint8Array(n).fill(1);
  const dirty = new Uint8Array(n).fill(1);
  const mark = new Uint8Array(n);
  const s: SweepState = { sweep: 0, round: 0, bestQ: 0, prevQ: 0 };
  for (;;) {
    for (let v = 0; v < n; v++) {
      const cv = comm[v]!;
      const mine = act[v] === 1 && classOf(v, CLASSES) === s.round;
      const stale = s.round === 0 && dirty[v] === 1;
      next[v] = cv;
      if (!mine && !stale) continue;
      if (mine) act[v] = 0;
      if (stale) dirty[v] = 0;
      let t = 0;
      for (let e = g.off[v]!; e < g.off[v + 1]!; e++) {
        const c = comm[g.adj[e]!]!;
        if (seen[c] === 0) (seen[c] = 1), (acc[c] = 0), (touched[t++] = c);
        acc[c]! += g.wt === undefined ? 1 : g.wt[e]!;
      }
      const own = seen[cv] === 1 ? acc[cv]! : 0;
      if (stale) kin[v] = own;
      if (mine) {
        const kv = g.k[v]!;
        const f = (resolution * kv) / m2;
        let bestGain = own - f * (tot[cv]! - kv);
        let to = cv;
        for (let i = 0; i < t; i++) {
          const c = touched[i]!;
          if (c === cv) continue;
          const x = acc[c]! - f * tot[c]!;
          if (x > bestGain || (x === bestGain && to !== cv && c < to)) (to = c), (bestGain = x);
        }
        if (to !== cv && size[cv] === 1 && size[to] === 1 && to > cv) to = cv;
        if (to !== cv) {
          next[v] = to;
          mark[v] = 1;
          for (let e = g.off[v]!; e < g.off[v + 1]!; e++) mark[g.adj[e]!] = 1;
        }
      }
      for (let i = 0; i < t; i++) seen[touched[i]!] = 0;
    }
    if (s.round === 0 && measured(s, sweepQ(kin, tot, m2, resolution), comm, best, TOL, MAX_SWEEPS)) break;
    applyMoves(comm, next, tot, size, g.k, mark, act, dirty);
    if (++s.round === CLASSES) (s.round = 0), s.sweep++;
  }
  return { comm: best, sweeps: s.sweep };
}

/** The program's labels (index.ts), serially. */
export function referenceLouvain(graph: Graph, resolution: number): Uint32Array {
  const g = undirectedView(graph);
  const n = g.n;
  const m2 = g.k.reduce((a, b) => a + b, 0);
  const dense = m2 > 0 ? levelZero(g, resolution, m2).comm : new Uint32Array(n).map((_, i) => i);
  const C = relabel(dense);
  if (m2 > 0 && C < n) {
    const top = serialLevels(aggregate(g, dense, C), resolution, m2, TOL);
    for (let v = 0; v < n; v++) dense[v] = top.comm[dense[v]!]!;
  }
  return smallestOriginal(dense, graph.ids.toOriginal, new Uint32Array(n));
}

/** Classic sequential Louvain from level 0 (vertex order): labels as referenceLouvain's. */
export function sequentialLouvain(graph: Graph, resolution: number): Uint32Array {
  const g = undirectedView(graph);
  const m2 = g.k.reduce((a, b) => a + b, 0);
  const comm = m2 > 0 ? serialLevels(g, resolution, m2, TOL).comm : new Uint32Array(g.n).map((_, i) => i);
  return smallestOriginal(comm, graph.ids.toOriginal, new Uint32Array(g.n));
}
