// ../../h200-2026-11-28-warm-up/scripts/cvp.mjs, and with NOROUNDS=1 the addon's louvainRounds hidden (louvain's sequential path then runs pass by pass from TypeScript: the build before it)
import path from 'node:path';
import os from 'node:os';
const root = process.env.ROOT ?? new URL("..", import.meta.url).pathname;
const dist = (p) => import(path.join(root, 'dist', p));
if (process.env.NOROUNDS === '1') delete (await dist('actors/gpu/native-host.js')).nativeCpuKernels().louvainRounds;
const { Engine } = await dist('src/engine/coordinator.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership, generate } = await dist('src/api.js');
const [cell, scale, runs] = process.argv.slice(2);
const g0 = scale.endsWith('.tsr') ? await (await dist('src/graph/tsr.js')).readTsr(scale) : generate(`rmat:${scale}:weighted`); const g = g0.graph ?? g0;
const topo = { name: '1S', source: 'cv', sockets: [{ id: 0, threads: Number(process.env.TL_THREADS ?? os.availableParallelism()) }], gpus: [], interconnect: {}, model: {} };
const program = findProgram(cell);
const params = prepareRun(g, program, { ...(cell === "pr" ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {}), ...JSON.parse(process.env.PARAMS ?? "{}") }).params;
const t0 = performance.now();
const e = await Engine.create(g, topo, await withOwnership(g, topo, { preload: [program] }));
const out = [`create ${(performance.now() - t0).toFixed(1)}`];
const gap = Number(process.env.GAP_MS ?? 0), keep = [];
for (let r = 0; r < Number(runs); r++) {
  if (gap > 0) await new Promise((ok) => setTimeout(ok, gap));
  if (process.env.MARK === '1') console.log(`@@RUN ${r}`);
  const res = await e.run(program, params), rep = res.report, p = rep.phases;
  if (process.env.KEEP === '1') keep.push(res.values);
  const st = rep.steps.map((s) => `${s.ms.toFixed(1)}`).join(',');
  out.push(`${r} ${rep.totalMs.toFixed(1)} a${p.allocMs.toFixed(1)} s${p.stepsMs.toFixed(1)} o${p.otherMs.toFixed(1)} [${st}]`);
}
await e.close();
console.log(out.join('\n'));
