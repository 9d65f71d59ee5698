// node tl2.mjs SCALE ALGOS RUNS [ELDIR]: warm runs on 1S (every core), prints each algo's run times and the last report's steps
import os from 'node:os';
import fs from 'node:fs';
const [scale, algos, runsArg, elDir] = process.argv.slice(2);
const api = await import(`${process.cwd()}/dist/src/index.js`);
const { graph: g } = await api.loadGraph(`rmat:${scale}:weighted`);
if (elDir) {
  for (const w of [false, true]) {
    const fd = fs.openSync(`${elDir}/g.${w ? 'wel' : 'el'}`, 'w');
    let buf = [];
    for (const p of g.out.pages) for (let i = 0; i < p.vEnd - p.vBegin; i++) for (let e = p.offsets[i]; e < p.offsets[i + 1]; e++) {
      buf.push(w ? `${p.vBegin + i} ${p.nbrs[e]} ${Math.round(p.weights[e] * 1e6)}\n` : `${p.vBegin + i} ${p.nbrs[e]}\n`);
      if (buf.length > 200000) { fs.writeSync(fd, buf.join('')); buf = []; }
    }
    fs.writeSync(fd, buf.join('')); fs.closeSync(fd);
  }
  let ws = 0, wn = 0; for (const p of g.out.pages) for (let e = 0; e < p.edges; e++) { ws += p.weights[e]; wn++; }
  console.log('meanWeight', ws / wn, 'delta', Math.round((ws / wn) * 1e6));
}
const s = await api.openSession(g, { topology: { name: '1S', sockets: [{ id: 0, threads: os.availableParallelism() }] } });
for (const algo of algos.split(',')) {
  const ms = []; let last;
  for (let i = 0; i < +runsArg; i++) {
    const t0 = performance.now();
    last = await s.run(algo, algo === 'bfs' || algo === 'sssp' ? { source: g.ids.toOriginal[0] } : algo === 'pr' ? { iterations: 10 } : {});
    ms.push(+(performance.now() - t0).toFixed(1));
  }
  const w = ms.slice(1).sort((a, b) => a - b);
  console.log(algo, 'median', w[w.length >> 1], 'runs', ms.join(' '));
  const r = last.report;
  console.log(' phases', JSON.stringify(r.phases, (k, v) => typeof v === 'number' ? +v.toFixed(2) : v), 'notes', JSON.stringify(r.notes));
  for (const st of r.steps) console.log(' ', st.step, st.kernel, st.mode, 'front', st.frontier, 'edges', st.edges, 'ms', st.ms.toFixed(2), 'plan', st.planMs.toFixed(2), 'fold', st.foldMs.toFixed(2), 'list', st.listMs.toFixed(2), st.actors.map(a => `${a.actor}:t${a.tasks} c${a.computeMs.toFixed(2)} b${(a.busyMs ?? 0).toFixed(2)} v${a.voteMs.toFixed(2)}`).join(' '));
}
await s.close();
