// node early.mjs PROGRAM GRAPH.tsr THREADS WINDOW.json: a fresh engine, 1 warm-up run, runs 2-4 timed; the
// hrtime window (us) of runs 2-4 written for the profile filter (--cpu-prof of this process).
import path from 'node:path';
import { writeFileSync } from 'node:fs';
const root = process.env.ROOT;
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun } = await dist('src/api.js');
const { readTsr } = await dist('src/graph/tsr.js');
const [cell, gs, th, win] = process.argv.slice(2);
const g = await readTsr(gs);
const topo = { name: '1S', source: 'early', sockets: [{ id: 0, threads: Number(th) }], gpus: [], interconnect: {}, model: {} };
const program = findProgram(cell);
const params = prepareRun(g, program, program.params.source ? { source: g.ids.toOriginal[0] } : {}).params;
const e = await Engine.create(g, topo, process.env.PRELOAD ? { preload: [program] } : {});
const ms = [];
const reps = [];
const a0 = Number(process.hrtime.bigint() / 1000n);
const first = (await e.run(program, params)).report;
ms.push(first.totalMs);
if (process.env.FIRST) { writeFileSync(win, JSON.stringify({ a: a0, b: Number(process.hrtime.bigint() / 1000n) })); console.log('first', JSON.stringify(first.phases), first.steps.map((s) => `${s.kernel}:${s.ms.toFixed(2)}(c${s.actors[0].computeMs.toFixed(2)} b${(s.actors[0].busyMs ?? 0).toFixed(1)} p${s.planMs.toFixed(2)})`).join(' ')); }
const a = Number(process.hrtime.bigint() / 1000n);
for (let r = 0; r < 3; r++) { const rep = (await e.run(program, params)).report; ms.push(rep.totalMs); reps.push(rep); }
const b = Number(process.hrtime.bigint() / 1000n);
if (!process.env.FIRST) writeFileSync(win, JSON.stringify({ a, b }));
console.log(cell, 'runs', ms.map((x) => x.toFixed(1)).join(' '));
for (const rep of reps) console.log(JSON.stringify(rep.phases), rep.steps.map((s) => `${s.kernel}:${s.ms.toFixed(2)}(c${s.actors[0].computeMs.toFixed(2)} b${(s.actors[0].busyMs ?? 0).toFixed(1)} p${s.planMs.toFixed(2)})`).join(' '));
await e.close();
