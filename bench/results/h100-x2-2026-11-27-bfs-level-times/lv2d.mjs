// node lv2d.mjs ROOT SCALE RUNS: louvain on RMAT SCALE weighted, a session's runs on configs/1S.yaml; prints the runs and their median.
const [R, s, runs] = [process.argv[2], +(process.argv[3] ?? 16), +(process.argv[4] ?? 9)];
const { generate, openSession } = await import(`${R}/dist/src/index.js`);
const g = generate(`rmat:${s}:weighted`); const graph = g.graph ?? g;
const sess = await openSession(graph, { topology: `${R}/configs/1S.yaml`, preload: ['louvain'] });
const ms = []; let notes;
for (let i = 0; i < runs; i++) { const t = performance.now(); const r = await sess.run('louvain', {}); ms.push(+(performance.now() - t).toFixed(1)); notes = r.report.notes; }
await sess.close();
const med = [...ms].sort((a, b) => a - b)[ms.length >> 1];
console.log(JSON.stringify({ scale: s, medianMs: med, runs: ms, modularity: notes.modularity, communities: notes.communities }));
