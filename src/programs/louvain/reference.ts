/**
 * Reference Louvain (serial, for tests). `referenceLouvain` is the program's algorithm (index.ts)
 * in plain loops, so its labels equal the engine's on any topology: on small views the
 * sequential rounds the driver runs itself (serial.ts sequentialRounds); above `inlineEdges`, level 0's synchronous
 * sub-rounds with neighbouring communities summed in a scatter array (the kernels use a hash
 * table), the serial coarse levels, and the refining rounds. `sequentialLouvain` is the classic sequential Louvain
 * (Blondel et al. 2008) from level 0: the modularity the tests hold the program to.
 * Output per INTERNAL id: the smallest original id in the vertex's community.
 */
import type { Graph } from '../../graph/types.js';
import { classOf } from './kernels.js';
import { applyMoves, CLASSES, endRound, INLINE_EDGES, measured, sequentialRounds, serialLevels, smallestOriginal, startRound, sweepQ, undirectedView, type LevelZero, type SweepState, type WCsr } from './serial.js';

/** One round of index.ts's level-0 moving, from z's state: synchronous sub-rounds until Q gains < TOL. */
function moveRound(g: WCsr, z: LevelZero, s: SweepState, resolution: number, m2: number): void {
  const n = g.n;
  const { comm, tot, size, best, act, dirty, mark, next } = z;
  const kin = new Float64Array(n);
  const acc = new Float64Array(n);
  const seen = new Uint8Array(n);
  const touched = new Uint32Array(n);
  for (;;) {
    for (let v = 0; v < n; v++) {
      const cv = comm[v]!;
      const mine = act[v] === 1 && classOf(v, CLASSES) === s.round;
      const stale = s.round === 0 && dirty[v] === 1;
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
    if (s.round === 0 && measured(s, sweepQ(kin, tot, m2, resolution), comm, best)) return;
    applyMoves(comm, next, tot, size, g.k, mark, act, dirty);
    if (++s.round === CLASSES) (s.round = 0), s.sweep++;
  }
}

/** The program's labels (index.ts), serially: level 0 sequential up to `inlineEdges` entries, else synchronous. */
export function referenceLouvain(graph: Graph, resolution: number, inlineEdges = INLINE_EDGES): Uint32Array {
  const g = undirectedView(graph);
  const n = g.n;
  const m2 = g.k.reduce((a, b) => a + b, 0);
  let final: Uint32Array = new Uint32Array(n).map((_, i) => i);
  if (m2 > 0 && g.adj.length <= inlineEdges) final = sequentialRounds(g, resolution, m2).comm;
  else if (m2 > 0) {
    const z: LevelZero = { comm: new Uint32Array(n), tot: new Float64Array(n), size: new Uint32Array(n), best: new Uint32Array(n), act: new Uint8Array(n), dirty: new Uint8Array(n), mark: new Uint8Array(n), next: new Uint32Array(n) };
    const s: SweepState = { rounds: 0, levels: 0, sweep: 0, round: 0, startQ: 0, bestQ: 0, prevQ: 0 };
    startRound(z, final, g.k, s);
    for (;;) {
      moveRound(g, z, s, resolution, m2);
      const end = endRound(g, z, s, resolution, m2);
      if (end === undefined) {
        final = z.best;
        break;
      }
      final = end.comm;
      if (!end.again) break;
      startRound(z, final, g.k, s);
    }
  }
  return smallestOriginal(final, graph.ids.toOriginal, new Uint32Array(n));
}

/** Classic sequential Louvain from level 0 (vertex order): labels as referenceLouvain's. */
export function sequentialLouvain(graph: Graph, resolution: number): Uint32Array {
  const g = undirectedView(graph);
  const m2 = g.k.reduce((a, b) => a + b, 0);
  const comm = m2 > 0 ? serialLevels(g, resolution, m2, true).comm : new Uint32Array(g.n).map((_, i) => i);
  return smallestOriginal(comm, graph.ids.toOriginal, new Uint32Array(g.n));
}
