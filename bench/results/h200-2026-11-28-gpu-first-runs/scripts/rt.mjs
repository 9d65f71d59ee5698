// ../../h100-2026-11-27-first-run-pools/rt.mjs as it was (node rt.mjs GRAPH.tsr: GPU-only runs (CELLS, default bfs), each GpuController call of the first and last run with its start (ms from run start) and wait)
import path from 'node:path';
import os from 'node:os';
const root = process.env.ROOT ?? process.cwd();
const dist = (p) => import(path.join(root, 'dist', p));
const { GpuController } = await dist('actors/gpu/native.js');
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
let log = [], t0 = 0;
for (const k of Object.getOwnPropertyNames(GpuController.prototype)) {
  if (k === 'constructor' || k === 'timed' || k === 'spentSince') continue;
  const d = Object.getOwnPropertyDescriptor(GpuController.prototype, k);
  if (typeof d.value !== 'function') continue;
  const f = d.value;
  GpuController.prototype[k] = function (...args) {
    const s = performance.now(); const r = f.apply(this, args);
    if (r && typeof r.then === 'function') { const e = { k, at: +(s - t0).toFixed(3) }; log.push(e); r.then(() => { e.ms = +(performance.now() - s).toFixed(3); }, () => {}); }
    return r;
  };
}
const { GpuActor } = await dist('actors/gpu/gpu-actor.js');
const { Channel } = await dist('src/wire/channel.js');
const { Run } = await dist('src/engine/run.js');
const wrapSync = (C, k, label) => { const f = C.prototype[k]; C.prototype[k] = function (...a) { const s = performance.now(); const r = f.apply(this, a); log.push({ k: label, at: +(s - t0).toFixed(3), ms: +(performance.now() - s).toFixed(3) }); return r; }; };
wrapSync(Channel, 'receive', 'receive');
wrapSync(Channel, 'send', 'send');
wrapSync(Engine, 'superstep', 'engine.superstep(sync)');
wrapSync(Run, 'residentNames', 'residentNames');
wrapSync(Run, 'bitmap', 'bitmap');
wrapSync(GpuActor, 'superstep', 'gpu.superstep(sync part)');
wrapSync(Run, 'edgeMap', 'edgeMap(sync part)');
const g = await readTsr(process.argv[2]);
const emulated = process.env.EMU === '1';
const topo = { name: '1S1G', source: 'rt', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: [{ device: 0, streams: 4, emulated }], interconnect: {}, model: {} };
for (const cell of (process.env.CELLS ?? 'bfs').split(',')) {
  const program = findProgram(cell);
  const params = prepareRun(g, program, cell === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {}).params;
  const tc = performance.now();
  const e = await Engine.create(g, topo, await withOwnership(g, topo, { gpuShare: 1, steal: 'off', partitionPages: 'in', preload: [program] }));
  console.log('create ms', (performance.now() - tc).toFixed(1));
  e.events.on('superstep', (s) => log.push({ k: `== step ${s.step} ${s.kernel} ${s.mode} sent ${s.actors.map((a) => a.bytesSent).join(",")}`, at: +(performance.now() - t0).toFixed(3) }));
  const ms = [];
  let first;
  for (let r = 0; r < Number(process.env.RUNS ?? 8); r++) { log = []; t0 = performance.now(); const { report } = await e.run(program, params); ms.push(+report.totalMs.toFixed(2)); log.push({ k: 'end', at: +(performance.now() - t0).toFixed(3) }); if (r === 0) first = log; }
  if (process.env.FIRST === '1') { console.log('-- first run'); for (const x of first) console.log(`${x.at}\t${x.ms ?? ''}\t${x.k}`); console.log('-- last run'); }
  await e.close();
  console.log(JSON.stringify({ cell, runs: ms }));
  for (const x of log) console.log(`${x.at}\t${x.ms ?? ''}\t${x.k}`);
}
