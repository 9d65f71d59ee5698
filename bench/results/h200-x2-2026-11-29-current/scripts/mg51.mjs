// ../../h200-x2-2026-11-29-recycled/scripts/mg29.mjs with PERRUN=1 (each run's page traffic); mg26.mjs as the bench harness runs a session: the program preloaded (its
// result arrays page-locked at create) and each run's result handed back (Engine.recycle), so every run
// reads back into locked memory. node mg29.mjs ROOT GRAPH.tsr -> JSON lines: per config and cell the median
// of runs 2-RUNS (ms), every run, the last run's phases and per-actor sums. CONFIGS: 1 (one GPU), 2p, 2s, 0 (the
// CPU socket alone, every core).
// CELLS (default bfs,pr). MEMLIMIT (bytes): each GPU's memoryLimit. REPORTS=FILE: the last run's report.
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
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
const cells = (process.env.CELLS ?? 'bfs,pr').split(',');
const runs = Number(process.env.RUNS ?? 8);
for (const conf of (process.env.CONFIGS ?? '1,2p,2s').split(',')) {
  const ngpu = Number(conf[0]); const multiGpu = ngpu > 1 ? conf.slice(1) : undefined;
  const topo = { name: `1S${ngpu}G`, source: 'mg29', sockets: [{ id: 0, threads }], gpus: Array.from({ length: ngpu }, (_, i) => gpu(i)), interconnect: {}, model: {} };
  for (const cell of cells) {
    const program = findProgram(cell);
    const given = cell === 'pr' || cell === 'ppr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {};
    const params = prepareRun(g, program, given).params;
    const t0 = performance.now();
    const e = await Engine.create(g, topo, ngpu === 0 ? { preload: [program] } : await withOwnership(g, topo, { gpuShare: 1, steal: 'off', multiGpu, partitionPages: 'in', preload: [program] }));
    const createMs = performance.now() - t0;
    const ms = [];
    let last;
    try {
      for (let r = 0; r < runs; r++) {
        const { values, report } = await e.run(program, params);
        if (r > 0) ms.push(report.totalMs);
        last = report;
        // PERRUN=1: each run's page traffic per GPU (misses, evictions, bytes copied, copy and pin ms).
        if (process.env.PERRUN === '1') {
          const g = {};
          for (const s of report.steps) for (const a of s.actors) if (a.gpu) {
            const x = (g[a.actor] ??= { ms: 0, misses: 0, hits: 0, evictions: 0, bytes: 0, copyMs: 0, pinMs: 0, kernelMs: 0 });
            x.ms += a.computeMs; x.misses += a.gpu.misses; x.hits += a.gpu.hits; x.evictions += a.gpu.evictions ?? 0; x.bytes += a.gpu.pageBytes ?? 0; x.copyMs += a.gpu.copyMs; x.pinMs += a.gpu.pinMs ?? 0; x.kernelMs += a.gpu.kernelMs;
          }
          console.log(JSON.stringify({ perRun: r, conf, cell, totalMs: +report.totalMs.toFixed(1), gpus: g }));
        }
        e.recycle(values);
      }
    } finally {
      // SMAPS=1: how much of the process's memory sits in huge pages after the runs.
      if (process.env.SMAPS === '1') last.smaps = Object.fromEntries(fs.readFileSync('/proc/self/smaps_rollup', 'utf8').split('\n').filter((l) => /^(Rss|AnonHugePages|Anonymous|Shmem\w*):/.test(l)).map((l) => [l.split(':')[0], l.split(':')[1].trim()]));
      await e.close();
    }
    const per = {};
    for (const s of last.steps) for (const a of s.actors) {
      const x = (per[a.actor] ??= { edges: 0, computeMs: 0, kernelMs: 0, copyMs: 0, readMs: 0, peer: 0, peerMs: 0, misses: 0, hits: 0 });
      x.edges += a.edges; x.computeMs += a.computeMs;
      if (a.gpu) { x.kernelMs += a.gpu.kernelMs; x.copyMs += a.gpu.copyMs; x.readMs += a.gpu.readMs ?? 0; x.peer += a.gpu.peerBytes ?? 0; x.peerMs += a.gpu.peerMs ?? 0; x.misses += a.gpu.misses; x.hits += a.gpu.hits; }
    }
    if (process.env.REPORTS) fs.appendFileSync(process.env.REPORTS, JSON.stringify({ conf, cell, report: { ...last, topology: undefined } }) + '\n');
    console.log(JSON.stringify({ ...(last.smaps ? { smaps: last.smaps } : {}), conf, cell, medianMs: +med(ms).toFixed(1), runs: ms.map((x) => +x.toFixed(1)), createMs: +createMs.toFixed(0), phases: last.phases, steps: last.supersteps, partition: last.partition?.gpus, per }));
  }
}
