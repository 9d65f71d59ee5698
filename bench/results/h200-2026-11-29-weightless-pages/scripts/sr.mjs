// node sr.mjs PROGRAM GRAPH.tsr RUNS: one engine, one GPU owning every vertex capped at MEM (e.g. 2GiB; default none), the program preloaded (PARAMS: JSON), each result handed back; per run its total and the GPU's page copies (misses, MiB, copy and pin ms) from the report. ROOT: the build.
import path from 'node:path';
import os from 'node:os';
const root = process.env.ROOT ?? process.cwd();
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const [name, tsr, runs] = process.argv.slice(2);
const g = await readTsr(tsr);
const mem = process.env.MEM ? Number(process.env.MEM.replace(/GiB$/, '')) * 2 ** 30 : undefined;
const topo = { name: '1S1G', source: 'sr', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: [{ device: 0, streams: 4, emulated: false, ...(mem ? { memoryLimit: mem } : {}) }], interconnect: {}, model: {} };
const program = findProgram(name);
const t0 = performance.now();
const e = await Engine.create(g, topo, await withOwnership(g, topo, { gpuShare: 1, steal: 'off', preload: [program] }));
console.log(`create ${(performance.now() - t0).toFixed(1)} ms`);
const { program: p, params } = prepareRun(g, program, JSON.parse(process.env.PARAMS ?? '{}'));
for (let i = 0; i < Number(runs ?? 4); i++) {
  const r = await e.run(p, params);
  const gs = r.report.steps.flatMap((s) => s.actors).map((a) => a.gpu).filter(Boolean);
  const sum = (k) => gs.reduce((a, x) => a + (x[k] ?? 0), 0);
  console.log(`run ${i} total ${r.report.totalMs.toFixed(2)} misses ${sum('misses')} MiB ${(sum('pageBytes') / 2 ** 20).toFixed(0)} copyMs ${sum('copyMs').toFixed(1)} pinMs ${sum('pinMs').toFixed(1)} kernelMs ${sum('kernelMs').toFixed(1)}`);
  e.recycle(r.values);
}
await e.close();
