// node lv.mjs SCALE RUNS: louvain on RMAT SCALE weighted: a session's runs (1S.yaml) and the serial parts' times
const s = +(process.argv[2] ?? 16), runs = +(process.argv[3] ?? 7);
const R = process.cwd();
const { generate, openSession } = await import(`${R}/dist/src/index.js`);
const S = await import(`${R}/dist/src/programs/louvain/serial.js`);
const g = generate(`rmat:${s}:weighted`); const graph = g.graph ?? g;
const sess = await openSession(graph, { topology: `${R}/configs/1S.yaml`, preload: ['louvain'] });
const ms = [];
for (let i = 0; i < runs; i++) { const t = performance.now(); const r = await sess.run('louvain', {}); ms.push(+(performance.now() - t).toFixed(1)); if (i === 0) console.log(JSON.stringify(r.report.notes ?? {})); }
await sess.close();
console.log('session runs ms', JSON.stringify(ms), 'median', [...ms].sort((a, b) => a - b)[ms.length >> 1]);
const view = S.undirectedView(graph);
let m2 = 0; for (const x of view.k) m2 += x;
const n = view.n;
for (let rep = 0; rep < 5; rep++) {
  const T = []; let t = performance.now(); const lap = (name, ...x) => { const now = performance.now(); T.push([name, +(now - t).toFixed(1), ...x]); t = now; };
  const order = S.classOrder(n); lap('order');
  const comm = new Uint32Array(n).map((_, i) => i); const tot = view.k.slice(); const size = new Uint32Array(n).fill(1);
  const mv = S.moveOrdered(view, comm, tot, size, order, 1, m2); lap('move0', mv.sweeps);
  const C = S.relabel(comm); const ag = S.aggregate(view, comm, C); lap('agg', C, ag.adj.length);
  const top = S.serialLevels(ag, 1, m2); lap('levels', top.levels);
  t = performance.now(); const r = S.sequentialRounds(view, 1, m2); lap('sequentialRounds', r.rounds, r.sweeps);
  console.log(JSON.stringify(T));
}
