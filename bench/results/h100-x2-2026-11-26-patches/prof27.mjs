// CPU profile of the coordinator's thread over warm runs only (after 2 warm-ups): node prof27.mjs ROOT GRAPH.tsr CELL OUTFILE; NGPU=1|2.
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
const [root, tsr, cell, outFile] = process.argv.slice(2);
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const g = await readTsr(tsr);
const ngpu = Number(process.env.NGPU ?? 1);
const topo = { name: `1S${ngpu}G`, source: 'p', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: Array.from({ length: ngpu }, (_, d) => ({ device: d, streams: 4, emulated: process.env.EMU === '1' })), interconnect: {}, model: {} };
const program = findProgram(cell);
const params = prepareRun(g, program, cell === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {}).params;
const e = await Engine.create(g, topo, await withOwnership(g, topo, { gpuShare: 1, steal: 'off', ...(ngpu > 1 ? { multiGpu: 'p' } : {}), partitionPages: 'in' }));
const s = new Session();
s.connect();
try {
  for (let r = 0; r < 2; r++) await e.run(program, params);
  await s.post('Profiler.enable');
  await s.post('Profiler.setSamplingInterval', { interval: 100 });
  await s.post('Profiler.start');
  const ms = [];
  for (let r = 0; r < 6; r++) ms.push(+(await e.run(program, params)).report.totalMs.toFixed(1));
  const { profile } = await s.post('Profiler.stop');
  fs.writeFileSync(outFile, JSON.stringify(profile));
  console.log(JSON.stringify({ cell, ngpu, ms }));
} finally {
  await e.close();
}
