import { loadGraph } from '../dist/src/graph/load.js';
import * as S from '../dist/src/programs/louvain/serial.js';
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
const g = S.undirectedView(graph); let m2 = 0; for (const x of g.k) m2 += x;
const A = [], B = [];
for (let rep = 0; rep < 12; rep++) {
  let t = performance.now(); S.sequentialRounds(g, 1, m2, false); A.push(performance.now() - t);
  t = performance.now(); S.sequentialRounds(g, 1, m2, true); B.push(performance.now() - t);
}
const med = (x) => [...x].sort((a, b) => a - b)[x.length >> 1].toFixed(1);
console.log('all', med(A), 'compact', med(B), A.map(x=>x.toFixed(0)).join(' '), '|', B.map(x=>x.toFixed(0)).join(' '));
