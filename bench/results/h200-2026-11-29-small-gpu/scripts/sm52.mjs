// node sm52.mjs ROOT A.tsr [B.tsr ...] -> JSON lines: per graph, topology and program, a warm engine's runs (median of
// runs 2-RUNS, ms): CONFIGS 0 (the socket alone, every core) and 1 (one GPU owning every edge, gpuShare 1, the
// default for a real GPU). CELLS: programs (default: every built-in); HEAVY (default lcc,tc,bc,louvain,kcore,cdlp,scc)
// run only on graphs of at most HEAVY_EDGES edges (default 2^25).
import path from 'node:path';
import os from 'node:os';
const [root, ...files] = process.argv.slice(2);
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const threads = os.availableParallelism();
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const cells = (process.env.CELLS ?? 'bfs,pr,wcc,sssp,cdlp,lcc,tc,kcore,scc,bc,ppr,louvain').split(',');
const heavy = new Set((process.env.HEAVY ?? 'lcc,tc,bc,louvain,kcore,cdlp,scc').split(','));
const heavyEdges = Number(process.env.HEAVY_EDGES ?? 2 ** 25);
const runs = Number(process.env.RUNS ?? 5);
for (const file of files) {
  const g = await readTsr(file);
  for (const cell of cells) {
    if (heavy.has(cell) && g.numEdges > heavyEdges) continue;
    const program = findProgram(cell);
    const given = cell === 'pr' ? { iterations: 10 } : cell === 'bc' ? { sources: 4 } : program.params.source ? { source: g.ids.toOriginal[0] } : {};
    const params = prepareRun(g, program, given).params;
    for (const conf of (process.env.CONFIGS ?? '0,1').split(',')) {
      const ngpu = Number(conf);
      const topo = { name: `1S${ngpu}G`, source: 'sm52', sockets: [{ id: 0, threads }], gpus: Array.from({ length: ngpu }, (_, d) => ({ device: d, streams: 4, emulated: process.env.EMU === '1' })), interconnect: {}, model: {} };
      const t0 = performance.now();
      let e;
      try {
        e = await Engine.create(g, topo, ngpu === 0 ? { preload: [program] } : await withOwnership(g, topo, { gpuShare: 1, steal: 'off', preload: [program] }));
      } catch (err) { console.log(JSON.stringify({ graph: path.basename(file), edges: g.numEdges, conf, cell, error: String(err.message ?? err).slice(0, 200) })); continue; }
      const createMs = performance.now() - t0;
      const ms = [];
      try {
        for (let r = 0; r < runs; r++) {
          const { values, report } = await e.run(program, params);
          if (r > 0) ms.push(report.totalMs);
          e.recycle(values);
        }
        console.log(JSON.stringify({ graph: path.basename(file), edges: g.numEdges, conf, cell, medianMs: +med(ms).toFixed(2), runs: ms.map((x) => +x.toFixed(2)), createMs: +createMs.toFixed(0) }));
      } catch (err) {
        console.log(JSON.stringify({ graph: path.basename(file), edges: g.numEdges, conf, cell, error: String(err.message ?? err).slice(0, 200) }));
      } finally {
        await e.close();
      }
    }
  }
}
