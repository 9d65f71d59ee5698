// A session's first run against its warm median, one fresh process per cell: node warm.mjs ROOT GRAPH.tsr CELL -> one JSON line.
import path from 'node:path';
import os from 'node:os';
const [root, tsr, cell] = process.argv.slice(2);
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
let t = performance.now();
const g = await readTsr(tsr);
const loadMs = performance.now() - t;
const topo = { name: '1S1G', source: 'warm', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: [{ device: 0, streams: 4, emulated: false }], interconnect: {}, model: {} };
const program = findProgram(cell);
const params = prepareRun(g, program, cell === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {}).params;
t = performance.now();
const e = await Engine.create(g, topo, await withOwnership(g, topo, { gpuShare: 1, steal: 'off' }));
const createMs = performance.now() - t;
const runs = [];
try {
  for (let r = 0; r < 6; r++) {
    const { report } = await e.run(program, params);
    runs.push(report.totalMs);
    if (process.env.REPORTS && (r === 0 || r === 5)) (await import('node:fs')).appendFileSync(process.env.REPORTS, JSON.stringify({ cell, run: r, phases: report.phases, steps: report.steps.map((s) => ({ step: s.step, ms: s.ms, gpu: s.actors.filter((a) => a.kind === 'gpu').map((a) => ({ computeMs: a.computeMs, voteMs: a.voteMs, ...a.gpu })) })) }) + '\n');
  }
} finally {
  await e.close();
}
const warm = [...runs.slice(1)].sort((a, b) => a - b)[2];
console.log(JSON.stringify({ cell, loadMs: +loadMs.toFixed(0), createMs: +createMs.toFixed(0), firstMs: +runs[0].toFixed(1), warmMedianMs: +warm.toFixed(1), ratio: +(runs[0] / warm).toFixed(2), runs: runs.map((x) => +x.toFixed(1)) }));
