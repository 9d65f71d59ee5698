// mg26.mjs (../../h100-x2-2026-11-26-multi-gpu/mg26.mjs) with PARAMS: JSON of each cell's parameters by program name (e.g. {"bc":{"sources":4,"seed":48}}).
// MEMLIMIT (bytes): each GPU's memoryLimit. CONFIGS: 1 (one GPU), 2p, 2s (two GPUs, multiGpu p or s). GPU-only warm medians with the last run's per-actor breakdown: node mg26.mjs ROOT GRAPH.tsr -> JSON lines.
// with the last run's per-actor breakdown: node mgpu.mjs ROOT GRAPH.tsr -> JSON lines.
import path from 'node:path';
import os from 'node:os';
const [root, tsr] = process.argv.slice(2);
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const g = await readTsr(tsr);
const threads = os.availableParallelism();
const gpu = (d) => ({ device: d, streams: 4, emulated: process.env.EMU === '1', ...(process.env.MEMLIMIT ? { memoryLimit: Number(process.env.MEMLIMIT) } : {}) });
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const cells = (process.env.CELLS ?? 'pr,bfs,wcc,sssp').split(',');
const runs = Number(process.env.RUNS ?? 6);
for (const conf of (process.env.CONFIGS ?? '1,2p,2s').split(',')) {
  const ngpu = Number(conf[0]); const multiGpu = ngpu > 1 ? conf.slice(1) : undefined;
  const topo = { name: `1S${ngpu}G`, source: 'mgpu', sockets: [{ id: 0, threads }], gpus: Array.from({ length: ngpu }, (_, i) => gpu(i)), interconnect: {}, model: {} };
  for (const cell of cells) {
    const program = findProgram(cell);
    const given = { ...(cell === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {}), ...(JSON.parse(process.env.PARAMS ?? '{}')[cell] ?? {}) };
    const params = prepareRun(g, program, given).params;
    const t0 = performance.now();
    const e = await Engine.create(g, topo, await withOwnership(g, topo, { gpuShare: 1, steal: 'off', multiGpu, partitionPages: 'in' }));
    const createMs = performance.now() - t0;
    const ms = [];
    let last;
    try {
      for (let r = 0; r < runs; r++) {
        const { report } = await e.run(program, params);
        if (r > 0) ms.push(report.totalMs);
        last = report;
      }
    } finally {
      await e.close();
    }
    const per = {};
    for (const s of last.steps) for (const a of s.actors) {
      const x = (per[a.actor] ??= { edges: 0, computeMs: 0, voteMs: 0, kernelMs: 0, copyMs: 0, in: 0, out: 0, msgs: 0 });
      x.edges += a.edges; x.computeMs += a.computeMs; x.voteMs += a.voteMs; x.msgs += a.messagesAggregated;
      if (a.gpu) { x.kernelMs += a.gpu.kernelMs; x.copyMs += a.gpu.copyMs; x.pinMs = (x.pinMs ?? 0) + (a.gpu.pinMs ?? 0); x.writeMs = (x.writeMs ?? 0) + (a.gpu.writeMs ?? 0); x.readMs = (x.readMs ?? 0) + (a.gpu.readMs ?? 0); x.in += a.gpu.stateBytesIn; x.out += a.gpu.stateBytesOut; x.peer = (x.peer ?? 0) + (a.gpu.peerBytes ?? 0); x.peerMs = (x.peerMs ?? 0) + (a.gpu.peerMs ?? 0); x.misses = (x.misses ?? 0) + a.gpu.misses; x.hits = (x.hits ?? 0) + a.gpu.hits; x.pageBytes = (x.pageBytes ?? 0) + a.gpu.pageBytes; }
    }
    const fold = last.steps.reduce((s, x) => s + x.foldMs, 0), plan = last.steps.reduce((s, x) => s + x.planMs, 0), list = last.steps.reduce((s, x) => s + x.listMs, 0);
    if (process.env.REPORTS) (await import('node:fs')).appendFileSync(process.env.REPORTS, JSON.stringify({ conf, cell, report: { ...last, topology: undefined } }) + '\n');
    console.log(JSON.stringify({ conf, cell, phases: last.phases, medianMs: +med(ms).toFixed(1), runs: ms.map((x) => +x.toFixed(1)), createMs: +createMs.toFixed(0), steps: last.supersteps, planMs: +plan.toFixed(1), foldMs: +fold.toFixed(1), listMs: +list.toFixed(1), partition: last.partition?.gpus, per }));
  }
}
