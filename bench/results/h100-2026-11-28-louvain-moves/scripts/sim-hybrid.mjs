// Hybrid: level 0 of round 0 starts with S synchronous sweeps (K hash classes), then the sequential rounds as sequentialRounds.
import { loadGraph } from '../../../../dist/src/graph/load.js';
import * as S from '../../../../dist/src/programs/louvain/serial.js';
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
const SW = Number(process.argv[3] ?? 1), K = Number(process.argv[4] ?? 2);
const g = S.undirectedView(graph);
let m2 = 0; for (const x of g.k) m2 += x;
const n = g.n;
function q(comm) { const tot = new Float64Array(n); let inside = 0;
  for (let v = 0; v < n; v++) { tot[comm[v]] += g.k[v]; for (let e = g.off[v]; e < g.off[v+1]; e++) if (comm[g.adj[e]] === comm[v]) inside += g.wt ? g.wt[e] : 1; }
  let sq = 0; for (const t of tot) sq += t * t; return inside / m2 - sq / (m2 * m2); }
let syncEntries = 0;
function syncSweeps(comm) {
  const tot = new Float64Array(n), size = new Uint32Array(n); for (let v = 0; v < n; v++) tot[comm[v]] += g.k[v], size[comm[v]]++;
  const next = comm.slice(); const acc = new Float64Array(n), stamp = new Int32Array(n).fill(-1), touched = new Uint32Array(n);
  for (let sw = 0; sw < SW; sw++) for (let r = 0; r < K; r++) {
    for (let v = 0; v < n; v++) { if ((Math.imul(v, 0x9e3779b1) >>> 0) % K !== r) continue;
      const cv = comm[v]; let t = 0;
      for (let e = g.off[v]; e < g.off[v+1]; e++) { const c = comm[g.adj[e]]; const w = g.wt ? g.wt[e] : 1; if (stamp[c] !== v) stamp[c] = v, acc[c] = w, touched[t++] = c; else acc[c] += w; }
      syncEntries += g.off[v+1] - g.off[v]; stamp.fill(-1, 0, 0);
      for (let i = 0; i < t; i++) {} 
      const kv = g.k[v], f = kv / m2; let bestGain = (stamp[cv] === v ? acc[cv] : 0) - f * (tot[cv] - kv), to = cv;
      for (let i = 0; i < t; i++) { const c = touched[i]; if (c === cv) continue; const x = acc[c] - f * tot[c]; if (x > bestGain || (x === bestGain && to !== cv && c < to)) to = c, bestGain = x; }
      if (to !== cv && size[cv] === 1 && size[to] === 1 && to > cv) to = cv;
      next[v] = to;
      for (let i = 0; i < t; i++) stamp[touched[i]] = -1;
    }
    for (let v = 0; v < n; v++) { const c = next[v], o = comm[v]; if (c !== o) { tot[o] -= g.k[v]; tot[c] += g.k[v]; size[o]--; size[c]++; comm[v] = c; } }
  }
}
const t0 = performance.now();
const order = S.classOrder(n);
const comm = new Uint32Array(n); for (let v = 0; v < n; v++) comm[v] = v;
if (SW > 0) syncSweeps(comm);
const qs = q(comm);
const tot = new Float64Array(n), size = new Uint32Array(n);
let rounds = 0, sweeps = 0;
while (rounds < 4) {
  tot.fill(0); size.fill(0); for (let v = 0; v < n; v++) (tot[comm[v]] += g.k[v]), size[comm[v]]++;
  const moved = S.moveOrderedSerial(g, comm, tot, size, order, 1, m2); sweeps += moved.sweeps;
  if (rounds > 0 && moved.gain < 1e-7) break;
  const C = S.relabel(comm); let merged = 0;
  if (C < n) { const top = S.serialLevels(S.aggregateSerial(g, comm, C), 1, m2); merged = 1 + top.levels; for (let v = 0; v < n; v++) comm[v] = top.comm[comm[v]]; }
  rounds++; if (merged <= 1) break;
}
console.log(`sync sweeps ${SW} K=${K}: Q after sync ${qs.toFixed(4)} final ${q(comm).toFixed(5)} rounds ${rounds} seq sweeps ${sweeps} syncEntries ${(syncEntries/1e6).toFixed(2)}M ${(performance.now()-t0).toFixed(0)} ms`);
