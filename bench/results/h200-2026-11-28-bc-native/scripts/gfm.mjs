// ../../h200-2026-11-28-gpu-first-runs/scripts/gfr.mjs with each superstep kernel:mode:ms
import path from 'node:path';
import os from 'node:os';
const root = process.env.ROOT ?? process.cwd();
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const g0 = await readTsr(process.argv[2]); const g = g0.graph ?? g0;
const topo = { name: '1S1G', source: 'gfr', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: [{ device: 0, streams: 4, emulated: process.env.EMU === "1" }], interconnect: {}, model: {} };
const program = findProgram(process.argv[3]);
const extra = { pr: { iterations: 10 }, bc: { sources: 4, seed: 7 } }[program.name] ?? (program.params.source ? { source: g.ids.toOriginal[0] } : {});
const params = prepareRun(g, program, extra).params;
let t = performance.now();
const e = await Engine.create(g, topo, await withOwnership(g, topo, { gpuShare: 1, steal: 'off', preload: [program] }));
const out = [`create ${(performance.now() - t).toFixed(1)}`];
for (let r = 0; r < Number(process.argv[4] ?? 6); r++) {
  const rep = (await e.run(program, params)).report;
  out.push(`${r} ${rep.totalMs.toFixed(1)} [${rep.steps.map((s) => `${s.kernel}:${s.mode}:${s.ms.toFixed(1)}`).join(',')}]`);
}
await e.close();
console.log(out.join('\n'));
