// node faults.mjs PROGRAM GRAPH.tsr THREADS: minor/major page faults and times of runs 1-4 of a fresh engine (program preloaded)
import path from 'node:path';
const dist = (p) => import(path.join(process.env.ROOT, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun } = await dist('src/api.js');
const { readTsr } = await dist('src/graph/tsr.js');
const [cell, gs, th] = process.argv.slice(2);
const g = await readTsr(gs);
const topo = { name: '1S', source: 'faults', sockets: [{ id: 0, threads: Number(th) }], gpus: [], interconnect: {}, model: {} };
const program = findProgram(cell);
const params = prepareRun(g, program, program.params.source ? { source: g.ids.toOriginal[0] } : {}).params;
const e = await Engine.create(g, topo, { preload: [program] });
for (let r = 0; r < 4; r++) {
  const u0 = process.resourceUsage();
  const rep = (await e.run(program, params)).report;
  const u1 = process.resourceUsage();
  console.log(cell, 'run', r + 1, 'ms', rep.totalMs.toFixed(1), 'minflt', u1.minorPageFault - u0.minorPageFault, 'majflt', u1.majorPageFault - u0.majorPageFault, 'cpu ms', ((u1.userCPUTime - u0.userCPUTime + u1.systemCPUTime - u0.systemCPUTime) / 1000).toFixed(0), 'sys ms', ((u1.systemCPUTime - u0.systemCPUTime) / 1000).toFixed(0), 'vcsw', u1.voluntaryContextSwitches - u0.voluntaryContextSwitches, 'ivcsw', u1.involuntaryContextSwitches - u0.involuntaryContextSwitches, rep.steps.map((s) => `${s.kernel}:${s.ms.toFixed(1)}`).join(' '));
}
await e.close();
