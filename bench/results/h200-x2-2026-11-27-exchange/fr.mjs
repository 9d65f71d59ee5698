// node fr.mjs GRAPH.tsr PROGRAM: GPU-only engine (program preloaded), runs 1-4: each run's GpuController calls summed by method (ms, count) and its phases
import path from 'node:path';
import os from 'node:os';
const root = process.cwd();
const dist = (p) => import(path.join(root, 'dist', p));
const { GpuController } = await dist('actors/gpu/native.js');
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
let cur = new Map();
const wrap = (obj, k) => { const f = obj[k]; obj[k] = function (...a) { const s = performance.now(); const r = f.apply(this, a); const done = () => { const e = cur.get(k) ?? [0, 0]; e[0] += performance.now() - s; e[1]++; cur.set(k, e); }; if (r && typeof r.then === 'function') r.then(done, () => {}); else done(); return r; }; };
for (const k of Object.getOwnPropertyNames(GpuController.prototype)) if (!['constructor', 'timed', 'spentSince'].includes(k) && typeof Object.getOwnPropertyDescriptor(GpuController.prototype, k).value === 'function') wrap(GpuController.prototype, k);
const g = await readTsr(process.argv[2]);
const topo = { name: 'x', source: 'fr', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: [{ device: 0, streams: 4, emulated: false }], interconnect: {}, model: {} };
const program = findProgram(process.argv[3]);
const params = prepareRun(g, program, program.name === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {}).params;
const e = await Engine.create(g, topo, await withOwnership(g, topo, { gpuShare: 1, steal: 'off', preload: [program] }));
cur = new Map();
for (let r = 0; r < 4; r++) {
  const { report } = await e.run(program, params);
  const calls = Object.fromEntries([...cur].map(([k, [ms, n]]) => [k, `${ms.toFixed(2)}/${n}`]));
  const steps = report.steps.map((s) => +s.ms.toFixed(2));
  console.log(JSON.stringify({ program: program.name, run: r + 1, totalMs: +report.totalMs.toFixed(1), phases: Object.fromEntries(Object.entries(report.phases).map(([k, v]) => [k, +v.toFixed(2)])), steps, calls }));
  cur = new Map();
}
await e.close();
