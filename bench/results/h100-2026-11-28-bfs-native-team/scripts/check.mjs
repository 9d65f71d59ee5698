// node check.mjs SCALE RUNS THREADS : bfs (team vs TESSERA_TEAM=0 in a child) against the reference
import path from 'node:path';
const root = process.env.ROOT ?? '/work/main';
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership, generate } = await dist('src/api.js');
const { referenceBfs } = await dist('src/programs/bfs/reference.js');
const [scale, runs, threads] = process.argv.slice(2);
const g0 = scale.endsWith(".tsr") ? await (await dist("src/graph/tsr.js")).readTsr(scale) : generate(`rmat:${scale}:weighted`);
const g = g0.graph ?? g0;
const topo = { name: '1S', source: 'tl', sockets: [{ id: 0, threads: Number(threads) }], gpus: [], interconnect: {}, model: {} };
const program = findProgram('bfs');
const e = await Engine.create(g, topo, await withOwnership(g, topo, {}));
const ms = [];
let bad = 0;
for (let r = 0; r < Number(runs); r++) {
  const src = g.ids.toOriginal[(r * 7919) % g.numVertices];
  const params = prepareRun(g, program, { source: src }).params;
  const res = await e.run(program, params);
  ms.push(res.report.totalMs);
  const ref = referenceBfs(g, params.source);
  const got = res.values ?? res.state?.depth ?? res.output;
  if (r === 0) console.log(Object.keys(res), res.report.steps.map((s) => `${s.kernel}/${s.mode}/${s.team ?? ''}`).join(' '), JSON.stringify(res.report.notes ?? {}));
  const arr = got;
  for (let v = 0; v < g.numVertices; v++) if (arr[v] !== ref[v]) { bad++; if (bad < 5) console.log('diff', v, arr[v], ref[v]); }
}
await e.close();
console.log('scale', scale, 'threads', threads, 'bad', bad, 'ms', ms.map((x) => x.toFixed(1)).join(' '));
