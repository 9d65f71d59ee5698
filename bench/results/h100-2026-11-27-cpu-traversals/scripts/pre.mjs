// node pre.mjs PROGRAM GRAPH.tsr THREADS PRELOAD(0|1): a fresh engine's create time and first 3 runs
import path from 'node:path';
const dist = (p) => import(path.join(process.env.ROOT, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun } = await dist('src/api.js');
const { readTsr } = await dist('src/graph/tsr.js');
const [cell, gs, th, pre] = process.argv.slice(2);
const g = await readTsr(gs);
const topo = { name: '1S', source: 'pre', sockets: [{ id: 0, threads: Number(th) }], gpus: [], interconnect: {}, model: {} };
const program = findProgram(cell);
const params = prepareRun(g, program, program.params.source ? { source: g.ids.toOriginal[0] } : {}).params;
let t = performance.now();
const e = await Engine.create(g, topo, pre === '1' ? { preload: [program] } : {});
const create = performance.now() - t;
const runs = [];
for (let r = 0; r < 3; r++) { t = performance.now(); await e.run(program, params); runs.push(performance.now() - t); }
console.log(cell, 'preload', pre, 'create', create.toFixed(1), 'runs', runs.map((x) => x.toFixed(1)).join(' '));
await e.close();
