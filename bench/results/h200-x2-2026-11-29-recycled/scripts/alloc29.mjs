// Where a GPU bfs run's allocMs goes: mg29.mjs's cell (one GPU or two with S, preloaded, results recycled) with
// RunPools.alloc and the native fill wrapped, each call's ms, kind, length and fill printed for the last runs.
// node alloc29.mjs ROOT GRAPH.tsr CONF(1|2s) RUNS
import path from 'node:path';
import os from 'node:os';
const [root, tsr, conf = '1', runsArg = '6'] = process.argv.slice(2);
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { RunPools } = await dist('src/engine/run-pools.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const log = [];
const f = RunPools.prototype.alloc;
RunPools.prototype.alloc = function (kind, fill, length) { const t = performance.now(); const r = f.call(this, kind, fill, length); log.push({ kind, fill, length: r.length, ms: +(performance.now() - t).toFixed(3) }); return r; };
const g = await readTsr(tsr);
const ngpu = Number(conf[0]);
const topo = { name: 'x', source: 'alloc29', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: Array.from({ length: ngpu }, (_, i) => ({ device: i, streams: 4, emulated: process.env.EMU === '1' })), interconnect: {}, model: {} };
const program = findProgram('bfs');
const params = prepareRun(g, program, { source: g.ids.toOriginal[0] }).params;
const e = await Engine.create(g, topo, await withOwnership(g, topo, { gpuShare: 1, steal: 'off', multiGpu: ngpu > 1 ? conf.slice(1) : undefined, partitionPages: 'in', preload: [program] }));
for (let r = 0; r < Number(runsArg); r++) {
  log.length = 0;
  const t = performance.now();
  const { values, report } = await e.run(program, params);
  const ok = e.recycle(values);
  console.log(JSON.stringify({ conf, run: r, totalMs: +report.totalMs.toFixed(2), allocMs: +report.phases.allocMs.toFixed(2), recycled: ok, allocs: log.slice(), gapMs: +(performance.now() - t - report.totalMs).toFixed(2) }));
}
await e.close();
