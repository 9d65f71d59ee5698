import { loadGraph } from '../dist/src/graph/load.js';
import * as S from '../dist/src/programs/louvain/serial.js';
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
let t = performance.now();
const g0 = S.undirectedView(graph);
console.log('view', (performance.now()-t).toFixed(1), 'n', g0.n, 'entries', g0.adj.length);
let m2 = 0; for (let v = 0; v < g0.n; v++) m2 += g0.k[v];
// compact like sequentialRounds
function compact(g) {
  const n = g.n; let kept = 0; for (let v = 0; v < n; v++) if (g.off[v+1] > g.off[v]) kept++;
  const to = new Int32Array(n).fill(-1); const off = new Float64Array(kept+1); const k = new Float64Array(kept);
  for (let v=0,i=0; v<n; v++) { if (g.off[v+1]===g.off[v]) continue; to[v]=i; k[i]=g.k[v]; off[i+1]=off[i]+g.off[v+1]-g.off[v]; i++; }
  const adj = new Uint32Array(g.adj.length); for (let e=0;e<adj.length;e++) adj[e]=to[g.adj[e]];
  const order = S.classOrder(n); const sub = new Uint32Array(kept);
  for (let i=0,j=0;i<n;i++) if (to[order[i]]>=0) sub[j++]=to[order[i]];
  return { g: { n: kept, off, adj, wt: g.wt, k, loop: new Float64Array(kept) }, order: sub };
}
for (let rep = 0; rep < 3; rep++) {
const { g, order } = compact(g0);
const n = g.n; const comm = S.identity(n); const tot = new Float64Array(n); const size = new Uint32Array(n);
const T0 = performance.now();
for (let round = 0; round < S.MAX_ROUNDS; round++) {
  tot.fill(0); size.fill(0);
  for (let v = 0; v < n; v++) (tot[comm[v]] += g.k[v]), size[comm[v]]++;
  t = performance.now();
  const mv = S.moveOrdered(g, comm, tot, size, order, 1, m2);
  const line = [`r${round} L0 ${(performance.now()-t).toFixed(1)}ms sw${mv.sweeps} gain ${mv.gain.toExponential(2)}`];
  if (round > 0 && mv.gain < S.ROUND_TOL) { console.log(line.join(' | ')); break; }
  t = performance.now();
  const C = S.relabel(comm);
  const tr = performance.now()-t; t = performance.now();
  let h = S.aggregate(g, comm, C);
  line.push(`relabel ${tr.toFixed(1)} agg0 ${(performance.now()-t).toFixed(1)} C${C}`); let top = S.identity(C); let lev = 0;
  for (;;) {
    const c2 = S.identity(h.n); const tt = h.k.slice();
    t = performance.now();
    const m = S.moveOrdered(h, c2, tt, new Uint32Array(h.n).fill(1), S.identity(h.n), 1, m2);
    const C2 = S.relabel(c2);
    const dt = performance.now()-t;
    t = performance.now();
    let agg = 0;
    if (C2 < h.n) { for (let v=0; v<top.length; v++) top[v]=c2[top[v]]; h = S.aggregate(h, c2, C2); agg = performance.now()-t; }
    line.push(`L${++lev} n${c2.length} e${ (lev===1? '' : '') }${dt.toFixed(1)}ms sw${m.sweeps} C${C2} agg${agg.toFixed(1)}`);
    if (C2 === c2.length) break;
  }
  t = performance.now();
  for (let v = 0; v < n; v++) comm[v] = top[comm[v]];
  line.push(`map ${(performance.now()-t).toFixed(1)}`);
  console.log(line.join(' | '));
}
console.log('total', (performance.now()-T0).toFixed(1));
}
