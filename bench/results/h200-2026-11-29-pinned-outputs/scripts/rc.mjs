// ../../h200-2026-11-28-warm-touch/scripts/ft.mjs with SHARE=x (the GPU's share, default 1) and RECYCLE=1: each result handed back to the engine after its run (Engine.recycle, as the bench harness does) instead of kept. node rc.mjs PROGRAM GRAPH.tsr RUNS: one GPU owning every vertex, the program preloaded, every result kept (a caller holding its outputs); each run's total and phases, and each GpuController call and coordinator step of the first and the last run (start ms from the run's start, its time). PROFILE=DIR: a CPU profile of the first run and of the last (node:inspector). PARAMS: JSON added to the defaults. PRE=a,b: those programs (built-in names, or .mjs files exporting one) run once each after create, before the runs timed. GC_AFTER_CREATE=1 (with node --expose-gc): a full collection after create. SLEEP=ms: a pause after create. Each run's line gives its start (ms since the process began, as --trace-gc's). ROOT: the build (default the repository).
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
const root = process.env.ROOT ?? process.cwd();
const dist = (p) => import(path.join(root, 'dist', p));
const { GpuController } = await dist('actors/gpu/native.js');
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const { GpuActor } = await dist('actors/gpu/gpu-actor.js');
const { Channel } = await dist('src/wire/channel.js');
const { Run } = await dist('src/engine/run.js');
let log = [], t0 = 0;
for (const k of Object.getOwnPropertyNames(GpuController.prototype)) {
  const d = Object.getOwnPropertyDescriptor(GpuController.prototype, k);
  if (k === 'constructor' || typeof d.value !== 'function') continue;
  const f = d.value;
  GpuController.prototype[k] = function (...args) {
    const s = performance.now(); const r = f.apply(this, args);
    if (r && typeof r.then === 'function') { const e = { k: k + (typeof args[0] === 'string' ? ` ${args[0]}` : ''), at: s - t0 }; log.push(e); r.then(() => { e.ms = performance.now() - s; }, () => {}); }
    return r;
  };
}
const wrapSync = (C, k, label) => { const f = C.prototype[k]; C.prototype[k] = function (...a) { const s = performance.now(); const r = f.apply(this, a); log.push({ k: label, at: s - t0, ms: performance.now() - s }); return r; }; };
wrapSync(Channel, 'receive', 'receive');
wrapSync(Channel, 'send', 'send');
wrapSync(Engine, 'superstep', 'engine.superstep(sync)');
wrapSync(GpuActor, 'superstep', 'gpu.superstep(sync part)');
wrapSync(Run, 'edgeMap', 'edgeMap(sync part)');
const [cell, tsr, runs] = process.argv.slice(2);
const g = await readTsr(tsr);
const topo = { name: '1S1G', source: 'ft', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: [{ device: 0, streams: 4, emulated: process.env.EMU === '1' }], interconnect: {}, model: {} };
const program = findProgram(cell);
const params = prepareRun(g, program, { ...(cell === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {}), ...JSON.parse(process.env.PARAMS ?? '{}') }).params;
const tc = performance.now();
const e = await Engine.create(g, topo, await withOwnership(g, topo, { gpuShare: Number(process.env.SHARE ?? 1), steal: 'off', preload: [program] }));
console.log('create ms', (performance.now() - tc).toFixed(1));
if (process.env.GC_AFTER_CREATE === '1') { const g0 = performance.now(); globalThis.gc(); console.log('gc ms', (performance.now() - g0).toFixed(1)); }
e.events.on('superstep', (s) => log.push({ k: `== step ${s.step} ${s.kernel} ${s.mode}`, at: performance.now() - t0 }));
if (process.env.SLEEP) await new Promise((r) => setTimeout(r, Number(process.env.SLEEP)));
if (process.env.PRE) for (const name of process.env.PRE.split(',')) { const q = name.endsWith('.mjs') ? (await import(path.resolve(name))).default : findProgram(name); await e.run(q, prepareRun(g, q, q.params.source ? { source: g.ids.toOriginal[0] } : {}).params); }
const prof = process.env.PROFILE;
const session = prof ? new Session() : undefined;
if (session) { session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 50 }); fs.mkdirSync(prof, { recursive: true }); }
const keep = [], lines = [];
const n = Number(runs ?? 6);
let first;
for (let r = 0; r < n; r++) {
  const profiled = session && (r === 0 || r === n - 1);
  if (profiled) await session.post('Profiler.start');
  log = []; t0 = performance.now();
  const res = await e.run(program, params);
  log.push({ k: 'end', at: performance.now() - t0 });
  if (profiled) { const { profile } = await session.post('Profiler.stop'); fs.writeFileSync(path.join(prof, `${cell}-run${r}.cpuprofile`), JSON.stringify(profile)); }
  if (process.env.RECYCLE === '1') e.recycle(res.values); else keep.push(res.values);
  const p = res.report.phases;
  lines.push(`${r} at ${t0.toFixed(0)} ${res.report.totalMs.toFixed(2)} a${p.allocMs.toFixed(2)} s${p.stepsMs.toFixed(2)} o${p.otherMs.toFixed(2)}`);
  if (r === 0) first = log;
}
await e.close();
console.log(lines.join('\n'));
const show = (l) => l.map((x) => `${x.at.toFixed(3)}\t${x.ms === undefined ? '' : x.ms.toFixed(3)}\t${x.k}`).join('\n');
console.log('-- first run\n' + show(first) + '\n-- last run\n' + show(log));
