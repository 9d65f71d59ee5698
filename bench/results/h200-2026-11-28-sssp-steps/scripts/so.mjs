// node so.mjs PROGRAM GRAPH RUNS: a fresh engine (the run's parameters PARAMS, JSON, added to the defaults) (GPU=1: one GPU owning every vertex; else one socket of every core), the program preloaded; each run's total, its phases (alloc, supersteps, other) and, with a GPU, the time in the controller's readState (ms). KEEP=1 keeps every result (a session whose caller holds its outputs); GAP_MS waits between runs. ROOT: the build (default the repository).
import path from 'node:path';
import os from 'node:os';
const root = process.env.ROOT ?? process.cwd();
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership, generate } = await dist('src/api.js');
const gpu = process.env.GPU === '1';
let reads = 0;
if (gpu) {
  const { GpuController } = await dist('actors/gpu/native.js');
  const f = GpuController.prototype.readState;
  GpuController.prototype.readState = function (...a) {
    const s = performance.now();
    const r = f.apply(this, a);
    return r.then((v) => ((reads += performance.now() - s), v));
  };
}
const [cell, graph, runs] = process.argv.slice(2);
const g0 = graph.endsWith('.tsr') ? await (await dist('src/graph/tsr.js')).readTsr(graph) : generate(`rmat:${graph}:weighted`);
const g = g0.graph ?? g0;
const topo = { name: gpu ? '1S1G' : '1S', source: 'so', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: gpu ? [{ device: 0, streams: 4, emulated: false }] : [], interconnect: {}, model: {} };
const program = findProgram(cell);
const params = prepareRun(g, program, { ...(cell === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {}), ...JSON.parse(process.env.PARAMS ?? '{}') }).params;
const t0 = performance.now();
const e = await Engine.create(g, topo, await withOwnership(g, topo, gpu ? { gpuShare: 1, steal: 'off', preload: [program] } : { preload: [program] }));
const out = [`create ${(performance.now() - t0).toFixed(1)}`];
const gap = Number(process.env.GAP_MS ?? 0), keep = [];
for (let r = 0; r < Number(runs); r++) {
  if (gap > 0) await new Promise((ok) => setTimeout(ok, gap));
  reads = 0;
  const res = await e.run(program, params), rep = res.report, p = rep.phases;
  if (process.env.KEEP === '1') keep.push(res.values);
  out.push(`${r} ${rep.totalMs.toFixed(2)} a${p.allocMs.toFixed(2)} s${p.stepsMs.toFixed(2)} o${p.otherMs.toFixed(2)}${gpu ? ` read ${reads.toFixed(2)}` : ''}`);
}
await e.close();
console.log(out.join('\n'));
