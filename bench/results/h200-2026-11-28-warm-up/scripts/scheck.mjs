// node scheck.mjs GRAPH RUNS THREADS : sssp from RUNS sources against the serial reference (every distance equal).
import path from 'node:path';
const root = process.env.ROOT ?? new URL('..', import.meta.url).pathname;
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership, generate } = await dist('src/api.js');
const { referenceSssp } = await dist('src/programs/sssp/reference.js');
const [file, runs, threads] = process.argv.slice(2);
const g0 = file.endsWith('.tsr') ? await (await dist('src/graph/tsr.js')).readTsr(file) : generate(`rmat:${file}:weighted`);
const g = g0.graph ?? g0;
const topo = { name: '1S', source: 'sc', sockets: [{ id: 0, threads: Number(threads) }], gpus: [], interconnect: {}, model: {} };
const program = findProgram('sssp');
const e = await Engine.create(g, topo, await withOwnership(g, topo, {}));
let bad = 0; const ms = [];
for (let r = 0; r < Number(runs); r++) {
  const params = prepareRun(g, program, { source: g.ids.toOriginal[(r * 7919) % g.numVertices] }).params;
  const res = await e.run(program, params);
  ms.push(res.report.totalMs);
  const ref = referenceSssp(g, params.source);
  for (let v = 0; v < g.numVertices; v++) if (res.values[v] !== ref[v]) { bad++; if (bad < 5) console.log('diff', v, res.values[v], ref[v]); }
}
await e.close();
console.log('graph', file, 'threads', threads, 'bad', bad, 'ms', ms.map((x) => x.toFixed(1)).join(' '));
