// SSSP/BFS/WCC session warm medians for knob variants: node ssspv.mjs ROOT G.tsr LABEL
import os from 'node:os';
const [root, tsr, label] = process.argv.slice(2);
const { openSession } = await import(`${root}/dist/src/index.js`);
const { readTsr } = await import(`${root}/dist/src/graph/tsr.js`);
const g = await readTsr(tsr);
const s = await openSession(g, { topology: { name: '1S', sockets: [{ id: 0, threads: os.availableParallelism() }] }, ...(process.env.FORCE ? { forceMode: process.env.FORCE } : {}), ...(process.env.DIV ? { pullDivisor: +process.env.DIV } : {}) });
const out = { label };
for (const algo of ['sssp', 'bfs', 'wcc']) {
  const ms = []; let rep;
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    const r = await s.run(algo, algo === 'wcc' ? {} : { source: g.ids.toOriginal[0] });
    ms.push(+(performance.now() - t0).toFixed(1)); rep = r.report;
  }
  const w = ms.slice(1).sort((a, b) => a - b);
  const modes = {}; for (const st of rep.steps) { const k = st.mode; modes[k] = modes[k] || { n: 0, ms: 0, plan: 0, list: 0 }; modes[k].n++; modes[k].ms += st.ms; modes[k].plan += st.planMs; modes[k].list += st.listMs; }
  for (const k in modes) for (const f of ['ms', 'plan', 'list']) modes[k][f] = +modes[k][f].toFixed(1);
  out[algo] = { median: w[2], runs: ms, phases: Object.fromEntries(Object.entries(rep.phases).map(([k, v]) => [k, +v.toFixed(1)])), modes };
}
await s.close();
console.log(JSON.stringify(out));
