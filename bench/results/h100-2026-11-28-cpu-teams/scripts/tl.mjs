// node tl.mjs PROGRAM SCALE RUNS : per-superstep timeline of the last warm run on a 1S topology
import path from 'node:path';
import os from 'node:os';
const root = process.env.ROOT ?? '/work/main';
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership, generate } = await dist('src/api.js');
const [cell, scale, runs] = process.argv.slice(2);
const g0 = scale.endsWith('.tsr') ? await (await dist('src/graph/tsr.js')).readTsr(scale) : generate(`rmat:${scale}:weighted`); const g = g0.graph ?? g0;
const topo = { name: '1S', source: 'tl', sockets: [{ id: 0, threads: Number(process.env.TL_THREADS ?? os.availableParallelism()) }], gpus: [], interconnect: {}, model: {} };
const program = findProgram(cell);
const params = prepareRun(g, program, cell === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {}).params;
const e = await Engine.create(g, topo, await withOwnership(g, topo, {}));
let rep, ms = [], reps = [];
for (let r = 0; r < Number(runs); r++) { rep = (await e.run(program, params)).report; ms.push(rep.totalMs); reps.push(rep); }
reps.sort((a, b) => a.totalMs - b.totalMs); rep = reps[reps.length >> 1];
await e.close();
console.log(cell, 'runs', ms.map((x) => x.toFixed(1)).join(' '));
console.log(cell, 'median', rep.totalMs.toFixed(2));
console.log(JSON.stringify(rep.phases));
for (const s of rep.steps) console.log(s.step, s.kernel, s.mode, 'fr', s.frontier, 'act', s.active, 'e', s.edges, 'ms', s.ms.toFixed(2), 'plan', s.planMs.toFixed(2), 'fold', s.foldMs.toFixed(2), 'list', s.listMs.toFixed(2), s.actors.map((a) => `${a.actor}: t${a.tasks} c${a.computeMs.toFixed(2)} busy${a.busyMs?.toFixed(2)} vote${a.voteMs.toFixed(2)}`).join(' | '));
for (const k of Object.keys(rep)) if (!['steps'].includes(k)) console.log(k, typeof rep[k] === 'object' ? JSON.stringify(rep[k]).slice(0, 300) : rep[k]);
