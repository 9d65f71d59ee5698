// node al.mjs GRAPH.tsr: (1) 64 MiB SAB allocation + native fill, 8 times; (2) GPU-only BFS on the graph, 10 runs, the last run's steps
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
const root = process.env.ROOT ?? process.cwd();
const dist = (p) => import(path.join(root, 'dist', p));
const { nativeFillArray } = await dist('actors/gpu/native-host.js');
const fill = nativeFillArray();
const n = 1 << 24;
for (const kind of ['sab', 'sab-reuse']) {
  let keep;
  for (let i = 0; i < 6; i++) {
    const u0 = process.resourceUsage(); const t0 = performance.now();
    const a = kind === 'sab-reuse' && keep ? keep : new Int32Array(new SharedArrayBuffer(4 * n));
    const t1 = performance.now(); fill(a, -1); const t2 = performance.now();
    const u1 = process.resourceUsage();
    keep = a;
    console.log(JSON.stringify({ kind, i, allocMs: +(t1 - t0).toFixed(3), fillMs: +(t2 - t1).toFixed(3), minflt: u1.minorPageFault - u0.minorPageFault, sysMs: (u1.systemCPUTime - u0.systemCPUTime) / 1000 }));
  }
}
try { const s = fs.readFileSync('/proc/self/smaps_rollup', 'utf8').split('\n').filter((l) => /AnonHuge|Rss/.test(l)); console.log(s.join(' | ')); } catch {}
const tsr = process.argv[2];
if (!tsr) process.exit(0);
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const g = await readTsr(tsr);
const topo = { name: '1S1G', source: 'al', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: [{ device: 0, streams: 4, emulated: false }], interconnect: {}, model: {} };
for (const cell of (process.env.CELLS ?? 'bfs').split(',')) {
  const program = findProgram(cell);
  const params = prepareRun(g, program, cell === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {}).params;
  const e = await Engine.create(g, topo, await withOwnership(g, topo, { gpuShare: 1, steal: 'off', partitionPages: 'in' }));
  const ms = []; let last;
  for (let r = 0; r < 10; r++) { const { report } = await e.run(program, params); ms.push(+report.totalMs.toFixed(2)); last = report; }
  await e.close();
  console.log(JSON.stringify({ cell, runs: ms, phases: last.phases }));
  for (const s of last.steps) console.log(JSON.stringify({ k: s.kernel, m: s.mode, fr: s.frontier, act: s.active, edges: s.edges, ms: +s.ms.toFixed(2), plan: +s.planMs.toFixed(2), fold: +s.foldMs.toFixed(2), list: +s.listMs.toFixed(2), actors: s.actors.map((a) => ({ a: a.actor, c: +a.computeMs.toFixed(2), v: +a.voteMs.toFixed(2), ...(a.gpu ? { g: Object.fromEntries(Object.entries(a.gpu).filter(([, x]) => typeof x === 'number' && x !== 0).map(([k, x]) => [k, +x.toFixed(3)])) } : {}) })) }));
}
