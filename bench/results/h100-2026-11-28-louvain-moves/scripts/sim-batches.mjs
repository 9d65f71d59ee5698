// Simulates speculative batched moveOrdered: counts parallel-gather entries, serial re-gather entries, serial mover-loop entries, serial decision work.
import { loadGraph } from '../../../../dist/src/graph/load.js';
import * as S from '../../../../dist/src/programs/louvain/serial.js';
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
const B = Number(process.argv[3] ?? 256);
const g0 = S.undirectedView(graph);
let m2 = 0; for (const x of g0.k) m2 += x;
function sim(g, comm, tot, size, order) {
  const { n, off, adj, wt, k } = g;
  const act = new Uint8Array(n).fill(1), slack = new Float64Array(n), dirty = new Int32Array(n).fill(-1);
  const cnt = { par: 0, reg: 0, mover: 0, dec: 0, total: 0 };
  let sweeps = 0, batch = 0;
  const acc = new Float64Array(n), stamp = new Int32Array(n).fill(-1), touched = new Uint32Array(n);
  while (sweeps < 200) {
    sweeps++; let moved = 0, gain = 0;
    for (let i0 = 0; i0 < n; i0 += B, batch++) {
      // parallel phase: active vertices in batch gather
      const startAct = [];
      for (let i = i0; i < Math.min(n, i0 + B); i++) { const v = order[i]; if (act[v]) { startAct.push(v); cnt.par += off[v + 1] - off[v]; } }
      for (let i = i0; i < Math.min(n, i0 + B); i++) {
        const v = order[i];
        if (act[v] === 0) continue;
        const wasGathered = startAct.includes(v);
        if (!wasGathered || dirty[v] === batch) cnt.reg += off[v + 1] - off[v];
        act[v] = 0;
        const cv = comm[v]; const a = off[v], b = off[v + 1]; let t = 0;
        for (let e = a; e < b; e++) { const c = comm[adj[e]]; const w = wt ? wt[e] : 1; if (stamp[c] !== v) stamp[c] = v, acc[c] = w, touched[t++] = c; else acc[c] += w; }
        cnt.dec += t; cnt.total += b - a;
        const kv = k[v]; tot[cv] -= kv; size[cv]--;
        const f = resolution * kv / m2; const stay = (stamp[cv] === v ? acc[cv] : 0) - f * tot[cv];
        let best = cv, bestGain = stay, second = -Infinity;
        for (let j = 0; j < t; j++) { const c = touched[j]; if (c === cv) continue; const x = acc[c] - f * tot[c];
          if (x > bestGain || (x === bestGain && best !== cv && c < best)) (second = bestGain), (best = c), (bestGain = x); else if (x > second) second = x; }
        if (best !== cv && size[cv] === 0 && size[best] === 1 && best > cv) (best = cv), (bestGain = stay), (second = Infinity);
        slack[v] = bestGain - Math.max(second, 0);
        tot[best] += kv; size[best]++;
        if (best === cv) continue;
        comm[v] = best; moved++; gain += 2 * (bestGain - stay) / m2;
        const g2 = 2 * resolution * kv / m2;
        cnt.mover += b - a;
        for (let e = a; e < b; e++) { const u = adj[e]; dirty[u] = batch; if (comm[u] === best) continue; const left = slack[u] - 2 * (wt ? wt[e] : 1) - g2 * k[u]; slack[u] = left; if (left < 0) act[u] = 1; }
      }
    }
    if (moved === 0 || gain < 1e-7) break;
  }
  return { sweeps, ...cnt };
}
const resolution = 1;
const n = g0.n;
const comm = new Uint32Array(n).map((_, i) => i), tot = g0.k.slice(), size = new Uint32Array(n).fill(1);
const r0 = sim(g0, comm, tot, size, S.classOrder(n));
console.log('level0', JSON.stringify(r0));
const C = S.relabel(comm); const a = S.aggregateSerial(g0, comm, C);
const c2 = new Uint32Array(a.n).map((_, i) => i);
const r1 = sim(a, c2, a.k.slice(), new Uint32Array(a.n).fill(1), c2.slice());
console.log('coarse1', JSON.stringify(r1));
