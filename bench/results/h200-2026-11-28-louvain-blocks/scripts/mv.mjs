// Native moveOrdered with and without batches on level 0 (round 0) and the first coarse level, in turn.
import { loadGraph } from '../dist/src/graph/load.js';
import * as S from '../dist/src/programs/louvain/serial.js';
import { nativeCpuKernels } from '../dist/actors/gpu/native-host.js';
const move = nativeCpuKernels().louvainMoveOrdered;
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
const g = S.undirectedView(graph);
let m2 = 0; for (let v = 0; v < g.n; v++) m2 += g.k[v];
const order = S.classOrder(g.n);
const run = (h, ord, bv) => { const comm = S.identity(h.n), tot = h.k.slice(), size = new Uint32Array(h.n).fill(1); const t = performance.now(); const r = move(h.off, h.adj, h.wt ?? null, h.k, comm, tot, size, ord, 1, m2, S.MAX_SWEEPS, S.TOL, bv, 16384); return [performance.now() - t, comm, r]; };
const [, c0] = run(g, order, 0);
const C = S.relabel(c0.slice());
const cc = c0.slice(); S.relabel(cc);
const h = S.aggregate(g, cc, C);
for (const [name, gr, ord] of [['L0', g, order], ['L1', h, S.identity(h.n)]]) {
  const t = { 0: [], 512: [], 64: [] };
  for (let i = 0; i < 7; i++) for (const bv of [0, 512, 64]) t[bv].push(run(gr, ord, bv)[0]);
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1].toFixed(1);
  console.log(name, 'n', gr.n, 'entries', gr.adj.length, 'serial', med(t[0]), 'batch512', med(t[512]), 'batch64', med(t[64]));
}
