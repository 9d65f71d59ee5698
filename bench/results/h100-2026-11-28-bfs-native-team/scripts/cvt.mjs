// cv.mjs with each run's wall-clock start (epoch ms) printed, to line up with the workers' traces.
import path from 'node:path';
import os from 'node:os';
const root = process.env.ROOT ?? '/work/main';
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const [cell, file, runs] = process.argv.slice(2);
const g0 = await (await dist('src/graph/tsr.js')).readTsr(file); const g = g0.graph ?? g0;
const topo = { name: '1S', source: 'cv', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: [], interconnect: {}, model: {} };
const program = findProgram(cell);
const params = prepareRun(g, program, { source: g.ids.toOriginal[0] }).params;
const e = await Engine.create(g, topo, await withOwnership(g, topo, { preload: [program] }));
for (let r = 0; r < Number(runs); r++) {
  const t0 = performance.timeOrigin + performance.now();
  const res = await e.run(program, params), rep = res.report;
  console.log(`${r} start ${t0.toFixed(3)} total ${rep.totalMs.toFixed(2)} alloc ${rep.phases.allocMs.toFixed(2)} step ${rep.steps.map((s) => s.ms.toFixed(2)).join(',')}`);
}
await e.close();
