import { loadGraph } from '../dist/src/graph/load.js';
import * as S from '../dist/src/programs/louvain/serial.js';
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
const g = S.undirectedView(graph);
let m2 = 0; for (const x of g.k) m2 += x;
const n = g.n, order = S.classOrder(n);
for (let rep = 0; rep < 5; rep++) {
  const log = [];
  let t = performance.now();
  const lap = (s) => { const x = performance.now(); log.push(`${s} ${(x - t).toFixed(1)}`); t = x; };
  const comm = new Uint32Array(n); for (let v = 0; v < n; v++) comm[v] = v;
  const tot = new Float64Array(n), size = new Uint32Array(n);
  for (let rounds = 0; rounds < 4; rounds++) {
    tot.fill(0); size.fill(0);
    for (let v = 0; v < n; v++) (tot[comm[v]] += g.k[v]), size[comm[v]]++;
    const moved = S.moveOrdered(g, comm, tot, size, order, 1, m2);
    lap(`r${rounds} l0move(${moved.sweeps})`);
    if (rounds > 0 && moved.gain < S.TOL) break;
    const C = S.relabel(comm);
    let merged = 0;
    if (C < n) {
      let a = S.aggregate(g, comm, C); lap(`agg0->${C}/${a.adj.length}`);
      const top = new Uint32Array(a.n).map((_, i) => i);
      let levels = 0;
      for (;;) {
        const c2 = new Uint32Array(a.n).map((_, i) => i);
        const mv = S.moveOrdered(a, c2, a.k.slice(), new Uint32Array(a.n).fill(1), c2.slice(), 1, m2);
        const CC = S.relabel(c2); lap(`move(${mv.sweeps})`);
        if (CC === a.n) break;
        levels++;
        for (let v = 0; v < top.length; v++) top[v] = c2[top[v]];
        a = S.aggregate(a, c2, CC); lap(`agg->${CC}/${a.adj.length}`);
      }
      merged = 1 + levels;
      for (let v = 0; v < n; v++) comm[v] = top[comm[v]];
    }
    if (merged <= 1) break;
  }
  console.log(log.join(' | '));
}
