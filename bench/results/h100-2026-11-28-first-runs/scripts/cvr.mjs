// cv.mjs plus REHEARSE=prog: that program runs once (1 iteration) right after create, before the timed runs
import path from 'node:path';
import os from 'node:os';
const root = process.env.ROOT ?? '/work/main';
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership, generate } = await dist('src/api.js');
const [cell, scale, runs] = process.argv.slice(2);
const g0 = scale.endsWith('.tsr') ? await (await dist('src/graph/tsr.js')).readTsr(scale) : generate(`rmat:${scale}:weighted`); const g = g0.graph ?? g0;
const topo = { name: '1S', source: 'cv', sockets: [{ id: 0, threads: Number(process.env.TL_THREADS ?? os.availableParallelism()) }], gpus: [], interconnect: {}, model: {} };
const program = findProgram(cell);
const params = prepareRun(g, program, cell === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {}).params;
const reh = process.env.REHEARSE ? findProgram(process.env.REHEARSE) : undefined;
const t0 = performance.now();
const e = await Engine.create(g, topo, await withOwnership(g, topo, { preload: reh ? [reh, program] : [program] }));
if (reh) await e.run(reh, prepareRun(g, reh, { iterations: 1 }).params);
const out = [`create ${(performance.now() - t0).toFixed(1)}`];
for (let r = 0; r < Number(runs); r++) {
  const rep = (await e.run(program, params)).report, p = rep.phases;
  out.push(`${r} ${rep.totalMs.toFixed(1)} a${p.allocMs.toFixed(1)} s${p.stepsMs.toFixed(1)} o${p.otherMs.toFixed(1)} [${rep.steps.map((s) => s.ms.toFixed(1)).join(',')}]`);
}
await e.close();
console.log(out.join('\n'));
