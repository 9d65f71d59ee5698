// All levels synchronous (K hash classes, Jacobi within a class, pruning by marks): Q and entries examined.
import { loadGraph } from '../../../../dist/src/graph/load.js';
import * as S from '../../../../dist/src/programs/louvain/serial.js';
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
const K = Number(process.argv[3] ?? 2);
const g0 = S.undirectedView(graph);
let m2 = 0; for (const x of g0.k) m2 += x;
const classOf = (v) => (Math.imul(v, 0x9e3779b1) >>> 0) % K;
let entries = 0, subrounds = 0;
function q(g, comm) { // modularity of comm on g (with loops)
  const tot = new Float64Array(g.n); let inside = 0;
  for (let v = 0; v < g.n; v++) { tot[comm[v]] += g.k[v]; inside += g.loop[v]; for (let e = g.off[v]; e < g.off[v+1]; e++) if (comm[g.adj[e]] === comm[v]) inside += g.wt ? g.wt[e] : 1; }
  let sq = 0; for (const t of tot) sq += t * t; return inside / m2 - sq / (m2 * m2);
}
function syncMove(g) {
  const n = g.n, comm = new Uint32Array(n).map((_, i) => i), tot = g.k.slice(), size = new Uint32Array(n).fill(1);
  const act = new Uint8Array(n).fill(1), next = comm.slice(), mark = new Uint8Array(n);
  const acc = new Float64Array(n), stamp = new Int32Array(n).fill(-1), touched = new Uint32Array(n);
  let prevQ = q(g, comm);
  for (let sweep = 0; sweep < 200; sweep++) {
    for (let r = 0; r < K; r++) {
      subrounds++;
      for (let v = 0; v < n; v++) {
        if (!act[v] || classOf(v) !== r) continue;
        act[v] = 0;
        const cv = comm[v]; let t = 0;
        for (let e = g.off[v]; e < g.off[v+1]; e++) { const c = comm[g.adj[e]]; const w = g.wt ? g.wt[e] : 1; if (stamp[c] !== v) stamp[c] = v, acc[c] = w, touched[t++] = c; else acc[c] += w; }
        entries += g.off[v+1] - g.off[v];
        const kv = g.k[v], f = kv / m2;
        let bestGain = (stamp[cv] === v ? acc[cv] : 0) - f * (tot[cv] - kv), to = cv;
        for (let i = 0; i < t; i++) { const c = touched[i]; if (c === cv) continue; const x = acc[c] - f * tot[c]; if (x > bestGain || (x === bestGain && to !== cv && c < to)) to = c, bestGain = x; }
        if (to !== cv && size[cv] === 1 && size[to] === 1 && to > cv) to = cv;
        if (to !== cv) { next[v] = to; mark[v] = 1; for (let e = g.off[v]; e < g.off[v+1]; e++) mark[g.adj[e]] = 1; }
      }
      for (let v = 0; v < n; v++) { if (mark[v]) mark[v] = 0, act[v] = 1; const c = next[v], o = comm[v]; if (c !== o) { tot[o] -= g.k[v]; tot[c] += g.k[v]; size[o]--; size[c]++; comm[v] = c; } }
    }
    const Q = q(g, comm);
    if (Q - prevQ < 1e-7) break;
    prevQ = Q;
  }
  return comm;
}
let g = g0; const top = new Uint32Array(g0.n).map((_, i) => i); let levels = 0;
for (;;) {
  const comm = syncMove(g); const C = S.relabel(comm);
  if (C === g.n) break;
  levels++;
  for (let v = 0; v < top.length; v++) top[v] = comm[top[v]];
  g = S.aggregateSerial(g, comm, C);
}
console.log(`K=${K} Q=${q(g0, top).toFixed(5)} levels=${levels} entries=${(entries/1e6).toFixed(2)}M subrounds=${subrounds}`);
